package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/cluster"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/vfs"
)

// attempt is one request of a burst, and what came of it.
type attempt struct {
	method, path, body string
	reply              reply
	err                error
}

// burst sends the requests at once, as key: every goroutine waits at a
// start barrier, closed when all are ready. It returns when all answered.
func burst(key, url string, reqs []attempt) []attempt {
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for i := range reqs {
		ready.Add(1)
		done.Add(1)
		go func(a *attempt) {
			defer done.Done()
			req, err := http.NewRequest(a.method, url+a.path, strings.NewReader(a.body))
			if err != nil {
				a.err = err
				ready.Done()
				return
			}
			req.Header.Set("Authorization", "Bearer "+key)
			if a.body != "" && a.method != http.MethodPut {
				req.Header.Set("Content-Type", "application/json")
			}
			ready.Done()
			<-start
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				a.err = err
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			a.reply, a.err = reply{Status: resp.StatusCode, Header: resp.Header, Body: b}, err
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				_ = json.Unmarshal(b, &a.reply.JSON)
			}
		}(&reqs[i])
	}
	ready.Wait()
	close(start)
	done.Wait()
	return reqs
}

// The red team's attacks on the tenant quotas: concurrent requests of one
// tenant each passed the check before any made what it counts (16 creates
// with maxContexts 2 made 3 to 11 contexts; 8 forks queued behind a run
// made 8, always, and copied the source's bytes 8 times past
// maxWorkspaceBytes; 16 spawns with maxProcesses 1 started up to 4). Each
// burst now makes exactly what the quota allows (at most, for uploads: a
// write under way counts until its request ends), and every other
// request is a 429 quota_exceeded naming the quota. The races that are
// not certain to show in one burst are tried in a few (a fresh server
// each).
func TestTenantQuotasConcurrent(t *testing.T) {
	const n = 16
	repeat := func(k int, f func(i int) attempt) []attempt {
		out := make([]attempt, k)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		key    string                         // acme: maxContexts 2, maxProcesses 1, maxWorkspaceBytes 100; initech: maxWorkspaceBytes 100
		setup  func(t *testing.T, url string) // before the burst
		reqs   []attempt
		rounds int  // bursts, each on a fresh server (0: 1)
		status int  // of a request admitted
		want   int  // requests admitted
		atMost bool // want is a bound, not the number
		quota  string
		has    func(t *testing.T, url string) int // what the burst made
	}{
		{
			name: "maxContexts: creates named", key: acme, rounds: 2, status: 201, want: 2, quota: "maxContexts",
			reqs: repeat(n, func(i int) attempt {
				return attempt{method: "POST", path: "/v1/contexts", body: fmt.Sprintf(`{"contextId":"c%d","language":"javascript"}`, i)}
			}),
			has: func(t *testing.T, url string) int { return contextsOf(t, acme, url) },
		},
		{
			name: "maxContexts: creates with generated ids", key: acme, rounds: 2, status: 201, want: 2, quota: "maxContexts",
			reqs: repeat(n, func(int) attempt {
				return attempt{method: "POST", path: "/v1/contexts", body: `{"language":"javascript"}`}
			}),
			has: func(t *testing.T, url string) int { return contextsOf(t, acme, url) },
		},
		{
			// The source's run holds its slot: the forks wait in its queue,
			// checked (before) or reserved (now) before they wait.
			name: "maxContexts: forks queued behind a run", key: acme, status: 201, want: 1, quota: "maxContexts",
			setup: func(t *testing.T, url string) { busySource(t, acme, url, 0) },
			reqs: repeat(8, func(i int) attempt {
				return attempt{method: "POST", path: "/v1/contexts/src/fork", body: fmt.Sprintf(`{"contextId":"f%d"}`, i)}
			}),
			has: func(t *testing.T, url string) int { return contextsOf(t, acme, url) - 1 },
		},
		{
			// src holds 40 bytes: one copy fits in 100, two don't.
			name: "maxWorkspaceBytes: forks queued behind a run", key: initech, status: 201, want: 1, quota: "maxWorkspaceBytes",
			setup: func(t *testing.T, url string) { busySource(t, initech, url, 40) },
			reqs: repeat(8, func(i int) attempt {
				return attempt{method: "POST", path: "/v1/contexts/src/fork", body: fmt.Sprintf(`{"contextId":"f%d"}`, i)}
			}),
			has: func(t *testing.T, url string) int { return contextsOf(t, initech, url) - 1 },
		},
		{
			name: "maxWorkspaceBytes: uploads", key: initech, rounds: 3, status: 200, want: 3, atMost: true, quota: "maxWorkspaceBytes",
			setup: func(t *testing.T, url string) {
				wantStatus(t, as(t, initech, "POST", url+"/v1/contexts", `{"contextId":"w","language":"javascript"}`), 201, "")
			},
			reqs: repeat(n, func(i int) attempt {
				return attempt{method: "PUT", path: fmt.Sprintf("/v1/contexts/w/files/f%d", i), body: strings.Repeat("x", 30)}
			}),
			has: func(t *testing.T, url string) int {
				r := as(t, initech, "GET", url+"/v1/contexts/w", "")
				used := int(r.JSON["workspace"].(map[string]any)["usedBytes"].(float64))
				if used > 100 {
					t.Fatalf("the workspace holds %d bytes, over the quota 100", used)
				}
				return used / 30
			},
		},
		{
			name: "maxProcesses: spawns", key: acme, rounds: 3, status: 201, want: 1, quota: "maxProcesses",
			reqs: repeat(n, func(int) attempt {
				return attempt{method: "POST", path: "/v1/processes", body: `{"language":"javascript","code":"stdin.read()"}`}
			}),
			has: func(t *testing.T, url string) int {
				r := as(t, acme, "GET", url+"/v1/processes", "")
				running := 0
				for _, p := range r.JSON["processes"].([]any) {
					if p.(map[string]any)["state"] == "running" {
						running++
					}
				}
				return running
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for round := range max(tc.rounds, 1) {
				url := mustTenantServer(t)
				if tc.setup != nil {
					tc.setup(t, url)
				}
				admitted := 0
				for _, a := range burst(tc.key, url, slices.Clone(tc.reqs)) {
					switch {
					case a.err != nil:
						t.Fatalf("%s %s: %v", a.method, a.path, a.err)
					case a.reply.Status == tc.status:
						admitted++
					default:
						wantStatus(t, a.reply, 429, "quota_exceeded")
						if msg, _ := a.reply.JSON["message"].(string); !strings.Contains(msg, tc.quota) {
							t.Fatalf("%s %s: %s, want the quota %s named", a.method, a.path, a.reply.Body, tc.quota)
						}
					}
				}
				has := tc.has(t, url)
				if has != admitted || admitted > tc.want || (!tc.atMost && admitted != tc.want) || admitted == 0 {
					t.Fatalf("round %d: %d of %d requests admitted, the tenant has %d; want %d", round, admitted, len(tc.reqs), has, tc.want)
				}
			}
		})
	}
}

