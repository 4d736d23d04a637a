package ts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/workerpool/workertest"
)

// workerEnv makes the test binary act as a transpile worker (TestMain).
const workerEnv = "WASMEXEC_TS_TEST_WORKER"

// testWorkers is how the tests start workers (see workertest).
var testWorkers workertest.Setup

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		if err := WorkerMain(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "ts-transpile worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	testWorkers = workertest.Choose(raceEnabled, workerEnv+"=1",
		"github.com/wasmexec/wasmexec/languages/ts/internal/testworker", "ts-transpile-worker")
	code := m.Run()
	if fuzzWorkers.w != nil {
		fuzzWorkers.w.Close()
	}
	os.Exit(code)
}

// MustStartWorkers starts transpile workers from cfg (command and
// environment filled in); they are closed when the test ends.
func MustStartWorkers(tb testing.TB, cfg WorkersConfig) *Workers {
	tb.Helper()
	cfg.Command = testWorkers.Command
	cfg.Env = append(cfg.Env, testWorkers.Env...)
	w, err := NewWorkers(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := w.Start(ctx); err != nil {
		tb.Fatalf("Start (%s): %v", testWorkers.Note, err)
	}
	return w
}

// MustTranspileIn transpiles code in w or fails the test.
func MustTranspileIn(tb testing.TB, w *Workers, code string) *Program {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := w.Transpile(ctx, code, "main.ts")
	if err != nil {
		tb.Fatalf("Transpile in a worker (%s): %v", testWorkers.Note, err)
	}
	return p
}

// AssertServes checks that w answers an ordinary request correctly.
func AssertServes(tb testing.TB, w *Workers) {
	tb.Helper()
	p := MustTranspileIn(tb, w, "const n: number = 41;\nn + 1")
	if got, err := runGoja(tb, p); err != nil || got != int64(42) {
		tb.Fatalf("probe: %v, %v", got, err)
	}
}

// waitPIDs polls until w has want live workers and returns their pids.
func waitPIDs(tb testing.TB, w *Workers, want int) []int {
	tb.Helper()
	var pids []int
	poll.Until(tb, time.Minute, fmt.Sprintf("%d live workers", want), func() bool {
		pids = w.pool.PIDs()
		return len(pids) == want
	})
	return pids
}

func TestWorkersTranspileLikeInProcess(t *testing.T) {
	w := MustStartWorkers(t, WorkersConfig{Size: 1})
	code := "interface P { x: number }\nconst p: P = { x: 41 }\np.x + 1\n"
	want, err := Transpile(code, "main.ts")
	if err != nil {
		t.Fatal(err)
	}
	pids := waitPIDs(t, w, 1)
	for i := 0; i < 3; i++ { // the worker is reused
		got := MustTranspileIn(t, w, code)
		if got.JS != want.JS || string(got.SourceMap) != string(want.SourceMap) || got.Filename != want.Filename {
			t.Fatalf("worker output differs:\n%q\n%q", got.JS, want.JS)
		}
	}
	_, err = w.Transpile(context.Background(), "const s = \"😀\" +;", "main.ts")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Column != 17 {
		t.Fatalf("syntax error through a worker: %#v", err)
	}
	if got := w.pool.PIDs(); !slices.Equal(got, pids) {
		t.Errorf("workers %v after ordinary requests; want the same %v", got, pids)
	}
}

// A transpile that overruns the timeout is killed, fails with
// transpile_failed/timeout, and the next request gets a fresh worker.
func TestWorkersTimeout(t *testing.T) {
	w := MustStartWorkers(t, WorkersConfig{Size: 1, Timeout: 300 * time.Millisecond})
	pids := waitPIDs(t, w, 1)
	start := time.Now()
	_, err := w.Transpile(context.Background(), exponentialShape, "main.ts")
	var te *TranspileError
	if !errors.As(err, &te) || te.Reason != ReasonTimeout {
		t.Fatalf("err = %v; want a TranspileError with reason timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	if d := te.ErrorData(); d.Code != wasmexec.CodeTranspileFailed || d.Name != "TranspileError" || d.Details["reason"] != ReasonTimeout {
		t.Errorf("ErrorData = %+v", d)
	}
	AssertServes(t, w)
	if got := waitPIDs(t, w, 1); got[0] == pids[0] {
		t.Errorf("worker %d still serves after overrunning", pids[0])
	}
}

// The run's ctx bounds both the wait for a worker and the transpile.
func TestWorkersRespectContext(t *testing.T) {
	w := MustStartWorkers(t, WorkersConfig{Size: 1, Timeout: time.Minute})
	busy := make(chan error, 1)
	busyCtx, stopBusy := context.WithCancel(context.Background())
	go func() {
		_, err := w.Transpile(busyCtx, exponentialShape, "main.ts")
		busy <- err
	}()
	// Wait until the only worker has the hanging transpile: then the pool
	// has no idle worker.
	poll.Until(t, time.Minute, "the worker to become busy", func() bool { return w.pool.Idle() == 0 })

	t.Run("waiting for a worker", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := w.Transpile(ctx, "1", "main.ts")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v; want one wrapping context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("returned after %v", d)
		}
	})

	t.Run("cancelled while transpiling", func(t *testing.T) {
		stopBusy()
		if err := <-busy; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v; want one wrapping context.Canceled", err)
		}
		AssertServes(t, w) // by the worker started in place of the killed one
	})

	t.Run("deadline while transpiling", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := w.Transpile(ctx, exponentialShape, "main.ts")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v; want one wrapping context.DeadlineExceeded", err)
		}
		AssertServes(t, w)
	})
}

