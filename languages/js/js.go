// Package js runs JavaScript in the goja guest (guest-images/js).
package js

import (
	"context"

	"github.com/wasmexec/wasmexec/exec"
)

// ImageName is the guest image JavaScript (and transpiled TypeScript) runs in.
const ImageName = "js"

// Driver is the exec.LanguageDriver for JavaScript.
type Driver struct{}

// Image implements exec.LanguageDriver.
func (Driver) Image() string { return ImageName }

// Prepare implements exec.LanguageDriver.
func (Driver) Prepare(_ context.Context, req *exec.Request) (*exec.Prepared, error) {
	if err := ValidateFormat(req.Format); err != nil {
		return nil, err
	}
	return &exec.Prepared{Control: Control(req, req.Code, "main.js")}, nil
}

// ValidateFormat accepts the JS/TS source formats.
func ValidateFormat(f string) error {
	switch f {
	case "", "module", "commonjs":
		return nil
	}
	return exec.Errorf(exec.EInvalid, "format must be module or commonjs, not %q", f)
}

// Control builds the driver request for JS code (TypeScript passes its
// transpiled output and its own file name).
func Control(req *exec.Request, code, filename string) exec.ControlRequest {
	return exec.ControlRequest{Op: string(req.Kind), Code: code, Filename: filename, Format: req.Format}
}
