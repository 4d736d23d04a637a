package npm_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/npm"
)

// Registry is a local npm registry speaking the real protocol: a packument
// per package at /NAME (scoped: /@scope%2fname), tarballs with sha512
// integrity at /-/NAME-VERSION.tgz.
type Registry struct {
	*httptest.Server
	docs     map[string]map[string]any // name → packument
	tarballs map[string][]byte         // path → tgz
	Fetches  atomic.Int64              // tarball downloads
	Docs     atomic.Int64              // packument requests
	// Gate, when set, holds every tarball download until it is closed
	// (a slow registry); Held counts the downloads waiting there.
	Gate chan struct{}
	Held atomic.Int64
}

// Pkg is one version of a package for the registry.
type Pkg struct {
	Name, Version string
	Deps          map[string]string
	Files         map[string]string // path in the package → content
	Scripts       map[string]string
	// Raw, when set, is the tarball's entries as given (for bad tarballs).
	Raw []tarEntry
	// BadIntegrity publishes an integrity that does not match.
	BadIntegrity bool
	// Zeros adds files of that many zero bytes (a tarball far smaller
	// than what it unpacks to).
	Zeros map[string]int64
	// Patch, when set, edits the packument and this version's document
	// as published (a registry that lies).
	Patch func(doc, version map[string]any)
}

type tarEntry struct {
	name, body string
	typ        byte
	link       string
	zeros      int64 // a regular file of this many zero bytes instead of body
}

func NewRegistry(t *testing.T, pkgs ...Pkg) *Registry {
	t.Helper()
	r := &Registry{docs: map[string]map[string]any{}, tarballs: map[string][]byte{}}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	for _, p := range pkgs {
		r.Add(t, p)
	}
	return r
}

