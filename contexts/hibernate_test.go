package contexts_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/vfs"
)

// durableDirs are the directories a durable manager keeps: workspaces and
// records, shared by the managers of one test (the "processes" before and
// after a restart).
type durableDirs struct{ workspaces, state string }

func newDurableDirs(tb testing.TB) durableDirs {
	root := testenv.ScratchDir(tb)
	return durableDirs{filepath.Join(root, "contexts"), filepath.Join(root, "context-state")}
}

// openDurable opens a manager over d (not closed at cleanup: the test
// closes it, as a graceful shutdown does, or leaves it, as a crash does).
func openDurable(tb testing.TB, r wasmexec.Runner, d durableDirs, cfg contexts.Config) *contexts.Manager {
	tb.Helper()
	ws, err := vfs.NewManager(d.workspaces, 0)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Runner, cfg.Workspaces, cfg.StateDir = r, ws, d.state
	m, err := contexts.Open(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func mustHibernate(tb testing.TB, m *contexts.Manager, id string) *wasmexec.Context {
	tb.Helper()
	d, err := m.Hibernate(context.Background(), id)
	if err != nil {
		tb.Fatalf("hibernate %s: %v", id, err)
	}
	if !d.Hibernated || d.SnapshotBytes <= 0 {
		tb.Fatalf("descriptor after hibernate: %+v", d)
	}
	return d
}

func TestHibernateAndRestoreOnNextRun(t *testing.T) {
	var events []string
	m := MustManager(t, contexts.Config{OnEvent: func(typ, id string) { events = append(events, typ+" "+id) }}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "h"})
	MustRun(t, m, "h", wasmexec.Request{Code: "let n = 40; const next = (() => { let k = 0; return () => ++k })(); globalThis.big = 'y'.repeat(1 << 16); 0"})
	if _, err := m.WriteFile(context.Background(), "h", "notes.txt", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	mustHibernate(t, m, "h")
	wantValue(t, MustRun(t, m, "h", wasmexec.Request{Code: "[++n, next(), big.length]"}), "[41,1,65536]")
	d := mustGet(t, m, "h")
	if d.Hibernated || d.RestoredAtMs == 0 || d.State != wasmexec.ContextIdle {
		t.Fatalf("after the run: %+v", d)
	}
	wantValue(t, MustRun(t, m, "h", wasmexec.Request{Code: "[++n, next()]"}), "[42,2]")
	if strings.Join(events, ",") != "context.hibernated h,context.restored h" {
		t.Fatalf("events: %v", events)
	}
	// Hibernating twice is a no-op; a reset of a hibernated context starts fresh.
	mustHibernate(t, m, "h")
	mustHibernate(t, m, "h")
	if _, err := m.Reset(context.Background(), "h"); err != nil {
		t.Fatal(err)
	}
	wantValue(t, MustRun(t, m, "h", wasmexec.Request{Code: "typeof n"}), `"undefined"`)
}

// A file call on a hibernated context restores it as a run does: the
// descriptor and events say so, and the state is there for the next run.
func TestFileCallWakesHibernated(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(m *contexts.Manager, id string) error
	}{
		{"write", func(m *contexts.Manager, id string) error {
			_, err := m.WriteFile(context.Background(), id, "new.txt", []byte("x"))
			return err
		}},
		{"read", func(m *contexts.Manager, id string) error {
			b, err := m.ReadFile(context.Background(), id, "notes.txt")
			if err == nil && string(b) != "kept" {
				err = fmt.Errorf("read %q", b)
			}
			return err
		}},
		{"list", func(m *contexts.Manager, id string) error {
			_, err := m.ListFiles(context.Background(), id, "")
			return err
		}},
		{"delete", func(m *contexts.Manager, id string) error {
			return m.DeleteFile(context.Background(), id, "notes.txt")
		}},
	} {
		for _, durable := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s durable=%v", tc.name, durable), func(t *testing.T) {
				var mu sync.Mutex
				var events []string
				cfg := contexts.Config{OnEvent: func(typ, id string) { mu.Lock(); events = append(events, typ); mu.Unlock() }}
				var m *contexts.Manager
				if durable {
					m = openDurable(t, MustRunner(t, testenv.RunnerConfig{}), newDurableDirs(t), cfg)
					t.Cleanup(m.Close)
				} else {
					m = MustManager(t, cfg, 0)
				}
				MustCreate(t, m, wasmexec.ContextSpec{ContextID: "f"})
				MustRun(t, m, "f", wasmexec.Request{Code: "let n = 40; 0"})
				if _, err := m.WriteFile(context.Background(), "f", "notes.txt", []byte("kept")); err != nil {
					t.Fatal(err)
				}
				mustHibernate(t, m, "f")
				if err := tc.call(m, "f"); err != nil {
					t.Fatal(err)
				}
				d := mustGet(t, m, "f")
				if d.Hibernated || d.RestoredAtMs == 0 {
					t.Fatalf("after a file call on a hibernated context: %+v", d)
				}
				mu.Lock()
				got := strings.Join(events, ",")
				mu.Unlock()
				if got != "context.hibernated,context.restored" {
					t.Fatalf("events: %s", got)
				}
				wantValue(t, MustRun(t, m, "f", wasmexec.Request{Code: "++n"}), "41")
			})
		}
	}
}

