package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/wasmexec/wasmexec"
)

// RunOption asks a run for its output as it is written (E2B's on_stdout
// style). With any of them the run is requested as a Server-Sent Event
// stream (Accept: text/event-stream): output events call the callbacks as
// they arrive and the stream ends with the completed record. A server that
// answers the run with JSON instead (one without streamed runs) still
// gets the callbacks, once each, with the whole stdout and stderr, before
// the result returns.
type RunOption func(*runOptions)

type runOptions struct {
	stdout, stderr func(chunk []byte)
}

// OnStdout calls f with each chunk the run writes to stdout.
func OnStdout(f func(chunk []byte)) RunOption { return func(o *runOptions) { o.stdout = f } }

// OnStderr calls f with each chunk the run writes to stderr.
func OnStderr(f func(chunk []byte)) RunOption { return func(o *runOptions) { o.stderr = f } }

// Evaluate runs req as an evaluation: the value of the last expression.
func (c *Client) Evaluate(ctx context.Context, req *wasmexec.Request, opts ...RunOption) (*wasmexec.Result, error) {
	return c.run(ctx, "/v1/evaluate", req, opts)
}

// Execute runs req as a program (stdin, args, exit code).
func (c *Client) Execute(ctx context.Context, req *wasmexec.Request, opts ...RunOption) (*wasmexec.Result, error) {
	return c.run(ctx, "/v1/execute", req, opts)
}

func (c *Client) run(ctx context.Context, path string, req *wasmexec.Request, opts []RunOption) (*wasmexec.Result, error) {
	if len(opts) == 0 {
		return call[wasmexec.Result](c, ctx, "POST", path, req)
	}
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	hreq, err := c.newRequest(ctx, "POST", path, req)
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Accept", "text/event-stream")
	resp, err := c.http.Do(hreq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return nil, apiError(resp)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		return resultAtOnce(resp, path, &o)
	}
	r := newSSEReader(resp.Body)
	for {
		e, err := r.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("wasmexec: the stream of %s ended before its result: %w", path, err)
		}
		switch e.Event {
		case "output":
			var ev wasmexec.Event
			if err := json.Unmarshal(e.Data, &ev); err != nil {
				return nil, fmt.Errorf("wasmexec: decode an output event: %w", err)
			}
			o.emit(ev.Channel, ev.Chunk)
		case "result":
			var res wasmexec.Result
			if err := json.Unmarshal(e.Data, &res); err != nil {
				return nil, fmt.Errorf("wasmexec: decode the result event: %w", err)
			}
			return &res, nil
		case "error":
			// An API error after the stream began: {code, message}.
			ae := &Error{Status: http.StatusOK, RequestID: resp.Header.Get("X-Request-Id")}
			var body struct{ Code, Message string }
			if json.Unmarshal(e.Data, &body) == nil {
				ae.Code, ae.Message = body.Code, body.Message
			}
			return nil, ae
		}
	}
}

// resultAtOnce reads a JSON result and hands its whole output to the
// callbacks.
func resultAtOnce(resp *http.Response, path string, o *runOptions) (*wasmexec.Result, error) {
	var res wasmexec.Result
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return nil, fmt.Errorf("wasmexec: decode POST %s: %w", path, err)
	}
	if res.Stdout != nil && *res.Stdout != "" {
		o.emit(wasmexec.Stdout, []byte(*res.Stdout))
	}
	if res.Stderr != nil && *res.Stderr != "" {
		o.emit(wasmexec.Stderr, []byte(*res.Stderr))
	}
	return &res, nil
}

func (o *runOptions) emit(ch wasmexec.Channel, chunk []byte) {
	switch {
	case ch == wasmexec.Stdout && o.stdout != nil:
		o.stdout(chunk)
	case ch == wasmexec.Stderr && o.stderr != nil:
		o.stderr(chunk)
	}
}

// sseReader parses Server-Sent Events (the WHATWG rules this API uses:
// id, event and data fields, comments, a blank line ending an event).
type sseReader struct {
	sc *bufio.Scanner
}

func newSSEReader(r io.Reader) *sseReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	return &sseReader{sc: sc}
}

// next returns the next event; io.EOF at the end of the body.
func (r *sseReader) next() (*SSE, error) {
	var e SSE
	data := false
	for r.sc.Scan() {
		line := r.sc.Text()
		if line == "" {
			if e.Event != "" || data {
				if e.Event == "" {
					e.Event = "message"
				}
				return &e, nil
			}
			e = SSE{}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, ""
		for i := 0; i < len(line); i++ {
			if line[i] == ':' {
				field, value = line[:i], line[i+1:]
				if len(value) > 0 && value[0] == ' ' {
					value = value[1:]
				}
				break
			}
		}
		switch field {
		case "id":
			e.ID = value
		case "event":
			e.Event = value
		case "data":
			if data {
				e.Data = append(e.Data, '\n')
			}
			e.Data = append(e.Data, value...)
			data = true
		}
	}
	if err := r.sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}
