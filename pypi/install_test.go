package pypi_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/pypi"
	"github.com/wasmexec/wasmexec/pypi/pypitest"
)

// standard is an index with the test's projects: a pure function, one
// that depends on it, a platform-only one, an sdist-only one, one whose
// listed hash is wrong, and a conflict the resolver must back out of.
func standard(t *testing.T) *pypitest.Index {
	t.Helper()
	ix := pypitest.New(t)
	ix.Add(t, pypitest.Dist{Project: "purefn", Version: "1.0", Files: map[string]string{"purefn.py": "def double(x):\n    return 2 * x\n"}})
	ix.Add(t, pypitest.Dist{Project: "purefn", Version: "1.1", Files: map[string]string{"purefn.py": "def double(x):\n    return x + x\nVERSION = '1.1'\n"}})
	ix.Add(t, pypitest.Dist{Project: "purefn", Version: "2.0b1", Files: map[string]string{"purefn.py": "raise ImportError('a pre-release')\n"}})
	ix.Add(t, pypitest.Dist{Project: "with-dep", Version: "1.0", Requires: []string{"purefn>=1.0", `never-there; sys_platform == "win32"`, `extra-only; extra == "more"`},
		Files: map[string]string{"with_dep/__init__.py": "import purefn\n\ndef quad(x):\n    return purefn.double(purefn.double(x))\n"}})
	ix.Add(t, pypitest.Dist{Project: "platonly", Version: "1.0", Tag: "cp311-cp311-manylinux_2_17_x86_64"})
	ix.Add(t, pypitest.Dist{Project: "sdistonly", Version: "1.0", Tag: "sdist"})
	ix.Add(t, pypitest.Dist{Project: "badhash", Version: "1.0", WrongHash: true, Files: map[string]string{"badhash.py": "x = 1\n"}})
	// top needs purefn==1.0 and picky; picky 2.0 needs purefn==1.1, so the
	// resolver has to fall back to picky 1.0.
	ix.Add(t, pypitest.Dist{Project: "top", Version: "1.0", Requires: []string{"picky", "purefn==1.0"}, Files: map[string]string{"top.py": ""}})
	ix.Add(t, pypitest.Dist{Project: "picky", Version: "2.0", Requires: []string{"purefn==1.1"}, Files: map[string]string{"picky.py": "V = 2\n"}})
	ix.Add(t, pypitest.Dist{Project: "picky", Version: "1.0", Requires: []string{"purefn==1.0"}, Files: map[string]string{"picky.py": "V = 1\n"}})
	ix.Add(t, pypitest.Dist{Project: "newpy", Version: "1.0", RequiresPython: ">=3.12", Files: map[string]string{"newpy.py": ""}})
	return ix
}

