package tscheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// explosiveType makes the checker enumerate 9! permutations: node itself
// needs minutes and gigabytes for it.
const explosiveType = `type Perm<T extends string, U extends string = T> =
  [T] extends [never] ? [] : T extends T ? [T, ...Perm<Exclude<U, T>>] : never;
type P = Perm<"a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i">;
declare const p: P;
export const q: [1] = p;
`

// stringBomb doubles a template literal type 40 times: node's tsc dies with
// "RangeError: Invalid string length"; goja has no string cap, so it eats
// memory as fast as it can copy.
const stringBomb = `type Dup<S extends string, N extends unknown[] = []> =
  N["length"] extends 40 ? S : Dup<` + "`${S}${S}`" + `, [...N, 1]>;
declare const b: Dup<"abcdefgh">;
export const n: number = b;
`

func nestedParens(n int) string {
	return "export const x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ";\n"
}

func megabyteFile() string {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "export const v%d: { a: number; b: string } = { a: %d, b: \"%d\" };\n", i, i, i)
	}
	return b.String()
}

// probe is a check whose answer is known: one TS2322 at 1:14.
var probe = Request{Code: "export const x: number = \"no\";\n"}

// AssertProbeCorrect checks that p still gives the right answer.
func AssertProbeCorrect(tb testing.TB, p *Pool) {
	tb.Helper()
	res := MustSucceed(tb, p, probe)
	want := []Diagnostic{{Code: 2322, Category: "error", Message: "Type 'string' is not assignable to type 'number'.",
		FilePath: "/main.ts", Line: 1, Column: 14}}
	AssertDiagnosticsEqual(tb, res.Diagnostics, want)
}

// Inputs that stop the checker end as timed_out or failed, and the next
// check on the same pool is right.
func TestHostileInputs(t *testing.T) {
	p := SharedPool(t)
	tests := []struct {
		name     string
		req      Request
		outcomes []wasmexec.Outcome
		codes    []string // acceptable Error.Code values
	}{
		{
			name:     "deeply recursive type",
			req:      Request{Code: explosiveType, Timeout: 2 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut},
			codes:    []string{CodeTimeout},
		},
		{
			name:     "20k nested parentheses",
			req:      Request{Code: nestedParens(20000), Timeout: 10 * time.Second},
			outcomes: []wasmexec.Outcome{wasmexec.Failed, wasmexec.TimedOut},
			codes:    []string{wasmexec.CodeStackOverflow, CodeTimeout},
		},
		{
			name:     "1 MB file",
			req:      Request{Code: megabyteFile(), Timeout: 300 * time.Millisecond},
			outcomes: []wasmexec.Outcome{wasmexec.TimedOut, wasmexec.Failed},
			codes:    []string{CodeTimeout, wasmexec.CodeMemoryLimit},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := MustCheck(t, p, tc.req)
			if !containsOutcome(tc.outcomes, res.Outcome) {
				t.Fatalf("outcome %s (error %+v, %d diagnostics), want one of %v", res.Outcome, res.Error, len(res.Diagnostics), tc.outcomes)
			}
			if res.Error == nil || !contains(tc.codes, res.Error.Code) {
				t.Fatalf("error %+v, want code in %v", res.Error, tc.codes)
			}
			t.Logf("%s: %s", res.Outcome, res.Error.Message)
			AssertProbeCorrect(t, p)
		})
	}
}

func containsOutcome(list []wasmexec.Outcome, o wasmexec.Outcome) bool {
	for _, x := range list {
		if x == o {
			return true
		}
	}
	return false
}

// waitBusy waits until some worker of p runs a check and returns its pid.
func waitBusy(tb testing.TB, p *Pool) int {
	tb.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if pid, ok := p.busyPID(); ok {
			return pid
		}
	}
	tb.Fatal("no worker became busy")
	return 0
}

// A worker killed with SIGKILL mid-check fails only that check.
func TestWorkerKilledMidCheck(t *testing.T) {
	p := SharedPool(t)
	done := make(chan *Result, 1)
	go func() {
		res, err := p.Check(context.Background(), Request{Code: explosiveType, Timeout: 2 * time.Minute})
		if err != nil {
			t.Errorf("Check: %v", err)
		}
		done <- res
	}()
	pid := waitBusy(t, p)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res == nil {
		t.FailNow()
	}
	if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeInternal {
		t.Fatalf("killed check: outcome %s error %+v; want failed/internal", res.Outcome, res.Error)
	}
	t.Logf("killed check: %s", res.Error.Message)
	AssertProbeCorrect(t, p) // waits for the replacement worker
	if !p.Ready() {
		t.Error("pool not ready after the restart")
	}
}

var memLimitForTest int64 = 512 << 20

