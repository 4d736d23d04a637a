package main

import (
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"strings"
	"time"
	"unsafe"

	"github.com/dop251/goja"
)

// fetch: the WHATWG-shaped fetch over the host's wasmexec.fetch
// (docs/PROTOCOL.md "Network"). The guest has no sockets: the host makes
// the request, under the run's allow-list, and blocks this call until the
// response. fetch() returns a promise at once; the request is made by a
// task of the event loop, which resolves it.

//go:wasmimport wasmexec fetch
func hostFetch(reqPtr unsafe.Pointer, reqLen int32, respPtr unsafe.Pointer, respCap int32) int32

//go:embed fetch.js
var fetchJS string

var fetchBuf = make([]byte, 64<<10)

// fetchMeta is the JSON part of the host's response.
type fetchMeta struct {
	Status     int         `json:"status"`
	StatusText string      `json:"statusText"`
	URL        string      `json:"url"`
	Redirected bool        `json:"redirected"`
	Headers    [][2]string `json:"headers"`
	Error      string      `json:"error"`
}

// doRequest is hostRequest, but for warmFetch.
var doRequest = hostRequest

// hostRequest makes one request through the host: the response's meta and
// body, or the reason it failed.
func hostRequest(meta []byte, body []byte) (fetchMeta, []byte, string) {
	req := make([]byte, 4, 4+len(meta)+len(body))
	binary.LittleEndian.PutUint32(req, uint32(len(meta)))
	req = append(append(req, meta...), body...)
	flushOutput() // the driver is about to block: output written before the request goes first
	n := hostFetch(unsafe.Pointer(&req[0]), int32(len(req)), unsafe.Pointer(&fetchBuf[0]), int32(len(fetchBuf)))
	if n < 0 {
		return fetchMeta{}, nil, "the host did not answer the request"
	}
	out := fetchBuf[:min(int(n), len(fetchBuf))]
	if int(n) > len(fetchBuf) {
		out = make([]byte, n)
		if hostFetch(nil, 0, unsafe.Pointer(&out[0]), n) != n {
			return fetchMeta{}, nil, "the host lost the response"
		}
	}
	if len(out) < 4 {
		return fetchMeta{}, nil, "malformed response from the host"
	}
	m := binary.LittleEndian.Uint32(out)
	if uint64(m) > uint64(len(out)-4) {
		return fetchMeta{}, nil, "malformed response from the host"
	}
	var fm fetchMeta
	if err := json.Unmarshal(out[4:4+m], &fm); err != nil {
		return fetchMeta{}, nil, "malformed response from the host"
	}
	if fm.Error != "" {
		return fm, nil, fm.Error
	}
	return fm, append([]byte(nil), out[4+m:]...), ""
}

// installFetch defines fetch, Response and Headers (fetch.js) over native
// helpers.
func (d *driver) installFetch(g *goja.Object) {
	vm := d.vm
	native := vm.NewObject()
	must(native.Set("request", func(call goja.FunctionCall) goja.Value {
		type reqMeta struct {
			Method   string      `json:"method"`
			URL      string      `json:"url"`
			Headers  [][2]string `json:"headers"`
			Redirect string      `json:"redirect"`
		}
		r := reqMeta{Method: call.Argument(0).String(), URL: call.Argument(1).String(), Redirect: call.Argument(4).String()}
		if err := vm.ExportTo(call.Argument(2), &r.Headers); err != nil {
			panic(vm.NewTypeError("fetch: bad headers"))
		}
		body := bodyBytes(vm, call.Argument(3))
		meta, _ := json.Marshal(r)
		fm, data, reason := doRequest(meta, body)
		if reason != "" {
			panic(vm.NewTypeError("fetch failed: " + reason))
		}
		headers := make([]any, len(fm.Headers))
		for i, h := range fm.Headers {
			headers[i] = vm.NewArray(h[0], h[1])
		}
		res := vm.NewObject()
		must(res.Set("status", fm.Status))
		must(res.Set("statusText", fm.StatusText))
		must(res.Set("url", fm.URL))
		must(res.Set("redirected", fm.Redirected))
		must(res.Set("headers", vm.NewArray(headers...)))
		must(res.Set("body", vm.NewArrayBuffer(data)))
		return res
	}))
	must(native.Set("defer", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("callback must be a function"))
		}
		d.loop.add(fn, 0*time.Millisecond, false, nil)
		return goja.Undefined()
	}))
	must(native.Set("text", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(strings.ToValidUTF8(string(bodyBytes(vm, call.Argument(0))), "\uFFFD"))
	}))
	must(native.Set("bytes", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(vm.NewArrayBuffer(bodyBytes(vm, call.Argument(0))))
	}))
	must(native.Set("blobBytes", func(call goja.FunctionCall) goja.Value {
		bytesOf, _ := goja.AssertFunction(d.mods.builtin(webModule("blob")).(*goja.Object).Get("bytesOf"))
		v, err := bytesOf(goja.Undefined(), call.Argument(0))
		if err != nil {
			panic(err)
		}
		return v
	}))
	prog, err := goja.Compile("fetch.js", fetchJS, true)
	must(err)
	fn, err := vm.RunProgram(prog)
	must(err)
	install, ok := goja.AssertFunction(fn)
	if !ok {
		panic("fetch.js is not a function")
	}
	_, err = install(goja.Undefined(), g, native)
	must(err)
}

// warmFetch runs fetch's paths once at init, before the image's snapshot,
// so that no run pays for their first use (a request, refused: there is no
// run yet, the host answers -1; a Response, its headers and its text).
func (d *driver) warmFetch() {
	const meta = `{"status":200,"statusText":"OK","url":"http://warm-up.invalid/","headers":[["content-type","text/plain"]]}`
	defer func() { doRequest = hostRequest }()
	doRequest = func(m, body []byte) (fetchMeta, []byte, string) {
		var fm fetchMeta
		_ = json.Unmarshal([]byte(meta), &fm)
		return fm, []byte("x"), ""
	}
	_, err := d.vm.RunString(`(async () => {
  const r = await fetch("http://warm-up.invalid/", { method: "POST", body: "x", headers: { a: "b" } });
  r.headers.get("content-type"); await r.clone().arrayBuffer(); await r.clone().text(); await r.json().catch(e => 0);
  new Response("x", { headers: new Headers([["a", "b"]]) });
})()`)
	if err == nil {
		err = d.loop.run()
	}
	d.loop.reset()
	doRequest = hostRequest
	_, _ = d.vm.RunString(`(async () => { try { await fetch("http://warm-up.invalid/") } catch (e) { String(e) } })()`)
	_ = d.loop.run() // refused: there is no run yet, the host answers -1
	d.loop.reset()
	_ = err
}

// bodyBytes is a request or response body as bytes: a string (UTF-8), an
// ArrayBuffer, a typed array or DataView (its view); nil for null or
// undefined.
func bodyBytes(vm *goja.Runtime, v goja.Value) []byte {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	switch x := v.Export().(type) {
	case string:
		return []byte(x)
	case goja.ArrayBuffer:
		return append([]byte(nil), x.Bytes()...)
	}
	obj, ok := v.(*goja.Object)
	if ok {
		if ab, ok := obj.Get("buffer").Export().(goja.ArrayBuffer); ok {
			off := obj.Get("byteOffset").ToInteger()
			n := obj.Get("byteLength").ToInteger()
			b := ab.Bytes()
			if off >= 0 && n >= 0 && off+n <= int64(len(b)) {
				return append([]byte(nil), b[off:off+n]...)
			}
		}
	}
	return []byte(v.String())
}