func TestHibernateConflicts(t *testing.T) {
	live := 0
	m := MustManager(t, contexts.Config{LiveProcesses: func(string) int { return live }}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "busy"})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tryRun(m, "busy", wasmexec.Request{Code: "const t0 = Date.now(); while (Date.now() - t0 < 3000) {}"})
	}()
	waitFor(t, 10*time.Second, "the run to start", func() bool { return mustGet(t, m, "busy").State == wasmexec.ContextRunning })
	_, err := m.Hibernate(context.Background(), "busy")
	wantCode(t, err, wasmexec.EConflict)
	<-done
	live = 1
	_, err = m.Hibernate(context.Background(), "busy")
	wantCode(t, err, wasmexec.EConflict)
	if d := mustGet(t, m, "busy"); d.Hibernated || !strings.Contains(d.Notice, "live process") {
		t.Fatalf("descriptor: %+v", d)
	}
	_, err = m.Hibernate(context.Background(), "nope")
	wantCode(t, err, wasmexec.EContextNotFound)
}

func TestHibernateAfterIdle(t *testing.T) {
	m := MustManager(t, contexts.Config{HibernateAfter: 50 * time.Millisecond}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "idle"})
	MustRun(t, m, "idle", wasmexec.Request{Code: "var kept = 'yes'"})
	waitFor(t, 20*time.Second, "the idle context to hibernate", func() bool { return mustGet(t, m, "idle").Hibernated })
	wantValue(t, MustRun(t, m, "idle", wasmexec.Request{Code: "kept"}), `"yes"`)
}

func TestForkDiverges(t *testing.T) {
	// In memory, and with a state dir, where the fork's state goes
	// through an unnamed file it is restored from.
	t.Run("in memory", func(t *testing.T) { testForkDiverges(t, MustManager(t, contexts.Config{}, 0)) })
	t.Run("through a file", func(t *testing.T) {
		m := openDurable(t, MustRunner(t, testenv.RunnerConfig{}), newDurableDirs(t), contexts.Config{})
		t.Cleanup(m.Close)
		testForkDiverges(t, m)
	})
}

