package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// History reads completed executions (store.Store through an adapter).
type History interface {
	Get(ctx context.Context, id string) (*wasmexec.Result, error)
	List(ctx context.Context, f wasmexec.HistoryFilter) (*wasmexec.HistoryPage, error)
	Output(ctx context.Context, id, after string, limit int) (*wasmexec.Replay, error)
	// Delete removes a completed record (not_found, execution_expired).
	Delete(ctx context.Context, id string) error
}

// LiveOutput serves the output of executions still running (processes);
// History serves it after completion. Optional.
type LiveOutput interface {
	// ExecutionOutput returns the replay of a live execution, or ok=false
	// when the id is not live.
	ExecutionOutput(id, after string, limit int) (r *wasmexec.Replay, ok bool, err error)
}

func (s *Server) routeHistory() {
	s.e.GET("/v1/executions", s.listExecutions)
	s.e.GET("/v1/executions/:id", s.getExecution)
	s.e.DELETE("/v1/executions/:id", s.deleteExecution)
	s.e.GET("/v1/executions/:id/output", s.executionOutput)
}

func (s *Server) history() (History, error) {
	if s.cfg.History == nil {
		return nil, notImplemented("execution history")
	}
	return s.cfg.History, nil
}

func (s *Server) getExecution(c echo.Context) error {
	h, err := s.history()
	if err != nil {
		return err
	}
	withCode := false
	switch inc := c.QueryParam("include"); inc {
	case "":
	case "code":
		withCode = true
	default:
		return wasmexec.Errorf(wasmexec.EInvalid, "include must be \"code\", not %q", inc)
	}
	res, err := h.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if !withCode {
		return c.JSON(http.StatusOK, res)
	}
	b, err := withStoredCode(res)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, b)
}

// withStoredCode is the record's JSON with the code the store kept (its
// first 64 KiB): "code", and "codeTruncated": true when it was cut.
func withStoredCode(res *wasmexec.Result) ([]byte, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	code, err := json.Marshal(struct {
		Code          string `json:"code"`
		CodeTruncated bool   `json:"codeTruncated"`
	}{res.Code, res.CodeTruncated})
	if err != nil {
		return nil, err
	}
	// Both are JSON objects: splice the second's fields into the first.
	return append(append(b[:len(b)-1], ','), code[1:]...), nil
}

// deleteExecution removes a completed record: 204; 404 not_found or
// execution_expired; 409 conflict while the execution still runs (a
// process: signal it first).
func (s *Server) deleteExecution(c echo.Context) error {
	h, err := s.history()
	if err != nil {
		return err
	}
	id := c.Param("id")
	if s.processRunning(id) {
		return wasmexec.Errorf(wasmexec.EConflict, "execution %s is a process still running; only completed executions can be deleted (signal it first)", id)
	}
	if err := h.Delete(c.Request().Context(), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

var (
	validLanguages = map[string]bool{"javascript": true, "typescript": true, "python": true}
	// validOutcomes: the run outcomes and the process exit outcomes
	// (exited, signalled; timed_out is in both), which select process
	// records.
	validOutcomes = map[string]bool{"succeeded": true, "failed": true, "cancelled": true, "timed_out": true, "exited": true, "signalled": true}
	validKinds    = map[string]bool{}
)

func init() {
	for _, k := range wasmexec.Kinds {
		validKinds[string(k)] = true
	}
}

func (s *Server) listExecutions(c echo.Context) error {
	h, err := s.history()
	if err != nil {
		return err
	}
	f := wasmexec.HistoryFilter{ContextID: c.QueryParam("contextId"), Language: c.QueryParam("language"), Outcome: c.QueryParam("outcome"), Kind: c.QueryParam("kind"), After: c.QueryParam("after")}
	for name, v := range map[string]struct {
		val   string
		valid map[string]bool
	}{"language": {f.Language, validLanguages}, "outcome": {f.Outcome, validOutcomes}, "kind": {f.Kind, validKinds}} {
		if v.val != "" && !v.valid[v.val] {
			return wasmexec.Errorf(wasmexec.EInvalid, "unknown %s %q", name, v.val)
		}
	}
	if f.Limit, err = queryInt(c, "limit", 50); err != nil {
		return err
	}
	page, err := h.List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if page.Executions == nil {
		page.Executions = []*wasmexec.Result{}
	}
	return c.JSON(http.StatusOK, page)
}

func (s *Server) executionOutput(c echo.Context) error {
	limit, err := queryInt(c, "limit", 1000)
	if err != nil {
		return err
	}
	maxBytes, err := queryInt(c, "maxBytes", 0)
	if err != nil {
		return err
	}
	after := c.QueryParam("after")
	if _, err := wasmexec.ParseCursor(after); err != nil {
		return err
	}
	if !s.ownsExecution(c.Request().Context(), c.Param("id")) {
		return executionNotFound(c.Param("id"))
	}
	// A running process is served from its live log; once it has ended,
	// from its stored record (which it has before it is seen to end), so
	// a deleted record is gone here too. Without a store, the process
	// manager's log answers for as long as it keeps the process.
	if lo, ok := s.cfg.Processes.(LiveOutput); ok && (s.cfg.History == nil || s.processRunning(c.Param("id"))) {
		r, live, err := lo.ExecutionOutput(c.Param("id"), after, limit)
		if err != nil {
			return err
		}
		if live {
			return c.JSON(http.StatusOK, capReplay(r, maxBytes))
		}
	}
	h, err := s.history()
	if err != nil {
		return err
	}
	r, err := h.Output(c.Request().Context(), c.Param("id"), after, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, capReplay(r, maxBytes))
}

// capReplay ends page r before the event that would take the bytes of its
// chunks (as written, before JSON escaping or base64) past maxBytes (0: no
// bound), with hasMore and nextCursor at the last event kept. The first
// event always comes, alone when it is larger than maxBytes.
func capReplay(r *wasmexec.Replay, maxBytes int) *wasmexec.Replay {
	if maxBytes <= 0 {
		return r
	}
	total := 0
	for i, ev := range r.Events {
		total += len(ev.Chunk)
		if i > 0 && total > maxBytes {
			r.Events = r.Events[:i]
			r.HasMore = true
			r.NextCursor = wasmexec.EncodeCursor(r.Events[i-1].Sequence)
			break
		}
	}
	return r
}

// processRunning reports whether execution id is a process that has not
// ended yet: its record is stored only once it has.
func (s *Server) processRunning(id string) bool {
	if s.cfg.Processes == nil {
		return false
	}
	for _, p := range s.cfg.Processes.List() {
		if p.ExecutionID == id {
			return p.State == wasmexec.ProcessRunning
		}
	}
	return false
}

// queryInt parses an optional positive integer query parameter.
func queryInt(c echo.Context, name string, def int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, wasmexec.Errorf(wasmexec.EInvalid, "%s must be a positive integer, not %q", name, v)
	}
	return n, nil
}
