package main

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
	"strings"

	"github.com/dop251/goja"
)

// hashes are the digests node:crypto and crypto.subtle offer, by Node's
// names and WebCrypto's.
var hashes = map[string]func() hash.Hash{
	"md5":     md5.New,
	"sha1":    sha1.New,
	"sha-1":   sha1.New,
	"sha224":  sha256.New224,
	"sha-224": sha256.New224,
	"sha256":  sha256.New,
	"sha-256": sha256.New,
	"sha384":  sha512.New384,
	"sha-384": sha512.New384,
	"sha512":  sha512.New,
	"sha-512": sha512.New,
	// OpenSSL's aliases, which Node accepts.
	"rsa-md5":    md5.New,
	"rsa-sha1":   sha1.New,
	"rsa-sha256": sha256.New,
	"rsa-sha384": sha512.New384,
	"rsa-sha512": sha512.New,
	"sha512-256": sha512.New512_256,
}

// hashNames is what getHashes lists.
var hashNames = []string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512-256"}

func newHash(alg string) hash.Hash {
	if f := hashes[strings.ToLower(alg)]; f != nil {
		return f()
	}
	return nil
}

// cryptoUnavailable are node:crypto functions the guest lacks, with why:
// calling one says so instead of "is not a function".
var cryptoUnavailable = map[string]string{
	"createCipheriv":      "ciphers are not implemented",
	"createDecipheriv":    "ciphers are not implemented",
	"createSign":          "signatures are not implemented",
	"createVerify":        "signatures are not implemented",
	"sign":                "signatures are not implemented",
	"verify":              "signatures are not implemented",
	"generateKeyPair":     "key generation is not implemented",
	"generateKeyPairSync": "key generation is not implemented",
	"createPrivateKey":    "key objects are not implemented",
	"createPublicKey":     "key objects are not implemented",
	"createSecretKey":     "key objects are not implemented",
	"publicEncrypt":       "public-key encryption is not implemented",
	"privateDecrypt":      "public-key encryption is not implemented",
	"createDiffieHellman": "key agreement is not implemented",
	"createECDH":          "key agreement is not implemented",
	"scrypt":              "scrypt is not implemented",
	"scryptSync":          "scrypt is not implemented",
}

