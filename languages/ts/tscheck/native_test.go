package tscheck

import (
	"testing"
)

func TestNativeSmoke(t *testing.T) {
	p := SharedNativePool(t)
	res := MustNativeCheck(t, p, Request{Code: "const n: number = 'x';\nlet y = foo;\nconsole.log(inputs);\n"})
	t.Logf("%+v", res)
	if res.Outcome != "succeeded" || len(res.Diagnostics) != 2 {
		t.Fatalf("got %+v", res)
	}
	res = MustNativeCheck(t, p, Request{Code: "const n: number = 1;\n"})
	t.Logf("%+v", res)
	if len(res.Diagnostics) != 0 {
		t.Fatalf("got %+v", res)
	}
}
