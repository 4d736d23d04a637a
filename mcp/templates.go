package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
)

// CreateTemplateInput is the input of create_template.
type CreateTemplateInput struct {
	Language   string            `json:"language" jsonschema:"javascript, typescript or python"`
	TemplateID string            `json:"templateId,omitempty" jsonschema:"the id to use (1-64 of A-Z a-z 0-9 _ -); generated when absent"`
	Packages   []string          `json:"packages,omitempty" jsonschema:"npm packages (javascript, typescript) or pip requirements (python) to install"`
	Files      map[string]string `json:"files,omitempty" jsonschema:"files to write into /workspace: path to UTF-8 content"`
	SetupCode  string            `json:"setupCode,omitempty" jsonschema:"code run once in the template's sandbox (e.g. its imports); what it defines is there in every run from it"`
	Env        map[string]string `json:"env,omitempty" jsonschema:"environment variables of the sandboxes started from it"`
	TimeoutMs  int64             `json:"timeoutMs,omitempty" jsonschema:"the build's timeout in milliseconds"`
}

// TemplateOutput is a template descriptor (as GET /v1/templates/:id).
type TemplateOutput struct {
	TemplateID     string                     `json:"templateId"`
	Language       string                     `json:"language"`
	State          string                     `json:"state" jsonschema:"building, ready or failed"`
	Implicit       bool                       `json:"implicit,omitempty"`
	Packages       []wasmexec.TemplatePackage `json:"packages"`
	StateBytes     int64                      `json:"stateBytes"`
	WorkspaceBytes int64                      `json:"workspaceBytes"`
	Error          *wasmexec.ErrorData        `json:"error,omitempty"`
}

func templateOutput(d *wasmexec.Template) TemplateOutput {
	return TemplateOutput{TemplateID: d.TemplateID, Language: string(d.Language), State: string(d.State), Implicit: d.Implicit, Packages: d.Packages,
		StateBytes: d.StateBytes, WorkspaceBytes: d.WorkspaceBytes, Error: d.Error}
}

func (t *tools) createTemplate(ctx context.Context, _ *sdk.CallToolRequest, in CreateTemplateInput) (*sdk.CallToolResult, TemplateOutput, error) {
	d, err := t.cfg.Templates.Create(ctx, &wasmexec.TemplateSpec{TemplateID: in.TemplateID, Language: wasmexec.Language(in.Language), Packages: in.Packages, Files: in.Files, SetupCode: in.SetupCode, Env: in.Env, TimeoutMs: in.TimeoutMs})
	if err != nil {
		return nil, TemplateOutput{}, toolError(err)
	}
	return text(fmt.Sprintf("template %s (%s) is %s; run_code with template %q starts from it once it is ready (and waits for it until then)", d.TemplateID, d.Language, d.State, d.TemplateID)), templateOutput(d), nil
}

// ListTemplatesOutput lists templates.
type ListTemplatesOutput struct {
	Templates []TemplateOutput `json:"templates"`
}

func (t *tools) listTemplates(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, ListTemplatesOutput, error) {
	list, err := t.cfg.Templates.List(ctx)
	if err != nil {
		return nil, ListTemplatesOutput{}, toolError(err)
	}
	out := ListTemplatesOutput{Templates: []TemplateOutput{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%d templates", len(list))
	for _, d := range list {
		out.Templates = append(out.Templates, templateOutput(d))
		fmt.Fprintf(&b, "\n%s %s %s", d.TemplateID, d.Language, d.State)
		for _, p := range d.Packages {
			fmt.Fprintf(&b, " %s@%s", p.Name, p.Version)
		}
		if d.Error != nil {
			fmt.Fprintf(&b, " (%s: %s)", d.Error.Code, d.Error.Message)
		}
	}
	return text(b.String()), out, nil
}
