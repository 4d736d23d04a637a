package client

import (
	"bytes"
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/wasmexec/wasmexec"
)

func processPath(pid int64) string { return "/v1/processes/" + strconv.FormatInt(pid, 10) }

// Spawn starts a long-running process.
func (c *Client) Spawn(ctx context.Context, req *wasmexec.SpawnRequest) (*wasmexec.Process, error) {
	return call[wasmexec.Process](c, ctx, "POST", "/v1/processes", req)
}

// Process returns a process's descriptor.
func (c *Client) Process(ctx context.Context, pid int64) (*wasmexec.Process, error) {
	return call[wasmexec.Process](c, ctx, "GET", processPath(pid), nil)
}

// Processes lists the live processes (and those that exited recently).
func (c *Client) Processes(ctx context.Context) ([]*wasmexec.Process, error) {
	var l struct{ Processes []*wasmexec.Process }
	return l.Processes, c.do(ctx, "GET", "/v1/processes", nil, &l)
}

// WriteStdin writes data to a process's stdin. A full stdin buffer is an
// *Error with code overloaded (retry once the guest has read).
func (c *Client) WriteStdin(ctx context.Context, pid int64, data []byte) error {
	return c.do(ctx, "POST", processPath(pid)+"/stdin", bytes.NewReader(data), nil)
}

// CloseStdin closes a process's stdin.
func (c *Client) CloseStdin(ctx context.Context, pid int64) (*wasmexec.Process, error) {
	return call[wasmexec.Process](c, ctx, "POST", processPath(pid)+"/stdin/close", nil)
}

// Signal sends SIGTERM, SIGINT or SIGKILL to a process.
func (c *Client) Signal(ctx context.Context, pid int64, sig wasmexec.Signal) (*wasmexec.Process, error) {
	return call[wasmexec.Process](c, ctx, "POST", processPath(pid)+"/signal", map[string]string{"signal": string(sig)})
}

// Exit is what Wait returns: the state, and the exit once exited.
type Exit struct {
	PID   int64                 `json:"pid"`
	State wasmexec.ProcessState `json:"state"`
	wasmexec.ProcessExit
}

// Wait long-polls until the process exits or timeout passes (State
// running then).
func (c *Client) Wait(ctx context.Context, pid int64, timeout time.Duration) (*Exit, error) {
	return call[Exit](c, ctx, "GET", processPath(pid)+"/wait?timeoutMs="+strconv.FormatInt(timeout.Milliseconds(), 10), nil)
}

// ReplayOptions select a page of output events.
type ReplayOptions struct {
	// After is the cursor to read after: a previous page's NextCursor or
	// an event stream's id ("" from the beginning).
	After string
	// Limit bounds the events of a page (0: the server's 1000).
	Limit int
	// MaxBytes bounds the page's chunk bytes (0: no bound); a single
	// larger event comes alone.
	MaxBytes int
}

func (o ReplayOptions) query() string {
	q := url.Values{}
	if o.After != "" {
		q.Set("after", o.After)
	}
	if o.Limit > 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.MaxBytes > 0 {
		q.Set("maxBytes", strconv.Itoa(o.MaxBytes))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// ProcessOutput replays a process's output, running or exited, from its
// live log (the newest 4 MiB: Truncated says when older events after the
// cursor were dropped).
func (c *Client) ProcessOutput(ctx context.Context, pid int64, o ReplayOptions) (*wasmexec.Replay, error) {
	return call[wasmexec.Replay](c, ctx, "GET", processPath(pid)+"/output"+o.query(), nil)
}
