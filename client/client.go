// Package client is a Go client of the wasmexec HTTP API: typed requests
// and results (the root package's vocabulary), errors as values carrying the API's
// code, and Server-Sent Event streams that resume on their own after a
// dropped connection (Last-Event-ID).
//
//	c := client.New("http://127.0.0.1:8080", client.WithAPIKey(key))
//	res, err := c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, Code: "6*7"})
//
// A guest failure is a result (res.Outcome failed); an error is a transport
// failure or an *Error from the API (errors.As, or client.Code(err)).
//
// What it covers, by file: runs (run.go: Evaluate, Execute, with output
// callbacks), contexts and their workspaces and installs (contexts.go),
// processes (processes.go), completed executions (history.go), the
// TypeScript checker (typescript.go), and the event streams (stream.go).
// The Python and TypeScript SDKs under clients/ cover the same API
// (docs/CLIENTS.md).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Client talks to one wasmexec server. It is safe for concurrent use.
type Client struct {
	base string
	key  string
	http *http.Client
	// retries is how many reconnections in a row a stream tries before it
	// gives up (WithStreamRetries).
	retries int
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey sends Authorization: Bearer key.
func WithAPIKey(key string) Option { return func(c *Client) { c.key = key } }

// WithHTTPClient uses hc (default: a client without a timeout; runs are
// bounded by the server, calls by their ctx).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithStreamRetries sets how many times in a row a stream reconnects
// after its connection drops before Next returns the error (default 5;
// 0: never). Each attempt waits longer (100 ms, doubling to 5 s).
func WithStreamRetries(n int) Option { return func(c *Client) { c.retries = n } }

// New returns a client of the server at base (e.g. http://127.0.0.1:8080).
func New(base string, opts ...Option) *Client {
	c := &Client{base: strings.TrimRight(base, "/"), http: &http.Client{}, retries: 5}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Error is an error answered by the API: {code, message} and the status.
type Error struct {
	Status     int
	Code       string // invalid_argument, not_found, unauthorized, quota_exceeded, overloaded, ...
	Message    string
	RetryAfter time.Duration // from Retry-After on 429 and 503
	RequestID  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("wasmexec: %s: %s (HTTP %d)", e.Code, e.Message, e.Status)
}

// Code returns the API error code of err, or "" when err is not an *Error.
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

type requestIDKey struct{}

// WithRequestID returns ctx whose calls send X-Request-Id: id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// newRequest builds a request; body is JSON-encoded unless it is an
// io.Reader (sent as octet-stream).
func (c *Client) newRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var r io.Reader
	ct := ""
	switch b := body.(type) {
	case nil:
	case io.Reader:
		r, ct = b, "application/octet-stream"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		r, ct = bytes.NewReader(j), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return nil, err
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if id, _ := ctx.Value(requestIDKey{}).(string); id != "" {
		req.Header.Set("X-Request-Id", id)
	}
	return req, nil
}

// do sends a request and decodes a 2xx JSON answer into out (nil: none).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	req, err := c.newRequest(ctx, method, path, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return apiError(resp)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	if b, ok := out.(*[]byte); ok {
		*b, err = io.ReadAll(resp.Body)
		return err
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("wasmexec: decode %s %s: %w", method, path, err)
	}
	return nil
}

func apiError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	e := &Error{Status: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}
	var body struct{ Code, Message string }
	if json.Unmarshal(b, &body) == nil && body.Code != "" {
		e.Code, e.Message = body.Code, body.Message
	} else {
		e.Code, e.Message = "http_"+strconv.Itoa(resp.StatusCode), strings.TrimSpace(string(b))
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}

// call sends a request and decodes the answer into a new T.
func call[T any](c *Client, ctx context.Context, method, path string, body any) (*T, error) {
	var v T
	if err := c.do(ctx, method, path, body, &v); err != nil {
		return nil, err
	}
	return &v, nil
}
