// Package storehistory adapts the SQLite store to server.History: the one
// adapter the binary, the server tests and the client examples share (the
// store and the server don't import each other).
package storehistory

import (
	"context"

	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
)

// History is a store.Store seen as a server.History.
type History struct{ S *store.Store }

var _ server.History = History{}

// Get implements server.History.
func (h History) Get(ctx context.Context, id string) (*exec.Result, error) { return h.S.Get(ctx, id) }

// Output implements server.History.
func (h History) Output(ctx context.Context, id, after string, limit int) (*exec.Replay, error) {
	return h.S.Output(ctx, id, after, limit)
}

// Delete implements server.History.
func (h History) Delete(ctx context.Context, id string) error { return h.S.Delete(ctx, id) }

// List implements server.History.
func (h History) List(ctx context.Context, f server.ListFilter) (*server.ListPage, error) {
	p, err := h.S.List(ctx, store.ListFilter{ContextID: f.ContextID, Language: f.Language, Outcome: f.Outcome, Kind: f.Kind, After: f.After, Limit: f.Limit})
	if err != nil {
		return nil, err
	}
	return &server.ListPage{Executions: p.Executions, NextCursor: p.NextCursor, HasMore: p.HasMore}, nil
}
