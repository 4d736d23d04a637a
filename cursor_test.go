package wasmexec_test

import (
	"math"
	"testing"

	"github.com/wasmexec/wasmexec"
)

func seqEvents(first, last uint64) []wasmexec.Event {
	var evs []wasmexec.Event
	for s := first; s <= last; s++ {
		evs = append(evs, wasmexec.Event{Sequence: s, Channel: wasmexec.Stdout, Chunk: []byte("x")})
	}
	return evs
}

// A cursor for 2^64-1 (c3w5e11264sgsf) used to overflow after+1: the page
// said truncated and jumped back to the last event ("c5"). Nothing lies
// after it: an empty page, not truncated, the same cursor.
func TestReplayAfterTheLargestCursor(t *testing.T) {
	const maxCursor = "c3w5e11264sgsf"
	seq, err := wasmexec.ParseCursor(maxCursor)
	if err != nil || seq != math.MaxUint64 || wasmexec.EncodeCursor(seq) != maxCursor {
		t.Fatalf("ParseCursor(%q) = %d, %v", maxCursor, seq, err)
	}
	for _, tc := range []struct {
		name   string
		events []wasmexec.Event
	}{
		{"events from 1", seqEvents(1, 5)},
		{"oldest dropped", seqEvents(3, 5)},
		{"no events", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := wasmexec.ReplayEvents(tc.events, seq, 10)
			if r.Truncated || r.HasMore || len(r.Events) != 0 || r.NextCursor != maxCursor {
				t.Fatalf("after %s: %+v", maxCursor, r)
			}
		})
	}
	// The live log answers the same.
	l := wasmexec.NewOutputLog(0, 1<<20)
	l.Append(wasmexec.Stdout, []byte("a"))
	if r := l.Read(seq, 10); r.Truncated || len(r.Events) != 0 || r.NextCursor != maxCursor {
		t.Fatalf("live log after %s: %+v", maxCursor, r)
	}
	// Truncation is still reported where it happened.
	if r := wasmexec.ReplayEvents(seqEvents(3, 5), 1, 10); !r.Truncated || r.Events[0].Sequence != 3 {
		t.Fatalf("after 1 of 3..5: %+v", r)
	}
	if r := wasmexec.ReplayEvents(seqEvents(3, 5), 2, 10); r.Truncated {
		t.Fatalf("after 2 of 3..5: %+v", r)
	}
}

// FuzzReplayCursor: any cursor parses to a sequence that encodes back to an
// equivalent cursor, or is invalid_argument; a page after it never claims a
// gap that isn't there.
func FuzzReplayCursor(f *testing.F) {
	for _, s := range []string{"", "c", "c0", "c1", "c5", "czz", "c3w5e11264sgsf", "c3w5e11264sgsg", "cZ", "c-1", "x1", "c\x00"} {
		f.Add(s, uint64(1), uint64(5))
	}
	f.Fuzz(func(t *testing.T, c string, first, last uint64) {
		seq, err := wasmexec.ParseCursor(c)
		if err != nil {
			if wasmexec.ErrorCode(err) != wasmexec.EInvalid {
				t.Fatalf("ParseCursor(%q): %v", c, err)
			}
			return
		}
		if back, err := wasmexec.ParseCursor(wasmexec.EncodeCursor(seq)); err != nil || back != seq {
			t.Fatalf("round trip of %q: %d %v", c, back, err)
		}
		if first == 0 || last < first || last-first > 100 {
			return
		}
		r := wasmexec.ReplayEvents(seqEvents(first, last), seq, 1000)
		if r.Truncated != (seq < first-1) {
			t.Fatalf("after %d of %d..%d: truncated %v", seq, first, last, r.Truncated)
		}
		next, err := wasmexec.ParseCursor(r.NextCursor)
		if err != nil || next < seq && !r.Truncated {
			t.Fatalf("after %d of %d..%d: next cursor %q", seq, first, last, r.NextCursor)
		}
	})
}
