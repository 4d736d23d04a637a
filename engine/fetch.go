package engine

import (
	"encoding/binary"
	"encoding/json"

	"github.com/bytecodealliance/wasmtime-go/v25"

	"github.com/wasmexec/wasmexec/egress"
)

// The host function fetch (docs/PROTOCOL.md "Network"): the guest's HTTP
// request, made by the host with the run's egress session (package
// egress), blocking the guest until the response, a refusal, or the end of
// the run (its deadline, a cancel, a context reset or delete, Close),
// which traps the guest like a sleep or a stdin read would.
//
//	fetch(reqPtr, reqLen, respPtr, respCap) -> i32
//
// The request is u32le(n) | n bytes of JSON {method, url, headers:
// [[name, value]...], redirect} | the body. The response is u32le(n) | n
// bytes of JSON {status, statusText, url, redirected, headers} or
// {error} | the body. fetch returns the response's length; when that is
// more than respCap nothing is copied and the response is kept: the guest
// calls fetch(0, 0, ptr, len) to take it. -1: nothing to take.

// maxFetchMeta bounds the JSON part of a guest's request.
const maxFetchMeta = 256 << 10

func (g *Guest) hostFetch(caller *wasmtime.Caller, reqPtr, reqLen, respPtr, respCap int32) (int32, *wasmtime.Trap) {
	c := g.cur.Load()
	if c == nil {
		return -1, nil // driver start-up: no run, no network
	}
	if closed(c.replied) {
		return 0, g.violate("the driver made a network request after answering its request")
	}
	sess := egress.FromContext(c.ctx)
	if sess == nil {
		sess, _ = (*egress.Egress)(nil).NewSession(nil, nil)
	}
	if reqLen == 0 {
		if sess.Pending == nil {
			return -1, nil
		}
		return g.fetchReply(caller, sess, sess.Pending, respPtr, respCap)
	}
	var resp *egress.Response
	if n := uint32(reqLen); n > egress.MaxRequestBodyBytes+maxFetchMeta {
		resp = &egress.Response{Error: "the request is too large"}
	} else {
		in := span(g.memory(caller), reqPtr, reqLen)
		if in == nil {
			return 0, wasmtime.NewTrap("wasmexec: fetch request out of bounds")
		}
		req, ok := decodeFetch(in)
		if !ok {
			resp = &egress.Response{Error: "malformed fetch request"}
		} else {
			ctx, cancel := g.blockingContext(c.ctx)
			defer cancel()
			var err error
			if resp, err = sess.Do(ctx, req); err != nil {
				return 0, interrupted()
			}
		}
	}
	meta, _ := json.Marshal(resp)
	out := make([]byte, 4, 4+len(meta)+len(resp.Body))
	binary.LittleEndian.PutUint32(out, uint32(len(meta)))
	out = append(append(out, meta...), resp.Body...)
	return g.fetchReply(caller, sess, out, respPtr, respCap)
}

// fetchReply copies out to the guest, or keeps it when it doesn't fit.
func (g *Guest) fetchReply(caller *wasmtime.Caller, sess *egress.Session, out []byte, ptr, capacity int32) (int32, *wasmtime.Trap) {
	if uint64(len(out)) > uint64(uint32(capacity)) {
		sess.Pending = out
		return int32(len(out)), nil
	}
	dst := span(g.memory(caller), ptr, int32(len(out))) // memory may have moved: fetch after blocking
	if dst == nil {
		return 0, wasmtime.NewTrap("wasmexec: fetch response buffer out of bounds")
	}
	copy(dst, out)
	sess.Pending = nil
	return int32(len(out)), nil
}

// decodeFetch splits a guest's request into its JSON and body.
func decodeFetch(in []byte) (egress.Request, bool) {
	var req egress.Request
	if len(in) < 4 {
		return req, false
	}
	n := uint64(binary.LittleEndian.Uint32(in))
	if n > maxFetchMeta || n > uint64(len(in)-4) {
		return req, false
	}
	if json.Unmarshal(in[4:4+n], &req) != nil {
		return req, false
	}
	req.Body = append([]byte(nil), in[4+n:]...)
	return req, true
}
