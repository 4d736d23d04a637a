package contexts_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/vfs"
)

// Files uploaded through the API are visible to the code at /workspace
// (its cwd), files the code writes come back through the API, and both
// persist across runs.
func TestWorkspaceFilesVisible(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "w"})
	ctx := context.Background()
	e, err := m.WriteFile(ctx, "w", "a.txt", []byte("hello"))
	if err != nil || e.Path != "a.txt" || e.Size != 5 || e.Type != "file" {
		t.Fatalf("write: %+v %v", e, err)
	}
	wantValue(t, MustRun(t, m, "w", wasmexec.Request{Code: "[fs.readFileSync('a.txt', 'utf8'), fs.readFileSync('/workspace/a.txt', 'utf8'), __dirname]"}), `["hello","hello","/workspace"]`)
	MustRun(t, m, "w", wasmexec.Request{Code: "fs.mkdirSync('out/deep', {recursive: true}); fs.writeFileSync('out/deep/r.json', JSON.stringify({n: 1}))"})
	b, err := m.ReadFile(ctx, "w", "/workspace/out/deep/r.json")
	if err != nil || string(b) != `{"n":1}` {
		t.Fatalf("read back: %q %v", b, err)
	}
	es, err := m.ListFiles(ctx, "w", "")
	if err != nil || len(es) != 2 || es[0].Path != "a.txt" || es[1].Path != "out" || es[1].Type != "dir" {
		t.Fatalf("list: %+v %v", es, err)
	}
	es, err = m.ListFiles(ctx, "w", "out/deep")
	if err != nil || len(es) != 1 || es[0].Path != "out/deep/r.json" {
		t.Fatalf("list out/deep: %+v %v", es, err)
	}
	if err := m.DeleteFile(ctx, "w", "out"); err != nil {
		t.Fatal(err)
	}
	wantValue(t, MustRun(t, m, "w", wasmexec.Request{Code: "fs.existsSync('out')"}), "false")
	// A run's files land in the workspace before it starts, and stay.
	wantValue(t, MustRun(t, m, "w", wasmexec.Request{Code: "fs.readFileSync('in/seed.txt', 'utf8')", Files: map[string]string{"in/seed.txt": "seeded"}}), `"seeded"`)
	wantValue(t, MustRun(t, m, "w", wasmexec.Request{Code: "fs.readdirSync('in')"}), `["seed.txt"]`)
	if d := mustGet(t, m, "w"); d.Workspace == nil || d.Workspace.UsedBytes != 11+vfs.DefaultEntryBytes { // a.txt, in/seed.txt and the directory in
		t.Fatalf("usage: %+v", d.Workspace)
	}
	for _, tc := range []struct {
		name, op, path string
		code           string
	}{
		{"read missing", "read", "nope.txt", wasmexec.ENotFound},
		{"read a directory", "read", "in", wasmexec.EInvalid},
		{"list a file", "list", "a.txt", wasmexec.EInvalid},
		{"list missing", "list", "nope", wasmexec.ENotFound},
		{"delete missing", "delete", "nope", wasmexec.ENotFound},
		{"delete the root", "delete", "", wasmexec.EInvalid},
		{"write over a directory", "write", "in", wasmexec.EConflict},
		{"write under a file", "write", "a.txt/x", wasmexec.EConflict},
		{"write the root", "write", "/workspace", wasmexec.EInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			switch tc.op {
			case "read":
				_, err = m.ReadFile(ctx, "w", tc.path)
			case "list":
				_, err = m.ListFiles(ctx, "w", tc.path)
			case "delete":
				err = m.DeleteFile(ctx, "w", tc.path)
			case "write":
				_, err = m.WriteFile(ctx, "w", tc.path, []byte("x"))
			}
			wantCode(t, err, tc.code)
		})
	}
	_, err = m.ReadFile(ctx, "nope", "a.txt")
	wantCode(t, err, wasmexec.EContextNotFound)
}

