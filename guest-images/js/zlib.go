package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"hash/crc32"
	"io"

	"github.com/dop251/goja"
)

// node:zlib's codecs are Go's compress packages (builtins/zlib is the
// module around them): gzip, zlib-wrapped deflate and raw deflate, both
// ways; unzip detects gzip or zlib. Go has no brotli.

// zlibNative is the " zlib" module builtins/zlib requires.
func (m *modules) zlibNative() goja.Value {
	vm := m.d.vm
	o := vm.NewObject()
	// process(kind, data, level, dictionary, maxOutputLength): the whole
	// input at once, as the *Sync functions do.
	must(o.Set("process", func(call goja.FunctionCall) goja.Value {
		kind := call.Argument(0).String()
		data, _ := viewBytes(call.Argument(1))
		level := int(call.Argument(2).ToInteger())
		dict, _ := viewBytes(call.Argument(3))
		limit := call.Argument(4).ToInteger()
		var out []byte
		var err error
		if w := newCompressor(kind, level, dict); w != nil {
			var buf bytes.Buffer
			w.reset(&buf)
			if _, err = w.Write(data); err == nil {
				err = w.Close()
			}
			out = buf.Bytes()
		} else {
			out, err = decompress(kind, data, dict, limit)
		}
		if err != nil {
			panic(m.zlibError(err))
		}
		if limit > 0 && int64(len(out)) > limit {
			m.throwRange("ERR_BUFFER_TOO_LARGE", "Cannot create a Buffer larger than %d bytes", limit)
		}
		return vm.ToValue(vm.NewArrayBuffer(out))
	}))
	// compressor(kind, level, dictionary) compresses a stream: write(chunk)
	// and flush() return what is ready, end() the rest.
	must(o.Set("compressor", func(call goja.FunctionCall) goja.Value {
		dict, _ := viewBytes(call.Argument(2))
		w := newCompressor(call.Argument(0).String(), int(call.Argument(1).ToInteger()), dict)
		if w == nil {
			panic(vm.NewTypeError("not a compressor: " + call.Argument(0).String()))
		}
		var buf bytes.Buffer
		w.reset(&buf)
		h := vm.NewObject()
		take := func(err error) goja.Value {
			if err != nil {
				panic(m.zlibError(err))
			}
			b := bytes.Clone(buf.Bytes())
			buf.Reset()
			return vm.ToValue(vm.NewArrayBuffer(b))
		}
		must(h.Set("write", func(call goja.FunctionCall) goja.Value {
			b, _ := viewBytes(call.Argument(0))
			_, err := w.Write(b)
			return take(err)
		}))
		must(h.Set("flush", func(goja.FunctionCall) goja.Value { return take(w.Flush()) }))
		must(h.Set("end", func(goja.FunctionCall) goja.Value { return take(w.Close()) }))
		return h
	}))
	must(o.Set("crc32", func(call goja.FunctionCall) goja.Value {
		var b []byte
		if v, ok := viewBytes(call.Argument(0)); ok {
			b = v
		} else {
			b = []byte(call.Argument(0).String())
		}
		return vm.ToValue(crc32.Update(uint32(call.Argument(1).ToInteger()), crc32.IEEETable, b))
	}))
	return o
}

// compressor is a compressing writer whose output can be redirected.
type compressor struct {
	io.WriteCloser
	flush func() error
	reset func(io.Writer)
}

func (c *compressor) Flush() error { return c.flush() }

// newCompressor makes the compressor of kind ("gzip", "deflate",
// "deflateRaw") at level (-1 default, 0-9), or nil for another kind.
func newCompressor(kind string, level int, dict []byte) *compressor {
	if level < -1 || level > 9 {
		level = -1
	}
	switch kind {
	case "gzip":
		w, _ := gzip.NewWriterLevel(io.Discard, level)
		return &compressor{WriteCloser: w, flush: w.Flush, reset: w.Reset}
	case "deflate":
		w, _ := zlib.NewWriterLevelDict(io.Discard, level, dict)
		return &compressor{WriteCloser: w, flush: w.Flush, reset: w.Reset}
	case "deflateRaw":
		w, _ := flate.NewWriterDict(io.Discard, level, dict)
		return &compressor{WriteCloser: w, flush: w.Flush, reset: w.Reset}
	}
	return nil
}

// decompress inflates data of kind ("gunzip", "inflate", "inflateRaw",
// "unzip"), reading at most limit+1 bytes of output when limit > 0.
func decompress(kind string, data, dict []byte, limit int64) ([]byte, error) {
	in := bufio.NewReader(bytes.NewReader(data))
	if kind == "unzip" {
		kind = "inflate"
		if head, _ := in.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
			kind = "gunzip"
		}
	}
	var r io.Reader
	var err error
	switch kind {
	case "gunzip":
		r, err = gzip.NewReader(in)
	case "inflate":
		r, err = zlib.NewReaderDict(in, dict)
	case "inflateRaw":
		r = flate.NewReaderDict(in, dict)
	default:
		return nil, errors.New("unknown codec " + kind)
	}
	if err != nil {
		return nil, err
	}
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	return io.ReadAll(r)
}

// zlibError is a codec's error as Node's: the message zlib gives, with
// code and errno.
func (m *modules) zlibError(err error) *goja.Object {
	msg, code, errno := err.Error(), "Z_DATA_ERROR", -3
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, zlib.ErrHeader):
		msg = "incorrect header check"
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, zlib.ErrChecksum):
		msg = "incorrect data check"
	case errors.Is(err, zlib.ErrDictionary):
		msg, code, errno = "Missing dictionary", "Z_NEED_DICT", 2
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		msg, code, errno = "unexpected end of file", "Z_BUF_ERROR", -5
	case errors.As(err, &corrupt):
		msg = "invalid block type"
	}
	e, cerr := m.errCtor(nil, m.d.vm.ToValue(msg))
	if cerr != nil {
		panic(cerr)
	}
	_ = e.Set("errno", errno)
	_ = e.Set("code", code)
	return e
}
