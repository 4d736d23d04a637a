package pipeline

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// Rich outputs in a driver's reply become the result's, bounded like
// output: past the limit, or past MaxDisplayOutputs, or cut by the driver
// itself, the run fails with output_limit and returns none.
func TestClassifyOutputs(t *testing.T) {
	png := `{"type":"image/png","data":"iVBORw0KGgo=","width":2,"height":3}`
	many := strings.Repeat(`{"type":"text/plain","data":"x"},`, wasmexec.MaxDisplayOutputs)
	for _, tc := range []struct {
		name, raw   string
		kind        wasmexec.Kind
		limit       int64
		wantOutcome wasmexec.Outcome
		wantCode    string
		wantN       int
	}{
		{"a figure", `{"status":"ok","outputs":[` + png + `]}`, wasmexec.KindExecute, 1000, wasmexec.Succeeded, "", 1},
		{"a figure and a value", `{"status":"ok","hasValue":true,"value":1,"outputs":[` + png + `,{"type":"text/html","data":"<b>x</b>","text":"x"}]}`, wasmexec.KindEvaluate, 1000, wasmexec.Succeeded, "", 2},
		{"outputs of a failed run", `{"status":"error","error":{"code":"exception","message":"boom"},"outputs":[` + png + `]}`, wasmexec.KindExecute, 1000, wasmexec.Failed, wasmexec.CodeException, 1},
		{"over the byte limit", `{"status":"ok","outputs":[` + png + `]}`, wasmexec.KindExecute, 10, wasmexec.Failed, wasmexec.CodeOutputLimit, 0},
		{"over the count", `{"status":"ok","outputs":[` + many + png + `]}`, wasmexec.KindExecute, 1 << 20, wasmexec.Failed, wasmexec.CodeOutputLimit, 0},
		{"cut by the driver", `{"status":"ok","outputs":[` + png + `],"outputsTruncated":true}`, wasmexec.KindExecute, 1000, wasmexec.Failed, wasmexec.CodeOutputLimit, 0},
		{"unknown type", `{"status":"ok","outputs":[{"type":"text/javascript","data":"alert(1)"}]}`, wasmexec.KindExecute, 1000, wasmexec.Failed, wasmexec.CodeInternal, 0},
		{"the guest's own limit error", `{"status":"error","error":{"code":"output_limit","name":"OutputLimitError","message":"display outputs past the run's limit"}}`, wasmexec.KindExecute, 1000, wasmexec.Failed, wasmexec.CodeOutputLimit, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &wasmexec.Result{}
			classify(res, tc.kind, []byte(tc.raw), tc.limit)
			if res.Outcome != tc.wantOutcome || (tc.wantCode != "" && (res.Error == nil || res.Error.Code != tc.wantCode)) {
				t.Fatalf("got %s %+v, want %s %s", res.Outcome, res.Error, tc.wantOutcome, tc.wantCode)
			}
			if len(res.Outputs) != tc.wantN {
				t.Fatalf("%d outputs, want %d", len(res.Outputs), tc.wantN)
			}
		})
	}
}
