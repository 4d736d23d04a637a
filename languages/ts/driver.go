package ts

import (
	"cmp"
	"context"
	"errors"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/languages/js"
)

// Driver is the wasmexec.LanguageDriver for TypeScript: it transpiles on the
// host and runs the JavaScript in the JS guest (so TypeScript shares
// JavaScript's contexts), then maps error positions back to the TypeScript.
type Driver struct {
	// Workers transpile in worker processes: what a server must use. nil
	// transpiles in this process, where hostile code can crash it (tests,
	// the in-process CLI, trusted code).
	Workers *Workers
	// Packages stages a one-shot run's npm packages; nil refuses them.
	Packages wasmexec.PackageStager
	// Modules, when set, converts the run's ES modules on the host ahead
	// of the guest (see ModuleConverter).
	Modules js.ModuleConverter
	// Cache, when set, keeps transpiles by content (see TranspileCache), so
	// code run again skips the transpiler.
	Cache *TranspileCache
}

// Image implements wasmexec.LanguageDriver.
func (d Driver) Image() string { return js.ImageName }

// Prepare implements wasmexec.LanguageDriver, transpiling within ctx (the run's
// deadline). Code the transpiler rejects is a failed result, not a request
// error: code syntax_error (1-based line and UTF-16 column) for a syntax
// error, transpile_failed when the transpiler itself broke on the code
// (crash, out of memory or stack, timeout). Errors: wasmexec.EInvalid (bad
// format), wasmexec.ETooLarge (source over MaxSourceBytes), wasmexec.EUnavailable
// (workers closed), or one wrapping ctx.Err() when ctx ends first.
func (d Driver) Prepare(ctx context.Context, req *wasmexec.Request) (*wasmexec.Prepared, error) {
	if err := js.ValidateFormat(req.Format); err != nil {
		return nil, err
	}
	if err := js.ValidateFilePath(req); err != nil {
		return nil, err
	}
	if req.FilePath != "" {
		// The guest reads and converts the file (and what it imports).
		if err := js.ValidateFilePath(req); err != nil {
			return nil, err
		}
		p := &wasmexec.Prepared{Control: js.Control(req, "", req.FilePath)}
		if d.Modules != nil {
			p.Control.Conversions = d.Modules.ConvertRun(ctx, req.Files, "", "", req.TsconfigText())
		}
		return js.StagePackages(ctx, d.Packages, req, p)
	}
	filename := cmp.Or(req.Filename, DefaultFilename)
	tsconfig := req.TsconfigText()
	if tsconfig != "" {
		tc, err := ParseTsconfig(tsconfig)
		if err != nil {
			return &wasmexec.Prepared{Failure: &wasmexec.ErrorData{Code: wasmexec.CodeException, Name: "Error", Message: "tsconfigPath: " + req.TsconfigPath + " does not parse as JSON: " + err.Error()}}, nil
		}
		if tc.CompilerOptions.JSX != "" && filename == DefaultFilename {
			filename = "main.tsx" // jsx applies to code named .tsx
		}
	}
	var p *Program
	var err error
	if d.Cache != nil {
		p, err = d.Cache.Transpile(ctx, req.Code, filename, tsconfig, d.transpile)
	} else {
		p, err = d.transpile(ctx, req.Code, filename, tsconfig)
	}
	if err != nil {
		var se *SyntaxError
		var te *TranspileError
		switch {
		case errors.As(err, &se):
			return &wasmexec.Prepared{Failure: se.ErrorData()}, nil
		case errors.As(err, &te):
			return &wasmexec.Prepared{Failure: te.ErrorData()}, nil
		}
		return nil, err
	}
	ctl := js.Control(req, p.JS, p.Filename)
	if d.Modules != nil {
		ctl.Conversions = d.Modules.ConvertRun(ctx, req.Files, p.JS, p.Filename, tsconfig)
	}
	return js.StagePackages(ctx, d.Packages, req, &wasmexec.Prepared{
		Control: ctl,
		Finish: func(r *wasmexec.Result) {
			if r.Error != nil {
				r.Error = p.MapErrorData(r.Error)
			}
		},
	})
}

// transpile is the driver's transpiler: its Workers, else this process.
func (d Driver) transpile(ctx context.Context, code, filename, tsconfig string) (*Program, error) {
	if d.Workers != nil {
		return d.Workers.TranspileWith(ctx, code, filename, tsconfig)
	}
	return TranspileWith(code, filename, tsconfig)
}
