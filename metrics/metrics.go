// Package metrics is wasmexec's Prometheus instrumentation (client_golang):
// every metric has HELP and TYPE lines, latencies are histograms.
//
// Labels are bounded: language (3), kind (4), outcome (4), image (a few),
// HTTP route (the route pattern, never the raw path), method, status code.
// The only tenant-labelled metric is wasmexec_tenant_runs_total: tenants
// come from the keys file, so their number is the operator's; open servers
// don't emit it.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/wasmexec/wasmexec"
)

// Metrics holds the collectors of one server.
type Metrics struct {
	reg         *prometheus.Registry
	runDuration *prometheus.HistogramVec
	queueWait   *prometheus.HistogramVec
	fuel        *prometheus.HistogramVec
	storeWrite  prometheus.Histogram
	httpCount   *prometheus.CounterVec
	httpLatency *prometheus.HistogramVec
	tenantRuns  *prometheus.CounterVec
	watched     watched
}

// runBuckets span a 1 ms snippet to a 10-minute process.
var runBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 600}

// New returns the metrics, registered with the Go runtime and process
// collectors.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.runDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "wasmexec_run_duration_seconds", Help: "Duration of completed runs (guest time, from the run's start to its result), by language, kind and outcome.", Buckets: runBuckets,
	}, []string{"language", "kind", "outcome"})
	m.queueWait = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "wasmexec_queue_wait_seconds", Help: "Time a run waited before it was under way (a context's queue, a run slot, preparation, a guest), by language, kind (evaluate, execute, process, typescript_check) and outcome.", Buckets: runBuckets,
	}, []string{"language", "kind", "outcome"})
	m.fuel = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "wasmexec_run_fuel_consumed", Help: "Fuel (wasm instruction budget units) a completed run used, by language.", Buckets: prometheus.ExponentialBuckets(1e5, 10, 9),
	}, []string{"language"})
	m.storeWrite = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "wasmexec_store_write_seconds", Help: "Latency of persisting one completed execution in SQLite.", Buckets: prometheus.ExponentialBuckets(.0001, 2.5, 12),
	})
	m.httpCount = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "wasmexec_http_requests_total", Help: "HTTP requests by route pattern, method and status code.",
	}, []string{"route", "method", "status"})
	m.httpLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "wasmexec_http_request_duration_seconds", Help: "HTTP request latency by route pattern and method (streams count until they end).", Buckets: runBuckets,
	}, []string{"route", "method"})
	m.tenantRuns = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "wasmexec_tenant_runs_total", Help: "Completed runs by tenant (from the keys file) and outcome.",
	}, []string{"tenant", "outcome"})
	m.reg.MustRegister(m.runDuration, m.queueWait, m.fuel, m.storeWrite, m.httpCount, m.httpLatency, m.tenantRuns)
	return m
}

// Handler serves the registry in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Registry returns the registry (to add collectors, and for tests).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveRun records a completed run; tenant "" (an open server) is not
// counted per tenant.
func (m *Metrics) ObserveRun(r *wasmexec.Result, tenant string) {
	m.runDuration.WithLabelValues(string(r.Language), string(r.Kind), string(r.Outcome)).Observe(r.DurationMs / 1000)
	m.fuel.WithLabelValues(string(r.Language)).Observe(float64(r.FuelConsumed))
	if tenant != "" {
		m.tenantRuns.WithLabelValues(tenant, string(r.Outcome)).Inc()
	}
}

// ObserveQueueWait records how long a run waited before it started.
func (m *Metrics) ObserveQueueWait(r *wasmexec.Result, d time.Duration) {
	m.queueWait.WithLabelValues(string(r.Language), string(r.Kind), string(r.Outcome)).Observe(d.Seconds())
}

// ObserveStoreWrite records one store write.
func (m *Metrics) ObserveStoreWrite(d time.Duration) { m.storeWrite.Observe(d.Seconds()) }

// ObserveHTTP records one request (route is echo's pattern, "" for no
// route).
func (m *Metrics) ObserveHTTP(route, method string, status int, d time.Duration) {
	if route == "" {
		route = "none"
	}
	m.httpCount.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.httpLatency.WithLabelValues(route, method).Observe(d.Seconds())
}

// Gauge registers a gauge read from f at each scrape.
func (m *Metrics) Gauge(name, help string, f func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
}

// CounterFunc collects counters with one label read at each scrape.
type CounterFunc struct {
	desc *prometheus.Desc
	read func() map[string]float64
}

// Counters registers counters labelled by label, read from f at each
// scrape (e.g. guest starts per image kept by the engine).
func (m *Metrics) Counters(name, help string, labels []string, f func() map[string]float64) {
	m.reg.MustRegister(&CounterFunc{desc: prometheus.NewDesc(name, help, labels, nil), read: f})
}

// Describe implements prometheus.Collector.
func (c *CounterFunc) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector: keys are label values joined
// by "\x00".
func (c *CounterFunc) Collect(ch chan<- prometheus.Metric) {
	for k, v := range c.read() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, v, splitLabels(k)...)
	}
}

func splitLabels(k string) []string {
	var out []string
	start := 0
	for i := 0; i < len(k); i++ {
		if k[i] == 0 {
			out = append(out, k[start:i])
			start = i + 1
		}
	}
	return append(out, k[start:])
}
