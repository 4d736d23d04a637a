package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
)

// routeEvents adds GET /v1/events.
func (s *Server) routeEvents() {
	s.e.GET("/v1/events", s.streamEvents)
}

// streamEvents serves the caller's lifecycle events as Server-Sent Events:
//
//	id: <cursor>  event: <type>     data: <event JSON>
//	              event: truncated  data: {"after","resumeAfter","dropped"}
//	: keep-alive  every SSEKeepAlive while idle
//
// It starts after Last-Event-ID, else ?after=, else at the newest event
// (only what happens from now on; so does a cursor past the newest).
// ?type= (comma-separated) and ?contextId= filter. A garbage cursor or an unknown type is a 400. The
// stream ends when the hub is closed (server shutdown).
func (s *Server) streamEvents(c echo.Context) error {
	if s.cfg.Events == nil {
		return notImplemented("the event stream")
	}
	hub := s.cfg.Events
	ctx := c.Request().Context()
	cursor := c.Request().Header.Get("Last-Event-ID")
	if cursor == "" {
		cursor = c.QueryParam("after")
	}
	after, err := wasmexec.ParseCursor(cursor)
	if err != nil {
		return err
	}
	// Where the stream starts is settled before the answer's headers, so
	// an event published once the client has them is never skipped: from
	// now (no cursor), or from now for a cursor from the future (another
	// server life, or garbage that parses).
	if last := hub.Last(ctx); cursor == "" || after > last {
		after = last
	}
	var types []string
	if v := c.QueryParam("type"); v != "" {
		for _, t := range strings.Split(v, ",") {
			if !slices.Contains(events.Types, t) {
				return wasmexec.Errorf(wasmexec.EInvalid, "unknown event type %q (one of %s)", t, strings.Join(events.Types, ", "))
			}
			types = append(types, t)
		}
	}
	contextID := c.QueryParam("contextId")
	tenant := wasmexec.TenantID(ctx)
	keep := func(e *events.Event) bool {
		return (s.cfg.Auth == nil || e.Tenant == tenant) &&
			(len(types) == 0 || slices.Contains(types, e.Type)) &&
			(contextID == "" || e.ContextID == contextID)
	}
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, ": lifecycle events\n\n"); err != nil {
		return nil
	}
	w.Flush()
	var buf []byte
	for {
		p := hub.Read(ctx, after, sseBatch, keep)
		buf = buf[:0]
		if p.Dropped > 0 {
			note, _ := json.Marshal(map[string]any{"after": wasmexec.EncodeCursor(after), "resumeAfter": wasmexec.EncodeCursor(after + p.Dropped), "dropped": p.Dropped})
			buf = appendSSE(buf, "", "truncated", note)
		}
		for _, e := range p.Events {
			data, err := json.Marshal(e)
			if err != nil {
				return err
			}
			buf = appendSSE(buf, wasmexec.EncodeCursor(e.Seq), e.Type, data)
		}
		after = p.Next
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return nil
			}
			w.Flush()
		}
		if len(p.Events) >= sseBatch {
			continue
		}
		t := time.NewTimer(SSEKeepAlive)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-hub.Done(): // shutting down
			t.Stop()
			return nil
		case <-p.Wake:
			t.Stop()
		case <-t.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
			w.Flush()
		}
	}
}

// publish sends one event stamped with the caller's tenant and request id.
func publish(hub events.Log, ctx context.Context, e events.Event) {
	e.Tenant = wasmexec.TenantID(ctx)
	e.RequestID = wasmexec.RequestIDFrom(ctx)
	hub.Publish(e)
}

func completed(r *wasmexec.Result) events.Event {
	code, d := r.ExitCode, r.DurationMs
	return events.Event{Type: events.ExecutionCompleted, ExecutionID: r.ExecutionID, Kind: string(r.Kind), Language: string(r.Language), ContextID: r.ContextID, PID: r.PID, Outcome: string(r.Outcome), ExitCode: &code, DurationMs: &d}
}

// eventContexts publishes context events (a context run's execution
// events are the pipeline's).
type eventContexts struct {
	next             Contexts
	hub              events.Log
	reportsDeletions bool
}

func (g eventContexts) Create(ctx context.Context, spec *wasmexec.ContextSpec) (*wasmexec.Context, error) {
	c, err := g.next.Create(ctx, spec)
	if err == nil {
		publish(g.hub, ctx, events.Event{Type: events.ContextCreated, ContextID: c.ContextID, Language: string(c.Language)})
	}
	return c, err
}

func (g eventContexts) Reset(ctx context.Context, id string) (*wasmexec.Context, error) {
	c, err := g.next.Reset(ctx, id)
	if err == nil {
		publish(g.hub, ctx, events.Event{Type: events.ContextReset, ContextID: c.ContextID, Language: string(c.Language)})
	}
	return c, err
}

