package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

func init() {
	register("events", benchEvents)
}

// benchEvents measures how long a lifecycle event takes to reach a
// GET /v1/events reader: the default server (SQLite store, events in its
// memory) against two servers sharing a PostgreSQL store (a throwaway
// cluster, fsync on), where an event goes through the shared log, on the
// server that ran the request and on the other. The clock starts when the
// request is sent and stops when execution.started arrives on the stream,
// so every figure includes the run's own start (slot, guest) up to the
// publication; the SQLite figure is that part alone, the differences are
// the log's. Requests alternate between the two set-ups so the machine's
// noise falls on both alike.
func benchEvents(t *table, sqlite *server, dataDir string) error {
	url, stop, err := startPostgres()
	if err != nil {
		return err
	}
	defer stop()
	var nodes [2]*server
	for i := range nodes {
		if nodes[i], err = startServer(filepath.Join(dataDir, fmt.Sprint("events-pg", i)), []string{"--store", "postgres", "--store-url", url}); err != nil {
			return err
		}
		defer nodes[i].stop()
	}
	local, err := watchEvents(sqlite.base)
	if err != nil {
		return err
	}
	defer local.close()
	var pw [2]*eventWatcher
	for i, n := range nodes {
		if pw[i], err = watchEvents(n.base); err != nil {
			return err
		}
		defer pw[i].close()
	}
	body := `{"language":"javascript","code":"1"}`
	var onMemory, samePG, otherPG, added []float64
	n := min(*samples, 200)
	for range n {
		if d, ok := eventLatency(sqlite, body, local); ok {
			onMemory = append(onMemory, d[0])
		}
		if d, ok := eventLatency(nodes[0], body, pw[0], pw[1]); ok {
			samePG = append(samePG, d[0])
			otherPG = append(otherPG, d[1])
			added = append(added, d[1]-d[0])
		}
	}
	if len(onMemory) < n/2 || len(samePG) < n/2 {
		return fmt.Errorf("events did not arrive: %d of %d (memory), %d of %d (PostgreSQL)", len(onMemory), n, len(samePG), n)
	}
	t.add("event request→delivery p50, same server, SQLite (memory) (ms)", fmt.Sprintf("%.2f", pct(onMemory, 50)), "report")
	t.add("event request→delivery p50, same server, PostgreSQL (ms)", fmt.Sprintf("%.2f", pct(samePG, 50)), "report")
	t.add("event request→delivery p50, other server, PostgreSQL (ms)", fmt.Sprintf("%.2f", pct(otherPG, 50)), "report")
	t.add("event other server minus same server p50, PostgreSQL (ms)", fmt.Sprintf("%.2f", pct(added, 50)), "report")
	t.add("event request→delivery p99: memory / PostgreSQL same / other server (ms)", fmt.Sprintf("%.1f / %.1f / %.1f", pct(onMemory, 99), pct(samePG, 99), pct(otherPG, 99)), "report")
	return nil
}

// eventLatency sends one run to s and returns, for each watcher, the ms
// from sending it to its execution.started arriving there.
func eventLatency(s *server, body string, ws ...*eventWatcher) ([]float64, bool) {
	t0 := time.Now()
	resp, err := s.hc.Post(s.base+"/v1/evaluate", "application/json", strings.NewReader(body))
	if err != nil {
		return nil, false
	}
	var r struct {
		ExecutionID string `json:"executionId"`
	}
	err = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if err != nil || r.ExecutionID == "" {
		return nil, false
	}
	out := make([]float64, len(ws))
	for i, w := range ws {
		at, ok := w.wait(r.ExecutionID, 10*time.Second)
		if !ok {
			return nil, false
		}
		out[i] = float64(at.Sub(t0).Microseconds()) / 1000
	}
	return out, true
}

// eventWatcher follows a server's GET /v1/events and notes when each
// execution.started arrives.
type eventWatcher struct {
	resp *http.Response
	mu   sync.Mutex
	seen map[string]time.Time
	wake chan struct{}
}

func watchEvents(base string) (*eventWatcher, error) {
	req, _ := http.NewRequest("GET", base+"/v1/events?type=execution.started", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		return nil, fmt.Errorf("GET /v1/events: %d", resp.StatusCode)
	}
	w := &eventWatcher{resp: resp, seen: map[string]time.Time{}, wake: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			at := time.Now()
			var e struct {
				ExecutionID string `json:"executionId"`
			}
			if json.Unmarshal([]byte(data), &e) == nil && e.ExecutionID != "" {
				w.mu.Lock()
				w.seen[e.ExecutionID] = at
				close(w.wake)
				w.wake = make(chan struct{})
				w.mu.Unlock()
			}
		}
	}()
	return w, nil
}

// wait returns when id's event arrived, waiting up to limit for it.
func (w *eventWatcher) wait(id string, limit time.Duration) (time.Time, bool) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		w.mu.Lock()
		at, ok := w.seen[id]
		wake := w.wake
		if ok {
			delete(w.seen, id)
		}
		w.mu.Unlock()
		if ok {
			return at, true
		}
		select {
		case <-wake:
		case <-deadline.C:
			return time.Time{}, false
		}
	}
}

func (w *eventWatcher) close() { w.resp.Body.Close() }
