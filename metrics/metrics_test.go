package metrics_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/metrics"
)

// Every metric has HELP and TYPE, passes promlint, and the histograms
// carry their labels.
func TestExposition(t *testing.T) {
	m := metrics.New()
	m.ObserveRun(&wasmexec.Result{Language: wasmexec.JavaScript, Kind: wasmexec.KindEvaluate, Outcome: wasmexec.Succeeded, DurationMs: 3, FuelConsumed: 1e6}, "acme")
	m.ObserveRun(&wasmexec.Result{Language: wasmexec.Python, Kind: wasmexec.KindExecute, Outcome: wasmexec.Failed, DurationMs: 30}, "")
	m.ObserveQueueWait(&wasmexec.Result{Language: wasmexec.JavaScript, Kind: wasmexec.KindEvaluate, Outcome: wasmexec.Succeeded}, time.Millisecond)
	m.ObserveStoreWrite(time.Millisecond)
	m.ObserveHTTP("/v1/evaluate", "POST", 200, time.Millisecond)
	m.ObserveHTTP("", "GET", 404, time.Millisecond)
	m.Gauge("wasmexec_test_live", "A test gauge.", func() float64 { return 2 })
	m.Counters("wasmexec_test_starts_total", "A test counter.", []string{"image", "source"}, func() map[string]float64 { return map[string]float64{"js\x00pool": 3} })

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	text := string(body)
	for _, want := range []string{
		"# HELP wasmexec_run_duration_seconds ", "# TYPE wasmexec_run_duration_seconds histogram",
		`wasmexec_run_duration_seconds_bucket{kind="evaluate",language="javascript",outcome="succeeded",le="0.005"} 1`,
		`wasmexec_queue_wait_seconds_count{kind="evaluate",language="javascript",outcome="succeeded"} 1`,
		`wasmexec_tenant_runs_total{outcome="succeeded",tenant="acme"} 1`,
		`wasmexec_http_requests_total{method="GET",route="none",status="404"} 1`,
		"wasmexec_test_live 2", `wasmexec_test_starts_total{image="js",source="pool"} 3`,
		"# TYPE wasmexec_store_write_seconds histogram", "# TYPE wasmexec_run_fuel_consumed histogram",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Count(text, `tenant=""`) > 0 {
		t.Error("an open server's runs are counted per tenant")
	}
	problems, err := promlint.New(strings.NewReader(text)).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "wasmexec_") {
			t.Errorf("promlint: %s: %s", p.Metric, p.Text)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "wasmexec_") {
			name := strings.FieldsFunc(line, func(r rune) bool { return r == '{' || r == ' ' })[0]
			for _, suf := range []string{"_bucket", "_sum", "_count"} {
				name = strings.TrimSuffix(name, suf)
			}
			if !strings.Contains(text, "# HELP "+name+" ") || !strings.Contains(text, "# TYPE "+name+" ") {
				t.Errorf("%s has no HELP or TYPE", name)
			}
		}
	}
}

// fakeRuns is a pipeline as the gauges see it.
type fakeRuns struct{ live, queued int64 }

func (f fakeRuns) Live() int64   { return f.live }
func (f fakeRuns) Queued() int64 { return f.queued }

// The gauges read the parts a server has: none while it loads (zeros, no
// panic), then those Update adds once they are built.
func TestWatchReadsThePartsBuiltSince(t *testing.T) {
	m := metrics.New()
	m.Watch(metrics.Parts{LiveGuests: func() int64 { return 3 }})
	scrape := func() string {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		b, _ := io.ReadAll(rec.Body)
		return string(b)
	}
	for _, want := range []string{"wasmexec_guests_live 3", "wasmexec_runs_live 0", "wasmexec_contexts 0", "wasmexec_processes_live 0"} {
		if text := scrape(); !strings.Contains(text, want+"\n") {
			t.Errorf("while loading: missing %q", want)
		}
	}
	m.Update(func(p *metrics.Parts) { p.Runs = fakeRuns{live: 2, queued: 5} })
	text := scrape()
	for _, want := range []string{"wasmexec_guests_live 3", "wasmexec_runs_live 2", "wasmexec_runs_queued 5"} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("once loaded: missing %q", want)
		}
	}
}
