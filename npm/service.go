package npm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec/exec"
)

// Service installs into execution contexts' workspaces.
type Service struct {
	Client *Client
	// Workspace returns a context's workspace directory (exec.ENotFound
	// for an unknown context).
	Workspace func(contextID string) (string, error)
	// Persist, when set, stores the completed record (history).
	Persist func(ctx context.Context, r *exec.Result) error
	// DefaultTimeout bounds an install without timeoutMs (default 5 min);
	// MaxTimeout caps timeoutMs (default 10 min).
	DefaultTimeout, MaxTimeout time.Duration

	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func (s *Service) lock(id string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.locks == nil {
		s.locks = map[string]*sync.Mutex{}
	}
	l := s.locks[id]
	if l == nil {
		l = &sync.Mutex{}
		s.locks[id] = l
	}
	return l
}

// Install runs one install into contextID's workspace. An install that
// fails (unknown package, bad integrity, registry down, deadline) is a
// completed record with outcome failed (code npm_install_failed) or
// timed_out, never an error; errors are exec.EInvalid (a malformed
// request), exec.ENotFound (no such context) or service failures.
// Installs into one context run one at a time.
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
	dir, err := s.Workspace(contextID)
	if err != nil {
		return nil, err
	}
	l := s.lock(contextID)
	l.Lock()
	defer l.Unlock()

	started := time.Now()
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out strings.Builder
	installed, ierr := s.Client.Install(runCtx, dir, Options{
		Packages: req.Packages, Dev: req.Dev, Frozen: req.Frozen,
		Progress: func(line string) { out.WriteString(line + "\n") },
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
		rec.Error = &exec.ErrorData{Code: "npm_install_failed", Name: "NpmInstallError", Message: npmErr.Error() + "; the workspace is unchanged", Details: map[string]any{"package": npmErr.Package, "reason": npmErr.Reason}}
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
