package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
)

// SSE is one Server-Sent Event.
type SSE struct {
	ID    string // the cursor (resume with it)
	Event string // output, exit, truncated, or a lifecycle event type
	Data  json.RawMessage
}

// Stream reads Server-Sent Events. When its connection drops (a network
// error, a proxy's timeout, a server restart) before the stream's last
// event, Next reconnects with Last-Event-ID set to the last event read, so
// the caller sees every event once, in order, and no gap; after the
// client's stream retries fail in a row, Next returns the error. Close it
// when done.
type Stream struct {
	c    *Client
	ctx  context.Context
	path string
	// final is the event after which the server ends the stream ("exit"
	// for a process's output; "" for the lifecycle stream, which has none).
	final string

	mu     sync.Mutex
	body   io.ReadCloser
	r      *sseReader
	closed bool
	done   bool

	// LastID is the id of the last event read: pass it to resume.
	LastID string
	// Reconnects counts the reconnections made so far.
	Reconnects int
}

// Next returns the next event; io.EOF after the stream's last event.
func (s *Stream) Next() (*SSE, error) {
	failures := 0 // drops and failed reconnections since the last event
	for {
		s.mu.Lock()
		r, closed, done := s.r, s.closed, s.done
		s.mu.Unlock()
		switch {
		case closed:
			return nil, errors.New("wasmexec: the stream is closed")
		case done:
			return nil, io.EOF
		case r == nil:
			if err := s.reconnect(&failures); err != nil {
				return nil, err
			}
			continue
		}
		e, err := r.next()
		if err == nil {
			if e.ID != "" {
				s.LastID = e.ID
			}
			if s.final != "" && e.Event == s.final {
				s.mu.Lock()
				s.done = true
				s.mu.Unlock()
			}
			return e, nil
		}
		s.mu.Lock()
		closed = s.closed
		s.body.Close()
		s.body, s.r = nil, nil
		s.mu.Unlock()
		if closed {
			return nil, errors.New("wasmexec: the stream is closed")
		}
		if s.ctx.Err() != nil {
			return nil, s.ctx.Err()
		}
		// The body ended (io.EOF) or broke before the last event: resume,
		// unless it keeps doing so without an event in between.
		if failures++; failures > s.c.retries {
			return nil, err
		}
	}
}

// reconnect opens the stream again after LastID: at once after the first
// failure, then waiting longer before each attempt (100 ms, doubling to
// 5 s). An API error other than 429 and 503 ends it at once.
func (s *Stream) reconnect(failures *int) error {
	for {
		if *failures > 1 {
			d := min(100*time.Millisecond<<min(*failures-2, 6), 5*time.Second)
			t := time.NewTimer(d)
			select {
			case <-s.ctx.Done():
				t.Stop()
				return s.ctx.Err()
			case <-t.C:
			}
		}
		body, err := s.c.open(s.ctx, s.path, s.LastID)
		if err == nil {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.closed {
				body.Close()
				return errors.New("wasmexec: the stream is closed")
			}
			s.body, s.r = body, newSSEReader(body)
			s.Reconnects++
			return nil
		}
		var ae *Error
		if s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		if errors.As(err, &ae) && ae.Status != http.StatusTooManyRequests && ae.Status != http.StatusServiceUnavailable {
			return err
		}
		*failures++
		if *failures > s.c.retries {
			return fmt.Errorf("wasmexec: stream %s lost; %d reconnections failed: %w", s.path, *failures, err)
		}
	}
}

// Close ends the stream; a Next waiting on it returns an error.
func (s *Stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.body != nil {
		return s.body.Close()
	}
	return nil
}

// open sends GET path with Accept: text/event-stream and Last-Event-ID.
func (c *Client) open(ctx context.Context, path, lastID string) (io.ReadCloser, error) {
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
	return resp.Body, nil
}

// stream opens a Stream; the first connection's error is returned as is.
func (c *Client) stream(ctx context.Context, path, lastID, final string) (*Stream, error) {
	body, err := c.open(ctx, path, lastID)
	if err != nil {
		return nil, err
	}
	return &Stream{c: c, ctx: ctx, path: path, final: final, body: body, r: newSSEReader(body), LastID: lastID}, nil
}

// FollowOutput streams a process's output live, after lastID ("" from
// the beginning): events output, truncated, and exit at the end (Next
// returns io.EOF after it). Decode an output event with DecodeOutput.
func (c *Client) FollowOutput(ctx context.Context, pid int64, lastID string) (*Stream, error) {
	return c.stream(ctx, "/v1/processes/"+strconv.FormatInt(pid, 10)+"/output/stream", lastID, "exit")
}

// EventsOptions filter the lifecycle stream.
type EventsOptions struct {
	Types     []string // events.ContextCreated, ...; none: all
	ContextID string
	// LastID resumes after this cursor; "" follows from now on.
	LastID string
}

// Events follows the caller's lifecycle events. Decode an event's Data
// with DecodeEvent. The stream has no last event: when the server ends it
// (a shutdown) Next reconnects, and returns an error once the server stays
// unreachable past the client's stream retries.
func (c *Client) Events(ctx context.Context, o EventsOptions) (*Stream, error) {
	q := url.Values{}
	if len(o.Types) > 0 {
		q.Set("type", strings.Join(o.Types, ","))
	}
	if o.ContextID != "" {
		q.Set("contextId", o.ContextID)
	}
	return c.stream(ctx, "/v1/events?"+q.Encode(), o.LastID, "")
}

// DecodeEvent decodes a lifecycle event's data.
func DecodeEvent(e *SSE) (*events.Event, error) {
	var ev events.Event
	return &ev, json.Unmarshal(e.Data, &ev)
}

// DecodeOutput decodes an output event of a process's stream (its chunk
// as bytes, base64 undone).
func DecodeOutput(e *SSE) (*wasmexec.Event, error) {
	var ev wasmexec.Event
	return &ev, json.Unmarshal(e.Data, &ev)
}