func (r *Registry) Add(t *testing.T, p Pkg) {
	t.Helper()
	entries := p.Raw
	if entries == nil {
		manifest := map[string]any{"name": p.Name, "version": p.Version, "dependencies": p.Deps, "scripts": p.Scripts}
		mb, _ := json.Marshal(manifest)
		entries = append(entries, tarEntry{name: "package/package.json", body: string(mb)})
		for f, body := range p.Files {
			entries = append(entries, tarEntry{name: "package/" + f, body: body})
		}
		for f, n := range p.Zeros {
			entries = append(entries, tarEntry{name: "package/" + f, zeros: n})
		}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body)) + e.zeros, Typeflag: typ, Linkname: e.link}
		if typ != tar.TypeReg {
			hdr.Size = 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			tw.Write([]byte(e.body))
			if _, err := io.CopyN(tw, zeroReader{}, e.zeros); err != nil {
				t.Fatal(err)
			}
		}
	}
	tw.Close()
	zw.Close()
	tgz := buf.Bytes()
	sum := sha512.Sum512(tgz)
	integrity := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if p.BadIntegrity {
		other := sha512.Sum512([]byte("something else"))
		integrity = "sha512-" + base64.StdEncoding.EncodeToString(other[:])
	}
	base := p.Name
	if i := strings.LastIndex(base, "/"); i >= 0 {
		base = base[i+1:]
	}
	// Escaped, so that a hostile name (with "/", "..", NUL) is still one
	// path segment of the registry's.
	tpath := "/" + url.PathEscape(p.Name) + "/-/" + url.PathEscape(base) + "-" + p.Version + ".tgz"
	r.tarballs[tpath] = tgz
	doc := r.docs[p.Name]
	if doc == nil {
		doc = map[string]any{"name": p.Name, "dist-tags": map[string]any{}, "versions": map[string]any{}}
		r.docs[p.Name] = doc
	}
	version := map[string]any{
		"name": p.Name, "version": p.Version, "dependencies": p.Deps, "scripts": p.Scripts,
		"dist": map[string]any{"tarball": r.URL + tpath, "integrity": integrity},
	}
	doc["versions"].(map[string]any)[p.Version] = version
	doc["dist-tags"].(map[string]any)["latest"] = p.Version
	if p.Patch != nil {
		p.Patch(doc, version)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func (r *Registry) serve(w http.ResponseWriter, req *http.Request) {
	p := req.URL.EscapedPath()
	if strings.Contains(p, "/-/") {
		if tgz, ok := r.tarballs[p]; ok {
			if r.Gate != nil {
				r.Held.Add(1)
				select {
				case <-r.Gate:
				case <-req.Context().Done():
					return
				}
			}
			r.Fetches.Add(1)
			w.Write(tgz)
			return
		}
		http.NotFound(w, req)
		return
	}
	r.Docs.Add(1)
	name, _ := url.PathUnescape(strings.TrimPrefix(p, "/"))
	doc, ok := r.docs[name]
	if !ok {
		http.Error(w, `{"error":"Not found"}`, http.StatusNotFound)
		return
	}
	json.NewEncoder(w).Encode(doc)
}

func newClient(t *testing.T, reg *Registry) *npm.Client {
	return &npm.Client{Registry: reg.URL, CacheDir: t.TempDir()}
}

func readJSON(t *testing.T, p string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func standard(t *testing.T) *Registry {
	return NewRegistry(t,
		Pkg{Name: "left", Version: "1.0.0", Files: map[string]string{"index.js": "module.exports = 'left 1.0.0'"}},
		Pkg{Name: "left", Version: "1.2.0", Files: map[string]string{"index.js": "module.exports = 'left 1.2.0'"}},
		Pkg{Name: "left", Version: "2.0.0", Files: map[string]string{"index.js": "module.exports = 'left 2.0.0'"}},
		Pkg{Name: "app-lib", Version: "3.1.0", Deps: map[string]string{"left": "^1.0.0"}, Files: map[string]string{"index.js": "module.exports = require('left')"}},
		Pkg{Name: "@scope/thing", Version: "0.1.0", Files: map[string]string{"index.js": "module.exports = 'thing'"}},
		Pkg{Name: "cyc-a", Version: "1.0.0", Deps: map[string]string{"cyc-b": "1"}},
		Pkg{Name: "cyc-b", Version: "1.0.0", Deps: map[string]string{"cyc-a": "1"}},
		Pkg{Name: "scripted", Version: "1.0.0", Scripts: map[string]string{"postinstall": "node build.js"}},
	)
}

func TestInstallAddsPackages(t *testing.T) {
	reg := standard(t)
	c := newClient(t, reg)
	dir := t.TempDir()
	var lines []string
	got, err := c.Install(context.Background(), dir, npm.Options{Packages: []string{"left@2", "app-lib", "@scope/thing", "cyc-a"}, Progress: func(l string) { lines = append(lines, l) }})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"node_modules/left":                      "2.0.0",
		"node_modules/app-lib":                   "3.1.0",
		"node_modules/app-lib/node_modules/left": "1.2.0", // ^1 can't use the top-level 2.0.0
		"node_modules/@scope/thing":              "0.1.0",
		"node_modules/cyc-a":                     "1.0.0",
		"node_modules/cyc-b":                     "1.0.0",
	}
	if len(got) != len(want) {
		t.Fatalf("installed %+v", got)
	}
	for _, it := range got {
		if want[it.Path] != it.Version || !strings.HasPrefix(it.Integrity, "sha512-") {
			t.Fatalf("installed %+v, want %v", it, want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules/app-lib/node_modules/left/index.js"))
	if err != nil || !strings.Contains(string(b), "1.2.0") {
		t.Fatalf("nested left: %q %v", b, err)
	}
	pj := readJSON(t, filepath.Join(dir, "package.json"))
	deps := pj["dependencies"].(map[string]any)
	if deps["left"] != "2" || deps["app-lib"] != "^3.1.0" || deps["@scope/thing"] != "^0.1.0" {
		t.Fatalf("package.json dependencies %v", deps)
	}
	lock := readJSON(t, filepath.Join(dir, "package-lock.json"))
	if lock["lockfileVersion"].(float64) != 3 || lock["packages"].(map[string]any)["node_modules/app-lib/node_modules/left"] == nil {
		t.Fatalf("lock %v", lock)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "added left@2.0.0") {
		t.Fatalf("progress %q", lines)
	}

	// From the lock, frozen, with a warm cache: no download.
	os.RemoveAll(filepath.Join(dir, "node_modules"))
	before := reg.Fetches.Load()
	if _, err := c.Install(context.Background(), dir, npm.Options{Frozen: true}); err != nil {
		t.Fatal(err)
	}
	if n := reg.Fetches.Load() - before; n != 0 {
		t.Fatalf("a warm install downloaded %d tarballs", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules/cyc-b/package.json")); err != nil {
		t.Fatal(err)
	}
}

func TestInstallReportsScripts(t *testing.T) {
	c := newClient(t, standard(t))
	got, err := c.Install(context.Background(), t.TempDir(), npm.Options{Packages: []string{"scripted"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || strings.Join(got[0].Scripts, ",") != "postinstall" {
		t.Fatalf("got %+v", got)
	}
}

func TestInstallDev(t *testing.T) {
	c := newClient(t, standard(t))
	dir := t.TempDir()
	if _, err := c.Install(context.Background(), dir, npm.Options{Packages: []string{"left@1.0.0"}, Dev: true}); err != nil {
		t.Fatal(err)
	}
	pj := readJSON(t, filepath.Join(dir, "package.json"))
	if pj["devDependencies"].(map[string]any)["left"] != "1.0.0" || pj["dependencies"] != nil {
		t.Fatalf("package.json %v", pj)
	}
}

// A failed install names the package and the reason and leaves the
// workspace as it was.
func TestInstallFailuresLeaveTheWorkspace(t *testing.T) {
	reg := standard(t)
	reg.Add(t, Pkg{Name: "tampered", Version: "1.0.0", BadIntegrity: true})
	reg.Add(t, Pkg{Name: "escape", Version: "1.0.0", Raw: []tarEntry{{name: "package/../../evil.js", body: "x"}}})
	reg.Add(t, Pkg{Name: "absolute", Version: "1.0.0", Raw: []tarEntry{{name: "/etc/evil", body: "x"}}})
	reg.Add(t, Pkg{Name: "linky", Version: "1.0.0", Raw: []tarEntry{{name: "package/out", typ: tar.TypeSymlink, link: "/etc/passwd"}}})
	reg.Add(t, Pkg{Name: "huge", Version: "1.0.0", Files: map[string]string{"big.bin": strings.Repeat("x", 4096)}})
	reg.Add(t, Pkg{Name: "needs-tampered", Version: "1.0.0", Deps: map[string]string{"tampered": "1"}})
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for _, tc := range []struct {
		name     string
		client   *npm.Client
		pkgs     []string
		pkgJSON  string
		frozen   bool
		pkg, why string
	}{
		{"unknown package", nil, []string{"nope"}, "", false, "nope", "no such package"},
		{"unknown version", nil, []string{"left@9"}, "", false, "left", "no version matches"},
		{"bad integrity", nil, []string{"tampered"}, "", false, "tampered@1.0.0", "integrity mismatch"},
		{"bad integrity of a dependency", nil, []string{"needs-tampered"}, "", false, "tampered@1.0.0", "integrity mismatch"},
		{"path escapes", nil, []string{"escape"}, "", false, "escape@1.0.0", "escapes the package"},
		{"absolute path", nil, []string{"absolute"}, "", false, "absolute@1.0.0", "absolute path"},
		{"symlink", nil, []string{"linky"}, "", false, "linky@1.0.0", "link"},
		{"too big", &npm.Client{Registry: reg.URL, CacheDir: t.TempDir(), MaxPackageBytes: 1024}, []string{"huge"}, "", false, "huge@1.0.0", "more than 1024 bytes"},
		{"registry down", &npm.Client{Registry: down.URL, CacheDir: t.TempDir()}, []string{"left"}, "", false, "left", "unreachable"},
		{"bad package.json", nil, nil, "{not json", false, "package.json", "does not parse"},
		{"frozen lock would change", nil, nil, `{"dependencies": {"left": "^1"}}`, true, "package-lock.json", "frozen"},
		{"bad name", nil, []string{"../x"}, "", false, "../x", "not a package name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.client
			if c == nil {
				c = newClient(t, reg)
			}
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "node_modules/keep"), 0o755)
			os.WriteFile(filepath.Join(dir, "node_modules/keep/index.js"), []byte("kept"), 0o644)
			if tc.pkgJSON != "" {
				os.WriteFile(filepath.Join(dir, "package.json"), []byte(tc.pkgJSON), 0o644)
			}
			before := snapshot(t, dir)
			_, err := c.Install(context.Background(), dir, npm.Options{Packages: tc.pkgs, Frozen: tc.frozen})
			var e *npm.Error
			if !errors.As(err, &e) || e.Package != tc.pkg || !strings.Contains(e.Reason, tc.why) {
				t.Fatalf("err = %v, want %s: …%s…", err, tc.pkg, tc.why)
			}
			if after := snapshot(t, dir); after != before {
				t.Fatalf("workspace changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

func TestInstallHonoursTheDeadline(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(slow.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	c := &npm.Client{Registry: slow.URL, CacheDir: t.TempDir()}
	_, err := c.Install(ctx, t.TempDir(), npm.Options{Packages: []string{"left"}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

// The real registry, when it can be reached.
func TestInstallFromTheRealRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodHead, npm.DefaultRegistry+"/dayjs", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode >= 500 {
		t.Skipf("the npm registry %s is not reachable from here (%v); skipping", npm.DefaultRegistry, err)
	} else {
		resp.Body.Close()
	}
	dir := t.TempDir()
	got, err := (&npm.Client{CacheDir: t.TempDir()}).Install(ctx, dir, npm.Options{Packages: []string{"dayjs@1.11.13"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Version != "1.11.13" {
		t.Fatalf("got %+v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules/dayjs/dayjs.min.js")); err != nil {
		t.Fatal(err)
	}
}

// snapshot lists a directory tree with contents.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel)
		if !d.IsDir() {
			c, _ := os.ReadFile(p)
			b.WriteString("=" + string(c))
		}
		b.WriteString("\n")
		return nil
	})
	return b.String()
}

// Packuments are cached between installs (bounded, and fresh for the TTL):
// a warm install asks the registry nothing; past the TTL, or with a cache
// too small to hold a document, it asks again.
func TestPackumentCache(t *testing.T) {
	reg := standard(t)
	now := time.Unix(1_800_000_000, 0)
	c := &npm.Client{Registry: reg.URL, CacheDir: t.TempDir(), Now: func() time.Time { return now }}
	install := func() {
		t.Helper()
		if _, err := c.Install(context.Background(), t.TempDir(), npm.Options{Packages: []string{"app-lib", "left@2"}}); err != nil {
			t.Fatal(err)
		}
	}
	install()
	cold := reg.Docs.Load()
	if cold != 2 {
		t.Fatalf("a cold install fetched %d packuments, want 2 (app-lib, left)", cold)
	}
	install()
	if n := reg.Docs.Load(); n != cold {
		t.Fatalf("a warm install fetched %d packuments, want none", n-cold)
	}
	now = now.Add(npm.DefaultPackumentTTL)
	install()
	if n := reg.Docs.Load(); n != 2*cold {
		t.Fatalf("past the TTL an install fetched %d packuments, want %d", n-cold, cold)
	}
	tiny := &npm.Client{Registry: reg.URL, CacheDir: t.TempDir(), PackumentCacheBytes: 10}
	for range 2 {
		if _, err := tiny.Install(context.Background(), t.TempDir(), npm.Options{Packages: []string{"left"}}); err != nil {
			t.Fatal(err)
		}
	}
	if n := reg.Docs.Load(); n != 2*cold+2 {
		t.Fatalf("a cache smaller than any document kept one: %d fetches, want %d", n, 2*cold+2)
	}
}
