package npm_test

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/npm"
	"github.com/wasmexec/wasmexec/vfs"
)

// A registry is an attacker: whoever can publish to the configured one
// chooses every name in its documents. A dependency name that is not a
// package name is refused, naming the package that brought it and the
// field, before anything is written; before, it was joined onto
// node_modules as it was, and "../../../x" put a package's files
// wherever the server's user can write.
func TestHostileDependencyNames(t *testing.T) {
	for i, tc := range []struct {
		name string
		dep  string
		ok   bool // a legitimate name, installed
	}{
		{name: "parent", dep: "../x"},
		{name: "out of the workspace", dep: "../../../escaped"},
		{name: "the red team's", dep: "../../../../tmp/x/npm-escape"},
		{name: "dot dot", dep: ".."},
		{name: "dot", dep: "."},
		{name: "absolute", dep: "/abs"},
		{name: "scoped parent", dep: "@scope/../x"},
		{name: "scoped dot dot", dep: "@scope/.."},
		{name: "scope dot dot", dep: "@../x"},
		{name: "scope without name", dep: "@scope"},
		{name: "two levels", dep: "a/b"},
		{name: "three scoped levels", dep: "@a/b/c"},
		{name: "hidden", dep: ".hidden"},
		{name: "underscore", dep: "_private"},
		{name: "node_modules", dep: "node_modules"},
		{name: "node_modules any case", dep: "Node_Modules"},
		{name: "percent-encoded dots", dep: "%2e%2e"},
		{name: "percent-encoded slash", dep: "..%2fx"},
		{name: "NUL", dep: "a\x00b"},
		{name: "backslash", dep: `..\..\x`},
		{name: "space", dep: "a b"},
		{name: "colon", dep: "c:x"},
		{name: "empty", dep: ""},
		{name: "too long", dep: strings.Repeat("a", 215)},
		{name: "longest", dep: strings.Repeat("a", 214), ok: true},
		{name: "capitals of old packages", dep: "JSONStream", ok: true},
		{name: "scoped", dep: "@scope/fine.js", ok: true},
		{name: "old punctuation", dep: "a-b_c.d~e!f'g(h)i*", ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry(t)
			parent := fmt.Sprintf("evil-%d", i)
			reg.Add(t, Pkg{Name: parent, Version: "1.0.0", Deps: map[string]string{tc.dep: "1.0.0"}})
			reg.Add(t, Pkg{Name: tc.dep, Version: "1.0.0", Files: map[string]string{"pwned.txt": "pwned"}})
			// The workspace is two levels down so that what climbs out of
			// node_modules lands where the test can see it.
			root := t.TempDir()
			dir := filepath.Join(root, "a", "ws")
			os.MkdirAll(dir, 0o755)
			c := &npm.Client{Registry: reg.URL, CacheDir: filepath.Join(root, "cache")}
			_, err := c.Install(context.Background(), dir, npm.Options{Packages: []string{parent}})
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(filepath.Join(dir, "node_modules", tc.dep, "pwned.txt")); err != nil {
					t.Fatal(err)
				}
				return
			}
			var e *npm.Error
			want := "dependencies: " + strconv.Quote(tc.dep) + " is not a package name"
			if !errors.As(err, &e) || e.Package != parent+"@1.0.0" || !strings.Contains(e.Reason, want) {
				t.Errorf("err = %v, want %s@1.0.0: …%s…", err, parent, want)
			}
			if found := findFiles(t, root, "pwned.txt"); len(found) > 0 {
				t.Errorf("the dependency was written: %v", found)
			}
		})
	}
	// What the red team's name would have hit, had it been followed.
	if _, err := os.Stat("/tmp/x/npm-escape"); err == nil {
		t.Log("/tmp/x/npm-escape exists (left by an earlier run of the unfixed code?)")
	}
}

