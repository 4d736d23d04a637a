package exec

import "context"

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
