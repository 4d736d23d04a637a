package engine_test

import (
	"testing"

	"github.com/wasmexec/wasmexec"
)

// Unicode property escapes with the u flag (goja is patched for them:
// guest-images/js/patch-goja-property.py); each value is node 20's.
func TestJSRegExpUnicodeProperties(t *testing.T) {
	r := MustRunner(t, 0)
	for _, tc := range []struct{ name, code, want string }{
		{"general categories", `[/\p{L}/u.test("H"), /\p{L}/u.test("1"), /^\p{Lu}+$/u.test("ÀB"), /\p{Letter}/u.test("x"), /\p{gc=Nd}/u.test("٣")]`, "[true,false,true,true,true]"},
		{"in a class, with others", `[new RegExp("[\\p{L}\\p{N}\\p{M}]", "u").test("Hello"), /[\p{L}]/u.test("é"), "a-b c".replace(/[^\p{L}\s]/gu, "")]`, `[true,true,"ab c"]`},
		{"negated", `[/\P{L}/u.test("a"), /\P{L}/u.test("1")]`, "[false,true]"},
		{"scripts", `[/\p{Script=Greek}/u.test("α"), /\p{sc=Cyrillic}/u.test("α")]`, "[true,false]"},
		{"binary properties", `[/\p{Alphabetic}/u.test("ª"), /\p{White_Space}/u.test("\u3000"), /^\p{ASCII}+$/u.test("az~")]`, "[true,true,true]"},
		{"without the u flag p is a letter", `/\p{L}/.test("p{L}")`, "true"},
		{"unknown property is a SyntaxError", `try { new RegExp("\\p{Nope}", "u") } catch (e) { e.name }`, `"SyntaxError"`},
		{"Segmenter's word-likeness", `[...new Intl.Segmenter('en', {granularity: 'word'}).segment('Hi, you 42')].filter(s => s.isWordLike).map(s => s.segment)`, `["Hi","you","42"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: tc.code, TimeoutMs: 20000})
			if res.Outcome != wasmexec.Succeeded {
				t.Fatalf("outcome %s: %+v", res.Outcome, res.Error)
			}
			if string(res.Value) != tc.want {
				t.Fatalf("value = %s\nwant    %s", res.Value, tc.want)
			}
		})
	}
}
