package main

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// kill -9 in the middle of a mass eviction (many contexts created and run
// quickly on a server whose memory budget keeps a few live) loses no
// context: after the restart every context created is listed, those
// hibernated before the kill answer their own value, and none answers
// another's or comes back from a broken record. (Contexts still live at
// the kill come back fresh: they were never snapshotted, with
// --context-snapshot-after-ms 0, as docs/CONTEXTS.md says.)
func TestServeKill9DuringMassEvictionLosesNoContext(t *testing.T) {
	data := t.TempDir()
	args := []string{"--tscheck-workers", "0", "--store=false", "--context-snapshot-after-ms", "0", "--contexts-memory-bytes", fmt.Sprint(160 << 20)}
	p := MustServe(t, data, args...)

	var (
		mu      sync.Mutex
		created = map[string]int{}
		next    atomic.Int64
		killed  atomic.Bool
		wg      sync.WaitGroup
	)
	for range 4 {
		wg.Go(func() {
			for !killed.Load() {
				i := int(next.Add(1))
				id := fmt.Sprintf("mass-%d", i)
				status, _, err := p.post("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":"javascript"}`, id))
				if err != nil || status != 201 {
					return // the server is gone
				}
				status, d, err := p.post("/v1/evaluate", fmt.Sprintf(`{"language":"javascript","contextId":%q,"code":"var mine = %d; mine"}`, id, i))
				if err != nil || status != 200 {
					return
				}
				if d["value"] != float64(i) {
					t.Errorf("%s answered %v, want %d", id, d["value"], i)
				}
				mu.Lock()
				created[id] = i
				mu.Unlock()
			}
		})
	}
	var evicted float64
	poll.Until(t, 3*time.Minute, "a mass eviction", func() bool {
		evicted = p.metric(t, "wasmexec_contexts_evictions_total")
		return evicted >= 20
	})
	// The contexts hibernated after their run, as the server reports them
	// just before the kill: nothing wakes them again (the clients only
	// create), so each must come back with its value. (The evictions
	// counter can't say which: a context created and hibernated before its
	// first run, then woken by it, counts an eviction and comes back fresh.)
	_, before := p.do(t, "GET", "/v1/contexts", "")
	hibernated := map[string]bool{}
	for _, c := range before["contexts"].([]any) {
		d := c.(map[string]any)
		asOf, _ := d["stateAsOfMs"].(float64)
		done, _ := d["lastCompletedAtMs"].(float64)
		if d["hibernated"] == true && done > 0 && asOf >= done {
			hibernated[d["contextId"].(string)] = true
		}
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	killed.Store(true)
	p.cmd.Wait()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	t.Logf("killed after %v evictions, %d contexts created", evicted, len(created))

	p = MustServe(t, data, args...)
	_, list := p.do(t, "GET", "/v1/contexts", "")
	listed := map[string]bool{}
	for _, c := range list["contexts"].([]any) {
		listed[c.(map[string]any)["contextId"].(string)] = true
	}
	kept := 0
	for id, i := range created {
		if !listed[id] {
			t.Errorf("%s was lost", id)
			continue
		}
		status, d, err := p.post("/v1/evaluate", fmt.Sprintf(`{"language":"javascript","contextId":%q,"code":"typeof mine === 'undefined' ? null : mine"}`, id))
		if err != nil || status != 200 || d["outcome"] != "succeeded" {
			t.Errorf("%s after the restart: %d %v %v", id, status, d, err)
			continue
		}
		switch d["value"] {
		case float64(i):
			kept++
		case nil: // live at the kill, never snapshotted: fresh
			if hibernated[id] {
				t.Errorf("%s was hibernated after its run before the kill, and came back fresh", id)
			}
		default:
			t.Errorf("%s answered %v after the restart, want %d (or a fresh guest)", id, d["value"], i)
		}
		_, desc := p.do(t, "GET", "/v1/contexts/"+id, "")
		if n, _ := desc["notice"].(string); strings.Contains(n, "its snapshot") {
			t.Errorf("%s came back from a broken record: %s", id, n)
		}
	}
	t.Logf("%d of %d contexts answered their value after the restart; %d were hibernated after their run at the kill", kept, len(created), len(hibernated))
	if len(hibernated) == 0 {
		t.Fatal("no context was hibernated after its run before the kill: the test proved nothing")
	}
}