// Paths are confined: "..", absolute paths outside /workspace, NUL bytes
// and symlinks (here planted on the host, as a guest with symlink support
// could) are all invalid_argument, for the API and for a run's files; the
// guest can't follow the symlink out either.
func TestPathConfinement(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "p"})
	ctx := context.Background()
	dir, _ := m.WorkspaceDir("p")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("host secret"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "secret-link")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := os.Symlink("../..", filepath.Join(dir, "sub", "up")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../x", "a/../../x", "..", "/etc/passwd", "/workspace/../etc/passwd", "/workspacex/a", "a\x00b", "out/secret", "secret-link", "sub/up/x", "out", strings.Repeat("a", 300)} {
		t.Run(p, func(t *testing.T) {
			_, err := m.ReadFile(ctx, "p", p)
			wantCode(t, err, wasmexec.EInvalid)
			_, err = m.WriteFile(ctx, "p", p, []byte("x"))
			wantCode(t, err, wasmexec.EInvalid)
			if p != "out" && p != "secret-link" { // a symlink itself may be deleted
				wantCode(t, m.DeleteFile(ctx, "p", p), wasmexec.EInvalid)
			}
			_, err = tryRun(m, "p", wasmexec.Request{Code: "1", Files: map[string]string{p: "x"}})
			wantCode(t, err, wasmexec.EInvalid)
		})
	}
	_, err := m.ListFiles(ctx, "p", "out")
	wantCode(t, err, wasmexec.EInvalid)
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "host secret" {
		t.Fatalf("the host file changed: %q", b)
	}
	if des, _ := os.ReadDir(outside); len(des) != 1 {
		t.Fatalf("files appeared outside: %v", des)
	}
	es, _ := m.ListFiles(ctx, "p", "")
	types := map[string]string{}
	for _, e := range es {
		types[e.Path] = e.Type
	}
	if types["out"] != "symlink" || types["secret-link"] != "symlink" {
		t.Fatalf("listing: %+v", es)
	}
	// The guest can't follow them out either (wasmtime's WASI confines
	// every path to its preopens).
	for _, p := range []string{"out/secret", "secret-link", "/workspace/out/secret", "sub/up/etc/hostname"} {
		res := MustRun(t, m, "p", wasmexec.Request{Code: "fs.readFileSync(" + jsString(p) + ", 'utf8')"})
		if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeException {
			t.Errorf("guest read %s: %s %s", p, res.Outcome, res.Value)
		}
	}
	res := MustRun(t, m, "p", wasmexec.Request{Code: "try { fs.writeFileSync('out/planted', 'x'); 'written' } catch (e) { 'refused' }"})
	wantValue(t, res, `"refused"`)
	// Deleting a symlink removes the link, not its target.
	if err := m.DeleteFile(ctx, "p", "out"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "secret")); err != nil {
		t.Fatalf("the target was removed: %v", err)
	}
}

