package engine_test

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// Values are bounded by limits.outputBytes: a larger one is
// failed/output_limit, and a reply past the limit plus its envelope is not
// even copied out of the guest (hostSend used to copy any size).
func TestValueAndReplyBounds(t *testing.T) {
	r := MustRunner(t, 0)
	for _, tc := range []struct {
		name, msg string
		n         int
	}{
		{"value over the limit", "the value is", 5000},
		{"reply over the limit and envelope", "the driver's reply is", 200_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: "'v'.repeat(" + itoa(tc.n) + ")", Limits: wasmexec.Limits{OutputBytes: 1000}})
			if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Code != wasmexec.CodeOutputLimit || res.Value != nil {
				t.Fatalf("%s %+v value %d bytes", res.Outcome, res.Error, len(res.Value))
			}
			if !strings.Contains(res.Error.Message, tc.msg) {
				t.Fatalf("message %q", res.Error.Message)
			}
		})
	}
	res := MustRun(t, r, wasmexec.Request{Code: "'v'.repeat(900)", Limits: wasmexec.Limits{OutputBytes: 1000}})
	if res.Outcome != wasmexec.Succeeded || len(res.Value) != 902 {
		t.Fatalf("within the limit: %s %+v", res.Outcome, res.Error)
	}
}