// The project's own package.json is the workspace's, which its guests
// write: its dependency names are checked like a registry's.
func TestHostileProjectDependencyNames(t *testing.T) {
	reg := NewRegistry(t)
	reg.Add(t, Pkg{Name: "../../../escaped", Version: "1.0.0", Files: map[string]string{"pwned.txt": "pwned"}})
	for _, tc := range []struct {
		name, pkgJSON, want string
	}{
		{"dependencies", `{"dependencies": {"../../../escaped": "1.0.0"}}`, `dependencies: "../../../escaped" is not a package name`},
		{"devDependencies", `{"devDependencies": {"../../../escaped": "1.0.0"}}`, `devDependencies: "../../../escaped" is not a package name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "a", "ws")
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(tc.pkgJSON), 0o644)
			c := &npm.Client{Registry: reg.URL, CacheDir: filepath.Join(root, "cache")}
			_, err := c.Install(context.Background(), dir, npm.Options{})
			var e *npm.Error
			if !errors.As(err, &e) || e.Package != "package.json" || !strings.Contains(e.Reason, tc.want) {
				t.Errorf("err = %v, want package.json: …%s…", err, tc.want)
			}
			if found := findFiles(t, root, "pwned.txt"); len(found) > 0 {
				t.Errorf("the dependency was written: %v", found)
			}
		})
	}
}

// A registry's document must be about what it was asked for: its name and
// version, and its versions' names and versions, are checked.
func TestHostilePackuments(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch func(doc, version map[string]any)
		pkg   string
		want  string
	}{
		{"packument named otherwise", func(doc, _ map[string]any) { doc["name"] = "../../../escaped" }, "victim", `the registry's document is for "../../../escaped"`},
		{"version named otherwise", func(_, v map[string]any) { v["name"] = "../../../escaped" }, "victim@1.0.0", `names the package "../../../escaped"`},
		{"version of another version", func(_, v map[string]any) { v["version"] = "../../x" }, "victim@1.0.0", `is version "../../x"`},
		{"version key not semver", func(doc, v map[string]any) {
			vs := doc["versions"].(map[string]any)
			delete(vs, "1.0.0")
			vs["../../x"] = v
			v["version"] = "../../x"
			doc["dist-tags"] = map[string]any{"latest": "../../x"}
		}, "victim@../../x", `version "../../x" is not a semver version`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry(t, Pkg{Name: "victim", Version: "1.0.0", Patch: tc.patch})
			_, err := newClient(t, reg).Install(context.Background(), t.TempDir(), npm.Options{Packages: []string{"victim"}})
			var e *npm.Error
			if !errors.As(err, &e) || e.Package != tc.pkg || !strings.Contains(e.Reason, tc.want) {
				t.Errorf("err = %v, want %s: …%s…", err, tc.pkg, tc.want)
			}
		})
	}
}

