package pipeline

import (
	"testing"

	"github.com/wasmexec/wasmexec"
)

// FuzzClassify: whatever a (compromised) driver sends as its reply,
// the host turns it into a result with a known outcome, never a panic, and
// never a value past the limit.
func FuzzClassify(f *testing.F) {
	for _, seed := range []string{
		`{"status":"ok","value":42,"hasValue":true}`,
		`{"status":"ok","hasValue":false}`,
		`{"status":"error","error":{"code":"exception","name":"Error","message":"x","stack":"s"}}`,
		`{"status":"error"}`,
		`{"status":"exit","exitCode":3}`,
		`{"status":"exit","exitCode":-2147483649}`,
		`{"status":"bogus"}`,
		`{"status":"ok","value":"` + string(make([]byte, 100)) + `","hasValue":true}`,
		`not json`, ``, `[]`, `{"status":"ok","value":{"a":[1,2,{"b":null}]},"hasValue":true}`,
		`{"status":"ok","outputs":[{"type":"image/png","data":"iVBO","width":1,"height":1}]}`,
		`{"status":"ok","outputs":[{"type":"text/html","data":"` + string(make([]byte, 100)) + `"}]}`,
		`{"status":"ok","outputs":[{"type":"application/x-evil","data":"x"}]}`,
		`{"status":"error","error":{"code":"exception"},"outputs":[],"outputsTruncated":true}`,
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(1))
	}
	f.Fuzz(func(t *testing.T, raw []byte, kind uint8) {
		k := wasmexec.KindEvaluate
		if kind%2 == 1 {
			k = wasmexec.KindExecute
		}
		const limit = 64
		res := &wasmexec.Result{}
		classify(res, k, raw, limit)
		switch res.Outcome {
		case wasmexec.Succeeded:
			if res.Error != nil {
				t.Fatalf("succeeded with an error: %+v", res.Error)
			}
		case wasmexec.Failed:
			if res.Error == nil || res.Error.Code == "" {
				t.Fatalf("failed without an error code: %+v", res)
			}
		default:
			t.Fatalf("outcome %q from %q", res.Outcome, raw)
		}
		if len(res.Value) > limit {
			t.Fatalf("a %d-byte value passed the %d-byte limit", len(res.Value), limit)
		}
		var outBytes int64
		for i := range res.Outputs {
			outBytes += res.Outputs[i].Size()
		}
		if outBytes > limit || len(res.Outputs) > wasmexec.MaxDisplayOutputs {
			t.Fatalf("%d outputs of %d bytes passed the %d-byte limit", len(res.Outputs), outBytes, limit)
		}
		if k == wasmexec.KindExecute && res.Value != nil {
			t.Fatalf("execute got a value")
		}
	})
}
