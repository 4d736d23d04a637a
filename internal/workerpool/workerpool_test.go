package workerpool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// envTestWorker makes the test binary act as a worker (TestMain).
const envTestWorker = "WORKERPOOL_TEST_WORKER"

type testRequest struct {
	Op string `json:"op"` // echo, exit, recurse, allocate, hang, log
	N  int    `json:"n,omitempty"`
}

type testMessage struct {
	Ready bool   `json:"ready,omitempty"`
	Log   string `json:"log,omitempty"`
	Echo  int    `json:"echo,omitempty"`
	PID   int    `json:"pid,omitempty"`
}

func TestMain(m *testing.M) {
	if os.Getenv(envTestWorker) == "1" {
		testWorkerMain()
		return
	}
	os.Exit(m.Run())
}

var sink [][]byte

func recurse(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	return recurse(n+1) + int(pad[0])
}

// testWorkerMain answers testRequests on stdin/stdout.
func testWorkerMain() {
	if _, err := ApplyLimits(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if os.Getenv("WORKERPOOL_TEST_NO_READY") == "" {
		WriteFrame(os.Stdout, testMessage{Ready: true, PID: os.Getpid()})
	}
	for {
		var req testRequest
		if err := ReadFrame(os.Stdin, &req); err != nil {
			os.Exit(0)
		}
		switch req.Op {
		case "echo":
			WriteFrame(os.Stdout, testMessage{Echo: req.N, PID: os.Getpid()})
		case "log":
			WriteFrame(os.Stdout, testMessage{Log: "hello"})
			WriteFrame(os.Stdout, testMessage{Echo: req.N})
		case "exit":
			os.Exit(req.N)
		case "say-oom":
			fmt.Fprintln(os.Stderr, "fatal error: out of memory")
			os.Exit(2)
		case "recurse":
			recurse(0)
		case "allocate":
			for {
				b := make([]byte, 16<<20)
				for i := range b {
					b[i] = 1
				}
				sink = append(sink, b)
			}
		case "hang":
			select {}
		}
	}
}

// waitReady is the Init of the test pools: the worker's first message.
func waitReady(ctx context.Context, w *Worker[testMessage]) error {
	select {
	case m := <-w.Messages():
		if !m.Ready {
			return fmt.Errorf("first message %+v", m)
		}
		return nil
	case <-w.Dead():
		return errors.New("worker exited during start")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func testConfig(size int) Config[testMessage] {
	return Config[testMessage]{
		Name:    "test",
		Size:    size,
		Command: []string{os.Args[0]},
		Env:     []string{envTestWorker + "=1"},
		Init:    waitReady,
	}
}

// MustStart starts a pool from cfg; it is closed when the test ends.
func MustStart(tb testing.TB, cfg Config[testMessage]) *Pool[testMessage] {
	tb.Helper()
	p, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	// Start returns once every worker is up: the pool is ready then, not
	// a moment later (a tscheck test caught Ready false under load).
	if !p.Ready() {
		tb.Fatal("Start returned and the pool is not ready")
	}
	return p
}

// call sends req on an acquired worker and waits for its answer or death.
func call(tb testing.TB, p *Pool[testMessage], req testRequest) (*Worker[testMessage], *testMessage) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w, err := p.Acquire(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.Send(req); err != nil {
		tb.Fatal(err)
	}
	select {
	case m := <-w.Messages():
		p.Release(w)
		return w, &m
	case <-w.Dead():
		return w, nil
	case <-ctx.Done():
		tb.Fatalf("no answer to %+v", req)
	}
	return nil, nil
}

func TestRoundTripAndReuse(t *testing.T) {
	var routed []string
	cfg := testConfig(1)
	cfg.Route = func(w *Worker[testMessage], m testMessage) bool {
		if m.Log != "" {
			routed = append(routed, m.Log) // only the reader goroutine of the one worker writes
			return true
		}
		return false
	}
	p := MustStart(t, cfg)
	if !p.Ready() || len(p.PIDs()) != 1 {
		t.Fatalf("Ready %v, PIDs %v", p.Ready(), p.PIDs())
	}
	w1, m := call(t, p, testRequest{Op: "echo", N: 7})
	if m == nil || m.Echo != 7 {
		t.Fatalf("answer %+v", m)
	}
	w2, m := call(t, p, testRequest{Op: "log", N: 8})
	if m == nil || m.Echo != 8 || w2 != w1 {
		t.Fatalf("answer %+v; same worker %v", m, w2 == w1)
	}
	if len(routed) != 1 || routed[0] != "hello" {
		t.Errorf("routed %v", routed)
	}
}

// A worker that dies is replaced by a fresh one, and its Exit says why.
func TestDeadWorkerIsReplaced(t *testing.T) {
	tests := []struct {
		name      string
		req       testRequest
		memory    int64
		cause     Cause
		needLimit bool // RLIMIT_DATA must apply (not under -race)
	}{
		{name: "exit status", req: testRequest{Op: "exit", N: 3}, cause: Crashed},
		{name: "says out of memory", req: testRequest{Op: "say-oom"}, cause: OutOfMemory},
		{name: "stack overflow", req: testRequest{Op: "recurse"}, cause: StackOverflow},
		{name: "memory cap", req: testRequest{Op: "allocate"}, memory: 256 << 20, cause: OutOfMemory, needLimit: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needLimit && raceEnabled {
				t.Skip("the race detector's shadow memory rules out RLIMIT_DATA")
			}
			cfg := testConfig(1)
			cfg.MaxStackBytes = 16 << 20
			cfg.MemoryLimitBytes = tc.memory
			p := MustStart(t, cfg)
			before := p.PIDs()
			w, m := call(t, p, tc.req)
			if m != nil {
				t.Fatalf("answer %+v; want the worker to die", m)
			}
			if e := w.Exit(); e.Cause != tc.cause {
				t.Fatalf("exit %+v; want cause %v", e, tc.cause)
			}
			// The next request is served by a fresh worker.
			w2, m := call(t, p, testRequest{Op: "echo", N: 1})
			if m == nil || m.Echo != 1 || w2.PID() == before[0] {
				t.Fatalf("after the death: answer %+v from pid %d (dead one %d)", m, w2.PID(), before[0])
			}
		})
	}
}

// Acquire waits for a free worker only as long as ctx allows.
func TestAcquireRespectsContext(t *testing.T) {
	p := MustStart(t, testConfig(1))
	w, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire with every worker busy: %v", err)
	}
	// A waiter gets the worker as soon as it is released.
	got := make(chan *Worker[testMessage], 1)
	go func() {
		w, err := p.Acquire(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- w
	}()
	p.Release(w)
	if w2 := <-got; w2 != w {
		t.Fatal("waiter did not get the released worker")
	}
}

// A killed worker (the caller's answer to work that overran) is replaced.
func TestKilledWorkerIsReplaced(t *testing.T) {
	p := MustStart(t, testConfig(1))
	w, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Send(testRequest{Op: "hang"}); err != nil {
		t.Fatal(err)
	}
	w.Kill()
	<-w.Dead()
	p.Release(w) // not reused: it is dead
	_, m := call(t, p, testRequest{Op: "echo", N: 2})
	if m == nil || m.PID == w.PID() {
		t.Fatalf("answer %+v after a kill", m)
	}
}

func TestStartFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config[testMessage]
	}{
		{"no such command", Config[testMessage]{Command: []string{"/nonexistent/worker"}}},
		{"init fails", Config[testMessage]{Command: []string{os.Args[0]}, Init: waitReady,
			Env: []string{envTestWorker + "=1", EnvMaxStack + "=-1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := p.Start(context.Background()); err == nil {
				t.Fatal("Start succeeded")
			}
		})
	}
	if _, err := New(Config[testMessage]{}); err == nil {
		t.Error("New without a command succeeded")
	}
}

