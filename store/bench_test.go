package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkSave saves one record with 10 events per op, each in its own
// fsynced transaction. "uncapped" only inserts; "cap=1024" runs at the
// default cap, so every Save also evicts (and tombstones) the oldest record.
// bytes/record is the store's size in use divided by its records at the end.
func BenchmarkSave(b *testing.B) {
	for _, bc := range []struct {
		name string
		max  int
	}{
		{"uncapped", 1 << 30},
		{"cap=1024", DefaultMaxCompleted},
	} {
		b.Run(bc.name, func(b *testing.B) {
			clock := newFakeClock()
			s := MustOpen(b, Config{MaxCompleted: bc.max, Now: clock.Now, manualSweep: true})
			ctx := context.Background()
			events := makeEvents(1, 10)
			if bc.max < 1<<30 { // start at the cap
				bulkInsert(b, s, "pre", bc.max, 10, clock.Now())
			}
			_, before, _ := s.Stats(ctx)
			countBefore := s.count
			i := 0
			for b.Loop() {
				if err := s.Save(ctx, newResult(fmt.Sprintf("bench-%09d", i), clock.Now()), events, false); err != nil {
					b.Fatal(err)
				}
				i++
				clock.Add(time.Millisecond)
			}
			b.StopTimer()
			n, size, err := s.Stats(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if n > countBefore {
				b.ReportMetric(float64(size-before)/float64(n-countBefore), "bytes/record")
			} else {
				b.ReportMetric(float64(size)/float64(n), "bytes/record")
			}
		})
	}
}

// BenchmarkSweep100k measures how long the sweeper takes to expire 100k
// records (10 events each) that all expired at once. Setup is not timed.
func BenchmarkSweep100k(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		clock := newFakeClock()
		s := MustOpen(b, Config{
			Path:         filepath.Join(b.TempDir(), "sweep.db"),
			MaxCompleted: 2 * n, CompletedTTL: time.Minute, Now: clock.Now, manualSweep: true,
		})
		bulkInsert(b, s, "sweep", n, 10, clock.Now())
		_, size, _ := s.Stats(ctx)
		clock.Add(time.Minute)
		b.StartTimer()

		expired, _, err := s.sweep(ctx)

		b.StopTimer()
		if err != nil || expired != n {
			b.Fatalf("swept %d of %d: %v", expired, n, err)
		}
		if left, _, _ := s.Stats(ctx); left != 0 {
			b.Fatalf("%d records left", left)
		}
		b.ReportMetric(float64(size)/n, "bytes/record")
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/record")
}

// bulkInsert stores n records with eventsPer events each, a few thousand per
// transaction (setup for benchmarks: Save would fsync each one).
func bulkInsert(tb testing.TB, s *Store, prefix string, n, eventsPer int, completed time.Time) {
	tb.Helper()
	ctx := context.Background()
	events := makeEvents(1, eventsPer)
	const perTx = 5000
	for start := 0; start < n; start += perTx {
		tx, err := s.w.BeginTx(ctx, nil)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := s.lockCount(ctx, tx); err != nil {
			tb.Fatal(err)
		}
		end := min(start+perTx, n)
		for i := start; i < end; i++ {
			rec, err := s.prepare(newResult(fmt.Sprintf("%s-%09d", prefix, i), completed), events, false, completed.UnixMilli())
			if err != nil {
				tb.Fatal(err)
			}
			if err := s.insertRecord(ctx, tx, rec); err != nil {
				tb.Fatal(err)
			}
		}
		if err := s.addCount(ctx, tx, end-start); err != nil {
			tb.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			tb.Fatal(err)
		}
		s.committed(end - start)
	}
}
