package npm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec/exec"
)

// Service installs into execution contexts' workspaces.
type Service struct {
	Client *Client
	// Hold takes a context's workspace for an install: the context's run
	// slot, so no run sees node_modules half swapped and a run that
	// arrives meanwhile waits its turn (contexts.Manager.Hold); release
	// gives it back. Errors: exec.EContextNotFound for an unknown context,
	// exec.EOverloaded when its queue is full.
	Hold func(ctx context.Context, contextID string) (ws Workspace, release func(), err error)
	// Persist, when set, stores the completed record (history).
	Persist func(ctx context.Context, r *exec.Result) error
	// DefaultTimeout bounds an install without timeoutMs (default 5 min);
	// MaxTimeout caps timeoutMs (default 10 min).
	DefaultTimeout, MaxTimeout time.Duration
}

// Workspace is a context's workspace as an install sees it.
type Workspace struct {
	Dir string
	// Measure is the workspace's limits (see Options.Measure); nil: none.
	Measure func(ctx context.Context, stage string, names []string) (over bool, desc string, details map[string]any, err error)
}

// Install runs one install into contextID's workspace. An install that
// fails (unknown package, bad integrity, registry down, deadline) is a
// completed record with outcome failed (code npm_install_failed) or
// timed_out, never an error; errors are exec.EInvalid (a malformed
// request), exec.ENotFound (no such context) or service failures.
// An install holds the context's run slot (Hold): installs and runs in one
// context take turns, in the order they arrived.
func (s *Service) Install(ctx context.Context, contextID string, req *exec.NPMInstallRequest) (*exec.NPMInstallResult, error) {
	timeout := cmp.Or(s.DefaultTimeout, 5*time.Minute)
	max := cmp.Or(s.MaxTimeout, 10*time.Minute)
	if req.TimeoutMs < 0 {
		return nil, exec.Errorf(exec.EInvalid, "timeoutMs must not be negative")
	}
	if req.TimeoutMs > 0 {
		timeout = time.Duration(req.TimeoutMs) * time.Millisecond
	}
	if timeout > max {
		return nil, exec.Errorf(exec.EInvalid, "timeoutMs is over the maximum %d", max.Milliseconds())
	}
	for _, p := range req.Packages {
		if name, _ := splitSpec(p); !validName(name) {
			return nil, exec.Errorf(exec.EInvalid, "%q is not a package name", p)
		}
	}
	if req.Frozen && len(req.Packages) > 0 {
		return nil, exec.Errorf(exec.EInvalid, "frozen installs the project as locked: it takes no packages")
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
		Progress: func(line string) { out.WriteString(line + "\n") },
		Measure:  ws.Measure,
	})
	rec := &exec.Result{
		ExecutionID:   exec.NewID("exe"),
		Kind:          exec.KindNPMInstall,
		Language:      exec.JavaScript,
		ContextID:     contextID,
		Outcome:       exec.Succeeded,
		StartedAtMs:   exec.Millis(started),
		CompletedAtMs: exec.Millis(time.Now()),
		DurationMs:    float64(time.Since(started).Microseconds()) / 1000,
	}
	var npmErr *Error
	switch {
	case ierr == nil:
	case errors.Is(ierr, context.DeadlineExceeded) && ctx.Err() == nil:
		rec.Outcome = exec.TimedOut
		rec.Error = &exec.ErrorData{Code: "timeout", Message: "npm install did not finish within " + timeout.String() + "; the workspace is unchanged"}
	case errors.Is(ierr, context.Canceled) || ctx.Err() != nil:
		rec.Outcome = exec.Cancelled
		rec.Error = &exec.ErrorData{Code: "cancelled", Message: "npm install was cancelled; the workspace is unchanged"}
	case errors.As(ierr, &npmErr):
		rec.Outcome = exec.Failed
		details := npmErr.Details
		if details == nil {
			details = map[string]any{"package": npmErr.Package, "reason": npmErr.Reason}
		}
		rec.Error = &exec.ErrorData{Code: npmErr.CodeOf(), Name: "NpmInstallError", Message: npmErr.Error() + "; the workspace is unchanged", Details: details}
	default:
		return nil, ierr
	}
	if rec.Outcome != exec.Succeeded {
		installed = nil
	}
	stdout := out.String()
	rec.Stdout = &stdout
	body, _ := json.Marshal(req)
	rec.Code = string(body)
	if installed == nil {
		installed = []exec.NPMPackage{}
	}
	rec.Extra, _ = json.Marshal(map[string]any{"installed": installed})
	if s.Persist != nil {
		if err := s.Persist(context.WithoutCancel(ctx), rec); err != nil {
			return nil, err
		}
	}
	return &exec.NPMInstallResult{Result: rec, Installed: installed}, nil
}
