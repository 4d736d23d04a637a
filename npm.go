package wasmexec

import (
	"context"
	"encoding/json"
)

// NPMInstallRequest is the body of POST /v1/contexts/:id/npm/install: add
// Packages ("name", "name@range", "name@tag"; to devDependencies when Dev),
// or with none install the project from package.json/package-lock.json
// (Frozen: fail when the lock would change), within TimeoutMs.
type NPMInstallRequest struct {
	Packages  []string `json:"packages,omitempty"`
	Dev       bool     `json:"dev,omitempty"`
	Frozen    bool     `json:"frozen,omitempty"`
	TimeoutMs int64    `json:"timeoutMs,omitempty"`
}

// NPMPackage is one package an install put into node_modules.
type NPMPackage struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Integrity string `json:"integrity"`
	// Path is its directory relative to the workspace.
	Path string `json:"path"`
	// Scripts names install scripts it declares, which were not run.
	Scripts []string `json:"scripts,omitempty"`
}

// NPMInstallResult is the answer to an install: its completed execution
// record (kind npm_install, progress lines in stdout, the packages again in
// extra.installed) and the packages installed.
type NPMInstallResult struct {
	*Result
	Installed []NPMPackage `json:"installed"`
}

// PackageStager prepares npm packages for one-shot runs (npm.Client): it
// resolves and fetches them (cached) and returns the seed that copies them
// into a workspace. A failure of the packages themselves (unknown, bad
// integrity, registry down) is failure, a result; err is a service failure
// or the end of ctx.
type PackageStager interface {
	StagePackages(ctx context.Context, packages []string) (seed func(ctx context.Context, dir string) error, failure *ErrorData, err error)
}

// MarshalJSON writes the record with "installed" added: the embedded
// Result's own MarshalJSON would otherwise be promoted and drop it.
func (r NPMInstallResult) MarshalJSON() ([]byte, error) {
	return marshalInstall(r.Result, r.Installed)
}

// UnmarshalJSON reverses MarshalJSON.
func (r *NPMInstallResult) UnmarshalJSON(b []byte) (err error) {
	r.Result, r.Installed, err = unmarshalInstall[NPMPackage](b)
	return err
}

// marshalInstall writes an install's record (npm or pip) with its
// "installed" list added ([] when empty).
func marshalInstall[P any](r *Result, installed []P) ([]byte, error) {
	if installed == nil {
		installed = []P{}
	}
	if r == nil {
		return json.Marshal(struct {
			Installed []P `json:"installed"`
		}{installed})
	}
	base, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	list, err := json.Marshal(installed)
	if err != nil {
		return nil, err
	}
	out := append(base[:len(base)-1:len(base)-1], `,"installed":`...)
	out = append(out, list...)
	return append(out, '}'), nil
}

// unmarshalInstall reverses marshalInstall.
func unmarshalInstall[P any](b []byte) (*Result, []P, error) {
	var res Result
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, nil, err
	}
	var rest struct {
		Installed []P `json:"installed"`
	}
	if err := json.Unmarshal(b, &rest); err != nil {
		return nil, nil, err
	}
	return &res, rest.Installed, nil
}