// crypto is node:crypto's subset: host entropy (WASI random_get), hashes,
// HMAC, PBKDF2, HKDF, timingSafeEqual, and WebCrypto (the global crypto)
// as webcrypto and subtle.
func (m *modules) crypto() goja.Value {
	vm := m.d.vm
	c := vm.NewObject()
	toBuffer := func(b []byte) goja.Value { return m.toBuffer(b) }
	web := func() *goja.Object {
		return m.builtin(webModule("crypto")).(*goja.Object).Get("crypto").(*goja.Object)
	}
	callback := func(v goja.Value) goja.Callable {
		fn, ok := goja.AssertFunction(v)
		if !ok {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"callback\" argument must be of type function")
		}
		return fn
	}
	// later calls cb(null, v) (or cb(err)) from the event loop, as Node's
	// thread pool would: never before the caller returns.
	later := func(cb goja.Callable, f func() goja.Value) {
		var v goja.Value
		var thrown goja.Value
		if ex := vm.Try(func() { v = f() }); ex != nil {
			thrown = ex.Value()
		}
		job, _ := goja.AssertFunction(vm.ToValue(func(goja.FunctionCall) goja.Value {
			var err error
			if thrown != nil {
				_, err = cb(goja.Undefined(), thrown)
			} else {
				_, err = cb(goja.Undefined(), goja.Null(), v)
			}
			if err != nil {
				panic(err)
			}
			return goja.Undefined()
		}))
		m.d.loop.add(job, 0, false, nil)
	}
	must(c.Set("randomUUID", func() string {
		var b [16]byte
		_, _ = rand.Read(b[:])
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		h := hex.EncodeToString(b[:])
		return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	}))
	randomBytes := func(n goja.Value) goja.Value {
		size := n.ToFloat()
		if size < 0 || size > 1<<31-1 || size != math.Trunc(size) {
			m.throwRange("ERR_OUT_OF_RANGE", "The value of \"size\" is out of range. It must be >= 0 && <= 2147483647. Received %v", n)
		}
		b := make([]byte, int(size))
		_, _ = rand.Read(b)
		return toBuffer(b)
	}
	must(c.Set("randomBytes", func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) > 1 && !goja.IsUndefined(call.Argument(1)) {
			later(callback(call.Argument(1)), func() goja.Value { return randomBytes(call.Argument(0)) })
			return goja.Undefined()
		}
		return randomBytes(call.Argument(0))
	}))
	must(c.Set("pseudoRandomBytes", c.Get("randomBytes")))
	// randomFill(buf, offset, size): the view's bytes from offset, size
	// of them (to its end by default).
	randomFill := func(buf, offset, size goja.Value) goja.Value {
		b, ok := viewBytes(buf)
		if !ok {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"buf\" argument must be an instance of ArrayBuffer or ArrayBufferView")
		}
		off := int64(0)
		if offset != nil && !goja.IsUndefined(offset) {
			off = offset.ToInteger()
		}
		if off < 0 || off > int64(len(b)) {
			m.throwRange("ERR_OUT_OF_RANGE", "The value of \"offset\" is out of range. It must be >= 0 && <= %d. Received %d", len(b), off)
		}
		n := int64(len(b)) - off
		if size != nil && !goja.IsUndefined(size) {
			n = size.ToInteger()
		}
		if n < 0 || off+n > int64(len(b)) {
			m.throwRange("ERR_OUT_OF_RANGE", "The value of \"size + offset\" is out of range. It must be <= %d. Received %d", len(b), off+n)
		}
		_, _ = rand.Read(b[off : off+n])
		return buf
	}
	must(c.Set("randomFillSync", func(call goja.FunctionCall) goja.Value {
		return randomFill(call.Argument(0), call.Argument(1), call.Argument(2))
	}))
	must(c.Set("randomFill", func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		if len(args) < 2 {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"callback\" argument must be of type function")
		}
		cb := callback(args[len(args)-1])
		rest := args[1 : len(args)-1]
		var off, size goja.Value
		if len(rest) > 0 {
			off = rest[0]
		}
		if len(rest) > 1 {
			size = rest[1]
		}
		later(cb, func() goja.Value { return randomFill(args[0], off, size) })
		return goja.Undefined()
	}))
	// randomInt([min,] max[, callback]): uniform in [min, max).
	must(c.Set("randomInt", func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		var cb goja.Callable
		if n := len(args); n > 0 {
			if f, ok := goja.AssertFunction(args[n-1]); ok {
				cb, args = f, args[:n-1]
			}
		}
		lo, hi := 0.0, 0.0
		switch len(args) {
		case 0:
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"max\" argument must be a safe integer")
		case 1:
			hi = args[0].ToFloat()
		default:
			lo, hi = args[0].ToFloat(), args[1].ToFloat()
		}
		const safe = 1<<53 - 1
		if lo != math.Trunc(lo) || hi != math.Trunc(hi) || math.Abs(lo) > safe || math.Abs(hi) > safe {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"min\" and \"max\" arguments must be safe integers")
		}
		if hi <= lo || hi-lo > 1<<48-1 {
			m.throwRange("ERR_OUT_OF_RANGE", "The value of \"max\" is out of range. It must be greater than the value of \"min\" (%v) and the range at most 2^48-1. Received %v", lo, hi)
		}
		pick := func() goja.Value {
			span := uint64(hi - lo)
			limit := (math.MaxUint64 / span) * span
			for {
				var b [8]byte
				_, _ = rand.Read(b[:])
				if x := binary.LittleEndian.Uint64(b[:]); x < limit {
					return vm.ToValue(lo + float64(x%span))
				}
			}
		}
		if cb != nil {
			later(cb, pick)
			return goja.Undefined()
		}
		return pick()
	}))
	must(c.Set("getRandomValues", func(call goja.FunctionCall) goja.Value {
		w := web()
		f, _ := goja.AssertFunction(w.Get("getRandomValues"))
		v, err := f(w, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}))
	must(c.DefineAccessorProperty("webcrypto", vm.ToValue(func(goja.FunctionCall) goja.Value { return web() }), nil, goja.FLAG_TRUE, goja.FLAG_TRUE))
	must(c.DefineAccessorProperty("subtle", vm.ToValue(func(goja.FunctionCall) goja.Value { return web().Get("subtle") }), nil, goja.FLAG_TRUE, goja.FLAG_TRUE))
	must(c.Set("getHashes", func() []string { return hashNames }))
	must(c.Set("getCiphers", func() []string { return []string{} }))
	must(c.Set("getCurves", func() []string { return []string{} }))
	must(c.Set("constants", vm.NewObject()))
	newDigest := func(alg goja.Value) hash.Hash {
		h := newHash(alg.String())
		if h == nil {
			m.throw("ERR_OSSL_EVP_UNSUPPORTED", "Digest method not supported: %s (wasmexec has %s)", alg.String(), strings.Join(hashNames, ", "))
		}
		return h
	}
	must(c.Set("createHash", func(call goja.FunctionCall) goja.Value {
		return m.hashObject(newDigest(call.Argument(0)))
	}))
	must(c.Set("createHmac", func(call goja.FunctionCall) goja.Value {
		alg := call.Argument(0)
		newDigest(alg) // refuse an unknown one here, as Node does
		key := m.bytesArg(call.Argument(1), goja.Undefined(), "key")
		return m.hashObject(hmac.New(func() hash.Hash { return newHash(alg.String()) }, key))
	}))
	// hash(alg, data[, outputEncoding]): the one-shot digest (hex by
	// default).
	must(c.Set("hash", func(call goja.FunctionCall) goja.Value {
		h := newDigest(call.Argument(0))
		h.Write(m.bytesArg(call.Argument(1), goja.Undefined(), "data"))
		enc := call.Argument(2)
		if goja.IsUndefined(enc) {
			enc = vm.ToValue("hex")
		}
		return m.encodeBytes(h.Sum(nil), enc)
	}))
	must(c.Set("timingSafeEqual", func(call goja.FunctionCall) goja.Value {
		a, ok1 := viewBytes(call.Argument(0))
		b, ok2 := viewBytes(call.Argument(1))
		if !ok1 || !ok2 {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"buf1\" and \"buf2\" arguments must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView")
		}
		if len(a) != len(b) {
			m.throwRange("ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH", "Input buffers must have the same byte length")
		}
		return vm.ToValue(subtle.ConstantTimeCompare(a, b) == 1)
	}))
	pbkdf2Key := func(args []goja.Value) goja.Value {
		arg := func(i int) goja.Value {
			if i < len(args) {
				return args[i]
			}
			return goja.Undefined()
		}
		pw := m.bytesArg(arg(0), goja.Undefined(), "password")
		salt := m.bytesArg(arg(1), goja.Undefined(), "salt")
		iter, keylen := arg(2).ToInteger(), arg(3).ToInteger()
		if iter < 1 || iter > math.MaxInt32 {
			m.throwRange("ERR_OUT_OF_RANGE", "The value of \"iterations\" is out of range. It must be >= 1 && <= 2147483647. Received %d", iter)
		}
		if keylen < 0 || keylen > math.MaxInt32 {
			m.throwRange("ERR_OUT_OF_RANGE", "The value of \"keylen\" is out of range. Received %d", keylen)
		}
		alg := arg(4)
		f := hashes[strings.ToLower(alg.String())]
		if f == nil {
			m.throwType("ERR_CRYPTO_INVALID_DIGEST", "Invalid digest: %s", alg.String())
		}
		k, err := pbkdf2.Key(f, string(pw), salt, int(iter), int(keylen))
		if err != nil {
			m.throw("ERR_CRYPTO_OPERATION_FAILED", "pbkdf2: %v", err)
		}
		return toBuffer(k)
	}
	must(c.Set("pbkdf2Sync", func(call goja.FunctionCall) goja.Value { return pbkdf2Key(call.Arguments) }))
	must(c.Set("pbkdf2", func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		if len(args) < 6 {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"callback\" argument must be of type function")
		}
		later(callback(args[5]), func() goja.Value { return pbkdf2Key(args[:5]) })
		return goja.Undefined()
	}))
	hkdfKey := func(args []goja.Value) goja.Value {
		arg := func(i int) goja.Value {
			if i < len(args) {
				return args[i]
			}
			return goja.Undefined()
		}
		f := hashes[strings.ToLower(arg(0).String())]
		if f == nil {
			m.throwType("ERR_CRYPTO_INVALID_DIGEST", "Invalid digest: %s", arg(0).String())
		}
		ikm := m.bytesArg(arg(1), goja.Undefined(), "ikm")
		salt := m.bytesArg(arg(2), goja.Undefined(), "salt")
		info := m.bytesArg(arg(3), goja.Undefined(), "info")
		k, err := hkdf.Key(f, ikm, salt, string(info), int(arg(4).ToInteger()))
		if err != nil {
			m.throwRange("ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length: %v", err)
		}
		return vm.ToValue(vm.NewArrayBuffer(k))
	}
	must(c.Set("hkdfSync", func(call goja.FunctionCall) goja.Value { return hkdfKey(call.Arguments) }))
	must(c.Set("hkdf", func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		if len(args) < 6 {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"callback\" argument must be of type function")
		}
		later(callback(args[5]), func() goja.Value { return hkdfKey(args[:5]) })
		return goja.Undefined()
	}))
	for name, why := range cryptoUnavailable {
		name, why := name, why
		must(c.Set(name, func(goja.FunctionCall) goja.Value {
			m.throw("ERR_FEATURE_UNAVAILABLE_ON_PLATFORM", "crypto.%s is not available in wasmexec: %s", name, why)
			return nil
		}))
	}
	return c
}

