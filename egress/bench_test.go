package egress_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
)

func BenchmarkSessionDo(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("x", 1024)) }))
	defer srv.Close()
	e := MustEgress(b, egress.Config{Allow: []string{"127.0.0.1:*"}, MaxRequests: 1 << 30, MaxResponseBytes: 1 << 30})
	s := MustSession(b, e, []string{srv.URL}, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, _ := s.Do(context.Background(), egress.Request{URL: srv.URL})
		if r.Error != "" {
			b.Fatal(r.Error)
		}
	}
}

// BenchmarkSessionFirstRequest: a run's first request (a new session, a new
// connection).
func BenchmarkSessionFirstRequest(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("x", 1024)) }))
	defer srv.Close()
	e := MustEgress(b, egress.Config{Allow: []string{"127.0.0.1:*"}})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, _ := e.NewSession(&wasmexec.Network{Allow: []string{srv.URL}}, nil)
		r, _ := s.Do(context.Background(), egress.Request{URL: srv.URL})
		if r.Error != "" {
			b.Fatal(r.Error)
		}
		s.Close()
	}
}
