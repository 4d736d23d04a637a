package npm

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/internal/safepath"
)

func TestValidName(t *testing.T) {
	for _, tc := range []struct {
		name, pkg string
		ok        bool
	}{
		{"plain", "lodash", true},
		{"scoped", "@types/node", true},
		{"dots and dashes", "left-pad.js", true},
		{"capitals of old packages", "JSONStream", true},
		{"old punctuation", "a~b!c'd(e)f*g", true},
		{"214 bytes", strings.Repeat("a", 214), true},
		{"215 bytes", strings.Repeat("a", 215), false},
		{"empty", "", false},
		{"dot", ".", false},
		{"dot dot", "..", false},
		{"parent", "../x", false},
		{"deep parent", "../../../../tmp/x/npm-escape", false},
		{"absolute", "/abs", false},
		{"scoped parent", "@scope/../x", false},
		{"scoped dot dot", "@scope/..", false},
		{"scope dot dot", "@../x", false},
		{"scope dot", "@./x", false},
		{"scope only", "@scope", false},
		{"empty scope", "@/x", false},
		{"empty scoped name", "@scope/", false},
		{"two levels", "a/b", false},
		{"three scoped levels", "@a/b/c", false},
		{"hidden", ".hidden", false},
		{"hidden scoped name", "@scope/.hidden", false},
		{"underscore", "_x", false},
		{"node_modules", "node_modules", false},
		{"NODE_MODULES", "NODE_MODULES", false},
		{"favicon", "favicon.ico", false},
		{"percent", "%2e%2e", false},
		{"NUL", "a\x00", false},
		{"backslash", `a\b`, false},
		{"space", "a b", false},
		{"leading space", " a", false},
		{"colon", "a:b", false},
		{"non-ASCII", "café", false},
		{"newline", "a\nb", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := validName(tc.pkg); got != tc.ok {
				t.Fatalf("validName(%q) = %v (%s)", tc.pkg, got, nameProblem(tc.pkg))
			}
		})
	}
}

// A name validName accepts is one directory (two with its scope) right
// below node_modules, whatever it is: joined, it stays there and is
// itself, never a path that cleaning would change.
func FuzzValidName(f *testing.F) {
	for _, s := range []string{"a", "@s/a", "../x", "@s/../x", "a/b", ".a", "%2e%2e", "a\x00", `a\b`, "node_modules", "@s/node_modules", "@node_modules/a", "...", "a..b", "@s/..."} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, name string) {
		if !validName(name) {
			return
		}
		rel := "node_modules/" + name
		p, err := safepath.JoinUnder(root, rel)
		if err != nil {
			t.Fatalf("validName(%q) but JoinUnder: %v", name, err)
		}
		got, err := filepath.Rel(root, p)
		if err != nil || filepath.ToSlash(got) != rel {
			t.Fatalf("validName(%q) but it joins to %q", name, got)
		}
		parts := strings.Split(name, "/")
		if len(parts) > 2 || len(parts) == 2 && !strings.HasPrefix(name, "@") {
			t.Fatalf("validName(%q): %d levels", name, len(parts))
		}
		for _, part := range parts {
			if part == "" || part == "." || part == ".." || strings.EqualFold(part, "node_modules") && len(parts) == 1 {
				t.Fatalf("validName(%q): part %q", name, part)
			}
		}
	})
}