func (g eventContexts) Fork(ctx context.Context, id string, spec *wasmexec.ForkSpec) (*wasmexec.Context, error) {
	c, err := g.next.Fork(ctx, id, spec)
	if err == nil {
		publish(g.hub, ctx, events.Event{Type: events.ContextCreated, ContextID: c.ContextID, Language: string(c.Language)})
	}
	return c, err
}

// ContextEvent publishes a lifecycle event the manager reports on its own
// (context.hibernated, context.restored) to the context's tenant. cmd
// calls it from contexts.Config.OnEvent.
func (c Config) ContextEvent(typ, id string) {
	tenant := ""
	if t := c.tenancy; t != nil {
		t.mu.Lock()
		tenant = t.contexts[id]
		t.mu.Unlock()
	}
	if c.Events != nil {
		c.Events.Publish(events.Event{Type: typ, ContextID: id, Tenant: tenant})
	}
}

func (g eventContexts) Delete(ctx context.Context, id string) error {
	err := g.next.Delete(ctx, id)
	if err == nil && !g.reportsDeletions {
		publish(g.hub, ctx, events.Event{Type: events.ContextDeleted, ContextID: id})
	}
	return err
}

// ContextDeleted publishes context.deleted for a context the manager
// deleted for any reason (explicitly, by idle expiry, at shutdown) and
// forgets its owner. cmd calls it from contexts.Config.OnDelete; set
// Config.ContextDeletions so Delete doesn't publish a second one.
func (c Config) ContextDeleted(id string) {
	tenant := ""
	if t := c.tenancy; t != nil {
		t.mu.Lock()
		tenant = t.contexts[id]
		delete(t.contexts, id)
		t.mu.Unlock()
	}
	if c.Events != nil {
		c.Events.Publish(events.Event{Type: events.ContextDeleted, ContextID: id, Tenant: tenant})
	}
}

// processSpawned publishes process.spawned, then process.exited and
// execution.completed when it exits (watched off the request).
func processSpawned(cfg Config, ctx context.Context, p Processes, d *wasmexec.Process) {
	hub := cfg.Events
	if hub == nil {
		return
	}
	publish(hub, ctx, events.Event{Type: events.ProcessSpawned, PID: d.PID, ExecutionID: d.ExecutionID, ContextID: d.ContextID, Language: string(d.Language), Kind: string(wasmexec.KindProcess)})
	bg := context.WithoutCancel(ctx)
	go func() {
		for {
			w, err := p.Wait(bg, d.PID, 10*time.Minute)
			if err != nil {
				return
			}
			if w.State != wasmexec.ProcessExited || w.Exit == nil {
				continue
			}
			x := w.Exit
			ev := events.Event{Type: events.ProcessExited, PID: d.PID, ExecutionID: d.ExecutionID, ContextID: d.ContextID, Language: string(d.Language), Kind: string(wasmexec.KindProcess), Outcome: string(x.Outcome), ExitCode: x.ExitCode, DurationMs: &x.DurationMs}
			publish(hub, bg, ev)
			if h := cfg.History; h != nil {
				if r, err := h.Get(bg, d.ExecutionID); err == nil {
					publish(hub, bg, completed(r))
				}
			}
			return
		}
	}()
}

// The rest pass through: they change no context's lifecycle.

func (g eventContexts) Run(ctx context.Context, req *wasmexec.Request) (*wasmexec.Result, error) {
	return g.next.Run(ctx, req)
}

func (g eventContexts) Get(ctx context.Context, id string) (*wasmexec.Context, error) {
	return g.next.Get(ctx, id)
}

func (g eventContexts) List(ctx context.Context) ([]*wasmexec.Context, error) {
	return g.next.List(ctx)
}

func (g eventContexts) Hibernate(ctx context.Context, id string) (*wasmexec.Context, error) {
	return g.next.Hibernate(ctx, id)
}

func (g eventContexts) WriteFile(ctx context.Context, id, path string, data []byte) (*wasmexec.FileEntry, error) {
	return g.next.WriteFile(ctx, id, path, data)
}

func (g eventContexts) ReadFile(ctx context.Context, id, path string) ([]byte, error) {
	return g.next.ReadFile(ctx, id, path)
}

func (g eventContexts) DeleteFile(ctx context.Context, id, path string) error {
	return g.next.DeleteFile(ctx, id, path)
}

func (g eventContexts) ListFiles(ctx context.Context, id, dir string) ([]wasmexec.FileEntry, error) {
	return g.next.ListFiles(ctx, id, dir)
}

func (g eventContexts) ExtractArchive(ctx context.Context, id, dir, format string, r io.Reader) (*wasmexec.ArchiveResult, error) {
	return g.next.ExtractArchive(ctx, id, dir, format, r)
}

func (g eventContexts) WriteArchive(ctx context.Context, id, dir, format string, out io.Writer) error {
	return g.next.WriteArchive(ctx, id, dir, format, out)
}

var _ Contexts = eventContexts{}
