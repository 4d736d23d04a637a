package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path"
)

// Shipped sources: in a one-shot run the workspace is the run's own, seeded
// with the request's files just before the guest started, and nothing but
// this guest writes to it. The host then sends the module files among them
// (request.Sources, by absolute guest path) and the loader takes a module,
// an entry file (filePath), a package.json or a tsconfig.json from there
// instead of reading it through WASI: every WASI file call is a round trip
// to a host thread (~40-100 µs a stat, ~200-500 µs a read on a busy
// machine), and a two-file program made five of them.
//
// What the guest is told holds only until JavaScript changes the file
// system, which it can do only through the driver's fs (fs.go): the first
// change drops the sources (dropSources), after recording the size and
// modification time of every module loaded from them, so those modules
// are compared with their files exactly as the ones read from disk are.

// readSource returns the content of the file at p (absolute and clean):
// the shipped source while there is one, else the file's bytes.
func (m *modules) readSource(p string) (string, error) {
	if src, ok := m.sources[p]; ok {
		return src, nil
	}
	b, err := os.ReadFile(p)
	return string(b), err
}

// shippedFile reports whether p names a file the host shipped.
func (m *modules) shippedFile(p string) bool {
	_, ok := m.sources[p]
	return ok
}

// source is a shipped file: its text follows the request's JSON
// (request.decode).
type source struct {
	Path string `json:"path"`
	Len  int    `json:"len"`
	text string
}

// setSources takes the request's shipped sources (none: nil). Paths that
// are not absolute and clean are ignored: lookups use clean paths.
func (m *modules) setSources(sources []source) {
	m.sources = nil
	for _, s := range sources {
		if !path.IsAbs(s.Path) || path.Clean(s.Path) != s.Path {
			continue
		}
		if m.sources == nil {
			m.sources = make(map[string]string, len(sources))
		}
		m.sources[s.Path] = s.text
	}
	m.res.sources = m.sources
}

// decode decodes a request: its JSON and, after a NUL byte, the texts of
// its conversions and then its sources, back to back, each as long as the
// JSON says (docs/PROTOCOL.md): decoding a JSON string costs ~290
// instructions a byte here, a copy next to none.
func (req *request) decode(msg []byte) error {
	head, tail, split := bytes.Cut(msg, []byte{0})
	if err := json.Unmarshal(head, req); err != nil {
		return err
	}
	take := func(n int) (string, error) {
		if n < 0 || n > len(tail) {
			return "", errors.New("the texts after the request are shorter than it says")
		}
		s := string(tail[:n])
		tail = tail[n:]
		return s, nil
	}
	for i := range req.Conversions {
		var err error
		if req.Conversions[i].Code, err = take(req.Conversions[i].Len); err != nil {
			return err
		}
	}
	for i := range req.Sources {
		var err error
		if req.Sources[i].text, err = take(req.Sources[i].Len); err != nil {
			return err
		}
	}
	if len(tail) > 0 || split && len(req.Conversions)+len(req.Sources) == 0 {
		return errors.New("the texts after the request are longer than it says")
	}
	return nil
}

// dropSources forgets the shipped sources before JavaScript changes the
// file system (see above).
func (m *modules) dropSources() {
	if m.sources == nil {
		return
	}
	for p, rec := range m.cache {
		if !rec.shipped {
			continue
		}
		rec.shipped = false
		if st, err := os.Stat(p); err == nil {
			rec.size, rec.mtime = st.Size(), st.ModTime().UnixNano()
		}
	}
	m.sources, m.res.sources = nil, nil
}
