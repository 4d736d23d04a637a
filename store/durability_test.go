package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// crashChildEnv, when set to a path, turns the test binary into the child of
// TestKill9Durability (see TestMain).
const crashChildEnv = "WASMEXEC_STORE_CRASH_CHILD"

// crashPrefixEnv names the ids of one child run.
const crashPrefixEnv = "WASMEXEC_STORE_CRASH_PREFIX"

const crashChildRecords = 100000 // far more than it gets to save before the kill

// crashChild opens the store at path and saves records with 10 events each,
// printing each id on stdout only after Save returned nil, until it is
// killed. Any failure exits with status 2.
func crashChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, crashConfig(path))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(2)
	}
	for i := range crashChildRecords {
		id := fmt.Sprintf("%s-%06d", os.Getenv(crashPrefixEnv), i)
		if err := s.Save(ctx, newResult(id, time.Now()), makeEvents(1, 10), false); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(2)
		}
		// os.Stdout is unbuffered: the line is in the pipe when this returns.
		if _, err := fmt.Fprintln(os.Stdout, id); err != nil {
			os.Exit(2)
		}
	}
	s.Close()
	os.Exit(0)
}

// crashConfig is the Config of the crash test's store at loc: a SQLite path
// or a PostgreSQL URL.
func crashConfig(loc string) Config {
	cfg := Config{CompletedTTL: time.Hour, MaxCompleted: 10 * crashChildRecords, Logger: discardLogger()}
	if strings.HasPrefix(loc, "postgres://") {
		cfg.URL = loc
	} else {
		cfg.Path = loc
	}
	return cfg
}

// TestKill9Durability runs a child that saves records and reports each one
// after Save returned, SIGKILLs it mid-stream, reopens the file and checks
// that every reported record is there, whole. It does so three times on the
// same file, so later children start from a WAL recovered after a kill.
func TestKill9Durability(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	forEachBackend(t, func(t *testing.T, b backend) {
		loc := b.fresh(t)
		path := loc.Path + loc.URL
		var all []string
		for round, killAfter := range []int{150, 37, 300} {
			ids := runCrashChild(t, path, fmt.Sprintf("round%d", round), killAfter)
			all = append(all, ids...)
			checkCrashSurvivors(t, path, all)
		}
	})
}

// runCrashChild starts a child saving into path, SIGKILLs it after it has
// reported killAfter ids, and returns every id it reported.
func runCrashChild(t *testing.T, path, prefix string, killAfter int) []string {
	t.Helper()
	cmd := osexec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path, crashPrefixEnv+"="+prefix)
	var stderr bufferWriter
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()

	var ids []string
	killed := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		ids = append(ids, sc.Text())
		if len(ids) == killAfter && !killed {
			// SIGKILL while the child is in the middle of further Saves.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	// Lines already in the pipe were printed after their Save returned too.
	waitErr := cmd.Wait()
	var ee *osexec.ExitError
	if !errors.As(waitErr, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("%s: child did not die by SIGKILL: %v; stderr: %s", prefix, waitErr, stderr.String())
	}
	if len(ids) < killAfter || len(ids) >= crashChildRecords {
		t.Fatalf("%s: child printed %d ids; stderr: %s", prefix, len(ids), stderr.String())
	}
	t.Logf("%s: child printed %d ids before SIGKILL took effect", prefix, len(ids))
	return ids
}

// checkCrashSurvivors reopens path and checks that every reported id is
// stored with all its events and that nothing is half-written.
func checkCrashSurvivors(t *testing.T, path string, ids []string) {
	t.Helper()
	s := MustOpen(t, crashConfig(path))
	defer s.Close()
	ctx := context.Background()
	for _, id := range ids {
		r, err := s.Get(ctx, id)
		if err != nil {
			t.Fatalf("reported id %s lost after kill -9: %v", id, err)
		}
		if r.Outcome != wasmexec.Failed || r.Error == nil || r.Error.Message != "boom" {
			t.Fatalf("%s: damaged record %+v", id, r)
		}
		replay, err := s.Output(ctx, id, "", 0)
		if err != nil || len(replay.Events) != 10 || replay.Truncated {
			t.Fatalf("%s: events %v, %d, truncated %v", id, err, len(replay.Events), replay.Truncated)
		}
	}
	// Beyond the reported ids, at most one Save per kill may have committed
	// without being reported.
	n, _, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n < len(ids) || n > len(ids)+3 {
		t.Fatalf("%d records stored, %d reported", n, len(ids))
	}
	// Every stored record has all its events: no half-written transaction.
	if got, want := rawCount(t, s, "events"), 10*n; got != want {
		t.Fatalf("%d events for %d records, want %d", got, n, want)
	}
	if s.pg != nil {
		return
	}
	var check string
	if err := s.r.QueryRow("PRAGMA quick_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("quick_check: %s, %v", check, err)
	}
}

// bufferWriter is a goroutine-safe bytes buffer for a child's stderr.
type bufferWriter struct {
	mu  sync.Mutex
	buf []byte
}

func (b *bufferWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *bufferWriter) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
