package contexts_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
)

// Runs, resets, deletes, re-creates, file calls and idle sweeps race on a
// few contexts. Nothing may hang, every error must be one of the documented
// codes, and Close must finish.
func TestChaos(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	m := MustManager(t, contexts.Config{IdleTTL: time.Minute, SweepInterval: time.Millisecond, Now: func() time.Time { return time.Unix(0, now.Load()) }, QueueDepth: 4}, 1<<20)
	ids := []string{"a", "b", "c"}
	for _, id := range ids {
		MustCreate(t, m, wasmexec.ContextSpec{ContextID: id})
	}
	allowed := map[string]bool{wasmexec.EContextNotFound: true, wasmexec.EOverloaded: true, wasmexec.EConflict: true, wasmexec.EContextConflict: true, wasmexec.ENotFound: true}
	stop := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	var ops, runs atomic.Int64
	for w := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for time.Now().Before(stop) {
				id := ids[rng.IntN(len(ids))]
				var err error
				switch op := rng.IntN(10); {
				case op < 4:
					var res *wasmexec.Result
					res, err = tryRun(m, id, wasmexec.Request{Code: "globalThis.n = (globalThis.n || 0) + 1; fs.writeFileSync('f', String(n)); n", TimeoutMs: 2000})
					if err == nil && res.Outcome != wasmexec.Succeeded && res.Outcome != wasmexec.Cancelled {
						t.Errorf("run: %s %+v", res.Outcome, res.Error)
					}
					if err == nil && res.Outcome == wasmexec.Succeeded {
						runs.Add(1)
					}
				case op == 4:
					_, err = tryRun(m, id, wasmexec.Request{Code: "while (true) {}", TimeoutMs: 30})
				case op == 5:
					_, err = m.Reset(context.Background(), id)
				case op == 6 && rng.IntN(4) == 0:
					err = m.Delete(context.Background(), id)
				case op == 7:
					_, err = m.Create(context.Background(), &wasmexec.ContextSpec{ContextID: id, Language: wasmexec.JavaScript})
				case op == 8:
					_, err = m.WriteFile(context.Background(), id, fmt.Sprintf("w%d", rng.IntN(3)), []byte("x"))
				default:
					now.Add(int64(20 * time.Second)) // the idle loop may expire some
					_, err = m.Get(context.Background(), id)
				}
				if err != nil && !allowed[wasmexec.ErrorCode(err)] {
					t.Errorf("unexpected error: %v", err)
				}
				ops.Add(1)
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("workers hung")
	}
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close hung")
	}
	t.Logf("%d operations, %d succeeded runs", ops.Load(), runs.Load())
	if runs.Load() < 50 {
		t.Fatalf("only %d runs succeeded", runs.Load())
	}
}
