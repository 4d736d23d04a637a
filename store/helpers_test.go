package store

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
)

func TestMain(m *testing.M) {
	// The kill -9 durability test re-executes this binary as a child that
	// saves records until it is killed.
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path)
		return
	}
	os.Exit(pgtest.Main(m))
}

// backend is one of the store's two backends, for the tests that run
// against both (forEachBackend).
type backend struct {
	name string
	// fresh returns a Config that locates a new, empty store: a Path for
	// SQLite, the URL of a new database on the shared test cluster for
	// PostgreSQL.
	fresh func(tb testing.TB) Config
}

var backends = []backend{
	{"sqlite", func(tb testing.TB) Config {
		return Config{Path: filepath.Join(tb.TempDir(), "data", "executions.db")}
	}},
	{"postgres", func(tb testing.TB) Config { return Config{URL: pgtest.NewDatabase(tb)} }},
}

// forEachBackend runs f as a subtest per backend. The PostgreSQL subtest
// skips, saying why, only where no PostgreSQL server can be started.
func forEachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b) })
	}
}

// open opens a store of this backend: at cfg's location if it has one
// (from an earlier fresh), else at a fresh one.
func (b backend) open(tb testing.TB, cfg Config) *Store {
	tb.Helper()
	if cfg.Path == "" && cfg.URL == "" {
		loc := b.fresh(tb)
		cfg.Path, cfg.URL = loc.Path, loc.URL
	}
	return MustOpen(tb, cfg)
}

// at returns cfg located where loc is.
func at(loc, cfg Config) Config {
	cfg.Path, cfg.URL = loc.Path, loc.URL
	return cfg
}

// where names a store's location in messages: its Path or redacted URL.
func where(cfg Config) string {
	if cfg.URL != "" {
		return RedactURL(cfg.URL)
	}
	return cfg.Path
}

// t0 is the fake clock's start: a round Unix millisecond.
var t0 = time.UnixMilli(1_700_000_000_000)

// fakeClock is an injectable Config.Now that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: t0} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// MustOpen opens a store for a test, in a fresh temp dir unless cfg.Path is
// set, with a silent logger, and closes it at cleanup.
func MustOpen(tb testing.TB, cfg Config) *Store {
	tb.Helper()
	if cfg.Path == "" && cfg.URL == "" {
		cfg.Path = filepath.Join(tb.TempDir(), "data", "executions.db")
	}
	if cfg.Logger == nil {
		cfg.Logger = discardLogger()
	}
	s, err := Open(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("Open(%s): %v", where(cfg), err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return s
}

// MustSave saves r with events or fails the test.
func MustSave(tb testing.TB, s *Store, r *wasmexec.Result, events []wasmexec.Event) {
	tb.Helper()
	if err := s.Save(context.Background(), r, events, false); err != nil {
		tb.Fatalf("Save(%s): %v", r.ExecutionID, err)
	}
}

// MustGet gets id or fails the test.
func MustGet(tb testing.TB, s *Store, id string) *wasmexec.Result {
	tb.Helper()
	r, err := s.Get(context.Background(), id)
	if err != nil {
		tb.Fatalf("Get(%s): %v", id, err)
	}
	return r
}

// wantCode fails unless err carries code ("" means no error).
func wantCode(tb testing.TB, what string, err error, code string) {
	tb.Helper()
	switch {
	case code == "" && err != nil:
		tb.Fatalf("%s: unexpected error %v", what, err)
	case code != "" && err == nil:
		tb.Fatalf("%s: got no error, want %s", what, code)
	case code != "" && wasmexec.ErrorCode(err) != code:
		tb.Fatalf("%s: got error %v (code %s), want code %s", what, err, wasmexec.ErrorCode(err), code)
	}
}

func strp(s string) *string { return &s }

// newResult returns a completed result with every field set.
func newResult(id string, completedAt time.Time) *wasmexec.Result {
	return &wasmexec.Result{
		ExecutionID:     id,
		Kind:            wasmexec.KindEvaluate,
		Language:        wasmexec.JavaScript,
		ContextID:       "ctx-1",
		PID:             7,
		Outcome:         wasmexec.Failed,
		Value:           json.RawMessage(`{"answer":42}`),
		Error:           &wasmexec.ErrorData{Code: wasmexec.CodeException, Name: "TypeError", Message: "boom", Stack: "at <eval>:1:1", Details: map[string]any{"line": 1.0}},
		ExitCode:        1,
		Stdout:          strp("hello\n"),
		Stderr:          strp(""),
		StdoutTruncated: true,
		StartedAtMs:     completedAt.UnixMilli() - 12,
		CompletedAtMs:   completedAt.UnixMilli(),
		DurationMs:      12.5,
		FuelConsumed:    123456789,
		ContextReset:    true,
		Code:            "console.log('hello')",
		EventsRetained:  true,
		Extra:           json.RawMessage(`{"diagnostics":[]}`),
	}
}

// makeEvents returns events first..first+n-1, alternating channels.
func makeEvents(first, n int) []wasmexec.Event {
	evs := make([]wasmexec.Event, n)
	for i := range evs {
		seq := uint64(first + i)
		ch := wasmexec.Stdout
		if seq%3 == 0 {
			ch = wasmexec.Stderr
		}
		evs[i] = wasmexec.Event{PID: 7, Sequence: seq, Channel: ch, Chunk: []byte(fmt.Sprintf("line %d of the program output\n", seq)), TimestampMs: t0.UnixMilli() + int64(seq)}
	}
	return evs
}

// storedCount is the store's own record count (Stats).
func storedCount(tb testing.TB, s *Store) int {
	tb.Helper()
	n, _, err := s.Stats(context.Background())
	if err != nil {
		tb.Fatalf("Stats: %v", err)
	}
	return n
}

// rawCount counts rows of table directly, expired or not.
func rawCount(tb testing.TB, s *Store, table string) int {
	tb.Helper()
	var n int
	if err := s.r.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		tb.Fatalf("count %s: %v", table, err)
	}
	return n
}

// mustSweep runs one sweep or fails the test.
func mustSweep(tb testing.TB, s *Store) (expired, evicted int) {
	tb.Helper()
	expired, evicted, err := s.sweep(context.Background())
	if err != nil {
		tb.Fatalf("sweep: %v", err)
	}
	return expired, evicted
}

// errContains fails unless err is non-nil and mentions every part.
func errContains(tb testing.TB, err error, parts ...string) {
	tb.Helper()
	if err == nil {
		tb.Fatalf("got no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			tb.Fatalf("error %q does not mention %q", err, p)
		}
	}
}
