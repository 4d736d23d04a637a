package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"log/slog"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"

	"github.com/wasmexec/wasmexec"
)

// --- a hand-written hostile guest (testdata/hostile.wat) --------------------

// syncBuffer is a log sink tests can read while guests write to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// MustTestEngine returns an engine of its own with an empty module cache,
// closed when the test ends, and the buffer its log goes to.
func MustTestEngine(tb testing.TB) (*Engine, *syncBuffer) {
	tb.Helper()
	logs := &syncBuffer{}
	e, err := NewEngine(EngineConfig{CacheDir: tb.TempDir(), Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := e.Close(); err != nil {
			tb.Errorf("close engine: %v", err)
		}
	})
	return e, logs
}

// MustWatImage compiles testdata/NAME.wat into an image directory with the
// given preopens (relative directory → guest path), calls fill on the
// directory (to put files in the preopens) and loads it into e.
func MustWatImage(tb testing.TB, e *Engine, name string, preopens map[string]string, fill func(dir string)) *Image {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".wat"))
	if err != nil {
		tb.Fatal(err)
	}
	wasm, err := wasmtime.Wat2Wasm(string(src))
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	spec, _ := json.Marshal(ImageSpec{Name: name, Wasm: name + ".wasm", Argv: []string{name}, Preopens: preopens})
	for rel := range preopens {
		if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	if fill != nil {
		fill(dir)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".wasm"), wasm, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guest.json"), spec, 0o644); err != nil {
		tb.Fatal(err)
	}
	img, err := e.LoadImage(context.Background(), dir)
	if err != nil {
		tb.Fatal(err)
	}
	return img
}

// hostile is a running hostile.wat guest.
type hostile struct {
	tb testing.TB
	g  *Guest
}

