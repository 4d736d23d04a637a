package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

func ids(rs []*wasmexec.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ExecutionID
	}
	return out
}

func TestListFilters(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		clock := newFakeClock()
		s := b.open(t, Config{Now: clock.Now, manualSweep: true})
		save := func(id, ctxID string, lang wasmexec.Language, outcome wasmexec.Outcome, kind wasmexec.Kind) {
			r := newResult(id, clock.Now())
			r.ContextID, r.Language, r.Outcome, r.Kind = ctxID, lang, outcome, kind
			MustSave(t, s, r, nil)
			clock.Add(time.Millisecond)
		}
		save("a", "c1", wasmexec.JavaScript, wasmexec.Succeeded, wasmexec.KindEvaluate)
		save("b", "c2", wasmexec.Python, wasmexec.Failed, wasmexec.KindExecute)
		save("c", "c1", wasmexec.TypeScript, wasmexec.TimedOut, wasmexec.KindTypeScriptCheck)
		save("d", "", wasmexec.Python, wasmexec.Succeeded, wasmexec.KindProcess)
		save("e", "c1", wasmexec.JavaScript, wasmexec.Failed, wasmexec.KindEvaluate)

		tests := []struct {
			name string
			f    wasmexec.HistoryFilter
			want []string
		}{
			{"all, newest first", wasmexec.HistoryFilter{}, []string{"e", "d", "c", "b", "a"}},
			{"context", wasmexec.HistoryFilter{ContextID: "c1"}, []string{"e", "c", "a"}},
			{"language", wasmexec.HistoryFilter{Language: "python"}, []string{"d", "b"}},
			{"outcome", wasmexec.HistoryFilter{Outcome: "failed"}, []string{"e", "b"}},
			{"kind", wasmexec.HistoryFilter{Kind: "evaluate"}, []string{"e", "a"}},
			{"combined", wasmexec.HistoryFilter{ContextID: "c1", Outcome: "succeeded"}, []string{"a"}},
			{"no match", wasmexec.HistoryFilter{Language: "cobol"}, []string{}},
			{"limit", wasmexec.HistoryFilter{Limit: 2}, []string{"e", "d"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				page, err := s.List(context.Background(), tt.f)
				if err != nil {
					t.Fatal(err)
				}
				if got := ids(page.Executions); !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
				if page.HasMore != (page.NextCursor != "") {
					t.Fatalf("HasMore %v with cursor %q", page.HasMore, page.NextCursor)
				}
			})
		}
		// Listed records are complete results.
		page, _ := s.List(context.Background(), wasmexec.HistoryFilter{Limit: 1})
		if got := MustGet(t, s, "e"); !reflect.DeepEqual(page.Executions[0], got) {
			t.Fatalf("List record %+v differs from Get %+v", page.Executions[0], got)
		}
	})
}

func TestListBadArguments(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{})
		tests := []struct {
			name string
			f    wasmexec.HistoryFilter
		}{
			{"negative limit", wasmexec.HistoryFilter{Limit: -1}},
			{"garbage cursor", wasmexec.HistoryFilter{After: "garbage"}},
			{"event cursor", wasmexec.HistoryFilter{After: wasmexec.EncodeCursor(5)}},
			{"prefix only", wasmexec.HistoryFilter{After: "l"}},
			{"zero", wasmexec.HistoryFilter{After: "l0"}},
			{"leading zero", wasmexec.HistoryFilter{After: "l05"}},
			{"upper case", wasmexec.HistoryFilter{After: "lA"}},
			{"negative", wasmexec.HistoryFilter{After: "l-5"}},
			{"overflow", wasmexec.HistoryFilter{After: "lzzzzzzzzzzzzz"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := s.List(context.Background(), tt.f)
				wantCode(t, "List", err, wasmexec.EInvalid)
			})
		}
	})
}