// Uploads are checked against the quota before they land (413); a run that
// leaves the workspace over it fails with quota_exceeded, and the bytes it
// added are rolled back while the guest and its state stay.
func TestQuota(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 1000)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "q"})
	ctx := context.Background()
	if _, err := m.WriteFile(ctx, "q", "base.txt", []byte(strings.Repeat("b", 600))); err != nil {
		t.Fatal(err)
	}
	_, err := m.WriteFile(ctx, "q", "more.txt", []byte(strings.Repeat("m", 500)))
	wantCode(t, err, wasmexec.ETooLarge)
	// Replacing a file counts only the difference.
	if _, err := m.WriteFile(ctx, "q", "base.txt", []byte(strings.Repeat("c", 900))); err != nil {
		t.Fatal(err)
	}
	if _, err := m.WriteFile(ctx, "q", "base.txt", []byte(strings.Repeat("b", 600))); err != nil {
		t.Fatal(err)
	}
	_, err = tryRun(m, "q", wasmexec.Request{Code: "1", Files: map[string]string{"f.txt": strings.Repeat("f", 500)}})
	wantCode(t, err, wasmexec.ETooLarge)

	MustRun(t, m, "q", wasmexec.Request{Code: "x = 41; fs.writeFileSync('log.txt', 'start\\n')"})
	res := MustRun(t, m, "q", wasmexec.Request{Code: "fs.mkdirSync('new/dir', {recursive: true}); fs.writeFileSync('new/dir/big.bin', 'z'.repeat(300)); fs.appendFileSync('log.txt', 'y'.repeat(200)); x += 1; 'done'"})
	if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeQuotaExceeded || res.ContextReset || res.Value != nil {
		t.Fatalf("over quota: %s %+v reset=%v value=%s", res.Outcome, res.Error, res.ContextReset, res.Value)
	}
	t.Logf("details: %v", res.Error.Details)
	if removed := res.Error.Details["removed"].([]string); strings.Join(removed, ",") != "new/,new/dir/,new/dir/big.bin" {
		t.Fatalf("removed %v", removed)
	}
	if tr := res.Error.Details["truncated"].([]string); len(tr) != 1 || tr[0] != "log.txt" {
		t.Fatalf("truncated %v", tr)
	}
	// The files are as before the run; the guest's state is not rolled back.
	wantValue(t, MustRun(t, m, "q", wasmexec.Request{Code: "[fs.existsSync('new'), fs.readFileSync('log.txt', 'utf8'), x]"}), `[false,"start\n",42]`)
	if d := mustGet(t, m, "q"); d.Workspace.UsedBytes != 606 || d.Workspace.QuotaBytes != 1000 || d.State != wasmexec.ContextIdle {
		t.Fatalf("descriptor: %+v %+v", d, d.Workspace)
	}
	// Within the quota, a run's writes stay.
	wantValue(t, MustRun(t, m, "q", wasmexec.Request{Code: "fs.writeFileSync('small.txt', 'x'.repeat(100)); 1"}), "1")
	if b, err := m.ReadFile(ctx, "q", "small.txt"); err != nil || len(b) != 100 {
		t.Fatalf("small.txt: %d %v", len(b), err)
	}
	// A file replaced by the run (deleted and re-created) loses the bytes
	// it added: removed when it got a new inode, cut back when the file
	// system reused the old one.
	res = MustRun(t, m, "q", wasmexec.Request{Code: "fs.unlinkSync('small.txt'); fs.writeFileSync('small.txt', 'x'.repeat(500)); 1"})
	if res.Error == nil || res.Error.Code != wasmexec.CodeQuotaExceeded {
		t.Fatalf("replaced: %s %+v", res.Outcome, res.Error)
	}
	if b, err := m.ReadFile(ctx, "q", "small.txt"); !(wasmexec.ErrorCode(err) == wasmexec.ENotFound || len(b) == 100) {
		t.Fatalf("small.txt after rollback: %d bytes, %v", len(b), err)
	}
}

// A file uploaded while a run is going on is not rolled back by that run.
func TestQuotaKeepsUploadsDuringRun(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 1000)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "u"})
	ctx := context.Background()
	done := make(chan *wasmexec.Result)
	go func() {
		done <- MustRun(t, m, "u", wasmexec.Request{Code: "await new Promise(r => setTimeout(r, 300)); fs.writeFileSync('big', 'z'.repeat(900))"})
	}()
	waitFor(t, 5*time.Second, "running", func() bool { return mustGet(t, m, "u").State == wasmexec.ContextRunning })
	if _, err := m.WriteFile(ctx, "u", "up.txt", []byte(strings.Repeat("u", 200))); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Error == nil || res.Error.Code != wasmexec.CodeQuotaExceeded {
		t.Fatalf("run: %s %+v", res.Outcome, res.Error)
	}
	if b, err := m.ReadFile(ctx, "u", "up.txt"); err != nil || len(b) != 200 {
		t.Fatalf("upload: %d %v", len(b), err)
	}
	if _, err := m.ReadFile(ctx, "u", "big"); wasmexec.ErrorCode(err) != wasmexec.ENotFound {
		t.Fatalf("big: %v", err)
	}
}
