// Package js runs JavaScript in the goja guest (guest-images/js).
package js

import (
	"cmp"
	"context"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// ImageName is the guest image JavaScript (and transpiled TypeScript) runs in.
const ImageName = "js"

// Driver is the wasmexec.LanguageDriver for JavaScript.
type Driver struct {
	// Packages stages a one-shot run's npm packages; nil refuses them.
	Packages wasmexec.PackageStager
	// Modules, when set, converts the run's ES modules on the host ahead
	// of the guest (languages/ts.ModuleConverter); nil leaves it all to the
	// guest.
	Modules ModuleConverter
}

// ModuleConverter converts a run's ES modules (its files, and code named
// filename) to CommonJS on the host, as the guest would, for the control
// request's Conversions.
type ModuleConverter interface {
	ConvertRun(ctx context.Context, files map[string]string, code, filename, tsconfig string) []wasmexec.Conversion
}

// Image implements wasmexec.LanguageDriver.
func (Driver) Image() string { return ImageName }

// Prepare implements wasmexec.LanguageDriver.
func (d Driver) Prepare(ctx context.Context, req *wasmexec.Request) (*wasmexec.Prepared, error) {
	if err := ValidateFormat(req.Format); err != nil {
		return nil, err
	}
	if err := ValidateFilePath(req); err != nil {
		return nil, err
	}
	filename := cmp.Or(req.Filename, "main.js")
	p := &wasmexec.Prepared{Control: Control(req, req.Code, filename)}
	if d.Modules != nil {
		p.Control.Conversions = d.Modules.ConvertRun(ctx, req.Files, req.Code, filename, req.TsconfigText())
	}
	return StagePackages(ctx, d.Packages, req, p)
}

// StagePackages fetches a one-shot run's packages (req.Packages) with st
// and adds their seed to p; a failure of the packages becomes p's failure.
// Errors: wasmexec.EInvalid (packages in a context, or none can be installed
// here), or st's.
func StagePackages(ctx context.Context, st wasmexec.PackageStager, req *wasmexec.Request, p *wasmexec.Prepared) (*wasmexec.Prepared, error) {
	if len(req.Packages) == 0 {
		return p, nil
	}
	if req.ContextID != "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "packages are for one-shot runs; a context installs with POST /v1/contexts/:id/npm/install")
	}
	if st == nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "packages are not enabled on this server")
	}
	seed, failure, err := st.StagePackages(ctx, req.Packages)
	if err != nil {
		return nil, err
	}
	if failure != nil {
		return &wasmexec.Prepared{Failure: failure}, nil
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
	return wasmexec.Errorf(wasmexec.EInvalid, "format must be module or commonjs, not %q", f)
}

// ValidateFilePath checks a request's filePath: a relative path inside the
// workspace naming a JavaScript or TypeScript file, and no code beside it.
// Errors: wasmexec.EInvalid.
func ValidateFilePath(req *wasmexec.Request) error {
	if t := req.TsconfigPath; t != "" {
		if path.IsAbs(t) || strings.Contains(t, "\\") || path.Clean(t) != t || t == ".." || strings.HasPrefix(t, "../") || path.Ext(t) != ".json" {
			return wasmexec.Errorf(wasmexec.EInvalid, "tsconfigPath must be a clean path relative to the workspace naming a .json file, not %q", t)
		}
	}
	p := req.FilePath
	if p == "" {
		return nil
	}
	if req.Code != "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "code and filePath are exclusive: filePath runs the workspace file instead of code")
	}
	if path.IsAbs(p) || strings.Contains(p, "\\") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return wasmexec.Errorf(wasmexec.EInvalid, "filePath must be a clean path relative to the workspace, not %q", p)
	}
	switch path.Ext(p) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts":
		return nil
	}
	return wasmexec.Errorf(wasmexec.EInvalid, "filePath must name a .js, .mjs, .cjs, .ts or .tsx file, not %q", p)
}

// Control builds the driver request for JS code (TypeScript passes its
// transpiled output and its own file name). A filePath is run by the guest,
// which reads the file (TypeScript included) from the workspace, or, in a
// one-shot run, takes it from the request's Sources (ModuleSources).
func Control(req *wasmexec.Request, code, filename string) wasmexec.ControlRequest {
	ctl := wasmexec.ControlRequest{Op: string(req.Kind), Code: code, Filename: filename, Format: req.Format, FilePath: req.FilePath, TsconfigPath: req.TsconfigPath}
	if req.ContextID == "" && (req.FilePath != "" || req.TsconfigPath != "" || mayLoadModules.MatchString(code)) {
		ctl.Sources = ModuleSources(req.Files)
	}
	return ctl
}

// mayLoadModules finds code that may load a module: code that names none
// of import, export and require gets no Sources (decoding them costs the
// guest more than nothing). A cell reaching require some other way reads
// its modules from the workspace, as in a context.
var mayLoadModules = regexp.MustCompile(`\b(import|export|require)\b`)

// Limits of the files a one-shot run ships to the guest as Sources (after
// the request's JSON, so a copy: wasmexec.ControlRequest.Payload): a file past
// them is read through WASI, as in a context.
const (
	maxSourceFiles     = 64
	maxSourceFileBytes = 1 << 20
	maxSourceBytes     = 4 << 20
)

// guestWorkspace is where the guest sees its workspace.
const guestWorkspace = "/workspace"

// ModuleSources picks the files the JS guest may load as modules (by
// extension: JavaScript, TypeScript, JSON) from a one-shot run's files,
// keyed by their absolute path in the guest, within the limits above (in
// path order, so the choice is the same every time). The guest reads
// them from the request instead of through WASI, a round trip to a host
// thread per call; the runner sends them only when the workspace is the
// run's own (wasmexec.ControlRequest.Sources).
func ModuleSources(files map[string]string) map[string]string {
	if len(files) == 0 {
		return nil
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	var out map[string]string
	total := 0
	for _, name := range names {
		src := files[name]
		p, ok := GuestPath(name)
		if !ok || !moduleFile(p) || len(src) > maxSourceFileBytes || total+len(src) > maxSourceBytes {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[p] = src
		total += len(src)
		if len(out) == maxSourceFiles {
			break
		}
	}
	return out
}

// GuestPath is where the workspace file named rel (as a request's files
// name it: relative, or below /workspace) is in the guest; false for a
// name the workspace would refuse.
func GuestPath(rel string) (string, bool) {
	if strings.IndexByte(rel, 0) >= 0 {
		return "", false
	}
	if rest, ok := strings.CutPrefix(rel, guestWorkspace+"/"); ok {
		rel = rest
	} else if strings.HasPrefix(rel, "/") {
		return "", false
	}
	for _, part := range strings.Split(rel, "/") {
		if part == ".." {
			return "", false
		}
	}
	p := path.Join(guestWorkspace, rel)
	return p, p != guestWorkspace
}

// moduleFile says whether the guest's loader may read p: a module, an
// entry file, a package.json or a tsconfig.json.
func moduleFile(p string) bool {
	switch path.Ext(p) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".json":
		return true
	}
	return false
}
