// Package python runs Python in the CPython guest (guest-images/python).
package python

import (
	"context"

	"github.com/wasmexec/wasmexec/exec"
)

// ImageName is the guest image Python runs in.
const ImageName = "python"

// Driver is the exec.LanguageDriver for Python.
type Driver struct{}

// Image implements exec.LanguageDriver.
func (Driver) Image() string { return ImageName }

// Prepare implements exec.LanguageDriver. Evaluate has REPL semantics (the
// value of a final expression statement); execute runs the code as
// __main__ with args in sys.argv.
func (Driver) Prepare(_ context.Context, req *exec.Request) (*exec.Prepared, error) {
	if req.Format != "" {
		return nil, exec.Errorf(exec.EInvalid, "format applies to JavaScript and TypeScript only")
	}
	return &exec.Prepared{Control: exec.ControlRequest{Op: string(req.Kind), Code: req.Code, Filename: "main.py"}}, nil
}
