package server_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/contexts"
)

func tarBytes(tb testing.TB, gz bool, files map[string]string, extra ...*tar.Header) []byte {
	tb.Helper()
	var buf bytes.Buffer
	var out io.Writer = &buf
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		out = zw
	}
	tw := tar.NewWriter(out)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(files[n]))})
		io.WriteString(tw, files[n])
	}
	for _, h := range extra {
		tw.WriteHeader(h)
	}
	tw.Close()
	if zw != nil {
		zw.Close()
	}
	return buf.Bytes()
}

func putBytes(tb testing.TB, url string, body []byte) reply {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := reply{Status: resp.StatusCode, Header: resp.Header, Body: b}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		r.JSON = map[string]any{}
		_ = json.Unmarshal(b, &r.JSON)
	}
	return r
}

// A tree goes into a workspace as one archive (tar, tgz, zip; the format
// named or detected) and comes out as one; hostile archives are refused
// whole over HTTP too.
func TestArchivesOverHTTP(t *testing.T) {
	s := mustContextServer(t, contexts.Config{}, 4<<20, 1<<20)
	base := s.URL + "/v1/contexts/arc/files"
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"arc","language":"javascript"}`), 201, "")

	files := map[string]string{"src/main.js": "console.log(1)", "src/lib/util.js": "module.exports = 2", "README": "hi"}
	r := putBytes(t, base+"?archive=tgz&dir=proj", tarBytes(t, true, files))
	if r.Status != 200 || r.JSON["files"] != float64(3) || r.JSON["dir"] != "proj" {
		t.Fatalf("put tgz: %d %s", r.Status, r.Body)
	}
	if r = do(t, "GET", base+"/proj/src/lib/util.js", ""); string(r.Body) != "module.exports = 2" {
		t.Fatalf("get: %d %s", r.Status, r.Body)
	}
	// Detected: a zip with ?archive.
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("z/one.txt")
	io.WriteString(w, "1")
	zw.Close()
	if r = putBytes(t, base+"?archive", zbuf.Bytes()); r.Status != 200 || r.JSON["files"] != float64(1) {
		t.Fatalf("put zip: %d %s", r.Status, r.Body)
	}
	// Out again, and back into a second context: the same tree.
	r = do(t, "GET", base+"?dir=proj&archive=tar", "")
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/x-tar" {
		t.Fatalf("get tar: %d %s", r.Status, r.Header)
	}
	var got []string
	tr := tar.NewReader(bytes.NewReader(r.Body))
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(tr)
		got = append(got, fmt.Sprintf("%s=%s", h.Name, b))
	}
	sort.Strings(got)
	if want := "README=hi|src/=|src/lib/=|src/lib/util.js=module.exports = 2|src/main.js=console.log(1)"; strings.Join(got, "|") != want {
		t.Fatalf("tar %v", got)
	}
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"arc2","language":"javascript"}`), 201, "")
	if r2 := putBytes(t, s.URL+"/v1/contexts/arc2/files?archive=tar", r.Body); r2.Status != 200 || r2.JSON["files"] != float64(3) {
		t.Fatalf("round trip: %d %s", r2.Status, r2.Body)
	}
	if r = do(t, "GET", s.URL+"/v1/contexts/arc2/files/src/main.js", ""); string(r.Body) != "console.log(1)" {
		t.Fatalf("round trip get: %d %s", r.Status, r.Body)
	}
	if r = do(t, "GET", base+"?archive=tgz", ""); r.Status != 200 || r.Header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("get tgz: %d %s", r.Status, r.Header)
	}

	// Refused whole: the good entry beside the bad one is not written.
	for _, tc := range []struct {
		name   string
		body   []byte
		query  string
		status int
		code   string
	}{
		{"parent escape", tarBytes(t, false, map[string]string{"good.txt": "g", "../evil.txt": "e"}), "?archive=tar", 400, "invalid_argument"},
		{"symlink", tarBytes(t, false, map[string]string{"good.txt": "g"}, &tar.Header{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "/etc"}), "?archive", 400, "invalid_argument"},
		{"hard link", tarBytes(t, false, map[string]string{"good.txt": "g"}, &tar.Header{Name: "h", Typeflag: tar.TypeLink, Linkname: "good.txt"}), "?archive=tar", 400, "invalid_argument"},
		{"over the quota", tarBytes(t, true, map[string]string{"good.txt": "g", "big": strings.Repeat("x", 5<<20)}), "?archive=tgz", 413, "payload_too_large"},
		{"bad format", []byte("x"), "?archive=rar", 400, "invalid_argument"},
		{"no archive parameter", tarBytes(t, false, map[string]string{"good.txt": "g"}), "", 400, "invalid_argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantStatus(t, putBytes(t, base+tc.query, tc.body), tc.status, tc.code)
			wantStatus(t, do(t, "GET", base+"/good.txt", ""), 404, "not_found")
		})
	}
	wantStatus(t, do(t, "GET", base+"?dir=nope&archive=tar", ""), 404, "not_found")
	wantStatus(t, do(t, "GET", base+"?archive=zip", ""), 400, "invalid_argument")
}
