package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
)

// ListExecutionsInput filters the history.
type ListExecutionsInput struct {
	ContextID string `json:"contextId,omitempty" jsonschema:"only this context's"`
	Language  string `json:"language,omitempty" enum:"javascript,typescript,python"`
	Outcome   string `json:"outcome,omitempty" enum:"succeeded,failed,cancelled,timed_out,exited,signalled" jsonschema:"a run's outcome, or a process's exit"`
	Kind      string `json:"kind,omitempty" enum:"evaluate,execute,process,typescript_check,npm_install,pip_install"`
	After     string `json:"after,omitempty" jsonschema:"the nextCursor of the previous page"`
	Limit     int    `json:"limit,omitempty" jsonschema:"at most this many (default 20)"`
}

// ExecutionPage is a page of records.
type ExecutionPage struct {
	Executions []Record `json:"executions"`
	NextCursor string   `json:"nextCursor"`
	HasMore    bool     `json:"hasMore"`
}

func (t *tools) listExecutions(ctx context.Context, _ *sdk.CallToolRequest, in ListExecutionsInput) (*sdk.CallToolResult, ExecutionPage, error) {
	if in.Limit < 0 {
		return nil, ExecutionPage{}, wasmexec.Errorf(wasmexec.EInvalid, "limit must be positive")
	}
	if in.Limit == 0 {
		in.Limit = 20
	}
	page, err := t.cfg.History.List(ctx, wasmexec.HistoryFilter{ContextID: in.ContextID, Language: in.Language, Outcome: in.Outcome, Kind: in.Kind, After: in.After, Limit: in.Limit})
	if err != nil {
		return nil, ExecutionPage{}, toolError(err)
	}
	out := ExecutionPage{Executions: []Record{}, NextCursor: page.NextCursor, HasMore: page.HasMore}
	var b strings.Builder
	fmt.Fprintf(&b, "%d executions", len(page.Executions))
	if page.HasMore {
		fmt.Fprintf(&b, " (more after %s)", page.NextCursor)
	}
	for _, res := range page.Executions {
		r, err := record(res)
		if err != nil {
			return nil, ExecutionPage{}, err
		}
		out.Executions = append(out.Executions, r)
		fmt.Fprintf(&b, "\n%s %s %s %s", r.ExecutionID, r.Kind, r.Language, r.Outcome)
		if r.ContextID != "" {
			b.WriteString(" context " + r.ContextID)
		}
	}
	return text(b.String()), out, nil
}

// ExecutionIDInput names one execution.
type ExecutionIDInput struct {
	ExecutionID string `json:"executionId" jsonschema:"the execution's id (exe_...)"`
}

func (t *tools) getExecution(ctx context.Context, _ *sdk.CallToolRequest, in ExecutionIDInput) (*sdk.CallToolResult, Record, error) {
	res, err := t.cfg.History.Get(ctx, in.ExecutionID)
	if err != nil {
		return nil, Record{}, toolError(err)
	}
	out, err := record(res)
	if err != nil {
		return nil, Record{}, err
	}
	return text(fmt.Sprintf("%s (%s, %s)\n%s", out.ExecutionID, out.Kind, out.Language, runText(&out, res.Value))), out, nil
}