func testForkDiverges(t *testing.T, m *contexts.Manager) {
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "src", Env: map[string]string{"WHO": "me"}})
	MustRun(t, m, "src", wasmexec.Request{Code: "var x = 1; var r0 = Math.random(); 0"})
	if _, err := m.WriteFile(context.Background(), "src", "a.txt", []byte("A")); err != nil {
		t.Fatal(err)
	}
	mustHibernate(t, m, "src") // a fork of a hibernated context wakes it first
	d, err := m.Fork(context.Background(), "src", &wasmexec.ForkSpec{ContextID: "fork"})
	if err != nil {
		t.Fatal(err)
	}
	if d.ContextID != "fork" || d.Language != wasmexec.JavaScript {
		t.Fatalf("fork descriptor: %+v", d)
	}
	wantValue(t, MustRun(t, m, "fork", wasmexec.Request{Code: "x += 10; [x, process.env.WHO]"}), `[11,"me"]`)
	wantValue(t, MustRun(t, m, "src", wasmexec.Request{Code: "x"}), "1")
	if b, err := m.ReadFile(context.Background(), "fork", "a.txt"); err != nil || string(b) != "A" {
		t.Fatalf("the fork's copy of a.txt: %q, %v", b, err)
	}
	if _, err := m.WriteFile(context.Background(), "fork", "a.txt", []byte("B")); err != nil {
		t.Fatal(err)
	}
	if b, _ := m.ReadFile(context.Background(), "src", "a.txt"); string(b) != "A" {
		t.Fatalf("a write in the fork reached the source: %q", b)
	}
	// Fresh entropy: the fork's next random number is not the source's.
	a := MustRun(t, m, "src", wasmexec.Request{Code: "Math.random()"})
	b := MustRun(t, m, "fork", wasmexec.Request{Code: "Math.random()"})
	if string(a.Value) == string(b.Value) {
		t.Fatalf("source and fork drew the same random number %s", a.Value)
	}
	_, err = m.Fork(context.Background(), "src", &wasmexec.ForkSpec{ContextID: "fork"})
	wantCode(t, err, wasmexec.EContextConflict)
	_, err = m.Fork(context.Background(), "src", &wasmexec.ForkSpec{ContextID: "bad id!"})
	wantCode(t, err, wasmexec.EInvalid)
	_, err = m.Fork(context.Background(), "missing", nil)
	wantCode(t, err, wasmexec.EContextNotFound)
	d2, err := m.Fork(context.Background(), "fork", nil)
	if err != nil || !strings.HasPrefix(d2.ContextID, "ctx_") {
		t.Fatalf("fork with a generated id: %+v, %v", d2, err)
	}
	wantValue(t, MustRun(t, m, d2.ContextID, wasmexec.Request{Code: "x"}), "11")
}

// After a graceful shutdown every context is listed again by the next
// manager, with its state, its workspace, its counters and its idle TTL.
func TestDurableAcrossRestart(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	d := newDurableDirs(t)
	a := openDurable(t, r, d, contexts.Config{SnapshotAfter: 20 * time.Millisecond})
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "js"})
	MustRun(t, a, "js", wasmexec.Request{Code: "var saved = [1, 2, 3]; function sum() { return saved.reduce((x, y) => x + y) }"})
	if _, err := a.WriteFile(context.Background(), "js", "w.txt", []byte("workspace")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "a snapshot after the run", func() bool { return mustGet(t, a, "js").StateAsOfMs > 0 })
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "never-ran"})
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "unpinned", Language: ""})
	MustRun(t, a, "js", wasmexec.Request{Code: "saved.push(4); 0"}) // snapshotted at the shutdown
	a.Close()

	b := openDurable(t, r, d, contexts.Config{})
	defer b.Close()
	list, _ := b.List(context.Background())
	if len(list) != 3 {
		t.Fatalf("listed after the restart: %d contexts (%+v)", len(list), list)
	}
	got := mustGet(t, b, "js")
	if !got.Hibernated || got.StateAsOfMs == 0 || got.Runs != 2 {
		t.Fatalf("js after the restart: %+v", got)
	}
	wantValue(t, MustRun(t, b, "js", wasmexec.Request{Code: "sum()"}), "10")
	if got := mustGet(t, b, "js"); got.RestoredAtMs == 0 || got.Notice != "" {
		t.Fatalf("js after its first run: %+v", got)
	}
	if data, err := b.ReadFile(context.Background(), "js", "w.txt"); err != nil || string(data) != "workspace" {
		t.Fatalf("workspace file: %q, %v", data, err)
	}
	wantValue(t, MustRun(t, b, "never-ran", wasmexec.Request{Code: "1+1"}), "2")
	wantValue(t, MustRun(t, b, "unpinned", wasmexec.Request{Code: "'pinned now'"}), `"pinned now"`)
}

