package pypi_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/pypi/pypitest"
)

// needPython skips a test of the host-side compile on a host without the
// interpreter it runs.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3.11"); err != nil {
		t.Skip("no /usr/bin/python3.11 on this host: nothing compiles bytecode")
	}
}

// repeat makes a module of about size bytes: head, unit repeated, tail.
func repeat(head, unit, tail string, size int) string {
	return head + strings.Repeat(unit, (size-len(head)-len(tail))/len(unit)) + tail
}

// foldedConstants is a module whose every line folds to a distinct 4 KiB
// string constant: ~290 bytes of bytecode per byte of source.
func foldedConstants(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		s := strconv.Itoa(i)
		fmt.Fprintf(&b, "a=%q*%d\n", s, 4096/len(s))
	}
	return b.String()
}

// slowFString is a module CPython compiles in quadratic time (~10 s of
// CPU at 300 KB).
func slowFString(size int) string { return repeat("X=f'", "{a}", "'\n", size) }

const okModule = "def f():\n    return 1\n"

// watch installs the watcher of c's compiles and returns the last one's
// stats.
func watch(c *pypi.Client) func() pypi.CompileStats {
	var mu sync.Mutex
	var last pypi.CompileStats
	pypi.WatchCompiles(c, nil, func(s pypi.CompileStats) { mu.Lock(); last = s; mu.Unlock() })
	return func() pypi.CompileStats { mu.Lock(); defer mu.Unlock(); return last }
}

func hasPyc(site, module string) bool {
	_, err := os.Stat(filepath.Join(site, "__pycache__", module+".cpython-311.pyc"))
	return err == nil
}

func pycBytes(t *testing.T, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".pyc") {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func selfMaxRSS(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Maxrss * 1024
}

// A wheel anyone can publish makes the host's bytecode compiler work for
// it: each input below cost the host gigabytes of memory, minutes of CPU
// or hundreds of megabytes of disk before the compile was contained. Now
// the package installs, the hostile module has no .pyc (the guest compiles
// it itself, within its own limits), the harmless one beside it has its
// .pyc, the compiler's peak memory stays under its cap, and the server's
// own memory does not grow.
func TestCompileOfAHostileWheelIsContained(t *testing.T) {
	needPython(t)
	tests := []struct {
		name   string
		module string
		limits pypi.CompileLimits
		// maxWheel is the Client's MaxWheelBytes, the .pyc files' budget.
		maxWheel int64
		stopped  string
		tooLarge int
		// maxRSS bounds the compiler's peak memory. The kernel's figure
		// includes this test binary's own resident set when it started
		// the compiler (they share memory until the exec): ~90 MB under
		// the race detector.
		maxRSS int64
	}{
		{name: "a list literal past the memory cap (850 MB uncapped)", module: repeat("X=[", "0,", "]\n", 1900<<10),
			maxRSS: pypi.DefaultCompileMemory},
		{name: "statements past the memory cap (1.3 GB uncapped)", module: repeat("", "a\n", "", 1900<<10),
			maxRSS: pypi.DefaultCompileMemory},
		{name: "a module over the source size limit is not compiled", module: repeat("X=[", "0,", "]\n", 3<<20),
			tooLarge: 1, maxRSS: 200 << 20},
		{name: "bytecode past the budget (28 MB of .pyc from 100 KB)", module: foldedConstants(100 << 10), maxWheel: 8 << 20,
			stopped: "budget", maxRSS: pypi.DefaultCompileMemory},
		{name: "a quadratic compile past the CPU cap", module: slowFString(300 << 10), limits: pypi.CompileLimits{CPU: time.Second},
			stopped: "cpu", maxRSS: pypi.DefaultCompileMemory},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := pypitest.New(t)
			ix.Add(t, pypitest.Dist{Project: "hostile", Version: "1.0", Files: map[string]string{"a_ok.py": okModule, "big.py": tc.module}})
			c := &pypi.Client{CacheDir: t.TempDir(), Compile: tc.limits, MaxWheelBytes: tc.maxWheel}
			stats := watch(c)
			site := filepath.Join(t.TempDir(), pypi.SiteDir)
			var log []string
			before := selfMaxRSS(t)
			_, err := c.Install(context.Background(), site, pypi.Options{Requirements: reqs(t, "hostile"), Indexes: []string{ix.URL},
				Progress: func(l string) { log = append(log, l) }})
			if err != nil {
				t.Fatal(err)
			}
			if grew := selfMaxRSS(t) - before; grew > 64<<20 {
				t.Errorf("the server's own peak memory grew by %d MiB", grew>>20)
			}
			st := stats()
			t.Logf("%+v; %s", st, strings.Join(log, "; "))
			if st.MaxRSS == 0 || st.MaxRSS > tc.maxRSS {
				t.Errorf("compiler peak RSS %d MiB, want under %d MiB", st.MaxRSS>>20, tc.maxRSS>>20)
			}
			if st.Stopped != tc.stopped || st.TooLarge != tc.tooLarge || st.Modules != 2 || st.Compiled != 1 {
				t.Errorf("stats %+v, want stopped %q, %d too large, 1 of 2 compiled", st, tc.stopped, tc.tooLarge)
			}
			if !hasPyc(site, "a_ok") || hasPyc(site, "big") {
				t.Errorf(".pyc for a_ok: %v (want true), for big: %v (want false)", hasPyc(site, "a_ok"), hasPyc(site, "big"))
			}
			if budget := c.MaxWheelBytes; budget > 0 && pycBytes(t, c.CacheDir) > budget {
				t.Errorf("the cache holds %d bytes of .pyc, over the %d-byte budget", pycBytes(t, c.CacheDir), budget)
			}
			if !strings.Contains(strings.Join(log, "\n"), "bytecode for 1 of 2 modules") {
				t.Errorf("progress does not say what was compiled: %q", log)
			}
		})
	}
}

