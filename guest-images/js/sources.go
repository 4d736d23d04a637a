package main

import (
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

// setSources takes the request's shipped sources (nil: none). Paths that
// are not absolute and clean are ignored: lookups use clean paths.
func (m *modules) setSources(sources map[string]string) {
	m.sources = nil
	for p, src := range sources {
		if !path.IsAbs(p) || path.Clean(p) != p {
			continue
		}
		if m.sources == nil {
			m.sources = make(map[string]string, len(sources))
		}
		m.sources[p] = src
	}
	m.res.sources = m.sources
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
