package contexts_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
)

// A cell's cells run as a console's do: agents resend whole cells, so a
// later cell may declare a top-level let, const or class again (Chrome
// DevTools' REPL mode), and a CommonJS cell keeps its bindings and gives
// its last expression. Each case runs its cells in order in one context;
// want is a value, or "!Name" for a failure with that error name.
func TestJSCellsLikeAConsole(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	type cell struct {
		code, format, want string
		lang               wasmexec.Language
	}
	for i, tc := range []struct {
		name  string
		cells []cell
	}{
		{"a resent cell runs again", []cell{
			{code: "const _ = require('node:path'); _.sep", want: `"/"`},
			{code: "const _ = require('node:path'); _.sep", want: `"/"`},
		}},
		{"let and class again", []cell{
			{code: "let n = 1; class A { v() { return 'a' } } n", want: "1"},
			{code: "let n = 2; class A { v() { return 'b' } } [n, new A().v()]", want: `[2,"b"]`},
		}},
		{"functions see the new binding", []cell{
			{code: "const k = 1; function readK() { return k }; readK()", want: "1"},
			{code: "const k = 2; readK()", want: "2"},
		}},
		{"a const stays const", []cell{
			{code: "const c = 1", want: ""},
			{code: "c = 2", want: "!TypeError"},
			{code: "let c = 3; c = 4; c", want: "4"},
			{code: "const c = 5; c", want: "5"},
		}},
		{"the new binding is uninitialized until its declaration runs", []cell{
			{code: "let t = 1", want: ""},
			{code: "let t = t + 1", want: "!ReferenceError"},
			{code: "let t = 5; t", want: "5"},
		}},
		{"one cell still can't declare a name twice", []cell{
			{code: "let d = 1; let d = 2", want: "!SyntaxError"},
		}},
		{"a var is not replaced by a let", []cell{
			{code: "var w = 1", want: ""},
			{code: "let w = 2", want: "!SyntaxError"},
			{code: "w", want: "1"},
		}},
		{"a typescript cell reads a commonjs cell's binding", []cell{
			{code: "let retainedAnswer = 41", format: "commonjs", want: ""},
			{code: "retainedAnswer + 1", lang: wasmexec.TypeScript, want: "42"},
		}},
		{"commonjs evaluates to its last expression", []cell{
			{code: "require('node:path').sep", format: "commonjs", want: `"/"`},
			{code: "const helper = 2; exports.a = 1; module.exports.b = helper * 21; [module.exports, helper]", format: "commonjs", want: `[{"a":1,"b":42},2]`},
			{code: "[typeof module, typeof exports, typeof require, __filename]", format: "commonjs", want: `["object","object","function","main.js"]`},
			{code: "helper", want: "2"},
		}},
		{"commonjs with top-level await", []cell{
			{code: "const v = await Promise.resolve(3); v * 2", format: "commonjs", want: "6"},
		}},
		{"commonjs with a top-level return runs as a function", []cell{
			{code: "const hidden = 1; module.exports = 7; return", format: "commonjs", want: "7"},
			{code: "typeof hidden", want: `"undefined"`},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := fmt.Sprintf("repl%d", i)
			MustCreate(t, m, wasmexec.ContextSpec{ContextID: id})
			for _, c := range tc.cells {
				res := MustRun(t, m, id, wasmexec.Request{Code: c.code, Format: c.format, Language: c.lang})
				if name, ok := strings.CutPrefix(c.want, "!"); ok {
					if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Name != name {
						t.Fatalf("%q: %s %s %+v, want a %s", c.code, res.Outcome, res.Value, res.Error, name)
					}
					continue
				}
				if res.Outcome != wasmexec.Succeeded || string(res.Value) != c.want {
					t.Fatalf("%q: %s %s %+v, want %s", c.code, res.Outcome, res.Value, res.Error, c.want)
				}
			}
		})
	}
}
