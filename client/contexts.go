package client

import (
	"bytes"
	"context"
	"net/url"
	"strings"

	"github.com/wasmexec/wasmexec"
)

func contextPath(id string) string { return "/v1/contexts/" + url.PathEscape(id) }

// CreateContext creates an execution context.
func (c *Client) CreateContext(ctx context.Context, spec *wasmexec.ContextSpec) (*wasmexec.Context, error) {
	return call[wasmexec.Context](c, ctx, "POST", "/v1/contexts", spec)
}

// Context returns a context's descriptor.
func (c *Client) Context(ctx context.Context, id string) (*wasmexec.Context, error) {
	return call[wasmexec.Context](c, ctx, "GET", contextPath(id), nil)
}

// Contexts lists the contexts.
func (c *Client) Contexts(ctx context.Context) ([]*wasmexec.Context, error) {
	var l struct{ Contexts []*wasmexec.Context }
	return l.Contexts, c.do(ctx, "GET", "/v1/contexts", nil, &l)
}

// ResetContext replaces a context's guest (its files are kept).
func (c *Client) ResetContext(ctx context.Context, id string) (*wasmexec.Context, error) {
	return call[wasmexec.Context](c, ctx, "POST", contextPath(id)+"/reset", nil)
}

// HibernateContext captures a context's guest into a snapshot and drops
// it from memory; its next run, file call or fork restores it. A context
// running or with runs queued is a 409 conflict.
func (c *Client) HibernateContext(ctx context.Context, id string) (*wasmexec.Context, error) {
	return call[wasmexec.Context](c, ctx, "POST", contextPath(id)+"/hibernate", nil)
}

// ForkContext copies a context (its state and workspace) into a new one,
// named newID ("" generates one), after the runs queued before it.
func (c *Client) ForkContext(ctx context.Context, id, newID string) (*wasmexec.Context, error) {
	return call[wasmexec.Context](c, ctx, "POST", contextPath(id)+"/fork", &wasmexec.ForkSpec{ContextID: newID})
}

// DeleteContext deletes a context (cancelling its run and killing its
// processes).
func (c *Client) DeleteContext(ctx context.Context, id string) error {
	return c.do(ctx, "DELETE", contextPath(id), nil, nil)
}

func filePath(id, p string) string {
	parts := strings.Split(strings.TrimLeft(p, "/"), "/")
	for i := range parts {
		parts[i] = url.PathEscape(parts[i])
	}
	return contextPath(id) + "/files/" + strings.Join(parts, "/")
}

// WriteFile writes data to path in a context's workspace (creating its
// directories).
func (c *Client) WriteFile(ctx context.Context, id, path string, data []byte) (*wasmexec.FileEntry, error) {
	return call[wasmexec.FileEntry](c, ctx, "PUT", filePath(id, path), bytes.NewReader(data))
}

// ReadFile reads path from a context's workspace.
func (c *Client) ReadFile(ctx context.Context, id, path string) ([]byte, error) {
	var b []byte
	return b, c.do(ctx, "GET", filePath(id, path), nil, &b)
}

// DeleteFile deletes a file or a directory (with what it holds) from a
// context's workspace.
func (c *Client) DeleteFile(ctx context.Context, id, path string) error {
	return c.do(ctx, "DELETE", filePath(id, path), nil, nil)
}

// ListFiles lists a directory of a context's workspace ("" is its root).
func (c *Client) ListFiles(ctx context.Context, id, dir string) ([]wasmexec.FileEntry, error) {
	var l struct{ Entries []wasmexec.FileEntry }
	return l.Entries, c.do(ctx, "GET", contextPath(id)+"/files?dir="+url.QueryEscape(dir), nil, &l)
}

// NPMInstall installs npm packages into a context's workspace (or, with
// none, the project of its package.json). A failed install is a result
// (Outcome failed, the reason in Error), not an error.
func (c *Client) NPMInstall(ctx context.Context, id string, req *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	if req == nil {
		req = &wasmexec.NPMInstallRequest{}
	}
	return call[wasmexec.NPMInstallResult](c, ctx, "POST", contextPath(id)+"/npm/install", req)
}

// PipInstall installs Python packages into a Python context's workspace.
// A failed install is a result, not an error.
func (c *Client) PipInstall(ctx context.Context, id string, req *wasmexec.PipInstallRequest) (*wasmexec.PipInstallResult, error) {
	return call[wasmexec.PipInstallResult](c, ctx, "POST", contextPath(id)+"/pip/install", req)
}
