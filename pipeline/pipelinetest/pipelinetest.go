// Package pipelinetest is a fake pipeline.Driver for fast tests of what
// lies around the guest (the server, tenancy, events, history): its
// guests answer in microseconds without wasmtime. It is not a language:
// a guest's "code" is a tiny command language, so a test says what the
// guest does rather than how a real interpreter would behave.
//
//	<JSON>          the value (evaluate) of that JSON text
//	block           wait until the run's deadline or cancel
//	exit N          exit with status N (execute)
//	throw MESSAGE   fail with code exception
//	print TEXT      write TEXT and a newline to stdout; the value is null
//
// Anything else fails with code syntax_error. The real engine's behaviour
// is tested against real guests in package engine and the packages that
// use it; tests built on this fake say so in their names or comments.
package pipelinetest

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/pipeline"
)

// Image is the name of the fake's one guest image.
const Image = "fake"

// Driver is the fake driver. The zero value is ready to use.
type Driver struct {
	// Calls counts the calls made to its guests.
	Calls atomic.Int64
	mu    sync.Mutex
	live  int
}

var _ pipeline.Driver = (*Driver)(nil)

// Live returns the fake guests not yet closed.
func (d *Driver) Live() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.live
}

func (d *Driver) Image(name string) (wasmexec.Family, error) {
	if name != Image {
		return wasmexec.Family{}, wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is not loaded", name)
	}
	return wasmexec.Family{Name: Image, MinMemoryBytes: 1 << 20}, nil
}

func (d *Driver) Guest(ctx context.Context, spec pipeline.GuestSpec) (wasmexec.Guest, error) {
	return d.start(spec, true)
}

func (d *Driver) StartGuest(ctx context.Context, spec pipeline.GuestSpec) (wasmexec.Guest, error) {
	return d.start(spec, false)
}

func (d *Driver) RestoreGuest(ctx context.Context, spec pipeline.GuestSpec, state []byte) (wasmexec.Guest, error) {
	return d.start(spec, false)
}

func (d *Driver) RestoreGuestFile(ctx context.Context, spec pipeline.GuestSpec, f *os.File, off int64) (wasmexec.Guest, error) {
	return d.start(spec, false)
}

func (d *Driver) StateRefused(error) bool { return false }

func (d *Driver) start(spec pipeline.GuestSpec, once bool) (wasmexec.Guest, error) {
	if _, err := d.Image(spec.Image); err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.live++
	d.mu.Unlock()
	return &guest{d: d, workspace: spec.Workspace, once: once}, nil
}

type guest struct {
	d         *Driver
	workspace string
	once      bool
	mu        sync.Mutex
	dead      bool
	closed    bool
}

func (g *guest) Workspace() string         { return g.workspace }
func (g *guest) ProtocolViolation() string { return "" }
func (g *guest) Alive() bool               { g.mu.Lock(); defer g.mu.Unlock(); return !g.dead }
func (g *guest) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed, g.dead = true, true
		g.d.mu.Lock()
		g.d.live--
		g.d.mu.Unlock()
	}
}

// Call answers one request as the package comment says.
func (g *guest) Call(ctx context.Context, in wasmexec.CallInput) wasmexec.CallResult {
	g.d.Calls.Add(1)
	start := time.Now()
	g.mu.Lock()
	if g.dead {
		g.mu.Unlock()
		return wasmexec.CallResult{Outcome: wasmexec.Failed, Died: true, Error: &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "guest is not running"}}
	}
	if g.once {
		g.dead = true
	}
	g.mu.Unlock()
	var req struct {
		Op   string `json:"op"`
		Code string `json:"code"`
	}
	if err := json.Unmarshal(in.Payload, &req); err != nil {
		return wasmexec.CallResult{Outcome: wasmexec.Failed, Error: &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "malformed control request"}}
	}
	reply := func(v any) wasmexec.CallResult {
		b, _ := json.Marshal(v)
		return wasmexec.CallResult{Response: b, Duration: time.Since(start)}
	}
	code := strings.TrimSpace(req.Code)
	switch verb, arg, _ := strings.Cut(code, " "); verb {
	case "block":
		<-ctx.Done()
		o, ed := wasmexec.ContextOutcome(ctx)
		return wasmexec.CallResult{Outcome: o, Error: ed, Duration: time.Since(start)}
	case "exit":
		n, _ := strconv.Atoi(arg)
		return reply(map[string]any{"status": "exit", "exitCode": n})
	case "throw":
		return reply(map[string]any{"status": "error", "error": map[string]string{"code": wasmexec.CodeException, "name": "Error", "message": arg}})
	case "print":
		if in.Output != nil {
			in.Output.Write(wasmexec.Stdout, []byte(arg+"\n"))
		}
		return reply(map[string]any{"status": "ok", "value": nil, "hasValue": req.Op == "evaluate"})
	}
	if json.Valid([]byte(code)) {
		return reply(map[string]any{"status": "ok", "value": json.RawMessage(code), "hasValue": req.Op == "evaluate"})
	}
	return reply(map[string]any{"status": "error", "error": map[string]string{"code": "syntax_error", "name": "SyntaxError", "message": "the fake guest does not know " + strconv.Quote(code)}})
}