// Close reaps every worker, idle or busy — all of those ignoring their
// closed stdin are killed once the one grace period is over; afterwards
// Acquire fails.
func TestClose(t *testing.T) {
	cfg := testConfig(3)
	cfg.StopGrace = 200 * time.Millisecond // the hanging workers ignore their closed stdin
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Acquire(context.Background()); !errors.Is(err, ErrNotStarted) {
		t.Fatalf("Acquire before Start: %v", err)
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pids := p.PIDs()
	for range 2 {
		w, err := p.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Send(testRequest{Op: "hang"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("worker %d still exists after Close (kill 0: %v)", pid, err)
		}
	}
	if p.Ready() {
		t.Error("Ready after Close")
	}
	if _, err := p.Acquire(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestFrames(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		WriteFrame(w, testMessage{Log: "a\n  b", Echo: 7})
		w.Write([]byte{0xff, 0xff, 0xff, 0xff}) // absurd length
		w.Close()
	}()
	var m testMessage
	if err := ReadFrame(r, &m); err != nil || m.Echo != 7 || m.Log != "a\n  b" {
		t.Fatalf("ReadFrame = %+v, %v", m, err)
	}
	if err := ReadFrame(r, &m); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("oversized frame: %v", err)
	}
	if err := ReadFrame(strings.NewReader("\x00\x00\x00\x09{}"), &m); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated frame: %v", err)
	}
}

// ReadFrame never panics and never allocates past MaxFrame, whatever the
// bytes.
func FuzzReadFrame(f *testing.F) {
	var buf bytes.Buffer
	WriteFrame(&buf, testMessage{Echo: 1})
	f.Add(buf.Bytes())
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		for i := 0; i < 4; i++ {
			var m testMessage
			if ReadFrame(r, &m) != nil {
				return
			}
		}
	})
}
