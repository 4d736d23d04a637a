package js

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// ModuleSources ships only module files, by clean guest path, within its
// limits, whatever a request's files hold.
func TestModuleSourcesBounds(t *testing.T) {
	many := map[string]string{}
	for i := range 1000 {
		many[fmt.Sprintf("m%04d.mjs", i)] = "export const x = 1;\n"
	}
	big := strings.Repeat("x", maxSourceFileBytes+1)
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // paths shipped; nil: checked by count below
	}{
		{"modules, JSON, TypeScript; not other files", map[string]string{"a.mjs": "1", "b.ts": "2", "p/package.json": "{}", "notes.txt": "x", "img.png": "x"}, []string{"/workspace/a.mjs", "/workspace/b.ts", "/workspace/p/package.json"}},
		{"absolute below /workspace and unclean names", map[string]string{"/workspace/a.js": "1", "./b.js": "2", "c//d.js": "3"}, []string{"/workspace/a.js", "/workspace/b.js", "/workspace/c/d.js"}},
		{"names that leave the workspace", map[string]string{"../x.js": "1", "/etc/x.js": "2", "a/../../y.js": "3", "nul\x00.js": "4", "/workspace": "5", ".": "6"}, []string{}},
		{"a file over the per-file limit", map[string]string{"big.js": big, "small.js": "1"}, []string{"/workspace/small.js"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ModuleSources(tc.files)
			if len(got) != len(tc.want) {
				t.Fatalf("shipped %d files %v, want %v", len(got), keys(got), tc.want)
			}
			for _, p := range tc.want {
				if _, ok := got[p]; !ok {
					t.Fatalf("%s not shipped: %v", p, keys(got))
				}
			}
		})
	}
	if got := ModuleSources(many); len(got) != maxSourceFiles {
		t.Fatalf("1000 files: shipped %d, want at most %d", len(got), maxSourceFiles)
	}
	huge := map[string]string{}
	for i := range 64 {
		huge[fmt.Sprintf("h%02d.js", i)] = strings.Repeat("y", maxSourceFileBytes)
	}
	total := 0
	for _, src := range ModuleSources(huge) {
		total += len(src)
	}
	if total > maxSourceBytes || total == 0 {
		t.Fatalf("shipped %d bytes, want 1..%d", total, maxSourceBytes)
	}
}

// Sources go only with one-shot code that may load a module.
func TestControlShipsSourcesOnlyWhenUseful(t *testing.T) {
	files := map[string]string{"lib.mjs": "export const f = 1;\n"}
	for _, tc := range []struct {
		name string
		req  wasmexec.Request
		ship bool
	}{
		{"cell that imports", wasmexec.Request{Code: "import { f } from './lib.mjs'; f", Files: files}, true},
		{"cell that requires", wasmexec.Request{Code: "require('./lib.mjs').f", Files: files}, true},
		{"filePath", wasmexec.Request{FilePath: "lib.mjs", Files: files}, true},
		{"cell that loads nothing", wasmexec.Request{Code: "1 + 1", Files: files}, false},
		{"context", wasmexec.Request{Code: "import { f } from './lib.mjs'; f", Files: files, ContextID: "c"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctl := Control(&tc.req, tc.req.Code, "main.js")
			if got := len(ctl.Sources) > 0; got != tc.ship {
				t.Fatalf("sources shipped = %v, want %v", got, tc.ship)
			}
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
