package pypi

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/copytree"
)

// Service installs into execution contexts' workspaces and stages the
// packages of one-shot runs, from the indexes the operator allows.
type Service struct {
	Client *Client
	// Index is the default index (DefaultIndex when empty); Allowed are the
	// other indexes a request may name (indexUrl, extraIndexUrls). Any
	// other URL is invalid_argument: the server never fetches from an
	// index its operator did not list.
	Index   string
	Allowed []string
	// Workspace returns a context's workspace directory (wasmexec.ENotFound
	// for an unknown context).
	Workspace func(contextID string) (string, error)
	// ReplaceDir, when set, swaps the new set into a context's workspace
	// (contexts.Manager.ReplaceDir: within the workspace's limits, as a
	// file call); without it the swap is done directly.
	ReplaceDir func(contextID, rel string, swap func() error) error
	// Persist, when set, stores the completed record (history).
	Persist func(ctx context.Context, r *wasmexec.Result) error
	// DefaultTimeout bounds an install without timeoutMs (default 5 min);
	// MaxTimeout caps timeoutMs (default 10 min).
	DefaultTimeout, MaxTimeout time.Duration
	// Hold, when set, takes the context's run slot for the install
	// (contexts.Manager.Hold, as npm installs do): installs into one
	// context and its runs go one at a time, in their order. Without it
	// nothing orders them.
	Hold func(ctx context.Context, contextID string) (release func(), err error)
}

func (s *Service) index() string { return cmp.Or(s.Index, DefaultIndex) }

// normIndex canonicalizes an index URL for comparison.
func normIndex(u string) string { return strings.TrimRight(strings.TrimSpace(u), "/") }

// indexes checks a request's index URLs against the allowed ones and
// returns the list to use (wasmexec.EInvalid for any other).
func (s *Service) indexes(primary string, extra []string) ([]string, error) {
	allowed := map[string]bool{normIndex(s.index()): true}
	for _, a := range s.Allowed {
		allowed[normIndex(a)] = true
	}
	check := func(field, u string) error {
		if len(u) > 2048 {
			return wasmexec.Errorf(wasmexec.EInvalid, "%s is longer than 2048 characters", field)
		}
		if !allowed[normIndex(u)] {
			return wasmexec.Errorf(wasmexec.EInvalid, "%s %q is not an allowed index (the server allows %s; see --python-allowed-index-urls)", field, u, strings.Join(sortedKeys(allowed), ", "))
		}
		return nil
	}
	out := []string{normIndex(s.index())}
	if primary != "" {
		if err := check("indexUrl", primary); err != nil {
			return nil, err
		}
		out = []string{normIndex(primary)}
	}
	if len(extra) > 16 {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "extraIndexUrls: at most 16")
	}
	for _, e := range extra {
		if err := check("extraIndexUrls", e); err != nil {
			return nil, err
		}
		out = append(out, normIndex(e))
	}
	return out, nil
}

// ValidateIndexURLs checks the operator's index URLs (for the flags).
func ValidateIndexURLs(urls ...string) error {
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("%q is not an http(s) URL", u)
		}
	}
	return nil
}

const maxRequirements = 1000

// parsePackages parses a request's requirements (wasmexec.EInvalid naming the
// bad one).
func parsePackages(field string, pkgs []string) ([]Requirement, error) {
	if len(pkgs) > maxRequirements {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "%s: at most %d requirements", field, maxRequirements)
	}
	var out []Requirement
	for _, p := range pkgs {
		r, err := ParseRequirement(p)
		if err != nil {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "%s: %v", field, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// maxRequirementsFile bounds a requirements file.
const maxRequirementsFile = 1 << 20

// readRequirements reads a workspace requirements file, refusing paths
// that leave the workspace (also through symlinks).
func readRequirements(ws, p string) ([]Requirement, error) {
	if strings.ContainsRune(p, 0) || path.IsAbs(p) || strings.Contains(p, "\\") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		if !strings.HasPrefix(p, "/workspace/") {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "requirementsFile must be a clean path relative to the workspace, not %q", p)
		}
		p = strings.TrimPrefix(p, "/workspace/")
		if path.Clean(p) != p || strings.HasPrefix(p, "../") {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "requirementsFile must be a clean path relative to the workspace, not %q", p)
		}
	}
	f, err := os.OpenInRoot(ws, p)
	if err != nil {
		return nil, &Error{Package: p, Reason: "the requirements file can't be read: " + strings.TrimPrefix(err.Error(), "openat ")}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRequirementsFile+1))
	if err != nil {
		return nil, &Error{Package: p, Reason: "the requirements file can't be read: " + err.Error()}
	}
	if len(b) > maxRequirementsFile {
		return nil, &Error{Package: p, Reason: fmt.Sprintf("the requirements file is over %d bytes", maxRequirementsFile)}
	}
	reqs, err := ParseRequirementsFile(string(b))
	if err != nil {
		return nil, &Error{Package: p, Reason: err.Error()}
	}
	return reqs, nil
}

