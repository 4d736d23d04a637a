package engine

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/wasmexec/wasmexec"
)

// The host ABI's hardening: how host functions read guest pointers, and
// what happens when one of them panics.
//
// Guests are wasm32: every pointer and length is an i32 that wasmtime-go
// hands over as a Go int32. They are unsigned quantities (a memory may be
// up to 4 GiB), so they are read as uint32 and bounds-checked in 64 bits,
// where ptr+n can't overflow.

// guestSpan returns mem[ptr:ptr+n] or nil when any of it is out of bounds.
// ptr and n are the guest's i32 arguments read as unsigned.
func guestSpan(mem []byte, ptr, n uint32) []byte {
	end := uint64(ptr) + uint64(n)
	if end > uint64(len(mem)) {
		return nil
	}
	return mem[uint64(ptr):end:end]
}

// hostPanicked is deferred by every host function. A panic there is a bug
// in wasmexec, but it is the guest's run that fails (as internal), not the
// server: the panic becomes a trap that ends the guest, and is logged with
// its stack.
func (g *Guest) hostPanicked(name string, trap **wasmtime.Trap) {
	r := recover()
	if r == nil {
		return
	}
	if c := g.cur.Load(); c != nil {
		c.reason.CompareAndSwap(nil, wasmexec.CodeInternal)
	}
	g.img.engine.log.Error("host function panicked; the guest is stopped", "func", name, "image", g.img.Spec.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	*trap = wasmtime.NewTrap("wasmexec: internal error in host function " + name)
}

// The guarded forms of the host function shapes the linker defines: each
// takes the guest the call belongs to (guestOf) and turns a panic into a
// trap (hostPanicked).

func guardRecv(name string, f func(*Guest, *wasmtime.Caller, int32, int32) (int32, *wasmtime.Trap)) func(*Guest, *wasmtime.Caller, int32, int32) (int32, *wasmtime.Trap) {
	return func(g *Guest, c *wasmtime.Caller, a, b int32) (r int32, trap *wasmtime.Trap) {
		defer g.hostPanicked(name, &trap)
		return f(g, c, a, b)
	}
}

func guardSend(name string, f func(*Guest, *wasmtime.Caller, int32, int32) *wasmtime.Trap) func(*Guest, *wasmtime.Caller, int32, int32) *wasmtime.Trap {
	return func(g *Guest, c *wasmtime.Caller, a, b int32) (trap *wasmtime.Trap) {
		defer g.hostPanicked(name, &trap)
		return f(g, c, a, b)
	}
}

func guardWrite(name string, f func(*Guest, *wasmtime.Caller, int32, int32, int32) (int32, *wasmtime.Trap)) func(*Guest, *wasmtime.Caller, int32, int32, int32) (int32, *wasmtime.Trap) {
	return func(g *Guest, c *wasmtime.Caller, a, b, n int32) (r int32, trap *wasmtime.Trap) {
		defer g.hostPanicked(name, &trap)
		return f(g, c, a, b, n)
	}
}

func guardPoll(name string, f func(*Guest, *wasmtime.Caller, int32, int32, int32, int32) (int32, *wasmtime.Trap)) func(*Guest, *wasmtime.Caller, int32, int32, int32, int32) (int32, *wasmtime.Trap) {
	return func(g *Guest, c *wasmtime.Caller, a, b, n, m int32) (r int32, trap *wasmtime.Trap) {
		defer g.hostPanicked(name, &trap)
		return f(g, c, a, b, n, m)
	}
}

// callEntry calls one of the guest's entry functions (an init function or
// the serve loop). It is the last line of defence behind the per-function
// guards: wasmtime-go re-raises a host function's panic in the goroutine
// that called into wasm, which would take the server down.
func (g *Guest) callEntry(fn *wasmtime.Func) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if c := g.cur.Load(); c != nil {
				c.reason.CompareAndSwap(nil, wasmexec.CodeInternal)
			}
			g.img.engine.log.Error("guest call panicked; the guest is stopped", "image", g.img.Spec.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("wasmexec: internal error in a host call: %v", r)
		}
	}()
	_, err = fn.Call(g.store)
	return err
}

// trapCause is the line of a guest's exit error that says why it stopped:
// wasmtime puts a backtrace first and the trap's own message (a host
// function's, such as "wasmexec: send buffer out of bounds") last, after
// "Caused by:".
func trapCause(err error) string {
	s := err.Error()
	if _, cause, ok := strings.Cut(s, "Caused by:"); ok {
		for _, line := range strings.Split(cause, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				return line
			}
		}
	}
	return firstLine(s)
}
