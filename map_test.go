package wasmexec_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// docs/MAP.md follows one request from HTTP to the guest and back, file by
// file: a map whose steps name functions that were renamed or moved
// misleads the next reader. Each `file.go` `function` it names must be
// declared in that file (a method as (*T).M or T.M, or by its bare name),
// each function an arrow leads to (→ `name`) must be declared in a file
// its step names, every file it names must exist, and the one-shot
// journey stays within ten steps, each naming a file and a function, with
// the context and process journeys doing the same.
func TestMapNamesWhatExists(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(file)
	b, err := os.ReadFile(filepath.Join(root, "docs", "MAP.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	_, journey, ok := strings.Cut(text, "\n## One request, file by file\n")
	if !ok {
		t.Fatal(`docs/MAP.md has no "## One request, file by file" section`)
	}
	if next := strings.Index(journey, "\n## "); next >= 0 {
		journey = journey[:next]
	}

	decls := map[string]map[string]bool{} // file → names it declares
	declared := func(path string) map[string]bool {
		if d, ok := decls[path]; ok {
			return d
		}
		d := map[string]bool{}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, path), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("docs/MAP.md names %s: %v", path, err)
		} else {
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok {
					for _, name := range funcNames(fn) {
						d[name] = true
					}
				}
			}
		}
		decls[path] = d
		return d
	}

	// Every file the map names exists, the package table's included.
	for _, m := range fileRef.FindAllStringSubmatch(text, -1) {
		if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
			t.Errorf("docs/MAP.md names %s, which does not exist", m[1])
		}
	}

	steps, paragraphs := 0, map[string]bool{}
	for _, block := range mapBlocks(journey) {
		pairs := pairRef.FindAllStringSubmatch(block, -1)
		files := map[string]bool{}
		for _, m := range fileRef.FindAllStringSubmatch(block, -1) {
			files[m[1]] = true
		}
		for _, m := range pairs {
			if !declared(m[1])[m[2]] {
				t.Errorf("docs/MAP.md: %s declares no %s", m[1], m[2])
			}
		}
		for _, m := range arrowRef.FindAllStringSubmatch(block, -1) {
			if strings.Contains(m[1], "_") {
				continue // a code, not a function
			}
			found := false
			for f := range files {
				found = found || declared(f)[m[1]]
			}
			if !found {
				t.Errorf("docs/MAP.md: → %s is declared in none of the files its step names (%v)", m[1], keys(files))
			}
		}
		switch {
		case numbered.MatchString(block):
			steps++
			if len(pairs) == 0 {
				t.Errorf("docs/MAP.md: step %q names no `file.go` `function`", firstLine(block))
			}
		case strings.HasPrefix(block, "A context run"):
			paragraphs["context"] = len(pairs) > 0
		case strings.HasPrefix(block, "A process"):
			paragraphs["process"] = len(pairs) > 0
		}
	}
	if steps == 0 || steps > 10 {
		t.Errorf("docs/MAP.md follows a one-shot run in %d steps, want 1 to 10", steps)
	}
	for _, journey := range []string{"context", "process"} {
		if !paragraphs[journey] {
			t.Errorf("docs/MAP.md: the %s run's paragraph is missing or names no `file.go` `function`", journey)
		}
	}
}

var (
	// fileRef is a file of ours in backquotes: `engine/guest.go`.
	fileRef = regexp.MustCompile("`([a-z][a-z0-9_-]*(?:/[a-zA-Z0-9_.-]+)+\\.go)`")
	// pairRef is a file followed by a function: `engine/guest.go` `(*Guest).RunOnce`.
	pairRef = regexp.MustCompile("`([a-z][a-z0-9_-]*(?:/[a-zA-Z0-9_.-]+)+\\.go)`\\s+`(" + funcRef + ")`")
	// arrowRef is a function an arrow leads to without naming its file:
	// → `admit` (not an outcome code: fuel → `cpu_limit`).
	arrowRef = regexp.MustCompile("→\\s+`(" + funcRef + ")`")
	numbered = regexp.MustCompile(`^\d+\. `)
)

// funcRef is a function or a method as the map writes them.
const funcRef = `(?:\(\*[A-Za-z_]\w*\)\.|[A-Za-z_]\w*\.)?[A-Za-z_]\w*`

// funcNames are the names fn answers to in the map: its bare name, and a
// method's T.M and, with a pointer receiver, (*T).M.
func funcNames(fn *ast.FuncDecl) []string {
	names := []string{fn.Name.Name}
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return names
	}
	typ := fn.Recv.List[0].Type
	ptr := false
	if star, ok := typ.(*ast.StarExpr); ok {
		typ, ptr = star.X, true
	}
	if idx, ok := typ.(*ast.IndexExpr); ok { // a generic receiver
		typ = idx.X
	}
	id, ok := typ.(*ast.Ident)
	if !ok {
		return names
	}
	names = append(names, id.Name+"."+fn.Name.Name)
	if ptr {
		names = append(names, "(*"+id.Name+")."+fn.Name.Name)
	}
	return names
}

// mapBlocks splits the journey into its numbered steps and paragraphs.
func mapBlocks(journey string) []string {
	var blocks []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, line := range strings.Split(journey, "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case numbered.MatchString(line):
			flush()
			cur = append(cur, line)
		default:
			cur = append(cur, strings.TrimSpace(line))
		}
	}
	flush()
	return blocks
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