// TestListPaginationStable pages through the records while new ones keep
// arriving between pages: every record that existed at the start is seen
// exactly once, in newest-first order, and no new one slips in.
func TestListPaginationStable(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		for _, limit := range []int{1, 3, 7, 50} {
			t.Run(fmt.Sprintf("limit=%d", limit), func(t *testing.T) {
				clock := newFakeClock()
				s := b.open(t, Config{Now: clock.Now, MaxCompleted: 10000, manualSweep: true})
				var want []string
				for i := range 40 {
					id := fmt.Sprintf("old-%02d", i)
					MustSave(t, s, newResult(id, clock.Now()), nil)
					want = append([]string{id}, want...)
					clock.Add(time.Millisecond)
				}
				var got []string
				cursor, newID := "", 0
				for pages := 0; ; pages++ {
					if pages > 100 {
						t.Fatal("paging does not end")
					}
					page, err := s.List(context.Background(), wasmexec.HistoryFilter{After: cursor, Limit: limit})
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, ids(page.Executions)...)
					if !page.HasMore {
						break
					}
					cursor = page.NextCursor
					for range 3 { // new arrivals between pages
						MustSave(t, s, newResult(fmt.Sprintf("new-%03d", newID), clock.Now()), nil)
						newID++
						clock.Add(time.Millisecond)
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("paged %v\nwant  %v", got, want)
				}
			})
		}
	})
}

func TestListSkipsExpired(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		clock := newFakeClock()
		s := b.open(t, Config{Now: clock.Now, CompletedTTL: time.Second, manualSweep: true})
		MustSave(t, s, newResult("old", clock.Now()), nil)
		clock.Add(500 * time.Millisecond)
		MustSave(t, s, newResult("new", clock.Now()), nil)
		clock.Add(500 * time.Millisecond) // "old" expires, not swept
		page, err := s.List(context.Background(), wasmexec.HistoryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(page.Executions); !reflect.DeepEqual(got, []string{"new"}) {
			t.Fatalf("listed %v", got)
		}
	})
}

func TestOutputPaging(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{Now: newFakeClock().Now, manualSweep: true})
		ctx := context.Background()
		events := makeEvents(1, 25)
		MustSave(t, s, newResult("x", t0), events)

		type page struct {
			after   string
			limit   int
			first   uint64 // 0: no events
			n       int
			next    string
			hasMore bool
		}
		tests := []struct {
			name  string
			pages []page
		}{
			{"pages of 10", []page{
				{"", 10, 1, 10, wasmexec.EncodeCursor(10), true},
				{wasmexec.EncodeCursor(10), 10, 11, 10, wasmexec.EncodeCursor(20), true},
				{wasmexec.EncodeCursor(20), 10, 21, 5, wasmexec.EncodeCursor(25), false},
				{wasmexec.EncodeCursor(25), 10, 0, 0, wasmexec.EncodeCursor(25), false},
			}},
			{"exact fit", []page{
				{wasmexec.EncodeCursor(15), 10, 16, 10, wasmexec.EncodeCursor(25), false},
			}},
			{"default limit takes all", []page{{"", 0, 1, 25, wasmexec.EncodeCursor(25), false}}},
			{"cursor past the end", []page{{wasmexec.EncodeCursor(1000), 5, 0, 0, wasmexec.EncodeCursor(1000), false}}},
			// Repeated as it came, like any cursor past the end (and like the
			// live log): not clamped to the largest stored sequence.
			{"huge cursor", []page{{wasmexec.EncodeCursor(^uint64(0)), 5, 0, 0, wasmexec.EncodeCursor(^uint64(0)), false}}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for i, p := range tt.pages {
					got, err := s.Output(ctx, "x", p.after, p.limit)
					if err != nil {
						t.Fatalf("page %d: %v", i, err)
					}
					if len(got.Events) != p.n || got.NextCursor != p.next || got.HasMore != p.hasMore || got.Truncated {
						t.Fatalf("page %d: %d events, next %q, hasMore %v, truncated %v; want %d, %q, %v, false",
							i, len(got.Events), got.NextCursor, got.HasMore, got.Truncated, p.n, p.next, p.hasMore)
					}
					for j, e := range got.Events {
						if want := events[int(p.first)-1+j]; !reflect.DeepEqual(e, want) {
							t.Fatalf("page %d event %d: %+v, want %+v", i, j, e, want)
						}
					}
				}
			})
		}
	})
}

