package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func init() {
	register("pypkgs", benchPythonPackages)
}

// benchIndex serves a one-project Python package index (PEP 503) for the
// bench: the wheel of "benchpkg" carries a fresh nonce, so its first
// install is cold in any cache. It returns the index URL for
// --python-index-url.
func benchIndex() (string, error) {
	nonce := make([]byte, 8)
	rand.Read(nonce)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"benchpkg/__init__.py":                 fmt.Sprintf("NONCE = %q\n\ndef double(x):\n    return 2 * x\n", hex.EncodeToString(nonce)),
		"benchpkg-1.0.dist-info/METADATA":      "Metadata-Version: 2.1\nName: benchpkg\nVersion: 1.0\n",
		"benchpkg-1.0.dist-info/WHEEL":         "Wheel-Version: 1.0\nRoot-Is-Purelib: true\n",
		"benchpkg-1.0.dist-info/RECORD":        "",
		"benchpkg-1.0.dist-info/top_level.txt": "benchpkg\n",
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	zw.Close()
	wheel := buf.Bytes()
	sum := sha256.Sum256(wheel)
	mux := http.NewServeMux()
	mux.HandleFunc("/simple/benchpkg/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<a href="/files/benchpkg-1.0-py3-none-any.whl#sha256=%x">benchpkg-1.0-py3-none-any.whl</a>`, sum)
	})
	mux.HandleFunc("/files/benchpkg-1.0-py3-none-any.whl", func(w http.ResponseWriter, r *http.Request) { w.Write(wheel) })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go http.Serve(l, mux)
	return "http://" + l.Addr().String() + "/simple", nil
}

// benchPythonPackages measures Python packages: the bundled layer (sympy in a
// context, first and second run; networkx one-shot), pip install of a
// small wheel from the local index (cold and cached), and the layer's
// build time and size.
func benchPythonPackages(t *table, srv *server, _ string) error {
	if _, err := srv.post("/v1/evaluate", `{"language":"python","code":"1"}`); err != nil {
		t.add("python packages", "skipped: "+firstLine(err.Error()), "")
		return nil
	}
	layer := filepath.Join(*imagesDir, "pylibs")
	if _, err := os.Stat(filepath.Join(layer, "site")); err == nil {
		if _, err := srv.postStatus("/v1/contexts", `{"contextId":"bench-sympy","language":"python"}`); err != nil {
			return err
		}
		defer srv.delete("/v1/contexts/bench-sympy")
		body := `{"language":"python","contextId":"bench-sympy","code":"import sympy\nx = sympy.Symbol('x')\nstr(sympy.integrate(x**2, x))"}`
		var runs []float64
		for i := 0; i < 2; i++ {
			t0 := time.Now()
			if _, err := srv.post("/v1/evaluate", body); err != nil {
				return err
			}
			runs = append(runs, float64(time.Since(t0).Microseconds())/1000)
		}
		t.add("import sympy + integrate(x**2, x) in a context: first / second run (ms)", fmt.Sprintf("%.0f / %.1f", runs[0], runs[1]), "report")
		nx := srv.latencies("/v1/evaluate", `{"language":"python","code":"import networkx as nx\nlen(nx.path_graph(10))"}`, 5)
		t.add("import networkx one-shot p50 (ms)", fmt.Sprintf("%.0f", pct(nx, 50)), "report")
		t.add("bundled layer size (MiB, files)", layerSize(filepath.Join(layer, "site")), "report")
		if secs := buildSeconds("pylibs"); secs > 0 {
			t.add("bundled layer build time, last build (s)", strconv.Itoa(secs), "report")
		}
	} else {
		t.add("bundled layer", "skipped: "+layer+" is not built", "")
	}

	// Cold: the wheel is new to every cache (its nonce). Cached: the
	// median of 5 installs into fresh contexts (index page fetched, wheel
	// and unpacked tree from the cache, copied into the workspace).
	var cached []float64
	for i := 0; i < 6; i++ {
		id := fmt.Sprintf("bench-pip-%d", i)
		if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":"python"}`, id)); err != nil {
			return err
		}
		defer srv.delete("/v1/contexts/" + id)
		t0 := time.Now()
		if _, err := srv.post("/v1/contexts/"+id+"/pip/install", `{"packages":["benchpkg==1.0"]}`); err != nil {
			t.add("pip install of a small wheel", "skipped: "+firstLine(err.Error()), "")
			return nil
		}
		ms := float64(time.Since(t0).Microseconds()) / 1000
		if i == 0 {
			t.add("pip install of a small wheel from a local index, cold (ms)", fmt.Sprintf("%.1f", ms), "report")
			continue
		}
		cached = append(cached, ms)
	}
	t.add("pip install of a small wheel from a local index, cached p50 of 5 (ms)", fmt.Sprintf("%.1f", pct(cached, 50)), "report")
	return nil
}

func layerSize(dir string) string {
	var size int64
	files := 0
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			size += info.Size()
			files++
		}
		return nil
	})
	return fmt.Sprintf("%.1f MiB, %d files", float64(size)/(1<<20), files)
}

// buildSeconds sums the step durations build-cached.sh recorded for the
// image's last build.
func buildSeconds(name string) int {
	cache := os.Getenv("WASMEXEC_CACHE_DIR")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "wasmexec")
	}
	f, err := os.Open(filepath.Join(cache, "images", ".stats", name+".steps"))
	if err != nil {
		return 0
	}
	defer f.Close()
	total := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s, _, ok := strings.Cut(sc.Text(), "\t"); ok {
			n, _ := strconv.Atoi(s)
			total += n
		}
	}
	return total
}
