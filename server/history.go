package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec/exec"
)

// History reads completed executions (store.Store through an adapter).
type History interface {
	Get(ctx context.Context, id string) (*exec.Result, error)
	List(ctx context.Context, f ListFilter) (*ListPage, error)
	Output(ctx context.Context, id, after string, limit int) (*exec.Replay, error)
}

// ListFilter selects completed executions.
type ListFilter struct {
	ContextID, Language, Outcome, Kind, After string
	Limit                                     int
}

// ListPage is one page of completed executions, newest first.
type ListPage struct {
	Executions []*exec.Result `json:"executions"`
	NextCursor string         `json:"nextCursor"`
	HasMore    bool           `json:"hasMore"`
}

// LiveOutput serves the output of executions still running (processes);
// History serves it after completion. Optional.
type LiveOutput interface {
	// ExecutionOutput returns the replay of a live execution, or ok=false
	// when the id is not live.
	ExecutionOutput(id, after string, limit int) (r *exec.Replay, ok bool, err error)
}

func (s *Server) routeHistory() {
	s.e.GET("/v1/executions", s.listExecutions)
	s.e.GET("/v1/executions/:id", s.getExecution)
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
	res, err := h.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

var (
	validLanguages = map[string]bool{"javascript": true, "typescript": true, "python": true}
	validOutcomes  = map[string]bool{"succeeded": true, "failed": true, "cancelled": true, "timed_out": true}
	validKinds     = map[string]bool{"evaluate": true, "execute": true, "process": true, "typescript_check": true}
)

func (s *Server) listExecutions(c echo.Context) error {
	h, err := s.history()
	if err != nil {
		return err
	}
	f := ListFilter{ContextID: c.QueryParam("contextId"), Language: c.QueryParam("language"), Outcome: c.QueryParam("outcome"), Kind: c.QueryParam("kind"), After: c.QueryParam("after")}
	for name, v := range map[string]struct {
		val   string
		valid map[string]bool
	}{"language": {f.Language, validLanguages}, "outcome": {f.Outcome, validOutcomes}, "kind": {f.Kind, validKinds}} {
		if v.val != "" && !v.valid[v.val] {
			return exec.Errorf(exec.EInvalid, "unknown %s %q", name, v.val)
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
		page.Executions = []*exec.Result{}
	}
	return c.JSON(http.StatusOK, page)
}

func (s *Server) executionOutput(c echo.Context) error {
	limit, err := queryInt(c, "limit", 1000)
	if err != nil {
		return err
	}
	after := c.QueryParam("after")
	if _, err := exec.ParseCursor(after); err != nil {
		return err
	}
	if !s.ownsExecution(c.Request().Context(), c.Param("id")) {
		return executionNotFound(c.Param("id"))
	}
	if lo, ok := s.cfg.Processes.(LiveOutput); ok {
		r, live, err := lo.ExecutionOutput(c.Param("id"), after, limit)
		if err != nil {
			return err
		}
		if live {
			return c.JSON(http.StatusOK, r)
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
	return c.JSON(http.StatusOK, r)
}

// queryInt parses an optional positive integer query parameter.
func queryInt(c echo.Context, name string, def int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, exec.Errorf(exec.EInvalid, "%s must be a positive integer, not %q", name, v)
	}
	return n, nil
}
