package exec_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/wasmexec/wasmexec/exec"
)

// AppendJSON and MarshalJSON describe the same event.
func FuzzEventAppendJSON(f *testing.F) {
	for _, s := range []string{"", "hello\n", "tab\there \"q\" \\ back", "\x00\x01\x1f\x7f", "ünïcødé ✓ 🎉", "\u2028\u2029", "\xff\xfe bytes", "<a&b>"} {
		f.Add([]byte(s), int64(7), uint64(3))
	}
	f.Fuzz(func(t *testing.T, chunk []byte, pid int64, seq uint64) {
		ev := exec.Event{PID: pid, Sequence: seq, Channel: exec.Stderr, Chunk: chunk, TimestampMs: 1796017980957}
		fast := ev.AppendJSON(nil)
		if !json.Valid(fast) {
			t.Fatalf("invalid JSON %s", fast)
		}
		var a, b exec.Event
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
		if !bytes.Equal(a.Chunk, chunk) || a.PID != pid || a.Sequence != seq || a.Channel != exec.Stderr || a.TimestampMs != ev.TimestampMs {
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
	l := exec.NewOutputLog(1, 1000)
	for i := 0; i < 5000; i++ {
		l.Append(exec.Stdout, bytes.Repeat([]byte{'a' + byte(i%26)}, 1+i%13))
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
	if total > 1000 {
		t.Fatalf("%d bytes retained", total)
	}
	r := l.Read(0, 10)
	if !r.Truncated || r.Events[0].Sequence != evs[0].Sequence || len(r.Events) != 10 || !r.HasMore {
		t.Fatalf("read from 0: %+v", r)
	}
	r = l.Read(evs[5].Sequence, 3)
	if r.Truncated || r.Events[0].Sequence != evs[6].Sequence || r.NextCursor != exec.EncodeCursor(evs[8].Sequence) {
		t.Fatalf("read from the middle: %+v", r)
	}
}
