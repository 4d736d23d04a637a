// Package pypitest serves a local Python package index for tests: PEP 503
// HTML pages and PEP 691 JSON (by the Accept header, as PyPI does), and
// wheels it builds in memory with archive/zip.
package pypitest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Dist is one file of a project.
type Dist struct {
	Project  string
	Version  string
	Tag      string            // wheel tag, default py3-none-any; "sdist" for a .tar.gz
	Files    map[string]string // path in the wheel → content (a module)
	Requires []string          // Requires-Dist lines
	// RequiresPython is the file's data-requires-python.
	RequiresPython string
	// WrongHash lists a sha256 that is not the file's.
	WrongHash bool
	// Raw replaces the built wheel's bytes.
	Raw []byte
}

// Index is a running local index.
type Index struct {
	URL string // base of the simple API, e.g. http://127.0.0.1:1234/simple
	// HTMLOnly makes it answer PEP 503 HTML even to JSON clients.
	HTMLOnly atomic.Bool
	// Downloads counts file downloads.
	Downloads atomic.Int64
	// Stall makes every request wait until its client gives up (an index
	// that hangs).
	Stall atomic.Bool
	// Gate, when set, holds every request until it is closed; Held counts
	// the requests it held.
	Gate  chan struct{}
	Held  atomic.Int64
	srv   *httptest.Server
	mu    sync.Mutex
	files map[string][]entry // normalized project → files
	blobs map[string][]byte  // filename → bytes
}

type entry struct {
	name, sha, reqPy string
}

// New starts an index; it stops with the test.
func New(tb testing.TB) *Index {
	ix := &Index{files: map[string][]entry{}, blobs: map[string][]byte{}}
	ix.srv = httptest.NewServer(http.HandlerFunc(ix.serve))
	tb.Cleanup(ix.srv.Close)
	ix.URL = ix.srv.URL + "/simple"
	return ix
}

// Close stops the index (an index that is down).
func (ix *Index) Close() { ix.srv.Close() }

func normalize(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("_", "-", ".", "-").Replace(s)
}

// Add builds and lists d; it returns the file name.
func (ix *Index) Add(tb testing.TB, d Dist) string {
	tb.Helper()
	tag := d.Tag
	if tag == "" {
		tag = "py3-none-any"
	}
	under := strings.ReplaceAll(d.Project, "-", "_")
	var name string
	var body []byte
	if tag == "sdist" {
		name = fmt.Sprintf("%s-%s.tar.gz", d.Project, d.Version)
		body = []byte("not really a tarball")
	} else {
		name = fmt.Sprintf("%s-%s-%s.whl", under, d.Version, tag)
		body = d.Raw
		if body == nil {
			body = Wheel(tb, d)
		}
	}
	sum := sha256.Sum256(body)
	sha := hex.EncodeToString(sum[:])
	if d.WrongHash {
		sha = strings.Repeat("0", 64)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	k := normalize(d.Project)
	ix.files[k] = append(ix.files[k], entry{name: name, sha: sha, reqPy: d.RequiresPython})
	ix.blobs[name] = body
	return name
}

// Wheel builds the bytes of d's wheel: its files, a dist-info with
// METADATA (Requires-Dist) and WHEEL.
func Wheel(tb testing.TB, d Dist) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	under := strings.ReplaceAll(d.Project, "-", "_")
	info := fmt.Sprintf("%s-%s.dist-info/", under, d.Version)
	meta := fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", d.Project, d.Version)
	for _, r := range d.Requires {
		meta += "Requires-Dist: " + r + "\n"
	}
	files := map[string]string{info + "METADATA": meta, info + "WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\n"}
	for k, v := range d.Files {
		files[k] = v
	}
	names := make([]string, 0, len(files))
	for k := range files {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write([]byte(files[n]))
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func (ix *Index) serve(w http.ResponseWriter, r *http.Request) {
	if ix.Stall.Load() {
		<-r.Context().Done()
		return
	}
	if ix.Gate != nil {
		ix.Held.Add(1)
		select {
		case <-ix.Gate:
		case <-r.Context().Done():
			return
		}
	}
	if name, ok := strings.CutPrefix(r.URL.Path, "/files/"); ok {
		ix.mu.Lock()
		b, found := ix.blobs[name]
		ix.mu.Unlock()
		if !found {
			http.NotFound(w, r)
			return
		}
		ix.Downloads.Add(1)
		w.Write(b)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/simple/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	project := strings.TrimSuffix(rest, "/")
	ix.mu.Lock()
	files, found := ix.files[project]
	ix.mu.Unlock()
	if !found {
		http.NotFound(w, r)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "application/vnd.pypi.simple.v1+json") && !ix.HTMLOnly.Load() {
		type jf struct {
			Filename       string            `json:"filename"`
			URL            string            `json:"url"`
			Hashes         map[string]string `json:"hashes"`
			RequiresPython *string           `json:"requires-python,omitempty"`
		}
		page := struct {
			Meta  map[string]string `json:"meta"`
			Name  string            `json:"name"`
			Files []jf              `json:"files"`
		}{Meta: map[string]string{"api-version": "1.1"}, Name: project}
		for _, f := range files {
			j := jf{Filename: f.name, URL: "../../files/" + f.name, Hashes: map[string]string{"sha256": f.sha}}
			if f.reqPy != "" {
				rp := f.reqPy
				j.RequiresPython = &rp
			}
			page.Files = append(page.Files, j)
		}
		w.Header().Set("Content-Type", "application/vnd.pypi.simple.v1+json")
		json.NewEncoder(w).Encode(page)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><body><h1>Links for %s</h1>\n", html.EscapeString(project))
	for _, f := range files {
		attr := ""
		if f.reqPy != "" {
			attr = fmt.Sprintf(` data-requires-python="%s"`, html.EscapeString(f.reqPy))
		}
		fmt.Fprintf(w, "<a href=\"/files/%s#sha256=%s\"%s>%s</a><br/>\n", f.name, f.sha, attr, html.EscapeString(f.name))
	}
	fmt.Fprint(w, "</body></html>\n")
}
