package vfs_test

import (
	"bufio"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/vfs"
)

func mustOpenScratch(tb testing.TB, root string) (*vfs.Manager, int) {
	tb.Helper()
	m, n, err := vfs.OpenScratch(root, vfs.DefaultLimits())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	return m, n
}

func names(tb testing.TB, dir string) []string {
	tb.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// A server's scratch left by dead servers (instance directories nobody
// holds, day-old one-shot workspaces of the older flat layout) is removed
// at start-up; a live server's directory, a fresh workspace of the older
// layout (perhaps a live older server's) and anything not ours stay.
func TestOpenScratchRemovesOnlyStaleScratch(t *testing.T) {
	root := scratchDir(t)
	for _, d := range []string{"inst-1-dead/run-aaaa/sub", "run-0123456789abcdef", "run-fresh", "keep-me", "instance-like"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-vfs.LegacyRunMinAge - time.Minute)
	if err := os.Chtimes(filepath.Join(root, "run-0123456789abcdef"), old, old); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "inst-1-dead/run-aaaa/sub/f"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "run-file.txt"), []byte("not a directory: not ours"), 0o644)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x"), 0o644)

	live, removed := mustOpenScratch(t, root)
	if removed != 2 {
		t.Fatalf("removed %d, want 2 (inst-1-dead, run-0123456789abcdef)", removed)
	}
	dir, err := live.NewWorkspace()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(filepath.Dir(dir)) != root || !strings.HasPrefix(filepath.Base(filepath.Dir(dir)), "inst-") {
		t.Fatalf("workspace %s is not in an instance directory of %s", dir, root)
	}
	// Another server starting now leaves the live one alone.
	other, removed := mustOpenScratch(t, root)
	if removed != 0 {
		t.Fatalf("a second server removed %d", removed)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("a live server's workspace went away: %v", err)
	}
	got := names(t, root)
	for _, want := range []string{"keep-me", "instance-like", "run-fresh", "run-file.txt", "notes.txt", filepath.Base(live.Root()), filepath.Base(other.Root())} {
		if !slices.Contains(got, want) {
			t.Errorf("%s went away; left: %v", want, got)
		}
	}
	if len(got) != 7 {
		t.Fatalf("left: %v", got)
	}
	// Close removes the server's own directory.
	if err := live.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live.Root()); !os.IsNotExist(err) {
		t.Fatalf("closed scratch still there: %v", err)
	}
}

// The scratch of a server killed with SIGKILL (no Close, no cleanup of its
// own) is removed by the next server; while it lives, it is not.
func TestOpenScratchAfterKill9(t *testing.T) {
	root := scratchDir(t)
	cmd := osexec.Command(os.Args[0], "-test.run=^TestScratchHelperProcess$")
	cmd.Env = append(os.Environ(), "WASMEXEC_VFS_SCRATCH_HELPER="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe() // never written: the helper waits on it
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	ws := strings.TrimSpace(strings.TrimPrefix(line, "workspace "))
	if _, err := os.Stat(filepath.Join(ws, "data.bin")); err != nil {
		t.Fatalf("helper's workspace %q: %v", line, err)
	}
	m, removed := mustOpenScratch(t, root)
	if removed != 0 {
		t.Fatalf("removed %d while the helper lives", removed)
	}
	m.Close()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(ws); err != nil {
		t.Fatalf("the killed helper's workspace should be left behind: %v", err)
	}
	_, removed = mustOpenScratch(t, root)
	if removed != 1 {
		t.Fatalf("removed %d after kill -9, want 1", removed)
	}
	if _, err := os.Stat(filepath.Dir(ws)); !os.IsNotExist(err) {
		t.Fatalf("the killed helper's scratch is still there: %v", err)
	}
}

// TestScratchHelperProcess is the server TestOpenScratchAfterKill9 kills:
// it opens the scratch, makes a workspace with a file, says where, and
// waits to be killed.
func TestScratchHelperProcess(t *testing.T) {
	root := os.Getenv("WASMEXEC_VFS_SCRATCH_HELPER")
	if root == "" {
		t.Skip("helper process for TestOpenScratchAfterKill9")
	}
	m, _, err := vfs.OpenScratch(root, vfs.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	dir, err := m.NewWorkspace()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data.bin"), make([]byte, 1<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("workspace " + dir + "\n")
	io.ReadAll(os.Stdin) // until killed
}