func TestDurablePython(t *testing.T) {
	if !hasPython() {
		t.Skip("the Python guest image is not built")
	}
	r := MustRunner(t, testenv.RunnerConfig{})
	d := newDurableDirs(t)
	a := openDurable(t, r, d, contexts.Config{})
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "py", Language: wasmexec.Python})
	MustRun(t, a, "py", wasmexec.Request{Language: wasmexec.Python, Code: "import statistics\nsamples = [3, 1, 2]\ngen = iter(range(5))\nnext(gen)"})
	a.Close()
	b := openDurable(t, r, d, contexts.Config{})
	defer b.Close()
	wantValue(t, MustRun(t, b, "py", wasmexec.Request{Language: wasmexec.Python, Code: "[statistics.median(samples), next(gen)]"}), "[2,1]")
}

// Corrupt, truncated and foreign records never stop the manager: their
// contexts come back fresh with their workspaces and a notice; the others
// are unaffected.
func TestDurableCorruptRecords(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	d := newDurableDirs(t)
	a := openDurable(t, r, d, contexts.Config{})
	ids := []string{"flipped-state", "flipped-meta", "truncated", "truncated-tiny", "good"}
	for _, id := range ids {
		MustCreate(t, a, wasmexec.ContextSpec{ContextID: id})
		MustRun(t, a, id, wasmexec.Request{Code: "var v = " + jsString(id)})
		if _, err := a.WriteFile(context.Background(), id, "f.txt", []byte(id)); err != nil {
			t.Fatal(err)
		}
	}
	a.Close()
	rec := func(id string) string { return filepath.Join(d.state, id+".ctx") }
	damage := func(id string, f func([]byte) []byte) {
		b, err := os.ReadFile(rec(id))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(rec(id), f(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	damage("flipped-state", func(b []byte) []byte { b[len(b)*2/3] ^= 0xff; return b })
	damage("flipped-meta", func(b []byte) []byte { b[14] ^= 0xff; return b })
	damage("truncated", func(b []byte) []byte { return b[:len(b)/2] })
	damage("truncated-tiny", func(b []byte) []byte { return b[:5] })
	if err := os.WriteFile(rec("foreign"), []byte("#!/bin/sh\necho not a snapshot\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	b := openDurable(t, r, d, contexts.Config{})
	defer b.Close()
	wantValue(t, MustRun(t, b, "good", wasmexec.Request{Code: "v"}), `"good"`)
	if _, err := b.Get(context.Background(), "foreign"); wasmexec.ErrorCode(err) != wasmexec.EContextNotFound {
		t.Fatalf("a foreign file in the state dir became a context: %v", err)
	}
	for _, id := range ids[:4] {
		res := MustRun(t, b, id, wasmexec.Request{Code: "typeof v"})
		wantValue(t, res, `"undefined"`)
		got := mustGet(t, b, id)
		if !strings.HasPrefix(got.Notice, "restored fresh") {
			t.Fatalf("%s: notice %q", id, got.Notice)
		}
		if data, err := b.ReadFile(context.Background(), id, "f.txt"); err != nil || string(data) != id {
			t.Fatalf("%s: workspace file %q, %v", id, data, err)
		}
		t.Logf("%s: %s", id, got.Notice)
	}
}

// An unwritable state dir keeps contexts live; the failures are counted.
func TestDurableUnwritableStateDir(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	d := newDurableDirs(t)
	a := openDurable(t, r, d, contexts.Config{})
	defer a.Close()
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "w"})
	MustRun(t, a, "w", wasmexec.Request{Code: "var v = 5"})
	// The directory becomes a file: every write fails, even as root.
	if err := os.RemoveAll(d.state); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.state, []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := a.Hibernate(context.Background(), "w")
	wantCode(t, err, wasmexec.EInternal)
	if a.SnapshotErrors() == 0 {
		t.Fatal("the failed write was not counted")
	}
	got := mustGet(t, a, "w")
	if got.Hibernated || !strings.Contains(got.Notice, "snapshot not written") {
		t.Fatalf("descriptor: %+v", got)
	}
	wantValue(t, MustRun(t, a, "w", wasmexec.Request{Code: "v"}), "5")
}

// Idle expiry counts from the last use, across a restart.
func TestDurableIdleTTLAcrossRestart(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	d := newDurableDirs(t)
	a := openDurable(t, r, d, contexts.Config{})
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "old"})
	MustRun(t, a, "old", wasmexec.Request{Code: "1"})
	a.Close()
	later := func() time.Time { return time.Now().Add(2 * time.Hour) }
	b := openDurable(t, r, d, contexts.Config{IdleTTL: time.Hour, SweepInterval: time.Hour, Now: later})
	defer b.Close()
	if got := mustGet(t, b, "old"); got.IdleExpiresAtMs == 0 || got.IdleExpiresAtMs > time.Now().Add(time.Hour+time.Minute).UnixMilli() {
		t.Fatalf("idle expiry after the restart: %+v", got)
	}
	if n := b.Sweep(); n != 1 {
		t.Fatalf("swept %d, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(d.state, "old.ctx")); !os.IsNotExist(err) {
		t.Fatalf("the record of an expired context: %v", err)
	}
}

// A guest holding a file open is not captured: hibernation is refused
// with the reason in the descriptor, and works once the file is closed.
func TestHibernateOpenFiles(t *testing.T) {
	if !hasPython() {
		t.Skip("the Python guest image is not built")
	}
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "files", Language: wasmexec.Python})
	MustRun(t, m, "files", wasmexec.Request{Language: wasmexec.Python, Code: "f = open('/workspace/held.txt', 'w')\nf.write('x')"})
	_, err := m.Hibernate(context.Background(), "files")
	wantCode(t, err, wasmexec.EConflict)
	if d := mustGet(t, m, "files"); d.Hibernated || !strings.Contains(d.Notice, "open file") {
		t.Fatalf("descriptor with a file open: %+v", d)
	}
	MustRun(t, m, "files", wasmexec.Request{Language: wasmexec.Python, Code: "f.close()"})
	mustHibernate(t, m, "files")
	wantValue(t, MustRun(t, m, "files", wasmexec.Request{Language: wasmexec.Python, Code: "open('/workspace/held.txt').read()"}), `"x"`)
}