func reqs(t *testing.T, specs ...string) []pypi.Requirement {
	t.Helper()
	var out []pypi.Requirement
	for _, s := range specs {
		r, err := pypi.ParseRequirement(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func names(pkgs []wasmexec.PipPackage) string {
	var s []string
	for _, p := range pkgs {
		s = append(s, p.Name+"=="+p.Version)
	}
	return strings.Join(s, " ")
}

func TestInstallResolvesAndUnpacks(t *testing.T) {
	for _, html := range []bool{false, true} {
		name := "json"
		if html {
			name = "html"
		}
		t.Run(name, func(t *testing.T) {
			ix := standard(t)
			ix.HTMLOnly.Store(html)
			c := &pypi.Client{CacheDir: t.TempDir()}
			site := filepath.Join(t.TempDir(), pypi.SiteDir)
			var log []string
			got, err := c.Install(context.Background(), site, pypi.Options{Requirements: reqs(t, "with-dep", "top"), Indexes: []string{ix.URL},
				Progress: func(l string) { log = append(log, l) }})
			if err != nil {
				t.Fatal(err)
			}
			if n := names(got); n != "picky==1.0 purefn==1.0 top==1.0 with-dep==1.0" {
				t.Fatalf("resolved %s", n)
			}
			for _, p := range got {
				if len(p.SHA256) != 64 {
					t.Fatalf("no sha256: %+v", p)
				}
			}
			b, err := os.ReadFile(filepath.Join(site, "with_dep", "__init__.py"))
			if err != nil || !strings.Contains(string(b), "def quad") {
				t.Fatalf("with_dep not unpacked: %v", err)
			}
			if !strings.Contains(strings.Join(log, "\n"), "downloaded with_dep-1.0-py3-none-any.whl") {
				t.Fatalf("progress: %q", log)
			}
			// The pre-release is not taken without asking; asking takes it.
			got, err = c.Install(context.Background(), site, pypi.Options{Requirements: reqs(t, "purefn>=2.0b1"), Indexes: []string{ix.URL}})
			if err != nil || names(got) != "purefn==2.0b1" {
				t.Fatalf("pre-release: %v %s", err, names(got))
			}
			// The earlier packages stay installed.
			if _, err := os.Stat(filepath.Join(site, "top.py")); err != nil {
				t.Fatal("an install dropped the packages of an earlier one")
			}
		})
	}
}

func TestInstallKeepsInstalledVersionsUnlessUpgrade(t *testing.T) {
	ix := standard(t)
	c := &pypi.Client{CacheDir: t.TempDir()}
	site := filepath.Join(t.TempDir(), pypi.SiteDir)
	ctx := context.Background()
	if got, err := c.Install(ctx, site, pypi.Options{Requirements: reqs(t, "purefn==1.0"), Indexes: []string{ix.URL}}); err != nil || names(got) != "purefn==1.0" {
		t.Fatalf("%v %s", err, names(got))
	}
	if got, err := c.Install(ctx, site, pypi.Options{Requirements: reqs(t, "with-dep"), Indexes: []string{ix.URL}}); err != nil || names(got) != "purefn==1.0 with-dep==1.0" {
		t.Fatalf("kept: %v %s", err, names(got))
	}
	if got, err := c.Install(ctx, site, pypi.Options{Requirements: reqs(t, "with-dep"), Indexes: []string{ix.URL}, Upgrade: true}); err != nil || names(got) != "purefn==1.1 with-dep==1.0" {
		t.Fatalf("upgrade: %v %s", err, names(got))
	}
	b, _ := os.ReadFile(filepath.Join(site, "purefn.py"))
	if !strings.Contains(string(b), "1.1") {
		t.Fatal("the upgrade did not replace purefn.py")
	}
}

// Each bad input fails naming the package, and the installed set is
// unchanged.
func TestInstallFailures(t *testing.T) {
	ix := standard(t)
	escape := pypitest.Wheel(t, pypitest.Dist{Project: "escape", Version: "1.0", Files: map[string]string{"../../evil.py": "x"}})
	ix.Add(t, pypitest.Dist{Project: "escape", Version: "1.0", Raw: escape})
	ix.Add(t, pypitest.Dist{Project: "absolute", Version: "1.0", Raw: pypitest.Wheel(t, pypitest.Dist{Project: "absolute", Version: "1.0", Files: map[string]string{"/etc/evil.py": "x"}})})
	ix.Add(t, pypitest.Dist{Project: "linky", Version: "1.0", Raw: symlinkWheel(t)})
	// A wheel that unpacks to far more than the limit (a zip bomb: 8 MiB of
	// zeros compresses to a few KiB).
	ix.Add(t, pypitest.Dist{Project: "bomb", Version: "1.0", Files: map[string]string{"bomb.py": string(make([]byte, 8<<20))}})
	ix.Add(t, pypitest.Dist{Project: "needs-plat", Version: "1.0", Requires: []string{"platonly"}, Files: map[string]string{"needs_plat.py": ""}})
	ix.Add(t, pypitest.Dist{Project: "huge", Version: "1.0", Raw: bytes.Repeat([]byte("x"), 2<<20)})
	c := &pypi.Client{CacheDir: t.TempDir(), MaxWheelBytes: 1 << 20}
	site := filepath.Join(t.TempDir(), pypi.SiteDir)
	ctx := context.Background()
	if _, err := c.Install(ctx, site, pypi.Options{Requirements: reqs(t, "purefn==1.0"), Indexes: []string{ix.URL}}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, site)
	down := pypitest.New(t)
	down.Close()
	for _, tc := range []struct {
		req, pkg, reason string
		index            string
	}{
		{"platonly", "platonly", "no pure-Python wheel for wasm32-wasi: platonly 1.0 has only platform wheels (cp311-cp311-manylinux_2_17_x86_64)", ""},
		{"needs-plat", "platonly", "no pure-Python wheel for wasm32-wasi", ""},
		{"sdistonly", "sdistonly", "only a source distribution (sdist); wasmexec installs wheels only", ""},
		{"nosuch", "nosuch", "no such project", ""},
		{"purefn==9.9", "purefn", "no version matches ==1.1,==9.9 (available: 2.0b1, 1.1, 1.0)", ""},
		{"newpy", "newpy", "requires Python >=3.12", ""},
		{"badhash", "badhash", "hash mismatch", ""},
		{"escape", "escape", `entry "../../evil.py" escapes the wheel's root`, ""},
		{"absolute", "absolute", "absolute", ""},
		{"linky", "linky", "is a link", ""},
		{"bomb", "bomb", "unpacks to more than 1048576 bytes", ""},
		{"huge", "huge", "over the 1048576-byte limit", ""},
		{"purefn", "purefn", "is unreachable", down.URL},
	} {
		index := ix.URL
		if tc.index != "" {
			index = tc.index
		}
		_, err := c.Install(ctx, site, pypi.Options{Requirements: reqs(t, "purefn==1.1", tc.req), Indexes: []string{index}})
		var e *pypi.Error
		if !errors.As(err, &e) || e.Package != tc.pkg || !strings.Contains(e.Reason, tc.reason) {
			t.Errorf("%s: got %v, want %s: ...%s...", tc.req, err, tc.pkg, tc.reason)
		}
		if after := tree(t, site); after != before {
			t.Fatalf("%s: the installed set changed:\n%s\nwas\n%s", tc.req, after, before)
		}
	}
	// Nothing escaped into the cache's parent either.
	if _, err := os.Stat(filepath.Join(filepath.Dir(c.CacheDir), "evil.py")); err == nil {
		t.Fatal("a wheel wrote outside its root")
	}
}

// symlinkWheel is a wheel with a symlink entry (external attributes).
func symlinkWheel(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: "linky.py"}
	h.SetMode(os.ModeSymlink | 0o777)
	w, _ := zw.CreateHeader(h)
	w.Write([]byte("/etc/passwd"))
	w2, _ := zw.Create("linky-1.0.dist-info/METADATA")
	w2.Write([]byte("Metadata-Version: 2.1\nName: linky\nVersion: 1.0\n"))
	zw.Close()
	return buf.Bytes()
}

// tree lists a directory's files and sizes.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(dir, p)
			b.WriteString(rel + " " + info.Mode().String() + "\n")
		}
		return nil
	})
	return b.String()
}

