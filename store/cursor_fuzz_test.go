package store

import (
	"testing"

	"github.com/wasmexec/wasmexec"
)

// FuzzListCursor: a cursor either parses to a positive seq that encodes back
// to the very same string, or is an EInvalid error; never a panic.
func FuzzListCursor(f *testing.F) {
	for _, s := range []string{"", "l", "l1", "l0", "l01", "lzz", "lA", "l-1", "l+1", "c1", "l1y2p0ij32e8e7", "l1y2p0ij32e8e8", "l\x00", "l 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		seq, err := parseListCursor(c)
		if err != nil {
			if wasmexec.ErrorCode(err) != wasmexec.EInvalid {
				t.Fatalf("parseListCursor(%q): error %v is not EInvalid", c, err)
			}
			return
		}
		if seq <= 0 {
			t.Fatalf("parseListCursor(%q) = %d", c, seq)
		}
		if back := encodeListCursor(seq); back != c {
			t.Fatalf("parseListCursor(%q) = %d, which encodes as %q", c, seq, back)
		}
	})
}

func TestListCursorRoundTrip(t *testing.T) {
	for _, seq := range []int64{1, 2, 35, 36, 1 << 20, 1<<63 - 1} {
		c := encodeListCursor(seq)
		got, err := parseListCursor(c)
		if err != nil || got != seq {
			t.Fatalf("round trip of %d via %q: %d, %v", seq, c, got, err)
		}
	}
}