// A fork waits for the run in progress, like a run queued behind it, and
// gets the state that run left.
func TestForkWaitsItsTurn(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "slow"})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tryRun(m, "slow", wasmexec.Request{Code: "const t0 = Date.now(); while (Date.now() - t0 < 1500) {} globalThis.finished = true"})
	}()
	waitFor(t, 10*time.Second, "the run to start", func() bool { return mustGet(t, m, "slow").State == wasmexec.ContextRunning })
	if _, err := m.Fork(context.Background(), "slow", &wasmexec.ForkSpec{ContextID: "after"}); err != nil {
		t.Fatal(err)
	}
	<-done
	wantValue(t, MustRun(t, m, "after", wasmexec.Request{Code: "globalThis.finished === true"}), "true")
}

// The tenant that created a context (or forked it) is kept in its record:
// after a restart the server's tenancy guard gets it from Owners.
func TestDurableOwners(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	d := newDurableDirs(t)
	a := openDurable(t, r, d, contexts.Config{})
	ctx := wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: "acme"})
	if _, err := a.Create(ctx, &wasmexec.ContextSpec{ContextID: "mine", Language: wasmexec.JavaScript}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Fork(wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: "other"}), "mine", &wasmexec.ForkSpec{ContextID: "theirs"}); err != nil {
		t.Fatal(err)
	}
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "open"})
	a.Close()
	b := openDurable(t, r, d, contexts.Config{})
	defer b.Close()
	got := b.Owners()
	if len(got) != 2 || got["mine"] != "acme" || got["theirs"] != "other" {
		t.Fatalf("owners after a restart: %v", got)
	}
}

