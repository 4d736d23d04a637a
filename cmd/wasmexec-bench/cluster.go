package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func init() {
	register("cluster", benchCluster)
}

// clusterLeaseMs is the lease of the benchmark's cluster: the failover
// time is about what is left of it at the kill plus the claim and restore.
const clusterLeaseMs = 2000

// benchCluster runs two servers on one PostgreSQL (docs/DEPLOY.md) and
// measures a context's evaluate p50 on its owner (local) and through the
// other server (forwarded), in interleaved rounds, then the failover: the
// time from kill -9 of the owner to the first successful run of the
// context through the other server, which claims it and restores its last
// snapshot.
func benchCluster(t *table, _ *server, dataDir string) error {
	url, stop, err := startPostgres()
	if err != nil {
		return err
	}
	defer stop()
	secret := filepath.Join(dataDir, "cluster-secret")
	if err := os.WriteFile(secret, []byte("bench-node-secret-0123456789"), 0o600); err != nil {
		return err
	}
	node := func(name string) (*server, error) {
		addr, err := freePort()
		if err != nil {
			return nil, err
		}
		return startServer(filepath.Join(dataDir, "cluster-"+name), []string{"--addr", addr, "--advertise-url", "http://" + addr, "--node-id", name,
			"--store", "postgres", "--store-url", url, "--node-secret-file", secret, "--tscheck-workers", "0",
			"--context-lease-ms", fmt.Sprint(clusterLeaseMs), "--context-snapshot-after-ms", "100"})
	}
	n1, err := node("n1")
	if err != nil {
		return err
	}
	defer n1.stop()
	n2, err := node("n2")
	if err != nil {
		return err
	}
	defer n2.stop()
	if resp, err := n1.hc.Post(n1.base+"/v1/contexts", "application/json", strings.NewReader(`{"contextId":"bench","language":"javascript"}`)); err != nil {
		return err
	} else if resp.Body.Close(); resp.StatusCode != 201 {
		return fmt.Errorf("create the context: HTTP %d", resp.StatusCode)
	}
	body := `{"language":"javascript","contextId":"bench","code":"globalThis.n = (globalThis.n || 0) + 1"}`
	n1.latencies("/v1/evaluate", body, 10)
	n2.latencies("/v1/evaluate", body, 10)
	var local, fwd []float64
	for range 5 {
		local = append(local, pct(n1.latencies("/v1/evaluate", body, 40), 50))
		fwd = append(fwd, pct(n2.latencies("/v1/evaluate", body, 40), 50))
	}
	l, f := pct(local, 50), pct(fwd, 50)
	t.add("context evaluate p50: on its owner / forwarded by another server (ms)", fmt.Sprintf("%.2f / %.2f", l, f), "report")
	t.add("forwarding adds to a context evaluate (p50, ms)", fmt.Sprintf("%.2f", f-l), "<= 1")

	// Failover: the state of the last snapshot comes back elsewhere.
	if _, err := n1.post("/v1/evaluate", `{"language":"javascript","contextId":"bench","code":"globalThis.mark = 7"}`); err != nil {
		return err
	}
	deadline := time.Now().Add(time.Minute)
	for !snapshotted(n1, "bench") {
		if time.Now().After(deadline) {
			return fmt.Errorf("the context was not snapshotted")
		}
		time.Sleep(20 * time.Millisecond)
	}
	n1.cmd.Process.Signal(syscall.SIGKILL)
	n1.cmd.Wait()
	start := time.Now()
	for {
		r, err := n2.post("/v1/evaluate", `{"language":"javascript","contextId":"bench","code":"mark"}`)
		if err == nil {
			if string(r.Value) != "7" {
				return fmt.Errorf("the moved context says mark = %v, want 7", r.Value)
			}
			break
		}
		if time.Since(start) > time.Minute {
			return fmt.Errorf("no run on the moved context within a minute: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.add(fmt.Sprintf("failover: kill -9 of the owner to a run on the moved context (lease %d ms, s)", clusterLeaseMs), fmt.Sprintf("%.2f", time.Since(start).Seconds()), "report")
	return nil
}

// snapshotted reports whether context id's state was stored after its
// last run.
func snapshotted(s *server, id string) bool {
	resp, err := s.hc.Get(s.base + "/v1/contexts/" + id)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var d struct {
		StateAsOfMs       int64 `json:"stateAsOfMs"`
		LastCompletedAtMs int64 `json:"lastCompletedAtMs"`
	}
	json.NewDecoder(resp.Body).Decode(&d)
	return resp.StatusCode == http.StatusOK && d.StateAsOfMs > 0 && d.StateAsOfMs >= d.LastCompletedAtMs
}