func TestOutputTruncated(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		tests := []struct {
			name      string
			cfg       Config
			events    []wasmexec.Event
			truncated bool // passed to Save
			after     uint64
			wantFirst uint64
			wantTrunc bool
		}{
			{"full log from start", Config{}, makeEvents(1, 20), false, 0, 1, false},
			{"log dropped 1..5, read from start", Config{}, makeEvents(6, 15), true, 0, 6, true},
			{"log dropped 1..5, after 4", Config{}, makeEvents(6, 15), true, 4, 6, true},
			{"log dropped 1..5, after 5", Config{}, makeEvents(6, 15), true, 5, 6, false},
			{"log dropped 1..5, after 10", Config{}, makeEvents(6, 15), true, 10, 11, false},
			{"log dropped everything", Config{}, nil, true, 0, 0, true},
			{"no output at all", Config{}, nil, false, 0, 0, false},
			// Each chunk of makeEvents(1, n) up to 9 is 29 bytes: a 100-byte
			// cap keeps the last 3 and drops 1..6.
			{"store cap drops oldest", Config{MaxEventsBytes: 100}, makeEvents(1, 9), false, 0, 7, true},
			{"store cap, after the gap", Config{MaxEventsBytes: 100}, makeEvents(1, 9), false, 6, 7, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				cfg := tt.cfg
				cfg.manualSweep = true
				cfg.Now = newFakeClock().Now
				s := b.open(t, cfg)
				if err := s.Save(ctx, newResult("x", t0), tt.events, tt.truncated); err != nil {
					t.Fatal(err)
				}
				got, err := s.Output(ctx, "x", wasmexec.EncodeCursor(tt.after), 0)
				if err != nil {
					t.Fatal(err)
				}
				var first uint64
				if len(got.Events) > 0 {
					first = got.Events[0].Sequence
				}
				if first != tt.wantFirst || got.Truncated != tt.wantTrunc {
					t.Fatalf("first %d truncated %v, want %d %v", first, got.Truncated, tt.wantFirst, tt.wantTrunc)
				}
				r := MustGet(t, s, "x")
				dropped := tt.truncated || tt.cfg.MaxEventsBytes > 0
				if r.OutputTruncated != dropped {
					t.Fatalf("OutputTruncated %v, want %v", r.OutputTruncated, dropped)
				}
			})
		}
	})
}

func TestOutputErrors(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		clock := newFakeClock()
		s := b.open(t, Config{Now: clock.Now, MaxCompleted: 1, manualSweep: true})
		ctx := context.Background()
		MustSave(t, s, newResult("old", clock.Now()), makeEvents(1, 3))
		MustSave(t, s, newResult("x", clock.Now().Add(time.Millisecond)), makeEvents(1, 3))
		tests := []struct {
			name  string
			id    string
			after string
			limit int
			code  string
		}{
			{"bad cursor", "x", "nope", 0, wasmexec.EInvalid},
			{"list cursor", "x", "l5", 0, wasmexec.EInvalid},
			{"negative limit", "x", "", -1, wasmexec.EInvalid},
			{"unknown id", "missing", "", 0, wasmexec.ENotFound},
			{"evicted id", "old", "", 0, wasmexec.EExpired},
			{"ok", "x", "", 0, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := s.Output(ctx, tt.id, tt.after, tt.limit)
				wantCode(t, "Output", err, tt.code)
			})
		}
	})
}