// A context snapshotted since its last run and unused since hibernates
// without a new capture: its record is not rewritten, and it comes back
// with its state. One used after its snapshot is captured again.
func TestHibernateAfterSnapshotKeepsTheRecord(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	d := newDurableDirs(t)
	m := openDurable(t, MustRunner(t, testenv.RunnerConfig{}), d, contexts.Config{Now: clock, SnapshotAfter: time.Second, HibernateAfter: time.Hour})
	defer m.Close()
	for _, id := range []string{"quiet", "used"} {
		MustCreate(t, m, wasmexec.ContextSpec{ContextID: id})
		MustRun(t, m, id, wasmexec.Request{Code: "var v = 41"})
	}
	now.Add(int64(2 * time.Second))
	m.IdleWork() // the idle snapshots
	stat := func(id string) os.FileInfo {
		fi, err := os.Stat(filepath.Join(d.state, id+".ctx"))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	before := map[string]os.FileInfo{"quiet": stat("quiet"), "used": stat("used")}
	for _, id := range []string{"quiet", "used"} {
		if mustGet(t, m, id).StateAsOfMs == 0 {
			t.Fatalf("%s was not snapshotted", id)
		}
	}
	now.Add(int64(time.Second))
	if _, err := m.WriteFile(context.Background(), "used", "f.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	mustHibernate(t, m, "quiet")
	mustHibernate(t, m, "used")
	if !os.SameFile(before["quiet"], stat("quiet")) {
		t.Fatal("the record of a context unchanged since its snapshot was written again")
	}
	if os.SameFile(before["used"], stat("used")) {
		t.Fatal("the record of a context used since its snapshot was not written again")
	}
	for _, id := range []string{"quiet", "used"} {
		wantValue(t, MustRun(t, m, id, wasmexec.Request{Code: "++v"}), "42")
	}
}

// A large state is written at a page-aligned offset of its record, and a
// wake maps its pages from the record (the process maps the file) rather
// than reading it; a snapshot written while a guest maps the record
// replaces it without disturbing that guest, and every wake and restart
// brings back the state as of the last snapshot.
func TestLargeStateMappedFromRecord(t *testing.T) {
	d := newDurableDirs(t)
	r := MustRunner(t, testenv.RunnerConfig{})
	m := openDurable(t, r, d, contexts.Config{HibernateAfter: time.Hour})
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "big"})
	first := MustRun(t, m, "big", wasmexec.Request{Code: `globalThis.data = new Uint8Array(4 << 20);
		globalThis.c = require("crypto");
		for (let i = 0; i < 64; i++) c.getRandomValues(data.subarray(i << 16, (i + 1) << 16));
		globalThis.digest = () => c.createHash("sha256").update(data).digest("hex");
		digest()`})
	record := filepath.Join(d.state, "big.ctx")
	mustHibernate(t, m, "big")
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if n := 8 + 4 + int(binary.LittleEndian.Uint32(b[8:])) + 4; n%4096 != 0 {
		t.Fatalf("the state starts at offset %d of its record, not on a page", n)
	}
	wantValue(t, MustRun(t, m, "big", wasmexec.Request{Code: "digest()"}), string(first.Value))
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	if !strings.Contains(string(maps), record) {
		t.Fatal("the woken guest does not map its record")
	}
	second := MustRun(t, m, "big", wasmexec.Request{Code: "data.fill(1, 0, 1 << 20); digest()"})
	if string(second.Value) == string(first.Value) {
		t.Fatal("the write changed nothing")
	}
	// A fork is restored from an unnamed file its state was written to,
	// and maps it too; the two diverge.
	if _, err := m.Fork(context.Background(), "big", &wasmexec.ForkSpec{ContextID: "fork"}); err != nil {
		t.Fatal(err)
	}
	if maps, _ := os.ReadFile("/proc/self/maps"); !strings.Contains(string(maps), ".tmp-fork-") {
		t.Fatal("the fork does not map its state's file")
	}
	wantValue(t, MustRun(t, m, "fork", wasmexec.Request{Code: "digest()"}), string(second.Value))
	if got := MustRun(t, m, "fork", wasmexec.Request{Code: "data.fill(2); digest()"}); string(got.Value) == string(second.Value) {
		t.Fatal("the fork's write changed nothing")
	}
	mustHibernate(t, m, "big") // a new record, renamed over the mapped one
	wantValue(t, MustRun(t, m, "big", wasmexec.Request{Code: "digest()"}), string(second.Value))
	m.Close()
	m = openDurable(t, r, d, contexts.Config{HibernateAfter: time.Hour})
	defer m.Close()
	wantValue(t, MustRun(t, m, "big", wasmexec.Request{Code: "digest()"}), string(second.Value))
}