// contextsOf counts the contexts of the tenant of key.
func contextsOf(t *testing.T, key, url string) int {
	t.Helper()
	r := as(t, key, "GET", url+"/v1/contexts", "")
	wantStatus(t, r, 200, "")
	return len(r.JSON["contexts"].([]any))
}

// busySource creates context src holding a file of size bytes (0: none)
// and starts a run in it that holds it until the test's requests have
// queued behind it.
func busySource(t *testing.T, key, url string, size int) {
	t.Helper()
	wantStatus(t, as(t, key, "POST", url+"/v1/contexts", `{"contextId":"src","language":"javascript"}`), 201, "")
	if size > 0 {
		wantStatus(t, as(t, key, "PUT", url+"/v1/contexts/src/files/a", strings.Repeat("a", size)), 200, "")
	}
	done := make(chan reply, 1)
	go func() {
		done <- burst(key, url, []attempt{{method: "POST", path: "/v1/evaluate",
			body: `{"language":"javascript","contextId":"src","timeoutMs":20000,"code":"const t = Date.now(); while (Date.now() - t < 2000) {}"}`}})[0].reply
	}()
	t.Cleanup(func() {
		if r := <-done; r.Status != 200 {
			t.Errorf("the source's run: %d %s", r.Status, r.Body)
		}
	})
	waitUntil(t, "the source's run to start", func() bool {
		return as(t, key, "GET", url+"/v1/contexts/src", "").JSON["state"] == "running"
	})
}

// In a cluster a tenant's contexts are counted in the database, where a
// context is registered while it is being made (and the old check counted
// none of a burst's). A burst on one server makes exactly maxContexts.
func TestTenantContextsClusterBurst(t *testing.T) {
	_, dbURL := pgtest.Own(t)
	cl, err := cluster.Open(context.Background(), cluster.Config{URL: dbURL, NodeID: "n1", AdvertURL: "http://n1.invalid", Lease: time.Minute,
		Lost: func(string) {}, Adopt: func(context.Context, string, []byte, func(string) error) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}},
	})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{Runner: r, Workspaces: ws, Shared: cl, StateDir: filepath.Join(testenv.ScratchDir(t), "state")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	keys, _ := MustKeys(t)
	cfg := server.Guard(server.Config{Runner: r, Contexts: m, Auth: keys, Cluster: cl})
	tn := keys.Authenticate(acme)
	ctx := wasmexec.WithTenant(context.Background(), tn)

	const n = 16
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	made, refused := 0, 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := cfg.Contexts.Create(ctx, &wasmexec.ContextSpec{ContextID: fmt.Sprintf("c%d", i), Language: wasmexec.JavaScript})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				made++
			case wasmexec.ErrorCode(err) == wasmexec.EQuota:
				refused++
			default:
				t.Errorf("create c%d: %v", i, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	counted, err := cl.TenantContexts(context.Background(), tn.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := *tn.Quotas.MaxContexts; int64(made) != want || refused != n-made || counted != want {
		t.Fatalf("%d made, %d refused, %d in the database; want %d", made, refused, counted, want)
	}
}
