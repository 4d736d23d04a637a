package store

import (
	"context"
	"testing"

	"github.com/wasmexec/wasmexec/exec"
)

// A cursor for 2^64-1 is after every stored event: an empty page, not
// truncated, the same cursor back.
func TestOutputAfterTheLargestCursor(t *testing.T) {
	s := MustOpen(t, Config{Now: newFakeClock().Now, manualSweep: true})
	for _, tc := range []struct {
		id        string
		events    []exec.Event
		truncated bool
	}{{"full", makeEvents(1, 5), false}, {"dropped", makeEvents(3, 3), true}} {
		if err := s.Save(context.Background(), newResult(tc.id, t0), tc.events, tc.truncated); err != nil {
			t.Fatal(err)
		}
		r, err := s.Output(context.Background(), tc.id, "c3w5e11264sgsf", 0)
		if err != nil || r.Truncated || r.HasMore || len(r.Events) != 0 || r.NextCursor != "c3w5e11264sgsf" {
			t.Fatalf("%s: %+v %v", tc.id, r, err)
		}
	}
}
