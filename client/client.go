// Package client is a Go client of the wasmexec HTTP API: typed requests
// and results (the exec vocabulary), errors as values carrying the API's
// code, and Server-Sent Event streams followed with resume.
//
//	c := client.New("http://127.0.0.1:8080", client.WithAPIKey(key))
//	res, err := c.Evaluate(ctx, &exec.Request{Language: exec.JavaScript, Code: "6*7"})
//
// A guest failure is a result (res.Outcome failed); an error is a transport
// failure or an *Error from the API (errors.As, or client.Code(err)).
package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/exec"
)

// Client talks to one wasmexec server. It is safe for concurrent use.
type Client struct {
	base   string
	key    string
	http   *http.Client
	header http.Header
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey sends Authorization: Bearer key.
func WithAPIKey(key string) Option { return func(c *Client) { c.key = key } }

// WithHTTPClient uses hc (default: a client without a timeout; runs are
// bounded by the server, calls by their ctx).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// New returns a client of the server at base (e.g. http://127.0.0.1:8080).
func New(base string, opts ...Option) *Client {
	c := &Client{base: strings.TrimRight(base, "/"), http: &http.Client{}}
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

// Evaluate runs req as an evaluation: the value of the last expression.
func (c *Client) Evaluate(ctx context.Context, req *exec.Request) (*exec.Result, error) {
	return call[exec.Result](c, ctx, "POST", "/v1/evaluate", req)
}

// Execute runs req as a program (stdin, args, exit code).
func (c *Client) Execute(ctx context.Context, req *exec.Request) (*exec.Result, error) {
	return call[exec.Result](c, ctx, "POST", "/v1/execute", req)
}

// CreateContext creates an execution context.
func (c *Client) CreateContext(ctx context.Context, spec *exec.ContextSpec) (*exec.Context, error) {
	return call[exec.Context](c, ctx, "POST", "/v1/contexts", spec)
}

// Context returns a context's descriptor.
func (c *Client) Context(ctx context.Context, id string) (*exec.Context, error) {
	return call[exec.Context](c, ctx, "GET", "/v1/contexts/"+url.PathEscape(id), nil)
}

// Contexts lists the contexts.
func (c *Client) Contexts(ctx context.Context) ([]*exec.Context, error) {
	var l struct{ Contexts []*exec.Context }
	return l.Contexts, c.do(ctx, "GET", "/v1/contexts", nil, &l)
}

// ResetContext replaces a context's guest (its files are kept).
func (c *Client) ResetContext(ctx context.Context, id string) (*exec.Context, error) {
	return call[exec.Context](c, ctx, "POST", "/v1/contexts/"+url.PathEscape(id)+"/reset", nil)
}

// DeleteContext deletes a context.
func (c *Client) DeleteContext(ctx context.Context, id string) error {
	return c.do(ctx, "DELETE", "/v1/contexts/"+url.PathEscape(id), nil, nil)
}

// CreateTemplate starts building a template; the descriptor it returns is
// building (WaitTemplate waits for the end of the build).
func (c *Client) CreateTemplate(ctx context.Context, spec *exec.TemplateSpec) (*exec.Template, error) {
	return call[exec.Template](c, ctx, "POST", "/v1/templates", spec)
}

// Template returns a template's descriptor.
func (c *Client) Template(ctx context.Context, id string) (*exec.Template, error) {
	return call[exec.Template](c, ctx, "GET", "/v1/templates/"+url.PathEscape(id), nil)
}

// Templates lists the templates.
func (c *Client) Templates(ctx context.Context) ([]*exec.Template, error) {
	var l struct{ Templates []*exec.Template }
	return l.Templates, c.do(ctx, "GET", "/v1/templates", nil, &l)
}

// DeleteTemplate deletes a template.
func (c *Client) DeleteTemplate(ctx context.Context, id string) error {
	return c.do(ctx, "DELETE", "/v1/templates/"+url.PathEscape(id), nil, nil)
}

// WaitTemplate polls template id every interval (100 ms when 0) until its
// build ends, ready or failed, or ctx ends.
func (c *Client) WaitTemplate(ctx context.Context, id string, interval time.Duration) (*exec.Template, error) {
	if interval <= 0 {
		interval = 100 * time.Millisecond
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		d, err := c.Template(ctx, id)
		if err != nil || d.State != exec.TemplateBuilding {
			return d, err
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func filePath(id, p string) string {
	parts := strings.Split(strings.TrimLeft(p, "/"), "/")
	for i := range parts {
		parts[i] = url.PathEscape(parts[i])
	}
	return "/v1/contexts/" + url.PathEscape(id) + "/files/" + strings.Join(parts, "/")
}

// WriteFile writes data to path in a context's workspace.
func (c *Client) WriteFile(ctx context.Context, id, path string, data []byte) (*exec.FileEntry, error) {
	return call[exec.FileEntry](c, ctx, "PUT", filePath(id, path), bytes.NewReader(data))
}

// ReadFile reads path from a context's workspace.
func (c *Client) ReadFile(ctx context.Context, id, path string) ([]byte, error) {
	var b []byte
	return b, c.do(ctx, "GET", filePath(id, path), nil, &b)
}

// ListFiles lists a directory of a context's workspace ("" is its root).
func (c *Client) ListFiles(ctx context.Context, id, dir string) ([]exec.FileEntry, error) {
	var l struct{ Entries []exec.FileEntry }
	return l.Entries, c.do(ctx, "GET", "/v1/contexts/"+url.PathEscape(id)+"/files?dir="+url.QueryEscape(dir), nil, &l)
}

// Execution returns a completed execution's record.
func (c *Client) Execution(ctx context.Context, id string) (*exec.Result, error) {
	return call[exec.Result](c, ctx, "GET", "/v1/executions/"+url.PathEscape(id), nil)
}

// ExecutionPage is a page of completed executions.
type ExecutionPage struct {
	Executions []*exec.Result `json:"executions"`
	NextCursor string         `json:"nextCursor"`
	HasMore    bool           `json:"hasMore"`
}

// Executions lists completed executions, newest first; q holds the
// filters (contextId, language, outcome, kind, after, limit).
func (c *Client) Executions(ctx context.Context, q url.Values) (*ExecutionPage, error) {
	return call[ExecutionPage](c, ctx, "GET", "/v1/executions?"+q.Encode(), nil)
}

// Output replays an execution's retained output after a cursor.
func (c *Client) Output(ctx context.Context, id, after string, limit int) (*exec.Replay, error) {
	var r exec.Replay
	q := url.Values{"after": {after}}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return &r, c.do(ctx, "GET", "/v1/executions/"+url.PathEscape(id)+"/output?"+q.Encode(), nil, &r)
}

// Spawn starts a long-running process.
func (c *Client) Spawn(ctx context.Context, req *exec.SpawnRequest) (*exec.Process, error) {
	return call[exec.Process](c, ctx, "POST", "/v1/processes", req)
}

// Process returns a process's descriptor.
func (c *Client) Process(ctx context.Context, pid int64) (*exec.Process, error) {
	return call[exec.Process](c, ctx, "GET", "/v1/processes/"+strconv.FormatInt(pid, 10), nil)
}

// WriteStdin writes data to a process's stdin.
func (c *Client) WriteStdin(ctx context.Context, pid int64, data []byte) error {
	return c.do(ctx, "POST", "/v1/processes/"+strconv.FormatInt(pid, 10)+"/stdin", bytes.NewReader(data), nil)
}

// CloseStdin closes a process's stdin.
func (c *Client) CloseStdin(ctx context.Context, pid int64) (*exec.Process, error) {
	return call[exec.Process](c, ctx, "POST", "/v1/processes/"+strconv.FormatInt(pid, 10)+"/stdin/close", nil)
}

// Signal sends SIGTERM, SIGINT or SIGKILL to a process.
func (c *Client) Signal(ctx context.Context, pid int64, sig exec.Signal) (*exec.Process, error) {
	return call[exec.Process](c, ctx, "POST", "/v1/processes/"+strconv.FormatInt(pid, 10)+"/signal", map[string]string{"signal": string(sig)})
}

// Exit is what Wait returns: the state, and the exit once exited.
type Exit struct {
	PID   int64             `json:"pid"`
	State exec.ProcessState `json:"state"`
	exec.ProcessExit
}

// Wait long-polls until the process exits or timeout passes (State
// running then).
func (c *Client) Wait(ctx context.Context, pid int64, timeout time.Duration) (*Exit, error) {
	return call[Exit](c, ctx, "GET", "/v1/processes/"+strconv.FormatInt(pid, 10)+"/wait?timeoutMs="+strconv.FormatInt(timeout.Milliseconds(), 10), nil)
}

// CheckTypeScript type-checks TypeScript; the answer is the API's JSON
// ({outcome, hasErrors, diagnostics, ...}).
func (c *Client) CheckTypeScript(ctx context.Context, code string) (json.RawMessage, error) {
	var b []byte
	err := c.do(ctx, "POST", "/v1/typescript/check", map[string]string{"code": code}, &b)
	return b, err
}

// SSE is one Server-Sent Event.
type SSE struct {
	ID    string // the cursor (resume with it)
	Event string // output, exit, truncated, or a lifecycle event type
	Data  json.RawMessage
}

// Stream reads Server-Sent Events. Close it when done.
type Stream struct {
	body io.ReadCloser
	sc   *bufio.Scanner
	// LastID is the id of the last event read: pass it to resume.
	LastID string
}

// Next returns the next event; io.EOF when the stream ended.
func (s *Stream) Next() (*SSE, error) {
	var e SSE
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case line == "":
			if e.Event != "" {
				if e.ID != "" {
					s.LastID = e.ID
				}
				return &e, nil
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			e.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			e.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			e.Data = append(e.Data, line[6:]...)
		}
	}
	if err := s.sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}

// Close ends the stream.
func (s *Stream) Close() error { return s.body.Close() }

func (c *Client) stream(ctx context.Context, path, lastID string) (*Stream, error) {
	req, err := c.newRequest(ctx, "GET", path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, apiError(resp)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	return &Stream{body: resp.Body, sc: sc, LastID: lastID}, nil
}

// FollowOutput streams a process's output live, after lastID ("" from
// the beginning): events output, truncated, and exit at the end.
func (c *Client) FollowOutput(ctx context.Context, pid int64, lastID string) (*Stream, error) {
	return c.stream(ctx, "/v1/processes/"+strconv.FormatInt(pid, 10)+"/output/stream", lastID)
}

// EventsOptions filter the lifecycle stream.
type EventsOptions struct {
	Types     []string // events.ContextCreated, ...; none: all
	ContextID string
	// LastID resumes after this cursor; "" follows from now on.
	LastID string
}

// Events follows the caller's lifecycle events. Decode an event's Data
// with DecodeEvent.
func (c *Client) Events(ctx context.Context, o EventsOptions) (*Stream, error) {
	q := url.Values{}
	if len(o.Types) > 0 {
		q.Set("type", strings.Join(o.Types, ","))
	}
	if o.ContextID != "" {
		q.Set("contextId", o.ContextID)
	}
	return c.stream(ctx, "/v1/events?"+q.Encode(), o.LastID)
}

// DecodeEvent decodes a lifecycle event's data.
func DecodeEvent(e *SSE) (*events.Event, error) {
	var ev events.Event
	return &ev, json.Unmarshal(e.Data, &ev)
}
