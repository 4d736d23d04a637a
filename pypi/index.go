package pypi

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// File is one distribution file an index lists for a project.
type File struct {
	Filename       string
	URL            string
	SHA256         string // hex; "" when the index gives none
	RequiresPython string
	Yanked         bool
	Index          string // the index that listed it
}

// maxPageBytes bounds one index page (PyPI's largest are a few MiB).
const maxPageBytes = 32 << 20

// project fetches the files an index lists for name: PEP 691 JSON when the
// index speaks it, else the PEP 503 HTML page. A 404 is no files.
func (c *Client) project(ctx context.Context, index, name string) ([]File, bool, error) {
	u := strings.TrimRight(index, "/") + "/" + Normalize(name) + "/"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, false, failf(name, "bad index URL %q: %v", index, err)
	}
	req.Header.Set("Accept", "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01")
	resp, err := c.http().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		return nil, false, failf(name, "index %s is unreachable: %v", index, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, false, nil
	case resp.StatusCode != http.StatusOK:
		return nil, false, failf(name, "index %s answered %s", index, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPageBytes+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		return nil, false, failf(name, "reading the index page: %v", err)
	}
	if len(body) > maxPageBytes {
		return nil, false, failf(name, "the index page is over %d bytes", maxPageBytes)
	}
	base := resp.Request.URL
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var files []File
	if ct == "application/vnd.pypi.simple.v1+json" || (ct == "application/json" && len(body) > 0 && body[0] == '{') {
		files, err = parseJSONPage(body, base)
	} else {
		files, err = parseHTMLPage(string(body), base)
	}
	if err != nil {
		return nil, false, failf(name, "bad index page from %s: %v", index, err)
	}
	for i := range files {
		files[i].Index = index
	}
	return files, true, nil
}

func parseJSONPage(body []byte, base *url.URL) ([]File, error) {
	var page struct {
		Files []struct {
			Filename       string            `json:"filename"`
			URL            string            `json:"url"`
			Hashes         map[string]string `json:"hashes"`
			RequiresPython *string           `json:"requires-python"`
			Yanked         any               `json:"yanked"`
		} `json:"files"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, err
	}
	var out []File
	for _, f := range page.Files {
		u, err := base.Parse(f.URL)
		if err != nil {
			continue
		}
		file := File{Filename: f.Filename, URL: u.String(), SHA256: strings.ToLower(f.Hashes["sha256"])}
		if f.RequiresPython != nil {
			file.RequiresPython = *f.RequiresPython
		}
		switch y := f.Yanked.(type) {
		case bool:
			file.Yanked = y
		case string:
			file.Yanked = true
		}
		out = append(out, file)
	}
	return out, nil
}

var (
	anchorRE = regexp.MustCompile(`(?is)<a\s([^>]*)>(.*?)</a>`)
	attrRE   = regexp.MustCompile(`(?is)([a-z0-9_:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?`)
)

// parseHTMLPage reads a PEP 503 page: one anchor per file, its href
// carrying #sha256=..., data-requires-python and data-yanked attributes.
func parseHTMLPage(page string, base *url.URL) ([]File, error) {
	var out []File
	for _, m := range anchorRE.FindAllStringSubmatch(page, -1) {
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(m[1], -1) {
			attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2] + a[3] + a[4])
		}
		href, ok := attrs["href"]
		if !ok {
			continue
		}
		u, err := base.Parse(href)
		if err != nil {
			continue
		}
		f := File{Filename: strings.TrimSpace(html.UnescapeString(m[2])), RequiresPython: attrs["data-requires-python"]}
		if _, y := attrs["data-yanked"]; y {
			f.Yanked = true
		}
		if frag := u.Fragment; strings.HasPrefix(frag, "sha256=") {
			f.SHA256 = strings.ToLower(strings.TrimPrefix(frag, "sha256="))
		}
		u.Fragment = ""
		f.URL = u.String()
		if i := strings.LastIndex(u.Path, "/"); f.Filename == "" && i >= 0 {
			f.Filename = u.Path[i+1:]
		}
		out = append(out, f)
	}
	return out, nil
}

// Wheel is a parsed wheel file name (PEP 427).
type Wheel struct {
	Name, Version string
	Tags          []string // python-abi-platform, expanded from compressed tag sets
}

// ParseWheelName parses name-version(-build)?-python-abi-platform.whl.
func ParseWheelName(filename string) (Wheel, bool) {
	if !strings.HasSuffix(filename, ".whl") {
		return Wheel{}, false
	}
	parts := strings.Split(strings.TrimSuffix(filename, ".whl"), "-")
	if len(parts) != 5 && len(parts) != 6 {
		return Wheel{}, false
	}
	n := len(parts)
	w := Wheel{Name: parts[0], Version: parts[1]}
	for _, py := range strings.Split(parts[n-3], ".") {
		for _, abi := range strings.Split(parts[n-2], ".") {
			for _, plat := range strings.Split(parts[n-1], ".") {
				w.Tags = append(w.Tags, py+"-"+abi+"-"+plat)
			}
		}
	}
	return w, true
}

// pureTags are the tags the guest (CPython 3.11, wasm32-wasi) accepts, in
// pip's order of preference: pure wheels only.
var pureTags = func() map[string]int {
	m := map[string]int{"cp311-none-any": 0, "py311-none-any": 1, "py3-none-any": 2}
	for i := 10; i >= 0; i-- {
		m[fmt.Sprintf("py3%d-none-any", i)] = 13 - i
	}
	return m
}()

// Pure reports whether the wheel installs on the guest, and its rank (lower
// is better).
func (w Wheel) Pure() (int, bool) {
	best, ok := 1<<30, false
	for _, t := range w.Tags {
		if r, yes := pureTags[strings.ToLower(t)]; yes && r < best {
			best, ok = r, true
		}
	}
	return best, ok
}

// sdistVersion extracts the version of a source distribution file name
// for the project key ("", false when it is not one).
func sdistVersion(filename, key string) (string, bool) {
	lower := strings.ToLower(filename)
	for _, ext := range []string{".tar.gz", ".zip", ".tar.bz2", ".tgz", ".tar.xz", ".tar"} {
		if strings.HasSuffix(lower, ext) {
			stem := filename[:len(filename)-len(ext)]
			i := strings.LastIndex(stem, "-")
			if i <= 0 || Normalize(stem[:i]) != key {
				return "", false
			}
			return stem[i+1:], true
		}
	}
	return "", false
}
