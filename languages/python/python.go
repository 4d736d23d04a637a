// Package python runs Python in the CPython guest (guest-images/python).
package python

import (
	"cmp"
	"context"
	"encoding/json"
	"path"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// ImageName is the guest image Python runs in.
const ImageName = "python"

// Driver is the wasmexec.LanguageDriver for Python.
type Driver struct {
	// Packages stages a one-shot run's pip packages (pypi.Service); nil
	// refuses them.
	Packages wasmexec.PackageStager
}

// Image implements wasmexec.LanguageDriver.
func (Driver) Image() string { return ImageName }

// Prepare implements wasmexec.LanguageDriver. Evaluate has REPL semantics (the
// value of a final expression statement); execute runs the code as
// __main__ with args in sys.argv. A one-shot run's packages are staged
// here, within the run's deadline, and copied into its workspace's
// .python-packages. A filePath is run by the guest as `python FILE` would
// run it (it reads the file from the workspace).
func (d Driver) Prepare(ctx context.Context, req *wasmexec.Request) (*wasmexec.Prepared, error) {
	if req.Format != "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "format applies to JavaScript and TypeScript only")
	}
	if req.TsconfigPath != "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "tsconfigPath applies to JavaScript and TypeScript only")
	}
	if err := ValidateFilePath(req); err != nil {
		return nil, err
	}
	p := &wasmexec.Prepared{Control: wasmexec.ControlRequest{Op: string(req.Kind), Code: req.Code, Filename: cmp.Or(req.Filename, "main.py"), FilePath: req.FilePath}}
	if len(req.Packages) == 0 {
		return p, nil
	}
	if req.ContextID != "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "packages are for one-shot runs; a context installs with POST /v1/contexts/:id/pip/install")
	}
	if d.Packages == nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "packages are not enabled on this server")
	}
	if st, ok := d.Packages.(SetStager); ok {
		seed, pkgs, fetched, failure, err := st.StageSet(ctx, req.Packages)
		if err != nil {
			return nil, err
		}
		if failure != nil {
			return &wasmexec.Prepared{Failure: failure}, nil
		}
		p.Seed = seed
		// The record says which packages the run had and whether it
		// waited for the index to get them.
		extra, _ := json.Marshal(map[string]any{"packages": map[string]any{"installed": pkgs, "fetched": fetched}})
		p.Finish = func(r *wasmexec.Result) {
			if len(r.Extra) == 0 {
				r.Extra = extra
			}
		}
		return p, nil
	}
	seed, failure, err := d.Packages.StagePackages(ctx, req.Packages)
	if err != nil {
		return nil, err
	}
	if failure != nil {
		return &wasmexec.Prepared{Failure: failure}, nil
	}
	p.Seed = seed
	return p, nil
}

// SetStager is a PackageStager that also reports the staged set
// (pypi.Service): a one-shot run's record then has extra.packages
// {installed: [{name, version, sha256}], fetched}, fetched saying the
// run waited for the index.
type SetStager interface {
	StageSet(ctx context.Context, packages []string) (seed func(context.Context, string) error, pkgs []wasmexec.PipPackage, fetched bool, failure *wasmexec.ErrorData, err error)
}

// ValidateFilePath checks a Python request's filePath: a clean path
// relative to the workspace naming a .py file, and no code beside it.
// Errors: wasmexec.EInvalid.
func ValidateFilePath(req *wasmexec.Request) error {
	p := req.FilePath
	if p == "" {
		return nil
	}
	if req.Code != "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "code and filePath are exclusive: filePath runs the workspace file instead of code")
	}
	if path.IsAbs(p) || strings.Contains(p, "\\") || strings.IndexByte(p, 0) >= 0 || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return wasmexec.Errorf(wasmexec.EInvalid, "filePath must be a clean path relative to the workspace, not %q", p)
	}
	if path.Ext(p) != ".py" {
		return wasmexec.Errorf(wasmexec.EInvalid, "filePath must name a .py file, not %q", p)
	}
	return nil
}