// A check over the memory limit is failed/memory_limit (stopped by the
// worker's watchdog, or the worker dies on its RLIMIT_DATA) and the pool
// carries on.
func TestMemoryLimit(t *testing.T) {
	requireImage(t)
	if !testRLimitOK {
		t.Skip("workers are race-instrumented test binaries, which cannot take RLIMIT_DATA")
	}
	p := MustStartPool(t, PoolConfig{Size: 1, MemoryLimitBytes: memLimitForTest})
	pids := p.workerPIDs()
	res := MustCheck(t, p, Request{Code: stringBomb, Timeout: 3 * time.Minute})
	if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeMemoryLimit {
		t.Fatalf("outcome %s error %+v; want failed/memory_limit", res.Outcome, res.Error)
	}
	survived := len(p.workerPIDs()) == 1 && p.workerPIDs()[0] == pids[0]
	t.Logf("%s after %.0f ms (worker survived: %v)", res.Error.Message, res.DurationMs, survived)
	AssertProbeCorrect(t, p)
}

// Cancelling the caller's context cancels the check; a context deadline is
// a timeout. Either way the worker survives.
func TestContextEndsCheck(t *testing.T) {
	p := SharedPool(t)
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan *Result, 1)
		go func() {
			res, err := p.Check(ctx, Request{Code: explosiveType, Timeout: 2 * time.Minute})
			if err != nil {
				t.Errorf("Check: %v", err)
			}
			done <- res
		}()
		pid := waitBusy(t, p)
		cancel()
		res := <-done
		if res == nil || res.Outcome != wasmexec.Cancelled {
			t.Fatalf("result %+v; want cancelled", res)
		}
		if pids := p.workerPIDs(); len(pids) != 1 || pids[0] != pid {
			t.Errorf("workers %v after cancel; want the same worker %d", pids, pid)
		}
		AssertProbeCorrect(t, p)
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		res, err := p.Check(ctx, Request{Code: explosiveType})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != wasmexec.TimedOut {
			t.Fatalf("outcome %s error %+v; want timed_out", res.Outcome, res.Error)
		}
		AssertProbeCorrect(t, p)
	})
}

// Concurrent checks on a two-worker pool all get their own right answers.
func TestConcurrentChecks(t *testing.T) {
	p := MustStartPool(t, PoolConfig{Size: 2})
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each check's error is on its own line, so answers can't be swapped.
			code := fmt.Sprintf("%sexport const v: number = %q;\n", strings.Repeat("\n", i), "s")
			res := MustSucceed(t, p, Request{Code: code})
			if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != 2322 || res.Diagnostics[0].Line != i+1 {
				t.Errorf("check %d: %+v", i, res.Diagnostics)
			}
		}()
	}
	wg.Wait()
}

// Close waits for the workers; afterwards Check is unavailable.
func TestPoolLifecycle(t *testing.T) {
	requireImage(t)
	p := mustNewStartedPool(t, PoolConfig{Size: 1})
	if !p.Ready() || p.Version() != "5.9.3" {
		t.Fatalf("Ready %v Version %q", p.Ready(), p.Version())
	}
	pids := p.workerPIDs()
	if err := p.Start(context.Background()); wasmexec.ErrorCode(err) != wasmexec.EConflict {
		t.Errorf("second Start: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if p.Ready() {
		t.Error("Ready after Close")
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("worker %d still exists after Close (kill 0: %v)", pid, err)
		}
	}
	_, err := p.Check(context.Background(), probe)
	if wasmexec.ErrorCode(err) != wasmexec.EUnavailable {
		t.Errorf("Check after Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestNewPoolWithoutImage(t *testing.T) {
	_, err := NewPool(PoolConfig{WorkerCommand: []string{"x"}, ImageDir: t.TempDir()})
	if wasmexec.ErrorCode(err) != wasmexec.EUnavailable || !strings.Contains(wasmexec.ErrorMessage(err), "build.sh") {
		t.Fatalf("NewPool on an empty dir: %v", err)
	}
}

// Close ends in-flight checks as cancelled and still reaps every worker.
func TestCloseCancelsInFlightCheck(t *testing.T) {
	requireImage(t)
	p := mustNewStartedPool(t, PoolConfig{Size: 1})
	done := make(chan *Result, 1)
	go func() {
		res, err := p.Check(context.Background(), Request{Code: explosiveType, Timeout: time.Minute})
		if err != nil {
			t.Errorf("Check: %v", err)
		}
		done <- res
	}()
	pid := waitBusy(t, p)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res == nil || res.Outcome != wasmexec.Cancelled {
		t.Fatalf("in-flight check: %+v; want cancelled", res)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("worker %d still exists after Close (kill 0: %v)", pid, err)
	}
}