// Install runs one install into contextID's workspace. An install that
// fails (unknown package, no pure wheel, bad hash, index down, deadline)
// is a completed record with outcome failed (code pip_install_failed) or
// timed_out, never an error; errors are wasmexec.EInvalid (a malformed
// request or an index the server does not allow), wasmexec.ENotFound (no such
// context) or service failures. Installs into one context run one at a
// time.
func (s *Service) Install(ctx context.Context, contextID string, req *wasmexec.PipInstallRequest) (*wasmexec.PipInstallResult, error) {
	timeout, err := wasmexec.InstallTimeout(req.TimeoutMs, cmp.Or(s.DefaultTimeout, 5*time.Minute), cmp.Or(s.MaxTimeout, 10*time.Minute))
	if err != nil {
		return nil, err
	}
	reqs, err := parsePackages("packages", req.Packages)
	if err != nil {
		return nil, err
	}
	if len(reqs) == 0 && req.RequirementsFile == "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "give packages or requirementsFile")
	}
	if len(reqs) > 0 && req.RequirementsFile != "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "packages and requirementsFile are exclusive")
	}
	indexes, err := s.indexes(req.IndexURL, req.ExtraIndexURLs)
	if err != nil {
		return nil, err
	}
	dir, err := s.Workspace(contextID)
	if err != nil {
		return nil, err
	}
	if s.Hold != nil {
		release, err := s.Hold(ctx, contextID)
		if err != nil {
			return nil, err
		}
		defer release()
	}

	started := time.Now()
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out strings.Builder
	progress := wasmexec.ProgressLog(ctx, &out)
	var installed []wasmexec.PipPackage
	ierr := func() error {
		if req.RequirementsFile != "" {
			r, err := readRequirements(dir, req.RequirementsFile)
			if err != nil {
				return err
			}
			reqs = r
			progress(fmt.Sprintf("read %d requirements from %s", len(reqs), req.RequirementsFile))
			if len(reqs) == 0 {
				return nil
			}
		}
		var err error
		opts := Options{
			Requirements: reqs, Indexes: indexes, Upgrade: req.Upgrade,
			Progress: progress,
		}
		if s.ReplaceDir != nil {
			opts.Commit = func(swap func() error) error {
				err := s.ReplaceDir(contextID, SiteDir, swap)
				if wasmexec.ErrorCode(err) == wasmexec.ETooLarge {
					return &Error{Reason: "the packages don't fit the context's workspace: " + wasmexec.ErrorMessage(err)}
				}
				return err
			}
		}
		installed, err = s.Client.Install(runCtx, filepath.Join(dir, SiteDir), opts)
		return err
	}()
	in := wasmexec.Install{Kind: wasmexec.KindPipInstall, Language: wasmexec.Python, ContextID: contextID,
		Tool: "pip install", Unchanged: "the installed set is unchanged", Timeout: timeout, Started: started}
	rec, installed, err := wasmexec.InstallRecord(ctx, in, ierr, func(err error) *wasmexec.ErrorData {
		var pipErr *Error
		if !errors.As(err, &pipErr) {
			return nil
		}
		return Failure(pipErr, "; the installed set is unchanged")
	}, out.String(), req, installed)
	if err != nil {
		return nil, err
	}
	if s.Persist != nil {
		if err := s.Persist(context.WithoutCancel(ctx), rec); err != nil {
			return nil, err
		}
	}
	return &wasmexec.PipInstallResult{Result: rec, Installed: installed}, nil
}

// Failure is the error of a failed install (code pip_install_failed).
func Failure(e *Error, suffix string) *wasmexec.ErrorData {
	return &wasmexec.ErrorData{Code: "pip_install_failed", Name: "PipInstallError", Message: e.Error() + suffix,
		Details: map[string]any{"package": e.Package, "reason": e.Reason}}
}

// StagePackages implements wasmexec.PackageStager for one-shot Python runs
// (see StageSet).
func (s *Service) StagePackages(ctx context.Context, packages []string) (func(context.Context, string) error, *wasmexec.ErrorData, error) {
	seed, _, _, failure, err := s.StageSet(ctx, packages)
	return seed, failure, err
}

// StageSet stages a one-shot run's packages: the set is resolved and
// built once per cache (keyed by the requirements as written and the
// default index: pin versions for a fixed set) and the seed copies it
// into the run's workspace .python-packages. It also returns the set and
// whether it had to be built now (fetched: the run waited for the index).
// A failure of the packages is code pip_install_failed.
func (s *Service) StageSet(ctx context.Context, packages []string) (seed func(context.Context, string) error, pkgs []wasmexec.PipPackage, fetched bool, failure *wasmexec.ErrorData, err error) {
	reqs, err := parsePackages("packages", packages)
	if err != nil {
		return nil, nil, false, nil, err
	}
	set := append([]string(nil), packages...)
	sort.Strings(set)
	sum := sha256.Sum256([]byte(s.index() + "\n" + strings.Join(set, "\n")))
	dst := filepath.Join(s.Client.CacheDir, "sets", hex.EncodeToString(sum[:]))
	if _, err := os.Stat(filepath.Join(dst, ".complete")); err != nil {
		fetched = true
		pkgs, err := s.Client.Resolve(ctx, Options{Requirements: reqs, Indexes: []string{normIndex(s.index())}}, nil)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				f := Failure(e, "")
				f.Message = "packages: " + f.Message
				return nil, nil, true, f, nil
			}
			return nil, nil, true, nil, err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, nil, true, nil, err
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dst), ".stage-")
		if err != nil {
			return nil, nil, true, nil, err
		}
		defer os.RemoveAll(tmp)
		if err := s.Client.Build(tmp, pkgs); err != nil {
			return nil, nil, true, nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
			return nil, nil, true, nil, err
		}
		if err := os.Rename(tmp, dst); err != nil {
			if _, serr := os.Stat(filepath.Join(dst, ".complete")); serr != nil {
				return nil, nil, true, nil, err
			}
		}
	}
	pkgs = readManifest(dst).Packages
	return func(ctx context.Context, dir string) error {
		_, err := copytree.Copy(dst, filepath.Join(dir, SiteDir))
		return err
	}, pkgs, fetched, nil, nil
}
