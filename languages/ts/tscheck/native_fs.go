package tscheck

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// nativeFS is the file system a TypeScript 7 worker sees: its API mode
// asks for every file through callbacks (readFile, fileExists, ...), and
// they are answered from the check's files alone. Only the compiler's own
// directory (its lib files) is left to the real file system. So module
// resolution, `/// <reference path>` and `extends` can reach nothing but
// what the request sent: the worker is trusted with the code and options
// of the check and nothing else.
type nativeFS struct {
	libDir string            // the executable's directory, with "/" at the end
	files  map[string]string // absolute path → text
	dirs   map[string]*fsDir // absolute directory path → entries
}

type fsDir struct{ files, dirs []string }

func newNativeFS(libDir string, files map[string]string) *nativeFS {
	fs := &nativeFS{libDir: strings.TrimSuffix(libDir, "/") + "/", files: files, dirs: map[string]*fsDir{"/": {}}}
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		child := p
		isFile := true
		for dir := path.Dir(p); ; dir = path.Dir(dir) {
			d, seen := fs.dirs[dir]
			if !seen {
				d = &fsDir{}
				fs.dirs[dir] = d
			}
			base := path.Base(child)
			if isFile {
				d.files = append(d.files, base)
			} else if !contains(d.dirs, base) {
				d.dirs = append(d.dirs, base)
			}
			if seen || dir == "/" {
				break
			}
			child, isFile = dir, false
		}
	}
	return fs
}

// fallback is the callback answer that lets the compiler use the real file
// system: only for its own lib directory.
var fallback = []byte{}

func (fs *nativeFS) inLibDir(p string) bool {
	return strings.HasPrefix(p, fs.libDir) || p+"/" == fs.libDir
}

// answer serves one callback.
func (fs *nativeFS) answer(name string, arg []byte) ([]byte, error) {
	var p string
	if err := json.Unmarshal(arg, &p); err != nil {
		return nil, err
	}
	if fs.inLibDir(p) {
		return fallback, nil
	}
	p = cleanAbs(p)
	switch name {
	case "readFile":
		text, ok := fs.files[p]
		if !ok {
			return []byte(`{"content":null}`), nil
		}
		return json.Marshal(struct {
			Content string `json:"content"`
		}{text})
	case "fileExists":
		_, ok := fs.files[p]
		return boolJSON(ok), nil
	case "directoryExists":
		_, ok := fs.dirs[p]
		return boolJSON(ok), nil
	case "getAccessibleEntries":
		d := fs.dirs[p]
		if d == nil {
			d = &fsDir{}
		}
		return json.Marshal(struct {
			Files       []string `json:"files"`
			Directories []string `json:"directories"`
		}{nonNil(d.files), nonNil(d.dirs)})
	case "realpath":
		return json.Marshal(p)
	}
	return nil, &apiRequestError{Method: name, Message: "unknown callback"}
}

func cleanAbs(p string) string {
	if p == "" {
		return "/"
	}
	return path.Clean("/" + p)
}

func boolJSON(b bool) []byte {
	if b {
		return []byte("true")
	}
	return []byte("false")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
