package server

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

type oneKey struct{}

func (oneKey) Authenticate(string) *wasmexec.Tenant { return nil }

// deletingHistory holds one record of tenant a and records deletions.
type deletingHistory struct {
	History
	deleted []string
}

func (h *deletingHistory) Get(_ context.Context, id string) (*wasmexec.Result, error) {
	if id != "exe_a" {
		return nil, wasmexec.Errorf(wasmexec.ENotFound, "execution %s not found", id)
	}
	return &wasmexec.Result{ExecutionID: id, Tenant: "a"}, nil
}

func (h *deletingHistory) Delete(_ context.Context, id string) error {
	h.deleted = append(h.deleted, id)
	return nil
}

// A History that can delete is guarded too: a tenant deletes only its own
// records (by the record's Tenant, even when the History doesn't scope);
// another's id is not_found.
func TestGuardedDelete(t *testing.T) {
	h := &deletingHistory{}
	cfg := Guard(Config{Auth: oneKey{}, History: h})
	a := wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: "a"})
	b := wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: "b"})
	d := cfg.History.(interface {
		Delete(context.Context, string) error
	})
	if err := d.Delete(b, "exe_a"); wasmexec.ErrorCode(err) != wasmexec.ENotFound || len(h.deleted) != 0 {
		t.Fatalf("b deleted a's record: %v %v", err, h.deleted)
	}
	if _, err := cfg.History.Get(b, "exe_a"); wasmexec.ErrorCode(err) != wasmexec.ENotFound {
		t.Fatalf("b read a's record: %v", err)
	}
	if err := d.Delete(a, "exe_a"); err != nil || len(h.deleted) != 1 {
		t.Fatalf("a's delete: %v %v", err, h.deleted)
	}
}

// The run quotas: maxConcurrentRuns counts runs under way; maxRunsPerMinute
// counts starts in the current second and the 59 before it, and
// Retry-After says when the oldest is forgotten; a quota of 0 allows
// nothing.
func TestRunQuotas(t *testing.T) {
	tn := newTenancy(nil)
	now := time.Unix(1_700_000_000, 0)
	tn.runs.now = func() time.Time { return now }
	one, two, zero := int64(1), int64(2), int64(0)
	ctx := wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: "t", Quotas: wasmexec.Quotas{MaxConcurrentRuns: &one, MaxRunsPerMinute: &two}})

	done, err := tn.startRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tn.startRun(ctx); wasmexec.ErrorCode(err) != wasmexec.EQuota {
		t.Fatalf("a second concurrent run: %v", err)
	}
	done()
	now = now.Add(10 * time.Second)
	done, err = tn.startRun(ctx) // the second start of the minute
	if err != nil {
		t.Fatal(err)
	}
	done()
	retry := func(want int) {
		t.Helper()
		_, err := tn.startRun(ctx)
		var ra *retryAfterError
		if !errors.As(err, &ra) || ra.seconds != want {
			t.Fatalf("over maxRunsPerMinute: %v, want Retry-After %d", err, want)
		}
	}
	retry(50)
	now = now.Add(49 * time.Second) // 59 s after the first start
	retry(1)
	now = now.Add(time.Second) // the first start is forgotten
	done, err = tn.startRun(ctx)
	if err != nil {
		t.Fatalf("a minute after the first start: %v", err)
	}
	done()
	if st := tn.state("t"); st.running.Load() != 0 {
		t.Fatalf("running = %d after every run ended", st.running.Load())
	}
	for _, q := range []wasmexec.Quotas{{MaxConcurrentRuns: &zero}, {MaxRunsPerMinute: &zero}} {
		if _, err := tn.startRun(wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: "z", Quotas: q})); wasmexec.ErrorCode(err) != wasmexec.EQuota {
			t.Fatalf("quota 0 %+v: %v", q, err)
		}
	}
	if st := tn.state("z"); st.running.Load() != 0 {
		t.Fatalf("a refused run stays counted: %d", st.running.Load())
	}
}

// The run quotas under a burst: N runs started at once (a start barrier)
// are admitted exactly as the quotas allow, whichever quota refuses the
// others, and a refused run leaves no count behind.
func TestRunQuotasConcurrent(t *testing.T) {
	two, three := int64(2), int64(3)
	for _, tc := range []struct {
		name   string
		quotas wasmexec.Quotas
		hold   bool // runs stay under way until all were tried
		want   int
	}{
		{"maxConcurrentRuns", wasmexec.Quotas{MaxConcurrentRuns: &three}, true, 3},
		{"maxRunsPerMinute", wasmexec.Quotas{MaxRunsPerMinute: &three}, false, 3},
		{"both, concurrency first", wasmexec.Quotas{MaxConcurrentRuns: &two, MaxRunsPerMinute: &three}, true, 2},
		{"both, rate first", wasmexec.Quotas{MaxConcurrentRuns: &three, MaxRunsPerMinute: &two}, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tn := newTenancy(nil)
			ctx := wasmexec.WithTenant(context.Background(), &wasmexec.Tenant{ID: "t", Quotas: tc.quotas})
			const n = 32
			start := make(chan struct{})
			var wg sync.WaitGroup
			var mu sync.Mutex
			var ends []func()
			refused := 0
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					end, err := tn.startRun(ctx)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil && tc.hold:
						ends = append(ends, end)
					case err == nil:
						end()
						ends = append(ends, noop)
					case wasmexec.ErrorCode(err) == wasmexec.EQuota:
						refused++
					default:
						t.Errorf("startRun: %v", err)
					}
				}()
			}
			close(start)
			wg.Wait()
			if len(ends) != tc.want || refused != n-tc.want {
				t.Fatalf("%d admitted, %d refused; want %d admitted", len(ends), refused, tc.want)
			}
			st := tn.state("t")
			running := int64(0)
			if tc.hold {
				running = int64(len(ends))
			}
			if got := st.running.Load(); got != running {
				t.Fatalf("running = %d, want %d", got, running)
			}
			for _, end := range ends {
				end()
			}
			if got := st.running.Load(); got != 0 {
				t.Fatalf("running = %d after every run ended", got)
			}
		})
	}
}