// Tarball entries that would leave the package, or be anything but a
// directory or a regular file, are refused; the workspace and the cache's
// surroundings are untouched.
func TestHostileTarballEntries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []tarEntry
		want    string
	}{
		{"parent", []tarEntry{{name: "package/../../x"}}, "escapes the package"},
		{"parent below", []tarEntry{{name: "package/a/../../../x"}}, "escapes the package"},
		{"parent as the first part", []tarEntry{{name: "../pwned.txt"}}, "escapes the package"},
		{"absolute", []tarEntry{{name: "/tmp/pwned.txt"}}, "absolute path"},
		{"backslash", []tarEntry{{name: `package\..\..\pwned.txt`}}, "absolute path"},
		{"symlink", []tarEntry{{name: "package/out", typ: tar.TypeSymlink, link: "/etc"}}, "is a link"},
		{"symlink then through it", []tarEntry{{name: "package/out", typ: tar.TypeSymlink, link: "../../.."}, {name: "package/out/pwned.txt", body: "x"}}, "is a link"},
		{"hard link", []tarEntry{{name: "package/passwd", typ: tar.TypeLink, link: "/etc/passwd"}}, "is a link"},
		{"character device", []tarEntry{{name: "package/null", typ: tar.TypeChar}}, "unsupported type"},
		{"block device", []tarEntry{{name: "package/sda", typ: tar.TypeBlock}}, "unsupported type"},
		{"fifo", []tarEntry{{name: "package/fifo", typ: tar.TypeFifo}}, "unsupported type"},
		{"a file then a directory through it", []tarEntry{{name: "package/f", body: "x"}, {name: "package/f/g", body: "y"}}, "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry(t, Pkg{Name: "bad", Version: "1.0.0", Raw: tc.entries})
			root := t.TempDir()
			dir := filepath.Join(root, "a", "ws")
			os.MkdirAll(dir, 0o755)
			before := snapshot(t, root)
			c := &npm.Client{Registry: reg.URL, CacheDir: filepath.Join(root, "a", "cache")}
			_, err := c.Install(context.Background(), dir, npm.Options{Packages: []string{"bad"}})
			var e *npm.Error
			if !errors.As(err, &e) || e.Package != "bad@1.0.0" || !strings.Contains(e.Reason, tc.want) {
				t.Fatalf("err = %v, want bad@1.0.0: …%s…", err, tc.want)
			}
			// The cache made its directories; nothing else changed.
			os.RemoveAll(filepath.Join(root, "a", "cache"))
			if after := snapshot(t, root); after != before {
				t.Fatalf("the tree changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// An install counts what it writes against the workspace's room as it
// writes, and stops before the first entry that does not fit: three
// packages of 40 MB of zeros (tarballs of 40 KB) against a 16 MiB quota
// fail with quota_exceeded having written nothing of them, where the
// install used to unpack and copy all of them (96 to 110 MiB) before it
// measured. What fits is written twice at most (unpacked into the shared
// cache, copied into the stage), each time within the room. The bytes are
// the kernel's count of what the process wrote (/proc/self/io wchar:
// files, and the test registry's few responses, within slack).
func TestInstallStopsAtTheRoom(t *testing.T) {
	const quota = 16 << 20
	reg := NewRegistry(t)
	for _, n := range []string{"zeros-a", "zeros-b", "zeros-c"} {
		reg.Add(t, Pkg{Name: n, Version: "1.0.0", Zeros: map[string]int64{"blob.bin": 40_000_000}})
	}
	// Two that fit alone but not together, and one of many small entries
	// against the workspace's file limit.
	for _, n := range []string{"ten-mb-a", "ten-mb-b"} {
		reg.Add(t, Pkg{Name: n, Version: "1.0.0", Zeros: map[string]int64{"blob.bin": 10 << 20}})
	}
	files := map[string]int64{}
	for i := range 300 {
		files[fmt.Sprintf("d%03d/f", i)] = 4096
	}
	reg.Add(t, Pkg{Name: "many-files", Version: "1.0.0", Zeros: files})
	const slack = 512 << 10
	for _, tc := range []struct {
		name     string
		limits   vfs.Limits
		pkgs     []string
		at       string // the package where the install stops
		maxWrite int64
	}{
		{"three 40 MB packages, 16 MiB quota", vfs.Limits{Quota: quota}, []string{"zeros-a", "zeros-b", "zeros-c"}, "zeros-a@1.0.0", 0},
		{"the second of two 10 MiB packages, 16 MiB quota", vfs.Limits{Quota: quota}, []string{"ten-mb-a", "ten-mb-b"}, "ten-mb-b@1.0.0", 2 * quota},
		{"300 files of 4 KiB in directories, 100 entries", vfs.Limits{MaxFiles: 100}, []string{"many-files"}, "many-files@1.0.0", 100 * 4096},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := vfs.NewManagerLimits(t.TempDir(), tc.limits)
			if err != nil {
				t.Fatal(err)
			}
			ws, err := m.New("q")
			if err != nil {
				t.Fatal(err)
			}
			c := &npm.Client{Registry: reg.URL, CacheDir: t.TempDir()}
			w0, ok := wchar(t)
			_, err = c.Install(context.Background(), ws.Root, npm.Options{Packages: tc.pkgs, Measure: ws.WouldExceed,
				Room: func(ctx context.Context, stage string, names []string) (npm.Room, error) {
					r, err := ws.RoomReplacing(ctx, stage, names)
					return npm.Room(r), err
				}})
			var e *npm.Error
			if !errors.As(err, &e) || e.CodeOf() != wasmexec.CodeQuotaExceeded || e.Package != tc.at || e.Details["package"] != tc.at {
				t.Fatalf("err = %v (%+v), want quota_exceeded at %s", err, e, tc.at)
			}
			if w1, _ := wchar(t); ok {
				if wrote := w1 - w0; wrote > tc.maxWrite+slack {
					t.Fatalf("the install wrote %d bytes, over %d (+%d)", wrote, tc.maxWrite, slack)
				}
			} else {
				t.Log("no /proc/self/io here: the bytes written are not checked")
			}
			if entries, _ := os.ReadDir(ws.Root); len(entries) != 0 {
				t.Fatalf("the workspace changed: %v", entries)
			}
		})
	}
}

// wchar is the bytes this process has written (/proc/self/io), or false
// where the kernel does not say.
func wchar(t *testing.T) (int64, bool) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// findFiles lists the files named name below root.
func findFiles(t *testing.T, root, name string) []string {
	t.Helper()
	var found []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == name {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// A one-shot run's packages are staged within a workspace's limits
// (Client.StageRoom): a set bigger than a run's workspace stops where it
// passes them, instead of filling the cache and failing at the copy.
func TestStagePackagesStopsAtTheRoom(t *testing.T) {
	const quota = 16 << 20
	reg := NewRegistry(t)
	for _, n := range []string{"zeros-a", "zeros-b"} {
		reg.Add(t, Pkg{Name: n, Version: "1.0.0", Zeros: map[string]int64{"blob.bin": 40_000_000}})
	}
	c := &npm.Client{Registry: reg.URL, CacheDir: t.TempDir(), StageRoom: npm.Room{Bytes: quota, Files: 10_000, EntryBytes: 4096}}
	w0, ok := wchar(t)
	seed, failure, err := c.StagePackages(context.Background(), []string{"zeros-a", "zeros-b"})
	if err != nil || seed != nil || failure == nil || failure.Code != wasmexec.CodeQuotaExceeded {
		t.Fatalf("StagePackages: seed %v, failure %+v, err %v; want a quota_exceeded failure", seed != nil, failure, err)
	}
	if w1, _ := wchar(t); ok && w1-w0 > 512<<10 {
		t.Fatalf("staging wrote %d bytes past a %d-byte room", w1-w0, quota)
	}
}
