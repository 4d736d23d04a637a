package wasmexec

// PipInstallRequest is the body of POST /v1/contexts/:id/pip/install:
// install Packages (PEP 508 requirements) or the requirements file at
// RequirementsFile (a workspace path) from IndexURL and ExtraIndexURLs
// (each must be an index the server allows), within TimeoutMs. Upgrade
// prefers the newest versions over those already installed.
type PipInstallRequest struct {
	Packages         []string `json:"packages,omitempty"`
	RequirementsFile string   `json:"requirementsFile,omitempty"`
	IndexURL         string   `json:"indexUrl,omitempty"`
	ExtraIndexURLs   []string `json:"extraIndexUrls,omitempty"`
	Upgrade          bool     `json:"upgrade,omitempty"`
	TimeoutMs        int64    `json:"timeoutMs,omitempty"`
}

// PipPackage is one package (distribution) an install resolved: its wheel
// is identified by SHA256.
type PipPackage struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	SHA256  string `json:"sha256"`
}

// PipInstallResult is the answer to an install: its completed execution
// record (kind pip_install, progress lines in stdout, the packages again
// in extra.installed) and the packages the install resolved.
type PipInstallResult struct {
	*Result
	Installed []PipPackage `json:"installed"`
}

// MarshalJSON writes the record with "installed" added.
func (r PipInstallResult) MarshalJSON() ([]byte, error) {
	return marshalInstall(r.Result, r.Installed)
}

// UnmarshalJSON reverses MarshalJSON.
func (r *PipInstallResult) UnmarshalJSON(b []byte) (err error) {
	r.Result, r.Installed, err = unmarshalInstall[PipPackage](b)
	return err
}
