package python_test

import (
	"testing"

	"github.com/wasmexec/wasmexec"
)

// Values follow one rule in both languages (README): None, like
// JavaScript's undefined, is no value; sets and non-string-keyed dicts are
// the Set and Map markers. Execute accepts top-level await as evaluate does.
func TestValueRuleAndExecuteAwait(t *testing.T) {
	r := MustRunner(t)
	for _, tc := range []struct{ code, value string }{
		{"print(1)", ""},
		{"None", ""},
		{"[None]", "[null]"},
		{"{3}", `{"$type":"Set","entries":[3]}`},
		{"frozenset()", `{"$type":"Set","entries":[]}`},
		{"{1: 'a', (2, 3): {4}}", `{"$type":"Map","entries":[[1,"a"],[[2,3],{"$type":"Set","entries":[4]}]]}`},
		{"{'a': {1: None}}", `{"a":{"$type":"Map","entries":[[1,null]]}}`},
	} {
		res := MustRun(t, r, wasmexec.Request{Code: tc.code})
		wantOutcome(t, res, wasmexec.Succeeded, "")
		if string(res.Value) != tc.value {
			t.Errorf("%q: value %q, want %q", tc.code, res.Value, tc.value)
		}
	}
	res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: "import asyncio\nawait asyncio.sleep(0)\nprint('awaited', __name__)"})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if res.Stdout == nil || *res.Stdout != "awaited __main__\n" {
		t.Errorf("execute with top-level await: %+v", res)
	}
}
