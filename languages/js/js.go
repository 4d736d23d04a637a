// Package js runs JavaScript in the goja guest (guest-images/js).
package js

import (
	"cmp"
	"context"
	"path"
	"strings"

	"github.com/wasmexec/wasmexec/exec"
)

// ImageName is the guest image JavaScript (and transpiled TypeScript) runs in.
const ImageName = "js"

// Driver is the exec.LanguageDriver for JavaScript.
type Driver struct {
	// Packages stages a one-shot run's npm packages; nil refuses them.
	Packages exec.PackageStager
	// Modules, when set, converts the run's ES modules on the host ahead
	// of the guest (languages/ts.ModuleConverter); nil leaves it all to the
	// guest.
	Modules ModuleConverter
}

// ModuleConverter converts a run's ES modules (its files, and code named
// filename) to CommonJS on the host, as the guest would, for the control
// request's Conversions.
type ModuleConverter interface {
	ConvertRun(ctx context.Context, files map[string]string, code, filename, tsconfig string) []exec.Conversion
}

// Image implements exec.LanguageDriver.
func (Driver) Image() string { return ImageName }

// Prepare implements exec.LanguageDriver.
func (d Driver) Prepare(ctx context.Context, req *exec.Request) (*exec.Prepared, error) {
	if err := ValidateFormat(req.Format); err != nil {
		return nil, err
	}
	if err := ValidateFilePath(req); err != nil {
		return nil, err
	}
	filename := cmp.Or(req.Filename, "main.js")
	p := &exec.Prepared{Control: Control(req, req.Code, filename)}
	if d.Modules != nil {
		p.Control.Conversions = d.Modules.ConvertRun(ctx, req.Files, req.Code, filename, req.TsconfigText())
	}
	return StagePackages(ctx, d.Packages, req, p)
}

// StagePackages fetches a one-shot run's packages (req.Packages) with st
// and adds their seed to p; a failure of the packages becomes p's failure.
// Errors: exec.EInvalid (packages in a context, or none can be installed
// here), or st's.
func StagePackages(ctx context.Context, st exec.PackageStager, req *exec.Request, p *exec.Prepared) (*exec.Prepared, error) {
	if len(req.Packages) == 0 {
		return p, nil
	}
	if req.ContextID != "" {
		return nil, exec.Errorf(exec.EInvalid, "packages are for one-shot runs; a context installs with POST /v1/contexts/:id/npm/install")
	}
	if st == nil {
		return nil, exec.Errorf(exec.EInvalid, "packages are not enabled on this server")
	}
	seed, failure, err := st.StagePackages(ctx, req.Packages)
	if err != nil {
		return nil, err
	}
	if failure != nil {
		return &exec.Prepared{Failure: failure}, nil
	}
	p.Seed = seed
	return p, nil
}

// ValidateFormat accepts the JS/TS source formats.
func ValidateFormat(f string) error {
	switch f {
	case "", "module", "commonjs":
		return nil
	}
	return exec.Errorf(exec.EInvalid, "format must be module or commonjs, not %q", f)
}

// ValidateFilePath checks a request's filePath: a relative path inside the
// workspace naming a JavaScript or TypeScript file, and no code beside it.
// Errors: exec.EInvalid.
func ValidateFilePath(req *exec.Request) error {
	if t := req.TsconfigPath; t != "" {
		if path.IsAbs(t) || strings.Contains(t, "\\") || path.Clean(t) != t || t == ".." || strings.HasPrefix(t, "../") || path.Ext(t) != ".json" {
			return exec.Errorf(exec.EInvalid, "tsconfigPath must be a clean path relative to the workspace naming a .json file, not %q", t)
		}
	}
	p := req.FilePath
	if p == "" {
		return nil
	}
	if req.Code != "" {
		return exec.Errorf(exec.EInvalid, "code and filePath are exclusive: filePath runs the workspace file instead of code")
	}
	if path.IsAbs(p) || strings.Contains(p, "\\") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return exec.Errorf(exec.EInvalid, "filePath must be a clean path relative to the workspace, not %q", p)
	}
	switch path.Ext(p) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts":
		return nil
	}
	return exec.Errorf(exec.EInvalid, "filePath must name a .js, .mjs, .cjs, .ts or .tsx file, not %q", p)
}

// Control builds the driver request for JS code (TypeScript passes its
// transpiled output and its own file name). A filePath is run by the guest,
// which reads the file (TypeScript included) from the workspace.
func Control(req *exec.Request, code, filename string) exec.ControlRequest {
	return exec.ControlRequest{Op: string(req.Kind), Code: code, Filename: filename, Format: req.Format, FilePath: req.FilePath, TsconfigPath: req.TsconfigPath}
}
