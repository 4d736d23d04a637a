package server_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/server"
)

var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

// MustSpec loads and validates the served OpenAPI document (kin-openapi).
func MustSpec(tb testing.TB) (*openapi3.T, routers.Router) {
	tb.Helper()
	specOnce.Do(func() {
		specDoc, specErr = openapi3.NewLoader().LoadFromData(server.OpenAPI())
		if specErr != nil {
			return
		}
		if specErr = specDoc.Validate(context.Background()); specErr != nil {
			return
		}
		// The router matches requests against the document's servers;
		// test servers listen elsewhere, so route by path alone.
		routing := *specDoc
		routing.Servers = nil
		specRouter, specErr = legacy.NewRouter(&routing)
	})
	if specErr != nil {
		tb.Fatalf("the OpenAPI document: %v", specErr)
	}
	return specDoc, specRouter
}

func TestOpenAPIDocument(t *testing.T) {
	doc, _ := MustSpec(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %q", doc.OpenAPI)
	}
	ts := MustServer(t, testenv.RunnerConfig{}, 0)
	resp, err := http.Get(ts.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !bytes.Equal(b, server.OpenAPI()) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /openapi.json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

var echoParam = regexp.MustCompile(`:([A-Za-z]+)`)

// openAPIPath turns an echo route path into the document's: :id → {id},
// the trailing * → {path}.
func openAPIPath(p string) string {
	p = echoParam.ReplaceAllString(p, "{$1}")
	if strings.HasSuffix(p, "/*") {
		p = strings.TrimSuffix(p, "*") + "{path}"
	}
	return p
}

// Every route echo serves is in the document, with its method.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	doc, _ := MustSpec(t)
	s := server.New(server.Config{})
	n := 0
	for _, r := range s.Routes() {
		if r.Method == "echo_route_any" || strings.HasPrefix(r.Method, "echo_") {
			continue
		}
		n++
		item := doc.Paths.Find(openAPIPath(r.Path))
		if item == nil {
			t.Errorf("%s %s (%s) is not in the OpenAPI document", r.Method, r.Path, openAPIPath(r.Path))
			continue
		}
		if item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s: the method is not in the OpenAPI document", r.Method, openAPIPath(r.Path))
		}
	}
	if n < 30 {
		t.Fatalf("only %d routes walked", n)
	}
	for p, item := range doc.Paths.Map() {
		for m := range item.Operations() {
			found := false
			for _, r := range s.Routes() {
				found = found || (openAPIPath(r.Path) == p && r.Method == m)
			}
			if !found {
				t.Errorf("the document has %s %s, the server does not", m, p)
			}
		}
	}
}

// validated wraps a server handler so every response it gives is checked
// against the OpenAPI document: a route missing from the document or a
// body that doesn't match its schema fails tb. Streams (SSE) are checked
// for status and content type only.
func validated(tb testing.TB, h http.Handler) http.Handler {
	_, router := MustSpec(tb)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w, status: 200}
		h.ServeHTTP(rec, r)
		m := r.Clone(context.Background())
		if i := strings.Index(m.URL.Path, "/files/"); i >= 0 && strings.HasPrefix(m.URL.Path, "/v1/contexts/") {
			// The router's {path} is one segment; the file path may have more.
			m.URL.Path = m.URL.Path[:i+len("/files/")] + url.PathEscape(m.URL.Path[i+len("/files/"):])
			m.URL.RawPath = ""
		}
		route, pathParams, err := router.FindRoute(m)
		if err != nil {
			if rec.status == http.StatusNotFound || rec.status == http.StatusMethodNotAllowed {
				return // the server has no such route either
			}
			tb.Errorf("OpenAPI: %s %s (%d): %v", r.Method, r.URL.Path, rec.status, err)
			return
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: m, PathParams: pathParams, Route: route},
			Status:                 rec.status,
			Header:                 rec.Header(),
			Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		}
		if ct := rec.Header().Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") || rec.truncated {
			in.Options.ExcludeResponseBody = true
		}
		in.SetBodyBytes(rec.body.Bytes())
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			tb.Errorf("OpenAPI: the response to %s %s (%d) does not match the document: %v\nbody: %.500s", r.Method, r.URL.Path, rec.status, err, rec.body.Bytes())
		}
	})
}

// recorder passes a response through, keeping its status and body.
type recorder struct {
	http.ResponseWriter
	status    int
	body      bytes.Buffer
	truncated bool // the body was too large to keep
	wrote     bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	if r.body.Len()+len(b) <= 4<<20 {
		r.body.Write(b)
	} else {
		r.truncated = true
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