// A compile that is cancelled with its install, or reaches its time
// limit, leaves no process behind: the compiler's process group is gone.
// While it runs it is capped and niced. A cancelled install does not
// cache a tree without its bytecode; a timed-out compile's tree is
// cached (it would time out again).
func TestCompileLeavesNoProcessBehind(t *testing.T) {
	needPython(t)
	tests := []struct {
		name    string
		limits  pypi.CompileLimits
		cancel  bool
		stopped string
	}{
		{name: "cancelled", cancel: true, stopped: "cancelled"},
		{name: "timed out", limits: pypi.CompileLimits{Timeout: 3 * time.Second}, stopped: "timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := pypitest.New(t)
			ix.Add(t, pypitest.Dist{Project: "slow", Version: "1.0", Files: map[string]string{"slow.py": slowFString(300 << 10)}})
			c := &pypi.Client{CacheDir: t.TempDir(), Compile: tc.limits}
			pids := make(chan int, 1)
			done := make(chan pypi.CompileStats, 1)
			pypi.WatchCompiles(c, func(pid int) { pids <- pid }, func(s pypi.CompileStats) { done <- s })
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			errc := make(chan error, 1)
			go func() {
				_, err := c.Install(ctx, filepath.Join(t.TempDir(), pypi.SiteDir), pypi.Options{Requirements: reqs(t, "slow"), Indexes: []string{ix.URL}})
				errc <- err
			}()
			pid := <-pids
			// The compiler caps itself before it reads the wheel.
			poll.Until(t, 10*time.Second, "the compiler's limits", func() bool {
				limits, _ := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
				prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, pid)
				// The raw syscall returns 20-nice.
				return err == nil && 20-prio == 10 && strings.Contains(string(limits), fmt.Sprintf("Max address space         %d", pypi.DefaultCompileMemory))
			})
			if pgid, err := syscall.Getpgid(pid); err != nil || pgid != pid {
				t.Fatalf("the compiler's process group is %d (%v), want its own, %d", pgid, err, pid)
			}
			if tc.cancel {
				cancel()
			}
			err := <-errc
			if tc.cancel != errors.Is(err, context.Canceled) {
				t.Fatalf("install: %v", err)
			}
			if st := <-done; st.Stopped != tc.stopped {
				t.Fatalf("stopped %q, want %q", st.Stopped, tc.stopped)
			}
			poll.Until(t, 10*time.Second, "the compiler's process group to be gone", func() bool {
				return errors.Is(syscall.Kill(-pid, 0), syscall.ESRCH)
			})
			cached, _ := filepath.Glob(filepath.Join(c.CacheDir, "trees", "*", "*", ".complete"))
			if want := !tc.cancel; (len(cached) == 1) != want {
				t.Fatalf("cached trees %q, want one: %v", cached, want)
			}
		})
	}
}

// Compiles of one Client run at most Parallel at once (a cap on each
// process bounds the host only with a cap on their number): a second
// install's compile waits for the first's.
func TestCompilesWaitForASlot(t *testing.T) {
	needPython(t)
	ix := pypitest.New(t)
	for _, p := range []string{"one", "two"} {
		ix.Add(t, pypitest.Dist{Project: p, Version: "1.0", Files: map[string]string{p + ".py": okModule}})
	}
	c := &pypi.Client{CacheDir: t.TempDir(), Compile: pypi.CompileLimits{Parallel: 1}}
	var mu sync.Mutex
	running, most, started := 0, 0, 0
	hold := make(chan struct{})
	pypi.WatchCompiles(c, func(int) {
		mu.Lock()
		running++
		started++
		most = max(most, running)
		first := started == 1
		mu.Unlock()
		if first {
			<-hold
		}
	}, func(pypi.CompileStats) { mu.Lock(); running--; mu.Unlock() })
	errc := make(chan error, 2)
	install := func(p string) {
		_, err := c.Install(context.Background(), filepath.Join(t.TempDir(), pypi.SiteDir), pypi.Options{Requirements: reqs(t, p), Indexes: []string{ix.URL}})
		errc <- err
	}
	go install("one")
	poll.Until(t, 10*time.Second, "the first compile", func() bool { mu.Lock(); defer mu.Unlock(); return started == 1 })
	go install("two")
	poll.Until(t, 10*time.Second, "the second compile to wait", func() bool { return pypi.CompilesWaiting(c) == 1 })
	mu.Lock()
	if started != 1 {
		t.Errorf("%d compiles started while the only slot was taken", started)
	}
	mu.Unlock()
	close(hold)
	for range 2 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	if most != 1 || started != 2 {
		t.Fatalf("%d compiles ran, at most %d at once; want 2, 1", started, most)
	}
}
