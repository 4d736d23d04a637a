package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
)

// NPMInstallInput installs packages into a context.
type NPMInstallInput struct {
	ContextID string   `json:"contextId" jsonschema:"the context whose workspace gets the packages"`
	Packages  []string `json:"packages,omitempty" jsonschema:"name, name@range or name@tag; none: install the project from package.json"`
	Dev       bool     `json:"dev,omitempty" jsonschema:"add them to devDependencies"`
	Frozen    bool     `json:"frozen,omitempty" jsonschema:"fail when package-lock.json would change"`
	TimeoutMs int64    `json:"timeoutMs,omitempty" jsonschema:"wall-clock deadline of the install"`
}

// InstallOutput is a completed install (npm or pip) with its packages.
type InstallOutput[P any] struct {
	ExecutionID string              `json:"executionId"`
	Outcome     wasmexec.Outcome    `json:"outcome"`
	Installed   []P                 `json:"installed"`
	Stdout      string              `json:"stdout,omitempty"`
	Error       *wasmexec.ErrorData `json:"error,omitempty"`
}

// NPMInstallOutput is the completed npm install.
type NPMInstallOutput = InstallOutput[wasmexec.NPMPackage]

// installAnswer is the tool result of an install: a line for the model
// and the record.
func installAnswer[P any](tool, contextID string, res *wasmexec.Result, installed []P) (*sdk.CallToolResult, InstallOutput[P]) {
	out := InstallOutput[P]{Installed: installed}
	if out.Installed == nil {
		out.Installed = []P{}
	}
	if res != nil {
		out.ExecutionID, out.Outcome, out.Error = res.ExecutionID, res.Outcome, res.Error
		if res.Stdout != nil {
			out.Stdout = *res.Stdout
		}
	}
	msg := fmt.Sprintf("%s in %s: %s, %d packages", tool, contextID, out.Outcome, len(out.Installed))
	if out.Error != nil {
		msg += ": " + out.Error.Message
	}
	r := text(msg)
	r.IsError = out.Outcome != wasmexec.Succeeded
	return r, out
}

func (t *tools) npmInstall(ctx context.Context, call *sdk.CallToolRequest, in NPMInstallInput) (*sdk.CallToolResult, NPMInstallOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, NPMInstallOutput{}, err
	}
	// Contexts is guarded per tenant: another tenant's id is not found.
	if _, err := cs.Get(ctx, in.ContextID); err != nil {
		return nil, NPMInstallOutput{}, toolError(err)
	}
	if p := newProgress(call); p != nil {
		ctx = wasmexec.WithInstallProgress(ctx, p.line(ctx))
	}
	res, err := t.cfg.NPM.Install(ctx, in.ContextID, &wasmexec.NPMInstallRequest{Packages: in.Packages, Dev: in.Dev, Frozen: in.Frozen, TimeoutMs: in.TimeoutMs})
	if err != nil {
		return nil, NPMInstallOutput{}, toolError(err)
	}
	r, out := installAnswer("npm install", in.ContextID, res.Result, res.Installed)
	return r, out, nil
}

// PipInstallInput installs Python packages into a context.
type PipInstallInput struct {
	ContextID        string   `json:"contextId" jsonschema:"the Python context that gets the packages"`
	Packages         []string `json:"packages,omitempty" jsonschema:"PEP 508 requirements: name, name==1.2, name>=1,<2"`
	RequirementsFile string   `json:"requirementsFile,omitempty" jsonschema:"instead of packages: a requirements.txt in the workspace"`
	Upgrade          bool     `json:"upgrade,omitempty" jsonschema:"prefer the newest versions over the installed ones"`
	TimeoutMs        int64    `json:"timeoutMs,omitempty" jsonschema:"wall-clock deadline of the install"`
}

// PipInstallOutput is the completed pip install.
type PipInstallOutput = InstallOutput[wasmexec.PipPackage]

func (t *tools) pipInstall(ctx context.Context, call *sdk.CallToolRequest, in PipInstallInput) (*sdk.CallToolResult, PipInstallOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, PipInstallOutput{}, err
	}
	// Contexts is guarded per tenant: another tenant's id is not found.
	d, err := cs.Get(ctx, in.ContextID)
	if err != nil {
		return nil, PipInstallOutput{}, toolError(err)
	}
	if d.Language != "" && d.Language != wasmexec.Python {
		return nil, PipInstallOutput{}, toolError(wasmexec.Errorf(wasmexec.ELanguageMismatch, "context %q is a %s context; pip_install is for python contexts", in.ContextID, d.Language))
	}
	if p := newProgress(call); p != nil {
		ctx = wasmexec.WithInstallProgress(ctx, p.line(ctx))
	}
	res, err := t.cfg.Pip.Install(ctx, in.ContextID, &wasmexec.PipInstallRequest{Packages: in.Packages, RequirementsFile: in.RequirementsFile, Upgrade: in.Upgrade, TimeoutMs: in.TimeoutMs})
	if err != nil {
		return nil, PipInstallOutput{}, toolError(err)
	}
	r, out := installAnswer("pip install", in.ContextID, res.Result, res.Installed)
	return r, out, nil
}
