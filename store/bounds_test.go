package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wasmexec/wasmexec"
)

// A cursor for 2^64-1 is after every stored event: an empty page, not
// truncated, the same cursor back.
func TestOutputAfterTheLargestCursor(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t, Config{Now: newFakeClock().Now, manualSweep: true})
		for _, tc := range []struct {
			id        string
			events    []wasmexec.Event
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
	})
}

// What one record stores is bounded whatever the run returned: six runs
// returning 40 MiB values (plus 40 MiB of stdout, a 40 MiB error message
// and 40 MiB of extra) used to make a 240 MiB history page.
func TestSaveBoundsARecord(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t, Config{Now: newFakeClock().Now, manualSweep: true})
		big := strings.Repeat("v", 40<<20)
		value := json.RawMessage(`"` + big + `"`)
		accents := "v" + strings.Repeat("é", 20<<20) // a 1 MiB cut falls inside an é
		for i := range 6 {
			r := newResult(fmt.Sprint("x", i), t0)
			r.Value, r.Stdout, r.Stderr = value, &big, &accents
			r.StdoutTruncated = false
			r.Error.Message, r.Error.Stack, r.Error.Name = big, big, big
			r.Extra = value
			r.Code = big
			MustSave(t, s, r, nil)
		}
		// Each record keeps ~2 MiB (1 MiB of stdout and of stderr): pages of
		// at most 8 MiB, every record once.
		n := 0
		for after := ""; ; {
			page, err := s.List(ctx, wasmexec.HistoryFilter{After: after, Limit: MaxListLimit})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(page)
			if len(page.Executions) == 0 || len(b) > DefaultMaxPageBytes {
				t.Fatalf("a page of %d records, %d bytes", len(page.Executions), len(b))
			}
			n += len(page.Executions)
			if !page.HasMore {
				break
			}
			after = page.NextCursor
		}
		if n != 6 {
			t.Fatalf("paged %d records", n)
		}
		r := MustGet(t, s, "x0")
		switch {
		case r.Value != nil || !r.ValueTruncated:
			t.Fatalf("value kept: %d bytes, truncated %v", len(r.Value), r.ValueTruncated)
		case len(*r.Stdout) != DefaultMaxStreamBytes || !r.StdoutTruncated:
			t.Fatalf("stdout %d bytes, truncated %v", len(*r.Stdout), r.StdoutTruncated)
		case len(*r.Stderr) != DefaultMaxStreamBytes-1 || !r.StderrTruncated || !utf8.ValidString(*r.Stderr):
			t.Fatalf("stderr %d bytes, truncated %v (cut on a rune boundary)", len(*r.Stderr), r.StderrTruncated)
		case r.Error.Details["truncated"] != true || r.Error.Details["line"] != 1.0 || len(r.Error.Message) == 0 || len(r.Error.Name) > maxErrorNameBytes:
			t.Fatalf("error %.100v", r.Error)
		case string(r.Extra) != fmt.Sprintf(`{"truncated":true,"bytes":%d}`, len(value)):
			t.Fatalf("extra %.100s", r.Extra)
		case len(r.Code) != DefaultMaxCodeBytes:
			t.Fatalf("code %d bytes", len(r.Code))
		}
		if eb, _ := json.Marshal(r.Error); len(eb) > DefaultMaxErrorBytes {
			t.Fatalf("error JSON %d bytes", len(eb))
		}
	})
}

// The error cap holds even when every byte needs escaping in JSON.
func TestCapErrorEscapes(t *testing.T) {
	for _, s := range []string{strings.Repeat("\x00", 1<<20), strings.Repeat("\xff", 1<<20), strings.Repeat("<", 1<<20), strings.Repeat("é", 1<<19)} {
		for _, max := range []int{minErrorBytes, DefaultMaxErrorBytes} {
			e := &wasmexec.ErrorData{Code: s, Name: s, Message: s, Stack: s, Details: map[string]any{"big": s}}
			b, err := capError(e, max)
			if err != nil || len(b) > max {
				t.Fatalf("%q… into %d: %d bytes, %v", s[:2], max, len(b), err)
			}
			var back wasmexec.ErrorData
			if err := json.Unmarshal(b, &back); err != nil || back.Details["truncated"] != true || back.Message == "" {
				t.Fatalf("%q… into %d: %.200s %v", s[:2], max, b, err)
			}
		}
	}
	small := &wasmexec.ErrorData{Code: "exception", Message: "boom", Details: map[string]any{"a": 1.0}}
	if b, _ := capError(small, minErrorBytes); string(b) != `{"code":"exception","message":"boom","details":{"a":1}}` {
		t.Fatalf("a small error changed: %s", b)
	}
}

// A page stops before the record that would take it past MaxPageBytes
// (counting JSON escapes); a record larger than the budget comes alone;
// paging still sees every record once.
func TestListPageBudget(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		const budget = 1 << 20
		s := b.open(t, Config{Now: newFakeClock().Now, manualSweep: true, MaxPageBytes: budget, MaxValueBytes: 4 << 20, MaxStreamBytes: 4 << 20})
		mk := func(id string, value, stdout int, fill string) {
			r := newResult(id, t0)
			r.Value = json.RawMessage(`"` + strings.Repeat("v", value) + `"`)
			out := strings.Repeat(fill, stdout)
			r.Stdout = &out
			MustSave(t, s, r, nil)
		}
		for i := range 6 {
			mk(fmt.Sprint("a", i), 400<<10, 0, "x") // 2 fit in a page
		}
		mk("huge", 2<<20, 0, "x")      // alone
		mk("escaped", 0, 100<<10, "<") // 600 KiB of JSON: alone too
		mk("escaped2", 0, 100<<10, "\x00")
		var (
			seen  []string
			sizes []int
		)
		after := ""
		for {
			page, err := s.List(ctx, wasmexec.HistoryFilter{After: after, Limit: MaxListLimit})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(page.Executions)
			if len(page.Executions) == 0 || (len(page.Executions) > 1 && len(b) > budget) {
				t.Fatalf("page of %d records, %d bytes", len(page.Executions), len(b))
			}
			for _, r := range page.Executions {
				seen = append(seen, r.ExecutionID)
			}
			sizes = append(sizes, len(page.Executions))
			if !page.HasMore {
				break
			}
			after = page.NextCursor
		}
		if got := strings.Join(seen, ","); got != "escaped2,escaped,huge,a5,a4,a3,a2,a1,a0" {
			t.Fatalf("paged %s", got)
		}
		if fmt.Sprint(sizes) != "[1 1 1 2 2 2]" {
			t.Fatalf("page sizes %v", sizes)
		}
	})
}
