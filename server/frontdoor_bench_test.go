package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/auth"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/server"
)

// instantRunner answers every run at once: what is left of a request's
// cost is the front door's (routing, decoding, auth, tenancy, events).
// The server calls only Run: the guest methods are left to the nil
// interface, which would panic if it ever called them.
type instantRunner struct{ wasmexec.Runner }

func (instantRunner) Run(_ context.Context, req *wasmexec.Request, opts wasmexec.RunOptions) (*wasmexec.Result, error) {
	if opts.Started != nil {
		opts.Started(nil)
	}
	return &wasmexec.Result{ExecutionID: wasmexec.NewID("exe"), Kind: req.Kind, Language: req.Language, Outcome: wasmexec.Succeeded, Value: []byte("2")}, nil
}

// BenchmarkFrontDoor is the cost of a one-shot request through the front
// door, open and with API keys (a tenant with rate and concurrency
// quotas): the difference is what auth and tenancy add per request.
func BenchmarkFrontDoor(b *testing.B) {
	const key = "bench-key-0123456789"
	path := filepath.Join(b.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte(`{"tenants":{"bench":{"maxConcurrentRuns":64,"maxRunsPerMinute":100000000}},"keys":[{"tenant":"bench","key":"`+key+`"}]}`), 0o600); err != nil {
		b.Fatal(err)
	}
	keys, err := auth.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		auth server.Authenticator
	}{{"open", nil}, {"keyed", keys}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := server.Config{Runner: instantRunner{}, Events: events.New(0), ObserveHTTP: func(string, string, int, time.Duration) {}}
			if tc.auth != nil {
				cfg.Auth = tc.auth
			}
			h := server.New(cfg).Handler()
			b.ReportAllocs()
			cpu0 := testenv.CPUTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req := httptest.NewRequest("POST", "/v1/evaluate", strings.NewReader(`{"language":"javascript","code":"1+1"}`))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+key)
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					if w.Code != http.StatusOK {
						b.Fatalf("HTTP %d: %s", w.Code, w.Body)
					}
				}
			})
			// CPU time (GC included) moves far less than wall time with
			// the machine's load.
			b.ReportMetric(float64(testenv.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
