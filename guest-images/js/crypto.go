package main

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"strings"

	"github.com/dop251/goja"
)

// crypto is node:crypto's subset: randomUUID, randomBytes, getRandomValues
// (WASI random) and createHash for md5, sha1, sha256 and sha512.
func (m *modules) crypto() goja.Value {
	vm := m.d.vm
	c := vm.NewObject()
	toBuffer := func(b []byte) goja.Value {
		from, _ := goja.AssertFunction(m.builtin("buffer").(*goja.Object).Get("Buffer").(*goja.Object).Get("from"))
		v, err := from(goja.Undefined(), vm.ToValue(vm.NewArrayBuffer(b)))
		if err != nil {
			panic(err)
		}
		return v
	}
	must(c.Set("randomUUID", func() string {
		var b [16]byte
		_, _ = rand.Read(b[:])
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		h := hex.EncodeToString(b[:])
		return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	}))
	must(c.Set("randomBytes", func(n int) goja.Value {
		if n < 0 || n > 1<<24 {
			m.throw("ERR_OUT_OF_RANGE", "randomBytes: size %d is out of range", n)
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return toBuffer(b)
	}))
	must(c.Set("getRandomValues", func(arr goja.Value) goja.Value {
		obj, ok := arr.(*goja.Object)
		if !ok {
			m.throw("ERR_INVALID_ARG_TYPE", "getRandomValues needs a typed array")
		}
		n := obj.Get("byteLength").ToInteger()
		if n > 65536 {
			m.throw("QuotaExceededError", "getRandomValues: %d bytes is over 65536", n)
		}
		buf, _ := obj.Get("buffer").Export().(goja.ArrayBuffer)
		off := obj.Get("byteOffset").ToInteger()
		_, _ = rand.Read(buf.Bytes()[off : off+n])
		return arr
	}))
	must(c.Set("getHashes", func() []string { return []string{"md5", "sha1", "sha256", "sha512"} }))
	must(c.Set("createHash", func(alg string) goja.Value {
		var h hash.Hash
		switch strings.ToLower(alg) {
		case "md5":
			h = md5.New()
		case "sha1":
			h = sha1.New()
		case "sha256":
			h = sha256.New()
		case "sha512":
			h = sha512.New()
		default:
			m.throw("ERR_OSSL_EVP_UNSUPPORTED", "Digest method not supported: %s (wasmexec has md5, sha1, sha256, sha512)", alg)
		}
		o := vm.NewObject()
		must(o.Set("update", func(data goja.Value, enc goja.Value) goja.Value {
			h.Write(bytesOf(data, enc))
			return o
		}))
		must(o.Set("digest", func(enc goja.Value) goja.Value {
			sum := h.Sum(nil)
			if enc == nil || goja.IsUndefined(enc) {
				return toBuffer(sum)
			}
			switch enc.String() {
			case "hex":
				return vm.ToValue(hex.EncodeToString(sum))
			case "base64":
				return vm.ToValue(base64.StdEncoding.EncodeToString(sum))
			case "base64url":
				return vm.ToValue(base64.RawURLEncoding.EncodeToString(sum))
			case "latin1", "binary":
				r := make([]rune, len(sum))
				for i, b := range sum {
					r[i] = rune(b)
				}
				return vm.ToValue(string(r))
			}
			m.throw("ERR_INVALID_ARG_VALUE", "digest: unknown encoding %s", enc.String())
			return nil
		}))
		return o
	}))
	return c
}

// bytesOf is the bytes of a string (utf8, or hex/base64 by enc), an
// ArrayBuffer or a typed array (a Buffer).
func bytesOf(data, enc goja.Value) []byte {
	if obj, ok := data.(*goja.Object); ok {
		switch v := obj.Export().(type) {
		case goja.ArrayBuffer:
			return v.Bytes()
		case []byte:
			return v
		}
		if buf, ok := obj.Get("buffer").Export().(goja.ArrayBuffer); ok {
			off, n := obj.Get("byteOffset").ToInteger(), obj.Get("byteLength").ToInteger()
			return buf.Bytes()[off : off+n]
		}
	}
	s := data.String()
	if enc != nil && !goja.IsUndefined(enc) {
		switch enc.String() {
		case "hex":
			if b, err := hex.DecodeString(s); err == nil {
				return b
			}
		case "base64":
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				return b
			}
		}
	}
	return []byte(s)
}
