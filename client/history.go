package client

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/wasmexec/wasmexec"
)

func executionPath(id string) string { return "/v1/executions/" + url.PathEscape(id) }

// Execution returns a completed execution's record.
func (c *Client) Execution(ctx context.Context, id string) (*wasmexec.Result, error) {
	return call[wasmexec.Result](c, ctx, "GET", executionPath(id), nil)
}

// Record is a completed execution's record with the code the store kept
// (its first 64 KiB).
type Record struct {
	*wasmexec.Result
	Code          string
	CodeTruncated bool
}

// ExecutionWithCode returns a completed execution's record and its code.
func (c *Client) ExecutionWithCode(ctx context.Context, id string) (*Record, error) {
	var b []byte
	if err := c.do(ctx, "GET", executionPath(id)+"?include=code", nil, &b); err != nil {
		return nil, err
	}
	rec := &Record{Result: new(wasmexec.Result)}
	var code struct {
		Code          string `json:"code"`
		CodeTruncated bool   `json:"codeTruncated"`
	}
	if err := rec.Result.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &code); err != nil {
		return nil, err
	}
	rec.Code, rec.CodeTruncated = code.Code, code.CodeTruncated
	return rec, nil
}

// DeleteExecution deletes a completed execution's record (a process still
// running is a 409 conflict: signal it first).
func (c *Client) DeleteExecution(ctx context.Context, id string) error {
	return c.do(ctx, "DELETE", executionPath(id), nil, nil)
}

// ExecutionPage is a page of completed executions.
type ExecutionPage struct {
	Executions []*wasmexec.Result `json:"executions"`
	NextCursor string             `json:"nextCursor"`
	HasMore    bool               `json:"hasMore"`
}

// Executions lists completed executions, newest first; q holds the
// filters (contextId, language, outcome, kind, after, limit).
func (c *Client) Executions(ctx context.Context, q url.Values) (*ExecutionPage, error) {
	return call[ExecutionPage](c, ctx, "GET", "/v1/executions?"+q.Encode(), nil)
}

// Output replays an execution's retained output after a cursor (see
// ExecutionOutput for every option).
func (c *Client) Output(ctx context.Context, id, after string, limit int) (*wasmexec.Replay, error) {
	return c.ExecutionOutput(ctx, id, ReplayOptions{After: after, Limit: limit})
}

// ExecutionOutput replays an execution's retained output: a process's,
// or a run's that set output.retainEvents (else a 409
// execution_output_not_retained).
func (c *Client) ExecutionOutput(ctx context.Context, id string, o ReplayOptions) (*wasmexec.Replay, error) {
	return call[wasmexec.Replay](c, ctx, "GET", executionPath(id)+"/output"+o.query(), nil)
}