// hashObject is a Hash or Hmac: update(data[, inputEncoding]) chains,
// digest([encoding]) ends it, copy() forks a Hash.
func (m *modules) hashObject(h hash.Hash) goja.Value {
	vm := m.d.vm
	o := vm.NewObject()
	done := false
	must(o.Set("update", func(call goja.FunctionCall) goja.Value {
		if done {
			m.throw("ERR_CRYPTO_HASH_FINALIZED", "Digest already called")
		}
		h.Write(m.bytesArg(call.Argument(0), call.Argument(1), "data"))
		return o
	}))
	must(o.Set("digest", func(call goja.FunctionCall) goja.Value {
		if done {
			m.throw("ERR_CRYPTO_HASH_FINALIZED", "Digest already called")
		}
		done = true
		return m.encodeBytes(h.Sum(nil), call.Argument(0))
	}))
	must(o.Set("copy", func(call goja.FunctionCall) goja.Value {
		if done {
			m.throw("ERR_CRYPTO_HASH_FINALIZED", "Digest already called")
		}
		c, ok := h.(hash.Cloner)
		if !ok {
			m.throw("ERR_FEATURE_UNAVAILABLE_ON_PLATFORM", "this hash can't be copied")
		}
		h2, err := c.Clone()
		if err != nil {
			m.throw("ERR_FEATURE_UNAVAILABLE_ON_PLATFORM", "copy: %v", err)
		}
		return m.hashObject(h2)
	}))
	return o
}