// processExists reports whether process pid exists (even as a zombie).
func processExists(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func TestWorkersLifecycle(t *testing.T) {
	if _, err := NewWorkers(WorkersConfig{}); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Errorf("NewWorkers without a command: %v", err)
	}
	w, err := NewWorkers(WorkersConfig{Command: []string{"sh", "-c", "exit 3"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Transpile(context.Background(), "1", ""); wasmexec.ErrorCode(err) != wasmexec.EUnavailable {
		t.Errorf("Transpile before Start: %v", err)
	}
	if err := w.Start(context.Background()); err == nil {
		t.Error("Start with a worker that exits at once succeeded")
	}
	w.Close()

	w = MustStartWorkers(t, WorkersConfig{Size: 2})
	pids := waitPIDs(t, w, 2)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if processExists(pid) {
			t.Errorf("worker %d still exists after Close", pid)
		}
	}
	if _, err := w.Transpile(context.Background(), "1", ""); wasmexec.ErrorCode(err) != wasmexec.EUnavailable {
		t.Errorf("Transpile after Close: %v", err)
	}
}

// Many goroutines share two workers; each gets its own answer.
func TestWorkersConcurrent(t *testing.T) {
	w := MustStartWorkers(t, WorkersConfig{Size: 2})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := w.Transpile(context.Background(), fmt.Sprintf("const v%d: number = %d;\nv%d", i, i, i), "main.ts")
			if err != nil {
				t.Error(err)
				return
			}
			if got := lastStatement(p.JS); got != fmt.Sprintf("v%d;", i) {
				t.Errorf("request %d got %q", i, got)
			}
		}()
	}
	wg.Wait()
}

func TestSourceSizeLimit(t *testing.T) {
	big := make([]byte, MaxSourceBytes+1)
	for i := range big {
		big[i] = ' '
	}
	if _, err := Transpile(string(big), ""); wasmexec.ErrorCode(err) != wasmexec.ETooLarge {
		t.Errorf("Transpile of %d bytes: %v", len(big), err)
	}
	w := MustStartWorkers(t, WorkersConfig{Size: 1})
	if _, err := w.Transpile(context.Background(), string(big), ""); wasmexec.ErrorCode(err) != wasmexec.ETooLarge {
		t.Errorf("Workers.Transpile of %d bytes: %v", len(big), err)
	}
}
