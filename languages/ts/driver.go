package ts

import (
	"context"
	"errors"

	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/languages/js"
)

// Driver is the exec.LanguageDriver for TypeScript: it transpiles on the
// host and runs the JavaScript in the JS guest (so TypeScript shares
// JavaScript's contexts), then maps error positions back to the TypeScript.
type Driver struct {
	// Workers, when set, transpile in worker processes (the server); nil
	// transpiles in this process (tests, in-process CLI).
	Workers *Workers
}

// Image implements exec.LanguageDriver.
func (d Driver) Image() string { return js.ImageName }

// Prepare implements exec.LanguageDriver. A syntax error is a failed result
// (code syntax_error, 1-based line and UTF-16 column), not a request error.
func (d Driver) Prepare(ctx context.Context, req *exec.Request) (*exec.Prepared, error) {
	if err := js.ValidateFormat(req.Format); err != nil {
		return nil, err
	}
	var p *Program
	var err error
	if d.Workers != nil {
		p, err = d.Workers.Transpile(ctx, req.Code, DefaultFilename)
	} else {
		p, err = Transpile(req.Code, DefaultFilename)
	}
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return &exec.Prepared{Failure: se.ErrorData()}, nil
		}
		return nil, err
	}
	return &exec.Prepared{
		Control: js.Control(req, p.JS, p.Filename),
		Finish: func(r *exec.Result) {
			if r.Error != nil {
				r.Error = p.MapErrorData(r.Error)
			}
		},
	}, nil
}
