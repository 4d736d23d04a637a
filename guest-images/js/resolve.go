package main

import (
	"encoding/json"
	"errors"
	"os"
	"path"
	"strings"
)

// Node's module resolution (https://nodejs.org/api/modules.html#all-together
// and the ESM resolver's package "exports"), over the guest's WASI file
// system: relative and absolute paths with extension and directory-index
// probing, and bare specifiers looked up in node_modules up the directory
// tree, honouring package.json "exports" (subpaths, "*" patterns and
// conditions), "module" (for import) and "main".

// extensions are probed, in order, after a path that names no file.
var extensions = []string{".js", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".jsx", ".json"}

// errNotFound is a specifier that names no module.
var errNotFound = errors.New("not found")

// resolver resolves specifiers; kind is "import" or "require" and chooses
// the package.json conditions.
type resolver struct {
	pkgs map[string]*packageJSON // by directory; nil entry: none or bad
	// ts is the run's tsconfig (tsconfigPath): its paths map bare
	// specifiers first, relative to baseUrl.
	ts *tsconfig
	// sources are the request's shipped files (sources.go): a path among
	// them is a file without a stat.
	sources map[string]string
}

// tsconfig is what the resolver reads of a tsconfig.json.
type tsconfig struct {
	dir             string
	CompilerOptions struct {
		BaseURL string              `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
	} `json:"compilerOptions"`
}

// tsPaths resolves spec through the tsconfig's paths (exact or one "*").
func (r *resolver) tsPaths(spec, kind string) (string, bool) {
	if r.ts == nil {
		return "", false
	}
	base := path.Join(r.ts.dir, r.ts.CompilerOptions.BaseURL)
	for pattern, targets := range r.ts.CompilerOptions.Paths {
		star, ok := "", pattern == spec
		if i := strings.IndexByte(pattern, '*'); i >= 0 && !ok {
			pre, suf := pattern[:i], pattern[i+1:]
			if strings.HasPrefix(spec, pre) && strings.HasSuffix(spec, suf) && len(spec) >= len(pre)+len(suf) {
				star, ok = spec[len(pre):len(spec)-len(suf)], true
			}
		}
		if !ok {
			continue
		}
		for _, t := range targets {
			if p, err := r.fileOrDir(path.Join(base, strings.ReplaceAll(t, "*", star)), kind); err == nil {
				return p, true
			}
		}
	}
	if r.ts.CompilerOptions.BaseURL != "" {
		if p, err := r.fileOrDir(path.Join(base, spec), kind); err == nil {
			return p, true
		}
	}
	return "", false
}

type packageJSON struct {
	Name    string          `json:"name"`
	Main    string          `json:"main"`
	Module  string          `json:"module"`
	Type    string          `json:"type"`
	Exports json.RawMessage `json:"exports"`
	Imports json.RawMessage `json:"imports"`
}

// readPackage reads dir/package.json; nil when there is none. The cache
// lives for one request (reset by the driver), so an edited package.json
// is seen by the next run.
func (r *resolver) readPackage(dir string) *packageJSON {
	if p, ok := r.pkgs[dir]; ok {
		return p
	}
	var p *packageJSON
	f := path.Join(dir, "package.json")
	b, ok := r.sources[f]
	if !ok {
		if raw, err := os.ReadFile(f); err == nil {
			b, ok = string(raw), true
		}
	}
	if ok {
		p = &packageJSON{}
		if json.Unmarshal([]byte(b), p) != nil {
			p = nil
		}
	}
	if r.pkgs == nil {
		r.pkgs = map[string]*packageJSON{}
	}
	r.pkgs[dir] = p
	return p
}

func conditionsFor(kind string) []string {
	if kind == "import" {
		return []string{"import", "module", "node", "default"}
	}
	return []string{"require", "node", "default"}
}

// resolve returns the absolute path of the file spec names, seen from dir.
func (r *resolver) resolve(spec, dir, kind string) (string, error) {
	switch {
	case spec == "":
		return "", errNotFound
	case strings.HasPrefix(spec, "file://"):
		spec = strings.TrimPrefix(spec, "file://")
		fallthrough
	case strings.HasPrefix(spec, "/"):
		return r.fileOrDir(path.Clean(spec), kind)
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		return r.fileOrDir(path.Join(dir, spec), kind)
	case strings.HasPrefix(spec, "#"):
		return r.packageImports(spec, dir, kind)
	}
	if p, ok := r.tsPaths(spec, kind); ok {
		return p, nil
	}
	name, sub := splitPackage(spec)
	if name == "" {
		return "", errNotFound
	}
	// A package may import itself by its name (exports only).
	for d := dir; ; d = path.Dir(d) {
		if p := r.readPackage(d); p != nil && p.Name == name && len(p.Exports) > 0 {
			return r.packageExports(d, p, sub, kind)
		}
		if d == "/" || d == "." {
			break
		}
	}
	for d := dir; ; d = path.Dir(d) {
		if path.Base(d) != "node_modules" {
			pkgDir := path.Join(d, "node_modules", name)
			if isDir(pkgDir) {
				p := r.readPackage(pkgDir)
				if p != nil && len(p.Exports) > 0 && string(p.Exports) != "null" {
					return r.packageExports(pkgDir, p, sub, kind)
				}
				if sub == "." {
					return r.dir(pkgDir, kind)
				}
				return r.fileOrDir(path.Join(pkgDir, sub), kind)
			}
		}
		if d == "/" || d == "." {
			break
		}
	}
	return "", errNotFound
}

// splitPackage splits a bare specifier into the package name (with its
// scope) and the subpath ("." or "./rest").
func splitPackage(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	n := 1
	if strings.HasPrefix(spec, "@") {
		if len(parts) < 2 {
			return "", ""
		}
		n = 2
	}
	name = strings.Join(parts[:n], "/")
	sub = "."
	if rest := strings.Join(parts[n:], "/"); rest != "" {
		sub = "./" + rest
	}
	return name, sub
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// isFile reports whether p names a file (not a directory).
func (r *resolver) isFile(p string) bool {
	if _, ok := r.sources[p]; ok {
		return true
	}
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func (r *resolver) fileOrDir(p, kind string) (string, error) {
	if f, ok := r.file(p); ok {
		return f, nil
	}
	return r.dir(p, kind)
}

// file probes p as written, then with each extension; TypeScript's
// convention of importing "./a.js" for a.ts is honoured too.
func (r *resolver) file(p string) (string, bool) {
	if r.isFile(p) {
		return p, true
	}
	for _, ext := range extensions {
		if r.isFile(p + ext) {
			return p + ext, true
		}
	}
	for js, tss := range map[string][]string{".js": {".ts", ".tsx"}, ".mjs": {".mts"}, ".cjs": {".cts"}, ".jsx": {".tsx"}} {
		if strings.HasSuffix(p, js) {
			for _, ts := range tss {
				if f := strings.TrimSuffix(p, js) + ts; r.isFile(f) {
					return f, true
				}
			}
		}
	}
	return "", false
}

// dir resolves a directory: its package.json "module" (import only) or
// "main", then index with each extension.
func (r *resolver) dir(p, kind string) (string, error) {
	if pkg := r.readPackage(p); pkg != nil {
		mains := []string{pkg.Main}
		if kind == "import" {
			mains = []string{pkg.Module, pkg.Main}
		}
		for _, m := range mains {
			if m == "" {
				continue
			}
			if f, ok := r.file(path.Join(p, m)); ok {
				return f, nil
			}
			if f, ok := r.file(path.Join(p, m, "index")); ok {
				return f, nil
			}
		}
	}
	if f, ok := r.file(path.Join(p, "index")); ok {
		return f, nil
	}
	return "", errNotFound
}

// packageExports resolves subpath ("." or "./x") through pkg's "exports".
func (r *resolver) packageExports(pkgDir string, pkg *packageJSON, sub, kind string) (string, error) {
	exports := pkg.Exports
	// Sugar: a string, an array or an object of conditions is "." alone.
	if keys, ok := objectKeys(exports); !ok || !hasSubpathKeys(keys) {
		exports = json.RawMessage(`{".":` + string(exports) + `}`)
	}
	target, ok := matchSubpath(exports, sub, conditionsFor(kind))
	if !ok {
		return "", errNotFound
	}
	f := path.Join(pkgDir, target)
	if r.isFile(f) {
		return f, nil
	}
	return "", errNotFound
}

// packageImports resolves a "#name" specifier through the "imports" of the
// nearest package.json.
func (r *resolver) packageImports(spec, dir, kind string) (string, error) {
	for d := dir; ; d = path.Dir(d) {
		if p := r.readPackage(d); p != nil {
			target, ok := matchSubpath(p.Imports, spec, conditionsFor(kind))
			if !ok {
				return "", errNotFound
			}
			if strings.HasPrefix(target, "./") {
				return r.fileOrDir(path.Join(d, target), kind)
			}
			return r.resolve(target, d, kind)
		}
		if d == "/" || d == "." {
			return "", errNotFound
		}
	}
}

func hasSubpathKeys(keys []string) bool {
	for _, k := range keys {
		if strings.HasPrefix(k, ".") {
			return true
		}
	}
	return false
}

// objectKeys returns the keys of a JSON object in their order.
func objectKeys(raw json.RawMessage) ([]string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	var keys []string
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil, false
		}
	}
	return keys, true
}

// matchSubpath finds sub in a subpath map: an exact key, else the longest
// "prefix*suffix" pattern, whose "*" is substituted into the target.
func matchSubpath(raw json.RawMessage, sub string, conds []string) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return "", false
	}
	if t, ok := m[sub]; ok {
		return pickTarget(t, "", conds)
	}
	best, bestKey, star := "", "", ""
	for k := range m {
		i := strings.IndexByte(k, '*')
		if i < 0 {
			continue
		}
		pre, suf := k[:i], k[i+1:]
		if strings.HasPrefix(sub, pre) && strings.HasSuffix(sub, suf) && len(sub) >= len(pre)+len(suf) && len(pre) > len(best) {
			best, bestKey = pre, k
			star = sub[len(pre) : len(sub)-len(suf)]
		}
	}
	if bestKey == "" {
		return "", false
	}
	return pickTarget(m[bestKey], star, conds)
}

// pickTarget chooses a target: a string, the first usable one of an array,
// or the first key (in the package's order) of a conditions object that is
// one of conds.
func pickTarget(raw json.RawMessage, star string, conds []string) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.ReplaceAll(s, "*", star), true
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		for _, e := range arr {
			if s, ok := pickTarget(e, star, conds); ok {
				return s, true
			}
		}
		return "", false
	}
	keys, ok := objectKeys(raw)
	if !ok {
		return "", false
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	for _, k := range keys {
		for _, c := range conds {
			if k == c {
				if s, ok := pickTarget(m[k], star, conds); ok {
					return s, true
				}
			}
		}
	}
	return "", false
}
