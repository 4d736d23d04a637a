package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// Delete removes a completed record and its events; the id is unknown
// afterwards, and the cap's count follows.
func TestDelete(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		clock := newFakeClock()
		s := b.open(t, Config{Now: clock.Now})
		ctx := context.Background()
		MustSave(t, s, newResult("gone", t0), makeEvents(1, 5))
		MustSave(t, s, newResult("kept", t0), makeEvents(1, 2))

		wantCode(t, "Delete(gone)", s.Delete(ctx, "gone"), "")
		_, err := s.Get(ctx, "gone")
		wantCode(t, "Get after Delete", err, wasmexec.ENotFound)
		_, err = s.Output(ctx, "gone", "", 0)
		wantCode(t, "Output after Delete", err, wasmexec.ENotFound)
		wantCode(t, "second Delete", s.Delete(ctx, "gone"), wasmexec.ENotFound)
		wantCode(t, "Delete(never)", s.Delete(ctx, "never"), wasmexec.ENotFound)
		if n := rawCount(t, s, "events"); n != 2 {
			t.Fatalf("%d events left, want the 2 of the kept record", n)
		}
		if n, _, err := s.Stats(ctx); err != nil || n != 1 {
			t.Fatalf("Stats = %d, %v; want 1 record", n, err)
		}
		MustGet(t, s, "kept")

		clock.Add(DefaultCompletedTTL + 1)
		wantCode(t, "Delete(expired)", s.Delete(ctx, "kept"), wasmexec.EExpired)
	})
}

// Replaying a run that kept no events is not an empty page (which reads as
// "no output"): execution_output_not_retained.
func TestOutputNotRetained(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{Now: newFakeClock().Now})
		ctx := context.Background()
		r := newResult("quiet", t0)
		r.EventsRetained = false
		MustSave(t, s, r, nil)
		_, err := s.Output(ctx, "quiet", "", 0)
		wantCode(t, "Output(not retained)", err, wasmexec.ENotRetained)

		r = newResult("silent", t0) // retained, and wrote nothing
		MustSave(t, s, r, nil)
		rep, err := s.Output(ctx, "silent", "", 0)
		if err != nil || len(rep.Events) != 0 || rep.HasMore {
			t.Fatalf("Output(retained, no events) = %+v, %v; want an empty page", rep, err)
		}
	})
}

// A process's exit outcomes (exited, signalled) select process records by
// the run outcomes they stand for; timed_out is the same word in both.
func TestListProcessOutcomes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{Now: newFakeClock().Now})
		ctx := context.Background()
		save := func(id string, kind wasmexec.Kind, o wasmexec.Outcome) {
			r := newResult(id, t0)
			r.Kind, r.Outcome = kind, o
			MustSave(t, s, r, nil)
		}
		save("p-ok", wasmexec.KindProcess, wasmexec.Succeeded)
		save("p-exit1", wasmexec.KindProcess, wasmexec.Failed)
		save("p-killed", wasmexec.KindProcess, wasmexec.Cancelled)
		save("p-late", wasmexec.KindProcess, wasmexec.TimedOut)
		save("e-ok", wasmexec.KindEvaluate, wasmexec.Succeeded)
		save("e-cancel", wasmexec.KindEvaluate, wasmexec.Cancelled)
		for _, tt := range []struct {
			name, outcome string
			want          string
		}{
			{"exited", "exited", "p-exit1 p-ok"},
			{"signalled", "signalled", "p-killed"},
			{"timed_out", "timed_out", "p-late"},
			{"succeeded", "succeeded", "e-ok p-ok"},
			{"cancelled", "cancelled", "e-cancel p-killed"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				page, err := s.List(ctx, wasmexec.HistoryFilter{Outcome: tt.outcome})
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, r := range page.Executions {
					ids = append(ids, r.ExecutionID)
				}
				if got := strings.Join(ids, " "); got != tt.want {
					t.Fatalf("outcome=%s lists %q, want %q", tt.outcome, got, tt.want)
				}
			})
		}
	})
}

// The store keeps the first MaxCodeBytes of the code and says when it cut.
func TestCodeTruncated(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{MaxCodeBytes: 4096, Now: newFakeClock().Now})
		short, long := newResult("short", t0), newResult("long", t0)
		long.Code = strings.Repeat("x", 5000)
		MustSave(t, s, short, nil)
		MustSave(t, s, long, nil)
		if r := MustGet(t, s, "short"); r.Code != short.Code || r.CodeTruncated {
			t.Fatalf("short: code %q, truncated %v", r.Code, r.CodeTruncated)
		}
		if r := MustGet(t, s, "long"); len(r.Code) != 4096 || !r.CodeTruncated {
			t.Fatalf("long: %d bytes of code, truncated %v; want 4096, true", len(r.Code), r.CodeTruncated)
		}
	})
}

// The API manual says what the default TTL is where it promises that
// history survives restarts, and the number it gives is the code's: a user
// who reads "survives restarts" must also read how long.
func TestREADMEStatesDefaultTTL(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "API.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(b)), " ")
	if want := fmt.Sprintf("(default %d: five minutes)", DefaultCompletedTTL.Milliseconds()); DefaultCompletedTTL != 5*time.Minute || !strings.Contains(readme, want) {
		t.Errorf("README does not state the default TTL as %q (DefaultCompletedTTL is %v)", want, DefaultCompletedTTL)
	}
	i := strings.Index(readme, "survives restarts")
	if i < 0 || !strings.Contains(readme[i:min(len(readme), i+200)], "five minutes after its run completed") {
		t.Errorf("README's \"survives restarts\" does not say records are gone five minutes after completion by default")
	}
}
