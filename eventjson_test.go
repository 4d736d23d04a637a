package wasmexec_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// AppendJSON and MarshalJSON describe the same event.
func FuzzEventAppendJSON(f *testing.F) {
	for _, s := range []string{"", "hello\n", "tab\there \"q\" \\ back", "\x00\x01\x1f\x7f", "ünïcødé ✓ 🎉", "\u2028\u2029", "\xff\xfe bytes", "<a&b>"} {
		f.Add([]byte(s), int64(7), uint64(3))
	}
	f.Fuzz(func(t *testing.T, chunk []byte, pid int64, seq uint64) {
		ev := wasmexec.Event{PID: pid, Sequence: seq, Channel: wasmexec.Stderr, Chunk: chunk, TimestampMs: 1796017980957}
		fast := ev.AppendJSON(nil)
		if !json.Valid(fast) {
			t.Fatalf("invalid JSON %s", fast)
		}
		var a, b wasmexec.Event
		if err := json.Unmarshal(fast, &a); err != nil {
			t.Fatal(err)
		}
		slow, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(slow, &b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Chunk, chunk) || a.PID != pid || a.Sequence != seq || a.Channel != wasmexec.Stderr || a.TimestampMs != ev.TimestampMs {
			t.Fatalf("round trip %+v, want %+v", a, ev)
		}
		var ma, mb map[string]any
		json.Unmarshal(fast, &ma)
		json.Unmarshal(slow, &mb)
		if ja, _ := json.Marshal(ma); string(ja) != func() string { jb, _ := json.Marshal(mb); return string(jb) }() {
			t.Fatalf("documents differ:\n%s\n%s", fast, slow)
		}
	})
}

// A full log keeps a contiguous window of the newest events within its
// byte cap and reports what it dropped.
func TestOutputLogWindow(t *testing.T) {
	l := wasmexec.NewOutputLog(1, 3000) // room for ~25 events with their overhead
	for i := 0; i < 5000; i++ {
		l.Append(wasmexec.Stdout, bytes.Repeat([]byte{'a' + byte(i%26)}, 1+i%13))
	}
	evs, dropped := l.Snapshot()
	if !dropped || len(evs) == 0 || evs[len(evs)-1].Sequence != 5000 {
		t.Fatalf("dropped=%v n=%d", dropped, len(evs))
	}
	total := 0
	for i, ev := range evs {
		total += len(ev.Chunk)
		if i > 0 && ev.Sequence != evs[i-1].Sequence+1 {
			t.Fatalf("gap at %d", ev.Sequence)
		}
	}
	if total > 3000 {
		t.Fatalf("%d bytes retained", total)
	}
	r := l.Read(0, 10)
	if !r.Truncated || r.Events[0].Sequence != evs[0].Sequence || len(r.Events) != 10 || !r.HasMore {
		t.Fatalf("read from 0: %+v", r)
	}
	r = l.Read(evs[5].Sequence, 3)
	if r.Truncated || r.Events[0].Sequence != evs[6].Sequence || r.NextCursor != wasmexec.EncodeCursor(evs[8].Sequence) {
		t.Fatalf("read from the middle: %+v", r)
	}
}

// A flood of one-byte writes is bounded by what its events really cost,
// not by its payload: 500k one-byte events into a 1 MiB log keep the
// Go heap growth near the cap (it was ~280 bytes per byte), and the
// charged overhead covers the measured per-event cost.
func TestEventOverhead(t *testing.T) {
	const cap, n = 1 << 20, 500_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := wasmexec.NewOutputLog(1, cap)
	for i := 0; i < n; i++ {
		l.Append(wasmexec.Stdout, []byte{'x'})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	evs, dropped := l.Snapshot()
	if !dropped || len(evs) > cap/(1+wasmexec.EventOverheadBytes)+1 {
		t.Fatalf("kept %d events of %d (dropped=%v)", len(evs), n, dropped)
	}
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	perEvent := float64(grown) / float64(len(evs))
	t.Logf("heap grew %d bytes for %d retained events: %.0f bytes/event", grown, len(evs), perEvent)
	if grown > 4*cap {
		t.Fatalf("the log holds %d bytes of heap for a %d byte cap", grown, cap)
	}
	runtime.KeepAlive(l)
}
