package store

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// A run's rich outputs are stored and read back (replay); outputs over the
// cap keep the first ones that fit and count the others.
func TestOutputsRecord(t *testing.T) {
	for _, tc := range []struct {
		name      string
		outputs   []wasmexec.DisplayOutput
		wantKept  int
		wantDrops int
	}{
		{"none", nil, 0, 0},
		{"a chart and a table", []wasmexec.DisplayOutput{
			{Type: "image/png", Data: "iVBORw0KGgo=", Width: 640, Height: 480},
			{Type: "text/html", Data: "<table></table>", Text: "Empty DataFrame"},
		}, 2, 0},
		{"over the cap", []wasmexec.DisplayOutput{
			{Type: "text/plain", Data: strings.Repeat("a", 3000)},
			{Type: "text/plain", Data: strings.Repeat("b", 3000)},
			{Type: "text/plain", Data: strings.Repeat("c", 3000)},
		}, 1, 2},
		{"one alone over the cap", []wasmexec.DisplayOutput{{Type: "image/png", Data: strings.Repeat("A", 5000)}}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := MustOpen(t, Config{MaxStreamBytes: 4096})
			r := newResult("exe_out", time.Now())
			r.Outputs = tc.outputs
			MustSave(t, s, r, nil)
			got := MustGet(t, s, "exe_out")
			if len(got.Outputs) != tc.wantKept || got.OutputsDropped != tc.wantDrops {
				t.Fatalf("kept %d, dropped %d; want %d, %d", len(got.Outputs), got.OutputsDropped, tc.wantKept, tc.wantDrops)
			}
			if !reflect.DeepEqual(got.Outputs, tc.outputs[:tc.wantKept]) && tc.wantKept > 0 {
				t.Fatalf("outputs = %+v, want %+v", got.Outputs, tc.outputs[:tc.wantKept])
			}
		})
	}
}
