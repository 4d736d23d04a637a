package server

import (
	"context"
	"time"

	"github.com/wasmexec/wasmexec"
)

// ProcessAPI is the processes service as a caller with a ctx sees it:
// each call is checked as the /v1/processes routes check it (another
// tenant's pid is not found, a spawn counts against maxProcesses and in
// its context's tenancy, and publishes process.spawned and
// process.exited). The MCP tools use it, so they skip no check the
// routes make.
type ProcessAPI struct{ cfg Config }

// NewProcessAPI returns the API over cfg's processes; cfg is guarded
// (Guard) first. Without Processes every call is not_implemented.
func NewProcessAPI(cfg Config) *ProcessAPI { return &ProcessAPI{cfg: Guard(cfg)} }

func (a *ProcessAPI) processes() (Processes, error) {
	if a.cfg.Processes == nil {
		return nil, notImplemented("processes")
	}
	return a.cfg.Processes, nil
}

// owned returns the manager when the caller may see pid.
func (a *ProcessAPI) owned(ctx context.Context, pid int64) (Processes, error) {
	p, err := a.processes()
	if err != nil {
		return nil, err
	}
	if pid <= 0 || (a.cfg.tenancy != nil && !a.cfg.tenancy.ownsPID(ctx, pid)) {
		return nil, processNotFound(p, pid)
	}
	return p, nil
}

// Spawn starts a process for the caller.
func (a *ProcessAPI) Spawn(ctx context.Context, req *wasmexec.SpawnRequest) (*wasmexec.Process, error) {
	p, err := a.processes()
	if err != nil {
		return nil, err
	}
	var d *wasmexec.Process
	if a.cfg.tenancy != nil {
		d, err = a.cfg.tenancy.spawn(ctx, p, req)
	} else {
		d, err = p.Spawn(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	processSpawned(a.cfg, ctx, p, d)
	return d, nil
}

// List lists the caller's processes.
func (a *ProcessAPI) List(ctx context.Context) ([]*wasmexec.Process, error) {
	p, err := a.processes()
	if err != nil {
		return nil, err
	}
	list := p.List()
	if a.cfg.tenancy != nil {
		list = a.cfg.tenancy.visible(ctx, list)
	}
	if list == nil {
		list = []*wasmexec.Process{}
	}
	return list, nil
}

// Get describes one process.
func (a *ProcessAPI) Get(ctx context.Context, pid int64) (*wasmexec.Process, error) {
	p, err := a.owned(ctx, pid)
	if err != nil {
		return nil, err
	}
	return p.Get(pid)
}

// WriteStdin writes to a process's stdin.
func (a *ProcessAPI) WriteStdin(ctx context.Context, pid int64, data []byte) error {
	p, err := a.owned(ctx, pid)
	if err != nil {
		return err
	}
	return p.WriteStdin(pid, data)
}

// CloseStdin closes a process's stdin.
func (a *ProcessAPI) CloseStdin(ctx context.Context, pid int64) (*wasmexec.Process, error) {
	p, err := a.owned(ctx, pid)
	if err != nil {
		return nil, err
	}
	return p.CloseStdin(pid)
}

// Signal signals a process.
func (a *ProcessAPI) Signal(ctx context.Context, pid int64, sig wasmexec.Signal) (*wasmexec.Process, error) {
	p, err := a.owned(ctx, pid)
	if err != nil {
		return nil, err
	}
	return p.Signal(pid, sig)
}

// Wait waits up to timeout for a process to exit.
func (a *ProcessAPI) Wait(ctx context.Context, pid int64, timeout time.Duration) (*wasmexec.ProcessWait, error) {
	p, err := a.owned(ctx, pid)
	if err != nil {
		return nil, err
	}
	return p.Wait(ctx, pid, timeout)
}

// Output replays a process's output after a cursor.
func (a *ProcessAPI) Output(ctx context.Context, pid int64, after string, limit int) (*wasmexec.Replay, error) {
	p, err := a.owned(ctx, pid)
	if err != nil {
		return nil, err
	}
	return p.Output(pid, after, limit)
}
