package server

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// Metrics returns gauge and counter values by Prometheus metric name (the
// plain form, without HELP and TYPE; MetricsHandler supersedes it).
type Metrics func() map[string]float64

// HTTPObserver records one request: echo's route pattern (bounded), the
// method, the status and the latency (package metrics).
type HTTPObserver func(route, method string, status int, d time.Duration)

// metrics serves GET /metrics in the Prometheus text format.
func (s *Server) metrics(c echo.Context) error {
	if s.cfg.MetricsHandler != nil {
		s.cfg.MetricsHandler.ServeHTTP(c.Response(), c.Request())
		return nil
	}
	if s.cfg.Metrics == nil {
		return notImplemented("metrics")
	}
	m := s.cfg.Metrics()
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "%s %g\n", k, m[k])
	}
	return c.Blob(http.StatusOK, "text/plain; version=0.0.4", []byte(b.String()))
}