// An index page is read up to 32 MiB, whatever the index sends.
func TestIndexPageCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		chunk := bytes.Repeat([]byte("<!-- padding -->"), 4096)
		for i := 0; i < (33<<20)/len(chunk)+1; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	c := &pypi.Client{CacheDir: t.TempDir()}
	_, err := c.Install(context.Background(), filepath.Join(t.TempDir(), pypi.SiteDir), pypi.Options{Requirements: reqs(t, "anything"), Indexes: []string{srv.URL}})
	var e *pypi.Error
	if !errors.As(err, &e) || e.Package != "anything" || !strings.Contains(e.Reason, "over 33554432 bytes") {
		t.Fatalf("got %v", err)
	}
}

// The installed set's record lives in the workspace, where its guests
// can rewrite it; the sha256 of a package kept from it names a tree in the
// host's cache, so one that is not a sha256 is refused and nothing is
// copied: "xx/../../../etc/ssl" used to copy that host directory into the
// workspace (and a short one crashed the server on sha[:2]).
func TestInstallRefusesAnAlteredRecord(t *testing.T) {
	ix := standard(t)
	c := &pypi.Client{CacheDir: t.TempDir(), Python: "-"}
	secret := t.TempDir()
	os.WriteFile(filepath.Join(secret, "secret.txt"), []byte("host"), 0o600)
	rel, err := filepath.Rel(filepath.Join(c.CacheDir, "trees", "xx", "xx"), secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, sha string }{
		{"climbs to a host directory", "xx/" + rel},
		{"absolute", secret},
		{"empty", ""},
		{"one character", "a"},
		{"not hex", strings.Repeat("g", 64)},
		{"hex with a slash", strings.Repeat("a", 31) + "/" + strings.Repeat("a", 32)},
		{"too long", strings.Repeat("a", 65)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := filepath.Join(t.TempDir(), pypi.SiteDir)
			os.MkdirAll(site, 0o755)
			record := `{"packages": [{"name": "planted", "version": "1", "sha256": ` + strconv.Quote(tc.sha) + `}]}`
			os.WriteFile(filepath.Join(site, ".wasmexec-installed.json"), []byte(record), 0o644)
			before := tree(t, site)
			_, err := c.Install(context.Background(), site, pypi.Options{Requirements: reqs(t, "purefn==1.0"), Indexes: []string{ix.URL}})
			var e *pypi.Error
			if !errors.As(err, &e) || e.Package != "planted" || !strings.Contains(e.Reason, "the record was altered") {
				t.Fatalf("err = %v, want planted: …the record was altered…", err)
			}
			if after := tree(t, site); after != before {
				t.Fatalf("the site changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}
