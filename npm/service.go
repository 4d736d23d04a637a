package npm

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec"
)

// Service installs into execution contexts' workspaces.
type Service struct {
	Client *Client
	// Hold takes a context's workspace for an install: the context's run
	// slot, so no run sees node_modules half swapped and a run that
	// arrives meanwhile waits its turn (contexts.Manager.Hold); release
	// gives it back. Errors: wasmexec.EContextNotFound for an unknown context,
	// wasmexec.EOverloaded when its queue is full.
	Hold func(ctx context.Context, contextID string) (ws Workspace, release func(), err error)
	// Persist, when set, stores the completed record (history).
	Persist func(ctx context.Context, r *wasmexec.Result) error
	// DefaultTimeout bounds an install without timeoutMs (default 5 min);
	// MaxTimeout caps timeoutMs (default 10 min).
	DefaultTimeout, MaxTimeout time.Duration
}

// Workspace is a context's workspace as an install sees it.
type Workspace struct {
	Dir string
	// Measure is the workspace's limits (see Options.Measure); nil: none.
	Measure func(ctx context.Context, stage string, names []string) (over bool, desc string, details map[string]any, err error)
	// Room is the room they leave an install (see Options.Room); nil:
	// none counted while staging (Measure still checks the result).
	Room func(ctx context.Context, stage string, names []string) (Room, error)
}

// Install runs one install into contextID's workspace. An install that
// fails (unknown package, bad integrity, registry down, deadline) is a
// completed record with outcome failed (code npm_install_failed) or
// timed_out, never an error; errors are wasmexec.EInvalid (a malformed
// request), wasmexec.ENotFound (no such context) or service failures.
// An install holds the context's run slot (Hold): installs and runs in one
// context take turns, in the order they arrived.
func (s *Service) Install(ctx context.Context, contextID string, req *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	timeout, err := wasmexec.InstallTimeout(req.TimeoutMs, cmp.Or(s.DefaultTimeout, 5*time.Minute), cmp.Or(s.MaxTimeout, 10*time.Minute))
	if err != nil {
		return nil, err
	}
	for _, p := range req.Packages {
		if name, _ := splitSpec(p); !validName(name) {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "%q is not a package name", p)
		}
	}
	if req.Frozen && len(req.Packages) > 0 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "frozen installs the project as locked: it takes no packages")
	}
	started := time.Now()
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ws, release, err := s.Hold(runCtx, contextID)
	if err != nil {
		return nil, err
	}
	defer release()
	var out strings.Builder
	installed, ierr := s.Client.Install(runCtx, ws.Dir, Options{
		Packages: req.Packages, Dev: req.Dev, Frozen: req.Frozen,
		Progress: wasmexec.ProgressLog(ctx, &out),
		Measure:  ws.Measure,
		Room:     ws.Room,
	})
	in := wasmexec.Install{Kind: wasmexec.KindNPMInstall, Language: wasmexec.JavaScript, ContextID: contextID,
		Tool: "npm install", Unchanged: "the workspace is unchanged", Timeout: timeout, Started: started}
	rec, installed, err := wasmexec.InstallRecord(ctx, in, ierr, func(err error) *wasmexec.ErrorData {
		var npmErr *Error
		if !errors.As(err, &npmErr) {
			return nil
		}
		details := npmErr.Details
		if details == nil {
			details = map[string]any{"package": npmErr.Package, "reason": npmErr.Reason}
		}
		return &wasmexec.ErrorData{Code: npmErr.CodeOf(), Name: "NpmInstallError", Message: npmErr.Error() + "; the workspace is unchanged", Details: details}
	}, out.String(), req, installed)
	if err != nil {
		return nil, err
	}
	if s.Persist != nil {
		if err := s.Persist(context.WithoutCancel(ctx), rec); err != nil {
			return nil, err
		}
	}
	return &wasmexec.NPMInstallResult{Result: rec, Installed: installed}, nil
}
