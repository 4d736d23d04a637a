package python_test

import (
	"testing"

	"github.com/wasmexec/wasmexec"
)

// display() makes a run's rich outputs, in order, one per format, and a
// hostile loop of display() calls ends at the output limit at once (with
// the outputs that fit, as a stream keeps its first bytes).
func TestDisplayOutputs(t *testing.T) {
	r := MustRunner(t)
	png := `class P:
    def _repr_png_(self):
        import zlib, struct
        raw = b"\x00\xff\x00\x00"
        def chunk(k, d):
            return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
`
	for _, tc := range []struct {
		name, code string
		limits     wasmexec.Limits
		wantCode   string
		wantTypes  []string
	}{
		{"text", "display(1, 'two')\n3", wasmexec.Limits{}, "", []string{"text/plain", "text/plain"}},
		{"html and svg reprs", "class H:\n    def _repr_html_(self):\n        return '<b>h</b>'\nclass S:\n    def _repr_svg_(self):\n        return '<svg/>'\ndisplay(H(), S())", wasmexec.Limits{}, "", []string{"text/html", "image/svg+xml"}},
		{"png repr", png + "display(P())", wasmexec.Limits{}, "", []string{"image/png"}},
		{"outputs of a failing run", "display('before')\nraise ValueError('x')", wasmexec.Limits{}, wasmexec.CodeException, []string{"text/plain"}},
		{"hostile display loop", "while True:\n    display('x' * 10000)", wasmexec.Limits{OutputBytes: 100_000}, wasmexec.CodeOutputLimit, nil},
		{"over the count", "for i in range(100):\n    display(i)", wasmexec.Limits{}, wasmexec.CodeOutputLimit, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: tc.code, Limits: tc.limits})
			if tc.wantCode == "" {
				wantOutcome(t, res, wasmexec.Succeeded, "")
			} else {
				wantOutcome(t, res, wasmexec.Failed, tc.wantCode)
			}
			if tc.wantCode == wasmexec.CodeOutputLimit {
				var n int64
				for i := range res.Outputs {
					n += res.Outputs[i].Size()
				}
				if len(res.Outputs) > wasmexec.MaxDisplayOutputs || (tc.limits.OutputBytes > 0 && n > tc.limits.OutputBytes) {
					t.Fatalf("%d outputs of %d bytes past the limit", len(res.Outputs), n)
				}
				return
			}
			if len(res.Outputs) != len(tc.wantTypes) {
				t.Fatalf("%d outputs, want %v", len(res.Outputs), tc.wantTypes)
			}
			for i, ty := range tc.wantTypes {
				if res.Outputs[i].Type != ty {
					t.Errorf("output %d: %s, want %s", i, res.Outputs[i].Type, ty)
				}
			}
			if tc.name == "png repr" && (res.Outputs[0].Width != 1 || res.Outputs[0].Height != 1) {
				t.Errorf("png size %dx%d, want 1x1", res.Outputs[0].Width, res.Outputs[0].Height)
			}
		})
	}
}