// encodeBytes is b as a Buffer (enc undefined or "buffer") or a string in
// Node's encoding enc.
func (m *modules) encodeBytes(b []byte, enc goja.Value) goja.Value {
	vm := m.d.vm
	if enc == nil || goja.IsUndefined(enc) || goja.IsNull(enc) {
		return m.toBuffer(b)
	}
	switch strings.ToLower(enc.String()) {
	case "buffer":
		return m.toBuffer(b)
	case "hex":
		return vm.ToValue(hex.EncodeToString(b))
	case "base64":
		return vm.ToValue(base64.StdEncoding.EncodeToString(b))
	case "base64url":
		return vm.ToValue(base64.RawURLEncoding.EncodeToString(b))
	case "latin1", "binary":
		return vm.ToValue(latin1(b))
	case "utf8", "utf-8":
		return vm.ToValue(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	// Buffer knows the rest (ascii, utf16le, ucs2).
	buf := m.toBuffer(b).(*goja.Object)
	f, _ := goja.AssertFunction(buf.Get("toString"))
	v, err := f(buf, enc)
	if err != nil {
		panic(err)
	}
	return v
}

// toBuffer is a Buffer over b.
func (m *modules) toBuffer(b []byte) goja.Value {
	vm := m.d.vm
	from, _ := goja.AssertFunction(m.builtin("buffer").(*goja.Object).Get("Buffer").(*goja.Object).Get("from"))
	v, err := from(goja.Undefined(), vm.ToValue(vm.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return v
}

// bytesArg is bytesOf for a named argument that must be a string or bytes.
func (m *modules) bytesArg(data, enc goja.Value, name string) []byte {
	if _, isObj := data.(*goja.Object); !isObj {
		if _, isStr := data.Export().(string); !isStr {
			m.throwType("ERR_INVALID_ARG_TYPE", "The \"%s\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received %s", name, describe(data))
		}
	} else if _, ok := viewBytes(data); !ok {
		m.throwType("ERR_INVALID_ARG_TYPE", "The \"%s\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received %s", name, describe(data))
	}
	return bytesOf(data, enc)
}

// bytesOf is the bytes of a string (utf8, or hex/base64/latin1 by enc), an
// ArrayBuffer or a typed array (a Buffer).
func bytesOf(data, enc goja.Value) []byte {
	if b, ok := viewBytes(data); ok {
		return b
	}
	s := data.String()
	if enc != nil && !goja.IsUndefined(enc) && !goja.IsNull(enc) {
		switch strings.ToLower(enc.String()) {
		case "hex":
			// Node decodes up to the first pair that is not hex.
			n := 0
			for n+1 < len(s) && isHex(s[n]) && isHex(s[n+1]) {
				n += 2
			}
			b, _ := hex.DecodeString(s[:n])
			return b
		case "base64", "base64url":
			return forgivingBase64(s)
		case "latin1", "binary":
			b := make([]byte, 0, len(s))
			for _, r := range s {
				b = append(b, byte(r))
			}
			return b
		}
	}
	return []byte(s)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// forgivingBase64 decodes base64 or base64url as Node's Buffer does:
// characters of neither alphabet are skipped, padding is optional.
func forgivingBase64(s string) []byte {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/':
			b = append(b, c)
		case c == '-':
			b = append(b, '+')
		case c == '_':
			b = append(b, '/')
		case c == '=':
			i = len(s)
		}
	}
	if len(b)%4 == 1 {
		b = b[:len(b)-1]
	}
	out, _ := base64.RawStdEncoding.DecodeString(string(b))
	return out
}

// describe is how Node's messages name a received value.
func describe(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		if _, fn := goja.AssertFunction(o); fn {
			return "function " + o.Get("name").String()
		}
		if c, ok := o.Get("constructor").(*goja.Object); ok {
			if n := c.Get("name"); n != nil && n.String() != "" {
				return "an instance of " + n.String()
			}
		}
		return "an instance of Object"
	}
	switch v.Export().(type) {
	case string:
		s := v.String()
		if len(s) > 28 {
			s = s[:25] + "..."
		}
		return "type string ('" + s + "')"
	case bool:
		return "type boolean (" + v.String() + ")"
	case int64, float64:
		return "type number (" + v.String() + ")"
	}
	return "type " + v.ExportType().String() + " (" + v.String() + ")"
}
