package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// TestConcurrentWritersAndReaders runs writers, readers and the background
// sweeper together (run it with -race): records are evicted by the cap and
// expired by a short TTL while others read them.
func TestConcurrentWritersAndReaders(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		const (
			writers   = 4
			perWriter = 60
			readers   = 4
			maxKept   = 40
		)
		s := b.open(t, Config{MaxCompleted: maxKept, CompletedTTL: 300 * time.Millisecond, MaxTombstones: 1000})
		ctx := context.Background()

		var saved atomic.Int64
		errs := make(chan error, writers+readers)
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perWriter {
					id := fmt.Sprintf("w%d-%03d", w, i)
					if err := s.Save(ctx, newResult(id, time.Now()), makeEvents(1, 10), false); err != nil {
						errs <- fmt.Errorf("Save %s: %w", id, err)
						return
					}
					saved.Add(1)
				}
			}()
		}
		stop := make(chan struct{})
		var readerWG sync.WaitGroup
		var reads atomic.Int64
		for r := range readers {
			readerWG.Add(1)
			go func() {
				defer readerWG.Done()
				rng := rand.New(rand.NewPCG(uint64(r), 1))
				for {
					select {
					case <-stop:
						return
					default:
					}
					id := fmt.Sprintf("w%d-%03d", rng.IntN(writers), rng.IntN(perWriter))
					if got, err := s.Get(ctx, id); err == nil {
						if got.ExecutionID != id {
							errs <- fmt.Errorf("Get %s returned %s", id, got.ExecutionID)
							return
						}
					} else if c := wasmexec.ErrorCode(err); c != wasmexec.ENotFound && c != wasmexec.EExpired {
						errs <- fmt.Errorf("Get %s: %w", id, err)
						return
					}
					if rep, err := s.Output(ctx, id, "", 4); err == nil {
						if len(rep.Events) != 4 || !rep.HasMore {
							errs <- fmt.Errorf("Output %s: %d events, hasMore %v", id, len(rep.Events), rep.HasMore)
							return
						}
					} else if c := wasmexec.ErrorCode(err); c != wasmexec.ENotFound && c != wasmexec.EExpired {
						errs <- fmt.Errorf("Output %s: %w", id, err)
						return
					}
					seen := map[string]bool{}
					cursor := ""
					for range 100 {
						page, err := s.List(ctx, wasmexec.HistoryFilter{After: cursor, Limit: 7})
						if err != nil {
							errs <- fmt.Errorf("List: %w", err)
							return
						}
						for _, e := range page.Executions {
							if seen[e.ExecutionID] {
								errs <- fmt.Errorf("List returned %s twice", e.ExecutionID)
								return
							}
							seen[e.ExecutionID] = true
						}
						if !page.HasMore {
							break
						}
						cursor = page.NextCursor
					}
					if _, _, err := s.Stats(ctx); err != nil {
						errs <- fmt.Errorf("Stats: %w", err)
						return
					}
					reads.Add(1)
				}
			}()
		}
		wg.Wait()
		close(stop)
		readerWG.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if saved.Load() != writers*perWriter {
			t.Fatalf("saved %d of %d", saved.Load(), writers*perWriter)
		}
		// One statement reads both counts from one snapshot: the sweeper
		// is still running.
		var n, events int
		if err := s.r.QueryRow("SELECT (SELECT count(*) FROM executions), (SELECT count(*) FROM events)").Scan(&n, &events); err != nil {
			t.Fatal(err)
		}
		if n > maxKept {
			t.Fatalf("%d records kept, cap %d", n, maxKept)
		}
		if events != 10*n {
			t.Fatalf("%d events for %d records", events, n)
		}
		t.Logf("%d saves, %d reader rounds, %d records left", saved.Load(), reads.Load(), n)
	})
}
