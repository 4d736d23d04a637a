package contexts_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/copytree"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// sharedCopy keeps what a manager hands to the cluster: the last record
// of each context and a copy of its workspace at that moment (package
// cluster stores them in PostgreSQL).
type sharedCopy struct {
	mu        sync.Mutex
	dir       string
	records   map[string][]byte
	wsBytes   map[string]int64 // as the last Save said
	forgotten []string
	taken     map[string]bool // Register says context_conflict
}

func newSharedCopy(t *testing.T) *sharedCopy {
	return &sharedCopy{dir: t.TempDir(), records: map[string][]byte{}, wsBytes: map[string]int64{}, taken: map[string]bool{}}
}

func (s *sharedCopy) Register(_ context.Context, id, _ string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.taken[id] {
		return wasmexec.Errorf(wasmexec.EContextConflict, "context %q already exists", id)
	}
	s.taken[id] = true
	return nil
}

func (s *sharedCopy) Save(_ context.Context, id string, r *io.SectionReader, ws string, wsBytes int64) error {
	record, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wsBytes[id] = wsBytes
	dst := filepath.Join(s.dir, id)
	os.RemoveAll(dst)
	if _, err := copytree.Copy(ws, dst); err != nil {
		return err
	}
	s.records[id] = record
	return nil
}

func (s *sharedCopy) Forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgotten = append(s.forgotten, id)
	delete(s.taken, id)
}

func (s *sharedCopy) adopt(t *testing.T, m *contexts.Manager, id string) error {
	t.Helper()
	s.mu.Lock()
	rec, src := s.records[id], filepath.Join(s.dir, id)
	s.mu.Unlock()
	return m.Adopt(context.Background(), id, rec, func(dir string) error {
		_, err := copytree.Copy(src, dir)
		return err
	})
}

// A context moves between two managers (two servers) through what the
// first saved: the second adopts it with its state and workspace, and
// the first, told to drop it, stops serving it without deleting it in
// the cluster. A deletion on the new owner is a Forget.
func TestSharedAdoptAndDrop(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	shared := newSharedCopy(t)
	var moved []string
	a := openDurable(t, r, newDurableDirs(t), contexts.Config{Shared: shared, SnapshotAfter: 20 * time.Millisecond, OnMoved: func(id string) { moved = append(moved, id) }})
	defer a.Close()
	b := openDurable(t, r, newDurableDirs(t), contexts.Config{Shared: shared})
	defer b.Close()

	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "m"})
	if _, err := b.Create(context.Background(), &wasmexec.ContextSpec{ContextID: "m", Language: wasmexec.JavaScript}); wasmexec.ErrorCode(err) != wasmexec.EContextConflict {
		t.Fatalf("the same id on the other server: %v", err)
	}
	MustRun(t, a, "m", wasmexec.Request{Code: "globalThis.kept = 'state'; 1"})
	if _, err := a.WriteFile(context.Background(), "m", "f.txt", []byte("file")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "a snapshot after the run", func() bool {
		d := mustGet(t, a, "m")
		return d.StateAsOfMs > 0 && d.StateAsOfMs >= d.LastCompletedAtMs
	})
	// The save says what the workspace holds, as its quota counts it (a
	// tenant's maxWorkspaceBytes across servers).
	shared.mu.Lock()
	saved := shared.wsBytes["m"]
	shared.mu.Unlock()
	if d := mustGet(t, a, "m"); d.Workspace == nil || saved != d.Workspace.UsedBytes || saved < 4 {
		t.Fatalf("the save said the workspace holds %d bytes; its descriptor: %+v", saved, d.Workspace)
	}

	a.Drop("m")
	if _, err := tryRun(a, "m", wasmexec.Request{Code: "kept"}); wasmexec.ErrorCode(err) != wasmexec.EContextNotFound {
		t.Fatalf("a run on the server that dropped it: %v", err)
	}
	if len(moved) != 1 || len(shared.forgotten) != 0 {
		t.Fatalf("moved %v, forgotten %v: a drop is not a deletion", moved, shared.forgotten)
	}
	if err := shared.adopt(t, b, "m"); err != nil {
		t.Fatal(err)
	}
	wantValue(t, MustRun(t, b, "m", wasmexec.Request{Code: "kept"}), `"state"`)
	if data, err := b.ReadFile(context.Background(), "m", "f.txt"); err != nil || string(data) != "file" {
		t.Fatalf("workspace file after the move: %q, %v", data, err)
	}
	if err := b.Delete(context.Background(), "m"); err != nil {
		t.Fatal(err)
	}
	if len(shared.forgotten) != 1 {
		t.Fatalf("forgotten %v after the delete", shared.forgotten)
	}
}

// A record that names another context or a workspace outside its own is
// refused by Adopt (it comes from the database: still checked).
func TestSharedAdoptRefusesForeignRecords(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	shared := newSharedCopy(t)
	a := openDurable(t, r, newDurableDirs(t), contexts.Config{Shared: shared})
	defer a.Close()
	b := openDurable(t, r, newDurableDirs(t), contexts.Config{Shared: shared})
	defer b.Close()
	MustCreate(t, a, wasmexec.ContextSpec{ContextID: "one"})
	shared.mu.Lock()
	rec := shared.records["one"]
	shared.mu.Unlock()
	noop := func(string) error { return nil }
	if err := b.Adopt(context.Background(), "two", rec, noop); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Fatalf("a record of another context: %v", err)
	}
	if err := b.Adopt(context.Background(), "one", []byte("garbage"), noop); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Fatalf("garbage: %v", err)
	}
	if err := b.Adopt(context.Background(), "../x", rec, noop); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Fatalf("a bad id: %v", err)
	}
}

// Files written into a shared context outside a run, even one that never
// ran (no guest, no state), are saved with its record at the next idle
// snapshot: another server claiming it after a crash gets them, and the
// tenant's workspace bytes count on the others.
func TestSharedSavesFileChanges(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	shared := newSharedCopy(t)
	m := openDurable(t, r, newDurableDirs(t), contexts.Config{Shared: shared, SnapshotAfter: 20 * time.Millisecond})
	defer m.Close()
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "files"})
	data := strings.Repeat("z", 5000)
	if _, err := m.WriteFile(context.Background(), "files", "notes/a.txt", []byte(data)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the file change to be saved", func() bool {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		b, err := os.ReadFile(filepath.Join(shared.dir, "files", "notes", "a.txt"))
		return err == nil && string(b) == data && shared.wsBytes["files"] >= int64(len(data))
	})
	// Nothing changed since: nothing is saved again.
	shared.mu.Lock()
	delete(shared.records, "files")
	shared.mu.Unlock()
	m.IdleWork()
	shared.mu.Lock()
	_, again := shared.records["files"]
	shared.mu.Unlock()
	if again {
		t.Fatal("an unchanged context was saved again")
	}
}