func MustStartHostile(tb testing.TB, img *Image, opts GuestOptions) *hostile {
	tb.Helper()
	g, err := img.Start(context.Background(), opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(g.Close)
	return &hostile{tb: tb, g: g}
}

// request encodes op, up to seven argument words and data (at offset 32 of
// the request; the guest's default receive buffer is at 0x1000, so data
// starts at address dataAddr).
func request(op uint32, args []uint32, data []byte) []byte {
	b := make([]byte, 32, 32+len(data))
	binary.LittleEndian.PutUint32(b, op)
	for i, a := range args {
		binary.LittleEndian.PutUint32(b[4+4*i:], a)
	}
	return append(b, data...)
}

const dataAddr = 0x1000 + 32

// call runs one request, with stdin and an output that records stdout.
func (h *hostile) call(stdin string, op uint32, args []uint32, data []byte) (wasmexec.CallResult, *wasmexec.Output) {
	h.tb.Helper()
	out := wasmexec.NewOutput(wasmexec.CaptureAll, 1<<20, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := h.g.Call(ctx, wasmexec.CallInput{Payload: request(op, args, data), Fuel: 1 << 32, Stdin: wasmexec.StdinFrom([]byte(stdin)), Output: out})
	return res, out
}

// result runs a request that must succeed and returns the guest's reply
// words: the call's i32 result and the word it stored at 0x2004.
func (h *hostile) result(op uint32, args ...uint32) (int32, uint32) {
	h.tb.Helper()
	return h.resultData(op, args, nil)
}

func (h *hostile) resultData(op uint32, args []uint32, data []byte) (int32, uint32) {
	h.tb.Helper()
	res, _ := h.call("", op, args, data)
	if res.Died || len(res.Response) != 8 {
		h.tb.Fatalf("op %d %x: the guest died or sent %d bytes: %+v", op, args, len(res.Response), res.Error)
	}
	return int32(binary.LittleEndian.Uint32(res.Response)), binary.LittleEndian.Uint32(res.Response[4:])
}

const (
	opEcho = iota
	opSend
	opWrite
	opRead
	opRecvBuffer
	opClock
	opPoll
	opGrow
	opRenumber
	opPathOpen
	opUnlink
	opMkdir
	opRmdir
	opRename
	opSymlink
	opLink
	opUtimes
	opFdWrite
	opFtruncate
	opFdClose
	opPoke
	opReaddir
	opFetch
	opStat
	opReadlink
)

// wantTrap checks that res is the guest dying of a trap whose message
// contains msg, reported as an internal failure.
func wantTrap(tb testing.TB, res wasmexec.CallResult, msg string) {
	tb.Helper()
	if !res.Died || res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeInternal || !strings.Contains(res.Error.Message, msg) {
		tb.Fatalf("want the guest trapped with %q (internal), got died=%v outcome=%s error=%+v", msg, res.Died, res.Outcome, res.Error)
	}
}

// isolated runs the calling test in a child process and reports whether
// this is the child. Tests whose failure mode is the process dying (a Go
// panic on a guest's thread, a Rust panic inside wasmtime) use it, so that a
// regression fails that test instead of killing the whole test binary.
func isolated(t *testing.T) bool {
	t.Helper()
	if os.Getenv("WASMEXEC_ISOLATED_TEST") == t.Name() {
		return true
	}
	cmd := osexec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "WASMEXEC_ISOLATED_TEST="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test process died (%v); its output:\n%s", err, tail(string(out), 4000))
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("the isolated test did not pass; its output:\n%s", tail(string(out), 4000))
	}
	return false
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// --- the host ABI under hostile pointers and lengths -----------------------

// Every host function, handed pointers and lengths a hostile guest chooses:
// out-of-bounds buffers trap (the guest dies, internal) or return EFAULT,
// never panic; lengths with the top bit set are lengths, not negative
// numbers. The guest has one 64 KiB page of memory.
func TestHostABIHostileArguments(t *testing.T) {
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	type step struct {
		stdin string
		op    uint32
		args  []uint32
	}
	for _, tc := range []struct {
		name  string
		steps []step // all but the last must succeed
		trap  string // the last step traps with this message
		want  int32  // else its result
		reply []byte // else (op send) its reply
	}{
		{name: "send past the end", steps: []step{{op: opSend, args: []uint32{0xFFFFFFF0, 0x20}}}, trap: "send buffer out of bounds"},
		{name: "send straddling the end", steps: []step{{op: opSend, args: []uint32{0xFFF0, 0x20}}}, trap: "send buffer out of bounds"},
		{name: "send of 4 GiB", steps: []step{{op: opSend, args: []uint32{0, 0xFFFFFFFF}}}, trap: "send buffer out of bounds"},
		{name: "send of the last byte", steps: []step{{op: opPoke, args: []uint32{0xFFFC, 0x2A000000}}, {op: opSend, args: []uint32{0xFFFF, 1}}}, reply: []byte{0x2A}},
		{name: "send of nothing at the end", steps: []step{{op: opSend, args: []uint32{0x10000, 0}}}, reply: []byte{}},
		{name: "write past the end", steps: []step{{op: opWrite, args: []uint32{1, 0xFFFFFFF0, 0x20}}}, trap: "write buffer out of bounds"},
		{name: "write of 2 GiB", steps: []step{{op: opWrite, args: []uint32{2, 0, 0x80000000}}}, trap: "write buffer out of bounds"},
		{name: "write to another fd", steps: []step{{op: opWrite, args: []uint32{7, 0, 4}}}, want: -1},
		{name: "output tick past the end", steps: []step{{op: opWrite, args: []uint32{3, 0xFFFFFFFF, 1}}}, want: -1},
		{name: "output tick at the end", steps: []step{{op: opWrite, args: []uint32{3, 0x10000, 1}}}, want: -1},
		{name: "output tick of two bytes", steps: []step{{op: opWrite, args: []uint32{3, 0, 2}}}, want: -1},
		{name: "output tick at the last byte", steps: []step{{op: opWrite, args: []uint32{3, 0xFFFF, 1}}}, want: 1},
		{name: "read past the end", steps: []step{{stdin: "abc", op: opRead, args: []uint32{0xFFFFFFF0, 16}}}, trap: "read buffer out of bounds"},
		{name: "read with a 2 GiB capacity", steps: []step{{stdin: "abc", op: opRead, args: []uint32{0x3000, 0x80000000}}}, want: 3},
		{name: "recv into a buffer past the end", steps: []step{{op: opRecvBuffer, args: []uint32{0xFFFFFF00, 0x100}}, {op: opEcho}}, trap: "recv buffer out of bounds"},
		{name: "clock past the end", steps: []step{{op: opClock, args: []uint32{0, 0xFFFFFFFC}}}, want: 21},
		{name: "clock straddling the end", steps: []step{{op: opClock, args: []uint32{1, 0xFFFC}}}, want: 21},
		{name: "clock unknown id", steps: []step{{op: opClock, args: []uint32{0x80000000, 0x3000}}}, want: 28},
		{name: "poll with 2^31-1 subscriptions", steps: []step{{op: opPoll, args: []uint32{0x3000, 0x4000, 0x7FFFFFFF, 0x5000}}}, want: 28},
		{name: "poll with 2^31 subscriptions", steps: []step{{op: opPoll, args: []uint32{0x3000, 0x4000, 0x80000000, 0x5000}}}, want: 28},
		{name: "poll subscriptions past the end", steps: []step{{op: opPoll, args: []uint32{0xFFFFFF00, 0x4000, 1, 0x5000}}}, want: 21},
		{name: "poll events past the end", steps: []step{{op: opPoll, args: []uint32{0x3000, 0xFFFFFFF0, 1, 0x5000}}}, want: 21},
		{name: "poll count past the end", steps: []step{{op: opPoll, args: []uint32{0x3000, 0x4000, 1, 0xFFFFFFFE}}}, want: 21},
		{name: "fetch request past the end", steps: []step{{op: opFetch, args: []uint32{0xFFFFFFF0, 0x20, 0x3000, 0x1000}}}, trap: "fetch request out of bounds"},
		{name: "fetch request of 4 GiB", steps: []step{{op: opFetch, args: []uint32{0, 0xFFFFFFFF, 0x3000, 0x1000}}}, want: 40},
		{name: "fetch of garbage", steps: []step{{op: opFetch, args: []uint32{0x3000, 0x100, 0x4000, 0x1000}}}, want: 39},
		{name: "fetch response past the end", steps: []step{{op: opFetch, args: []uint32{0x3000, 0x100, 0xFFFFFFF0, 0x1000}}}, trap: "fetch response buffer out of bounds"},
		{name: "fetch response kept when too large", steps: []step{{op: opFetch, args: []uint32{0x3000, 0x100, 0x4000, 4}}}, want: 39},
		{name: "fetch take with nothing kept", steps: []step{{op: opFetch, args: []uint32{0, 0, 0x4000, 0x1000}}}, want: -1},
		{name: "fetch with a 4 GiB capacity", steps: []step{{op: opFetch, args: []uint32{0x3000, 0x100, 0x4000, 0xFFFFFFFF}}}, want: 39},
		{name: "poll of an expired clock", steps: []step{{op: opPoll, args: []uint32{0x3000, 0x4000, 1, 0x5000}}}, want: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := MustStartHostile(t, img, GuestOptions{})
			for i, s := range tc.steps {
				res, _ := h.call(s.stdin, s.op, s.args, nil)
				if i < len(tc.steps)-1 {
					if res.Died {
						t.Fatalf("step %d: the guest died: %+v", i, res.Error)
					}
					continue
				}
				switch {
				case tc.trap != "":
					wantTrap(t, res, tc.trap)
				case tc.reply != nil:
					if res.Died || !bytes.Equal(res.Response, tc.reply) {
						t.Fatalf("reply = %x (died %v, %+v), want %x", res.Response, res.Died, res.Error, tc.reply)
					}
				default:
					if res.Died || len(res.Response) != 8 {
						t.Fatalf("the guest died: %+v", res.Error)
					}
					if got := int32(binary.LittleEndian.Uint32(res.Response)); got != tc.want {
						t.Fatalf("result = %d, want %d", got, tc.want)
					}
				}
			}
			if tc.trap == "" {
				// The guest is still fine.
				res, _ := h.call("", opEcho, []uint32{1, 2}, []byte("ok"))
				if res.Died || !bytes.Equal(res.Response, request(opEcho, []uint32{1, 2}, []byte("ok"))) {
					t.Fatalf("echo after: %x %+v", res.Response, res.Error)
				}
			}
		})
	}
	t.Run("recv with a 4 GiB capacity", func(t *testing.T) {
		h := MustStartHostile(t, img, GuestOptions{})
		h.result(opRecvBuffer, 0x8000, 0xFFFFFFFF)
		want := request(opEcho, []uint32{7}, []byte("payload"))
		res, _ := h.call("", opEcho, []uint32{7}, []byte("payload"))
		if res.Died || !bytes.Equal(res.Response, want) {
			t.Fatalf("echo = %x (%+v), want %x", res.Response, res.Error, want)
		}
	})
}

// With more than 2 GiB of memory, pointers above 2 GiB (negative as Go
// int32s) are valid and a buffer may straddle the 2 GiB line. Before the
// unsigned bounds checks, the first were refused and the second panicked in
// the host (int32 overflow in a slice expression), which killed the server.
func TestHostABIAbove2GiB(t *testing.T) {
	if !isolated(t) {
		return
	}
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	h := MustStartHostile(t, img, GuestOptions{MemoryBytes: wasmexec.MaxMemoryBytes})
	if old, _ := h.result(opGrow, 32768); old != 1 {
		t.Fatalf("memory.grow = %d, want 1 (old size in pages)", old)
	}
	h.result(opPoke, 0x7FFFFFFC, 0x11223344)
	h.result(opPoke, 0x80000000, 0x55667788)
	for _, tc := range []struct {
		name      string
		ptr, n    uint32
		wantReply []byte
	}{
		{"send straddling 2 GiB", 0x7FFFFFFC, 8, []byte{0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55}},
		{"send above 2 GiB", 0x80000000, 4, []byte{0x88, 0x77, 0x66, 0x55}},
	} {
		res, _ := h.call("", opSend, []uint32{tc.ptr, tc.n}, nil)
		if res.Died || !bytes.Equal(res.Response, tc.wantReply) {
			t.Fatalf("%s: reply %x (died %v, %+v), want %x", tc.name, res.Response, res.Died, res.Error, tc.wantReply)
		}
	}
	if errno, _ := h.result(opClock, 0, 0x80000100); errno != 0 {
		t.Fatalf("clock_time_get above 2 GiB: errno %d", errno)
	}
	// A zeroed subscription is a relative realtime clock of 0 ns.
	if errno, _ := h.result(opPoll, 0x80001000, 0x80002000, 1, 0x80003000); errno != 0 {
		t.Fatalf("poll_oneoff above 2 GiB: errno %d", errno)
	}
	if res, _ := h.call("", opSend, []uint32{0x80003000, 4}, nil); !bytes.Equal(res.Response, []byte{1, 0, 0, 0}) {
		t.Fatalf("poll_oneoff event count = %x, want 1", res.Response)
	}
	if n, _ := h.result(opWrite, 1, 0x80000000, 4); n != 4 {
		t.Fatalf("write above 2 GiB = %d", n)
	}
	res, _ := h.call("xyz", opRead, []uint32{0x80005000, 16}, nil)
	if res.Died || binary.LittleEndian.Uint32(res.Response) != 3 {
		t.Fatalf("read above 2 GiB: %x %+v", res.Response, res.Error)
	}
	if res, _ := h.call("", opSend, []uint32{0x80005000, 3}, nil); string(res.Response) != "xyz" {
		t.Fatalf("read above 2 GiB stored %q", res.Response)
	}
	h.result(opRecvBuffer, 0x80004000, 0x1000)
	want := request(opEcho, nil, []byte("high"))
	if res, _ := h.call("", opEcho, nil, []byte("high")); !bytes.Equal(res.Response, want) {
		t.Fatalf("recv above 2 GiB: echo %x, want %x", res.Response, want)
	}
}

// A panic in a host function is the guest's internal failure, logged with
// its stack; the server goes on. Here the panic is a missing Output (a
// caller bug): hostWrite dereferences it.
func TestHostPanicFailsTheRunNotTheServer(t *testing.T) {
	if !isolated(t) {
		return
	}
	e, logs := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	h := MustStartHostile(t, img, GuestOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := h.g.Call(ctx, wasmexec.CallInput{Payload: request(opWrite, []uint32{1, 0, 4}, nil), Fuel: 1 << 32})
	wantTrap(t, res, "internal error in host function write")
	if !strings.Contains(logs.String(), "host function panicked") || !strings.Contains(logs.String(), "hostWrite") {
		t.Fatalf("the panic was not logged with its stack:\n%s", logs.String())
	}
	// The next guest works.
	h2 := MustStartHostile(t, img, GuestOptions{})
	if r, _ := h2.result(opWrite, 1, 0, 4); r != 4 {
		t.Fatalf("write = %d", r)
	}
}

// Each host function shape recovers: the panic becomes a trap naming the
// function and marks the run internal.
func TestHostGuardsRecover(t *testing.T) {
	e, logs := MustTestEngine(t)
	g := &Guest{img: &Image{engine: e, Spec: ImageSpec{Name: "unit"}}}
	boom := func() { var m map[string]int; m["x"]++ }
	for _, tc := range []struct {
		name string
		call func() *wasmtime.Trap
	}{
		{"recv", func() *wasmtime.Trap {
			_, trap := guardRecv("recv", func(*Guest, *wasmtime.Caller, int32, int32) (int32, *wasmtime.Trap) { boom(); return 0, nil })(g, nil, 0, 0)
			return trap
		}},
		{"send", func() *wasmtime.Trap {
			return guardSend("send", func(*Guest, *wasmtime.Caller, int32, int32) *wasmtime.Trap { boom(); return nil })(g, nil, 0, 0)
		}},
		{"write", func() *wasmtime.Trap {
			_, trap := guardWrite("write", func(*Guest, *wasmtime.Caller, int32, int32, int32) (int32, *wasmtime.Trap) { boom(); return 0, nil })(g, nil, 0, 0, 0)
			return trap
		}},
		{"poll_oneoff", func() *wasmtime.Trap {
			_, trap := guardPoll("poll_oneoff", func(*Guest, *wasmtime.Caller, int32, int32, int32, int32) (int32, *wasmtime.Trap) {
				boom()
				return 0, nil
			})(g, nil, 0, 0, 0, 0)
			return trap
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &call{}
			g.cur.Store(c)
			defer g.cur.Store(nil)
			trap := tc.call()
			if trap == nil || !strings.Contains(trap.Message(), "internal error in host function "+tc.name) {
				t.Fatalf("trap = %v", trap)
			}
			if r, _ := c.reason.Load().(string); r != wasmexec.CodeInternal {
				t.Fatalf("reason = %q, want %q", r, wasmexec.CodeInternal)
			}
		})
	}
	if n := strings.Count(logs.String(), "host function panicked"); n != 4 {
		t.Fatalf("%d panics logged, want 4:\n%s", n, logs.String())
	}
}

func TestGuestSpan(t *testing.T) {
	mem := make([]byte, 16)
	for _, tc := range []struct {
		ptr, n uint32
		ok     bool
	}{
		{0, 16, true}, {16, 0, true}, {15, 1, true}, {8, 8, true},
		{17, 0, false}, {16, 1, false}, {0, 17, false},
		{0xFFFFFFFF, 1, false}, {1, 0xFFFFFFFF, false}, {0xFFFFFFFF, 0xFFFFFFFF, false}, {0x80000000, 0x80000000, false},
	} {
		got := guestSpan(mem, tc.ptr, tc.n)
		if (got != nil) != tc.ok || (got != nil && (len(got) != int(tc.n) || cap(got) != int(tc.n))) {
			t.Errorf("guestSpan(%#x, %#x) = len %d (nil %v), want ok=%v", tc.ptr, tc.n, len(got), got == nil, tc.ok)
		}
	}
}
