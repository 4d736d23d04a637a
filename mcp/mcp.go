// Package mcp serves wasmexec to agents as a Model Context Protocol server
// (Streamable HTTP transport, mounted by server/ at /mcp).
//
// Its tools call the same services as the HTTP API (a server.Runner, the
// server.Contexts manager, the server.Checker), so runs get the same
// limits, the same queue and the same execution history. Each tool result
// carries a short text for the model and the structured result (the same
// JSON document the HTTP API returns where there is one).
//
// A service error (unknown context, bad argument, overload) is a tool
// result with isError set and the text "<code>: <message>", and so are
// arguments that don't match a tool's input schema (the 2025-11-25 spec:
// the model can correct itself); unknown tools are JSON-RPC errors in a
// 200 response, and messages the transport refuses (not JSON: -32700, an
// unknown method: -32601, over the body limit and the rest: -32600) are a
// 4xx with a JSON-RPC error without an id (rpcErrors).
package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/server"
)

// Version is reported as the server's implementation version.
const Version = "1"

// Config wires the tools. Optional services left nil make their tools
// answer not_implemented.
type Config struct {
	Runner   server.Runner
	Contexts server.Contexts
	Checker  server.Checker
	// NPM, when set, adds the npm_install tool.
	NPM server.NPM
	// Pip, when set, adds the pip_install tool.
	Pip server.Pip
	// Templates, when set, adds create_template and list_templates.
	Templates server.Templates
	// BodyLimit caps one MCP message (default 16 MiB, like the HTTP API).
	BodyLimit int64
	// RebindingProtection refuses requests that arrive on a loopback
	// address with a non-loopback Host header (DNS rebinding: a web page
	// driving a local server). On for open servers; a server with API keys
	// may sit behind a reverse proxy on the same host and leaves it off.
	RebindingProtection bool
	Logger              *slog.Logger
}

// Handler returns the Streamable HTTP handler serving the tools. It is
// stateless: every POST is a whole request, so any replica (and any
// request-scoped auth) can answer it.
func Handler(cfg Config) http.Handler {
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = 16 << 20
	}
	s := NewServer(cfg)
	return rpcErrors(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		Logger:                       cfg.Logger,
		MaxRequestBodyBytes:          cfg.BodyLimit,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   !cfg.RebindingProtection,
	}))
}

// NewServer returns the MCP server with every tool added.
func NewServer(cfg Config) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "wasmexec", Title: "wasmexec: run untrusted code in WebAssembly sandboxes", Version: Version}, &sdk.ServerOptions{
		Instructions: "Run JavaScript, TypeScript or Python in isolated WebAssembly sandboxes. " +
			"Use run_code for one-shot snippets; create_context for state kept between calls (variables, files in /workspace).",
		Logger: cfg.Logger,
	})
	t := &tools{cfg: cfg}
	sdk.AddTool(s, &sdk.Tool{Name: "run_code", Description: "Run code in a sandbox and return its value (evaluate: the completion value of the last expression, as JSON), stdout, stderr and outcome (succeeded, failed, cancelled, timed_out; failed comes with error {code, message}). Give contextId to run inside a context created by create_context, keeping state between calls."}, t.runCode)
	sdk.AddTool(s, &sdk.Tool{Name: "create_context", Description: "Create an execution context: a long-lived sandbox pinned to a language (javascript and typescript share one) whose globals and /workspace files persist across run_code calls."}, t.createContext)
	sdk.AddTool(s, &sdk.Tool{Name: "delete_context", Description: "Delete an execution context, its sandbox and its files."}, t.deleteContext)
	sdk.AddTool(s, &sdk.Tool{Name: "reset_context", Description: "Replace a context's sandbox with a fresh one (globals are lost, /workspace files kept)."}, t.resetContext)
	sdk.AddTool(s, &sdk.Tool{Name: "fork_context", Description: "Copy a context: a new context with the same globals (state as of now, taken between runs) and a copy of its /workspace files; the two are independent afterwards. Useful to try alternatives from one state."}, t.forkContext)
	sdk.AddTool(s, &sdk.Tool{Name: "list_contexts", Description: "List the execution contexts."}, t.listContexts)
	sdk.AddTool(s, &sdk.Tool{Name: "typescript_check", Description: "Type-check TypeScript without running it: diagnostics with 1-based line and column. Type errors are outcome succeeded with hasErrors true."}, t.typescriptCheck)
	sdk.AddTool(s, &sdk.Tool{Name: "read_file", Description: "Read a file from a context's /workspace. Text comes back as utf8; other bytes as base64."}, t.readFile)
	sdk.AddTool(s, &sdk.Tool{Name: "write_file", Description: "Write a file into a context's /workspace (parents are created; within the workspace quota)."}, t.writeFile)
	sdk.AddTool(s, &sdk.Tool{Name: "list_files", Description: "List the entries of a directory of a context's /workspace."}, t.listFiles)
	if cfg.NPM != nil {
		sdk.AddTool(s, &sdk.Tool{Name: "npm_install", Description: "Install npm packages (\"lodash@4.17.21\", \"zod\") into a JavaScript/TypeScript context's /workspace/node_modules, so its code can import or require them; with no packages, install the project from package.json/package-lock.json. All or nothing; install scripts are never run."}, t.npmInstall)
	}
	if cfg.Templates != nil {
		sdk.AddTool(s, &sdk.Tool{Name: "create_template", Description: "Build a template: a sandbox prepared once (packages installed, files written, setupCode run, e.g. \"import sympy, openpyxl\" or \"const z = require('zod')\") and kept, so that run_code and create_context with template start from it in milliseconds, its imports done. The build goes on in the background: state building, then ready or failed (see list_templates); runs naming it wait for it."}, t.createTemplate)
		sdk.AddTool(s, &sdk.Tool{Name: "list_templates", Description: "List the templates: id, language, state (building, ready, failed), packages with their versions, and size."}, t.listTemplates)
	}
	if cfg.Pip != nil {
		sdk.AddTool(s, &sdk.Tool{Name: "pip_install", Description: "Install Python packages (\"attrs==23.1.0\", \"tomli\") into a Python context, so its code can import them: pure-Python wheels only (packages with C extensions such as numpy can't run in the sandbox), or a requirements file from /workspace. All or nothing; no package code runs at install."}, t.pipInstall)
	}
	return s
}

type tools struct{ cfg Config }

// RunCodeInput is the input of run_code.
type RunCodeInput struct {
	Language  string            `json:"language" jsonschema:"javascript, typescript or python"`
	Code      string            `json:"code" jsonschema:"the source code to run"`
	Mode      string            `json:"mode,omitempty" jsonschema:"evaluate (default: returns the value of the last expression) or execute (runs the code as a program; stdin and args apply)"`
	ContextID string            `json:"contextId,omitempty" jsonschema:"run inside this context (create_context) instead of a fresh sandbox"`
	Template  string            `json:"template,omitempty" jsonschema:"start the fresh sandbox from this template (create_template): its imports and files are there already"`
	Inputs    map[string]any    `json:"inputs,omitempty" jsonschema:"JSON object exposed to the code as the read-only global inputs"`
	Files     map[string]string `json:"files,omitempty" jsonschema:"files to write into /workspace before running: path to UTF-8 content"`
	Stdin     string            `json:"stdin,omitempty" jsonschema:"standard input"`
	Args      []string          `json:"args,omitempty" jsonschema:"program arguments (execute)"`
	TimeoutMs int64             `json:"timeoutMs,omitempty" jsonschema:"wall-clock timeout in milliseconds (at most the server's maximum)"`
	Network   []string          `json:"network,omitempty" jsonschema:"hosts the code may reach over HTTP(S) through the host (fetch, urllib), e.g. api.example.com or *.example.org; within the server's --network-allow"`
}

// RunCodeOutput is the structured result of run_code: the execution record
// of the HTTP API, less its bookkeeping.
type RunCodeOutput struct {
	ExecutionID     string          `json:"executionId"`
	Outcome         string          `json:"outcome" jsonschema:"succeeded, failed, cancelled or timed_out"`
	Value           any             `json:"value,omitempty" jsonschema:"evaluate: the completion value of the last expression"`
	Error           *exec.ErrorData `json:"error,omitempty"`
	ExitCode        int             `json:"exitCode"`
	Stdout          string          `json:"stdout"`
	Stderr          string          `json:"stderr"`
	StdoutTruncated bool            `json:"stdoutTruncated,omitempty"`
	StderrTruncated bool            `json:"stderrTruncated,omitempty"`
	DurationMs      float64         `json:"durationMs"`
	ContextID       string          `json:"contextId,omitempty"`
	ContextReset    bool            `json:"contextReset,omitempty"`
}

func (t *tools) runCode(ctx context.Context, _ *sdk.CallToolRequest, in RunCodeInput) (*sdk.CallToolResult, RunCodeOutput, error) {
	req := exec.Request{
		Kind: exec.KindEvaluate, Language: exec.Language(in.Language), Code: in.Code, ContextID: in.ContextID, Template: in.Template,
		Files: in.Files, Stdin: in.Stdin, Args: in.Args, TimeoutMs: in.TimeoutMs,
	}
	if len(in.Network) > 0 {
		req.Network = &exec.Network{Allow: in.Network}
	}
	switch in.Mode {
	case "", "evaluate":
	case "execute":
		req.Kind = exec.KindExecute
	default:
		return nil, RunCodeOutput{}, exec.Errorf(exec.EInvalid, "mode must be evaluate or execute, not %q", in.Mode)
	}
	if in.Inputs != nil {
		b, err := json.Marshal(in.Inputs)
		if err != nil {
			return nil, RunCodeOutput{}, exec.Errorf(exec.EInvalid, "inputs: %v", err)
		}
		req.Inputs = b
	}
	if req.Language == "" || req.Code == "" {
		return nil, RunCodeOutput{}, exec.Errorf(exec.EInvalid, "language and code are required")
	}
	var (
		res *exec.Result
		err error
	)
	if req.ContextID != "" {
		if t.cfg.Contexts == nil {
			return nil, RunCodeOutput{}, exec.Errorf(exec.EInvalid, "execution contexts are not enabled on this server")
		}
		res, err = t.cfg.Contexts.Run(ctx, &req)
	} else {
		res, err = t.cfg.Runner.Run(ctx, &req, exec.RunOptions{})
	}
	if err != nil {
		return nil, RunCodeOutput{}, toolError(err)
	}
	out := RunCodeOutput{
		ExecutionID: res.ExecutionID, Outcome: string(res.Outcome), Error: res.Error, ExitCode: res.ExitCode,
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated, DurationMs: res.DurationMs,
		ContextID: res.ContextID, ContextReset: res.ContextReset,
	}
	if res.Stdout != nil {
		out.Stdout = *res.Stdout
	}
	if res.Stderr != nil {
		out.Stderr = *res.Stderr
	}
	if len(res.Value) > 0 {
		if err := json.Unmarshal(res.Value, &out.Value); err != nil {
			out.Value = string(res.Value)
		}
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: runText(&out, res.Value)}}, IsError: out.Outcome != string(exec.Succeeded)}, out, nil
}

// runText is what the model reads of a run.
func runText(o *RunCodeOutput, value json.RawMessage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "outcome: %s", o.Outcome)
	if o.Error != nil {
		fmt.Fprintf(&b, "\nerror: %s: %s", o.Error.Code, o.Error.Message)
		if o.Error.Stack != "" {
			fmt.Fprintf(&b, "\n%s", o.Error.Stack)
		}
	}
	if len(value) > 0 {
		fmt.Fprintf(&b, "\nvalue: %s", value)
	}
	if o.ExitCode != 0 {
		fmt.Fprintf(&b, "\nexitCode: %d", o.ExitCode)
	}
	if o.Stdout != "" {
		fmt.Fprintf(&b, "\nstdout:\n%s", o.Stdout)
	}
	if o.Stderr != "" {
		fmt.Fprintf(&b, "\nstderr:\n%s", o.Stderr)
	}
	return b.String()
}

// CreateContextInput is the input of create_context.
type CreateContextInput struct {
	Language    string            `json:"language,omitempty" jsonschema:"javascript, typescript or python (required unless template is given)"`
	ContextID   string            `json:"contextId,omitempty" jsonschema:"the id to use (1-64 of A-Z a-z 0-9 _ -); generated when absent"`
	Env         map[string]string `json:"env,omitempty" jsonschema:"environment variables, fixed for the context's life"`
	MemoryBytes int64             `json:"memoryBytes,omitempty" jsonschema:"memory limit of the context's sandbox"`
	Template    string            `json:"template,omitempty" jsonschema:"start the context from this template (create_template): its globals and files; its language, env and memory limit are the template's"`
}

// ContextIDInput names one context.
type ContextIDInput struct {
	ContextID string `json:"contextId" jsonschema:"the context's id"`
}

// ContextOutput is a context descriptor (as GET /v1/contexts/:id).
type ContextOutput struct {
	ContextID   string `json:"contextId"`
	Language    string `json:"language"`
	State       string `json:"state" jsonschema:"idle, running, resetting, deleting or failed"`
	CreatedAtMs int64  `json:"createdAtMs"`
	MemoryBytes int64  `json:"memoryBytes"`
	Runs        int64  `json:"runs"`
	Resets      int64  `json:"resets"`
}

func contextOutput(c *exec.Context) ContextOutput {
	return ContextOutput{ContextID: c.ContextID, Language: string(c.Language), State: string(c.State), CreatedAtMs: c.CreatedAtMs, MemoryBytes: c.MemoryBytes, Runs: c.Runs, Resets: c.Resets}
}

func (t *tools) contexts() (server.Contexts, error) {
	if t.cfg.Contexts == nil {
		return nil, exec.Errorf("not_implemented", "execution contexts are not enabled on this server")
	}
	return t.cfg.Contexts, nil
}

func (t *tools) createContext(ctx context.Context, _ *sdk.CallToolRequest, in CreateContextInput) (*sdk.CallToolResult, ContextOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, ContextOutput{}, err
	}
	if in.Language == "" && in.Template == "" {
		return nil, ContextOutput{}, toolError(exec.Errorf(exec.EInvalid, "language (or template) is required"))
	}
	c, err := cs.Create(ctx, &exec.ContextSpec{ContextID: in.ContextID, Language: exec.Language(in.Language), Env: in.Env, Limits: exec.Limits{MemoryBytes: in.MemoryBytes}, Template: in.Template})
	if err != nil {
		return nil, ContextOutput{}, toolError(err)
	}
	return text(fmt.Sprintf("created context %s (%s)", c.ContextID, c.Language)), contextOutput(c), nil
}

// DeleteOutput confirms a deletion.
type DeleteOutput struct {
	ContextID string `json:"contextId"`
	Deleted   bool   `json:"deleted"`
}

func (t *tools) deleteContext(ctx context.Context, _ *sdk.CallToolRequest, in ContextIDInput) (*sdk.CallToolResult, DeleteOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, DeleteOutput{}, err
	}
	if err := cs.Delete(ctx, in.ContextID); err != nil {
		return nil, DeleteOutput{}, toolError(err)
	}
	return text("deleted context " + in.ContextID), DeleteOutput{ContextID: in.ContextID, Deleted: true}, nil
}

func (t *tools) resetContext(ctx context.Context, _ *sdk.CallToolRequest, in ContextIDInput) (*sdk.CallToolResult, ContextOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, ContextOutput{}, err
	}
	c, err := cs.Reset(ctx, in.ContextID)
	if err != nil {
		return nil, ContextOutput{}, toolError(err)
	}
	return text("reset context " + c.ContextID), contextOutput(c), nil
}

// ForkContextInput names the context to copy and, optionally, the copy.
type ForkContextInput struct {
	ContextID string `json:"contextId" jsonschema:"the context to copy"`
	NewID     string `json:"newContextId,omitempty" jsonschema:"the new context's id (generated when empty)"`
}

func (t *tools) forkContext(ctx context.Context, _ *sdk.CallToolRequest, in ForkContextInput) (*sdk.CallToolResult, ContextOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, ContextOutput{}, err
	}
	c, err := cs.Fork(ctx, in.ContextID, &exec.ForkSpec{ContextID: in.NewID})
	if err != nil {
		return nil, ContextOutput{}, toolError(err)
	}
	return text("forked context " + in.ContextID + " into " + c.ContextID), contextOutput(c), nil
}

// ListContextsOutput lists contexts.
type ListContextsOutput struct {
	Contexts []ContextOutput `json:"contexts"`
}

func (t *tools) listContexts(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, ListContextsOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, ListContextsOutput{}, err
	}
	list, err := cs.List(ctx)
	if err != nil {
		return nil, ListContextsOutput{}, toolError(err)
	}
	out := ListContextsOutput{Contexts: []ContextOutput{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%d contexts", len(list))
	for _, c := range list {
		out.Contexts = append(out.Contexts, contextOutput(c))
		fmt.Fprintf(&b, "\n%s %s %s", c.ContextID, c.Language, c.State)
	}
	return text(b.String()), out, nil
}

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
	TemplateID     string                 `json:"templateId"`
	Language       string                 `json:"language"`
	State          string                 `json:"state" jsonschema:"building, ready or failed"`
	Implicit       bool                   `json:"implicit,omitempty"`
	Packages       []exec.TemplatePackage `json:"packages"`
	StateBytes     int64                  `json:"stateBytes"`
	WorkspaceBytes int64                  `json:"workspaceBytes"`
	Error          *exec.ErrorData        `json:"error,omitempty"`
}

func templateOutput(d *exec.Template) TemplateOutput {
	return TemplateOutput{TemplateID: d.TemplateID, Language: string(d.Language), State: string(d.State), Implicit: d.Implicit, Packages: d.Packages,
		StateBytes: d.StateBytes, WorkspaceBytes: d.WorkspaceBytes, Error: d.Error}
}

func (t *tools) createTemplate(ctx context.Context, _ *sdk.CallToolRequest, in CreateTemplateInput) (*sdk.CallToolResult, TemplateOutput, error) {
	d, err := t.cfg.Templates.Create(ctx, &exec.TemplateSpec{TemplateID: in.TemplateID, Language: exec.Language(in.Language), Packages: in.Packages, Files: in.Files, SetupCode: in.SetupCode, Env: in.Env, TimeoutMs: in.TimeoutMs})
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

// CheckInput is the input of typescript_check.
type CheckInput struct {
	Code      string            `json:"code,omitempty" jsonschema:"one TypeScript file to check (or give files)"`
	Files     map[string]string `json:"files,omitempty" jsonschema:"a project: path to content"`
	FilePath  string            `json:"filePath,omitempty" jsonschema:"the name of code in diagnostics (default main.ts)"`
	TimeoutMs int64             `json:"timeoutMs,omitempty"`
	// CompilerOptions and TypeScriptVersion are those of POST /v1/typescript/check.
	CompilerOptions   map[string]any `json:"compilerOptions,omitempty" jsonschema:"compilerOptions as in a tsconfig.json (TypeScript 7's)"`
	TypeScriptVersion string         `json:"typescriptVersion,omitempty" jsonschema:"7 (default) or 5.9"`
}

// Diagnostic is one TypeScript diagnostic.
type Diagnostic struct {
	Code     int    `json:"code"`
	Category string `json:"category"`
	Message  string `json:"message"`
	FilePath string `json:"filePath,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
}

// CheckOutput is the structured result of typescript_check.
type CheckOutput struct {
	Outcome           string       `json:"outcome"`
	HasErrors         bool         `json:"hasErrors"`
	Diagnostics       []Diagnostic `json:"diagnostics"`
	TypeScriptVersion string       `json:"typeScriptVersion,omitempty"`
}

func (t *tools) typescriptCheck(ctx context.Context, _ *sdk.CallToolRequest, in CheckInput) (*sdk.CallToolResult, CheckOutput, error) {
	if t.cfg.Checker == nil {
		return nil, CheckOutput{}, exec.Errorf("not_implemented", "the TypeScript checker is not enabled on this server")
	}
	if (in.Code == "") == (len(in.Files) == 0) {
		return nil, CheckOutput{}, exec.Errorf(exec.EInvalid, "give code or files (one of them)")
	}
	req := &server.CheckRequest{Code: in.Code, Files: in.Files, FilePath: in.FilePath, TimeoutMs: in.TimeoutMs, TypeScriptVersion: in.TypeScriptVersion}
	if len(in.CompilerOptions) > 0 {
		b, err := json.Marshal(in.CompilerOptions)
		if err != nil {
			return nil, CheckOutput{}, exec.Errorf(exec.EInvalid, "compilerOptions: %v", err)
		}
		req.CompilerOptions = b
	}
	res, err := t.cfg.Checker.Check(ctx, req)
	if err != nil {
		return nil, CheckOutput{}, toolError(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	var out CheckOutput
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, CheckOutput{}, err
	}
	if out.Diagnostics == nil {
		out.Diagnostics = []Diagnostic{}
	}
	var tb strings.Builder
	fmt.Fprintf(&tb, "outcome: %s, hasErrors: %v, %d diagnostics", out.Outcome, out.HasErrors, len(out.Diagnostics))
	for _, d := range out.Diagnostics {
		fmt.Fprintf(&tb, "\n%s:%d:%d %s TS%d: %s", d.FilePath, d.Line, d.Column, d.Category, d.Code, d.Message)
	}
	return text(tb.String()), out, nil
}

// ReadFileInput is the input of read_file.
type ReadFileInput struct {
	ContextID string `json:"contextId"`
	Path      string `json:"path" jsonschema:"path relative to /workspace"`
}

// FileOutput is a file's content.
type FileOutput struct {
	Path     string `json:"path"`
	Content  string `json:"content"`
	Encoding string `json:"encoding" jsonschema:"utf8 or base64"`
	Size     int    `json:"size"`
}

func (t *tools) readFile(ctx context.Context, _ *sdk.CallToolRequest, in ReadFileInput) (*sdk.CallToolResult, FileOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, FileOutput{}, err
	}
	b, err := cs.ReadFile(ctx, in.ContextID, in.Path)
	if err != nil {
		return nil, FileOutput{}, toolError(err)
	}
	out := FileOutput{Path: in.Path, Size: len(b), Encoding: "utf8", Content: string(b)}
	if !utf8.Valid(b) {
		out.Encoding, out.Content = "base64", base64.StdEncoding.EncodeToString(b)
	}
	return text(out.Content), out, nil
}

// WriteFileInput is the input of write_file.
type WriteFileInput struct {
	ContextID string `json:"contextId"`
	Path      string `json:"path" jsonschema:"path relative to /workspace"`
	Content   string `json:"content"`
	Encoding  string `json:"encoding,omitempty" jsonschema:"utf8 (default) or base64"`
}

// FileEntry is a workspace entry.
type FileEntry struct {
	Path         string `json:"path"`
	Type         string `json:"type" jsonschema:"file, dir, symlink or other"`
	Size         int64  `json:"size"`
	ModifiedAtMs int64  `json:"modifiedAtMs"`
}

func (t *tools) writeFile(ctx context.Context, _ *sdk.CallToolRequest, in WriteFileInput) (*sdk.CallToolResult, FileEntry, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, FileEntry{}, err
	}
	data := []byte(in.Content)
	switch in.Encoding {
	case "", "utf8", "utf-8":
	case "base64":
		if data, err = base64.StdEncoding.DecodeString(in.Content); err != nil {
			return nil, FileEntry{}, exec.Errorf(exec.EInvalid, "content is not valid base64: %v", err)
		}
	default:
		return nil, FileEntry{}, exec.Errorf(exec.EInvalid, "encoding must be utf8 or base64, not %q", in.Encoding)
	}
	e, err := cs.WriteFile(ctx, in.ContextID, in.Path, data)
	if err != nil {
		return nil, FileEntry{}, toolError(err)
	}
	return text(fmt.Sprintf("wrote %s (%d bytes)", e.Path, e.Size)), FileEntry(*e), nil
}

// ListFilesInput is the input of list_files.
type ListFilesInput struct {
	ContextID string `json:"contextId"`
	Dir       string `json:"dir,omitempty" jsonschema:"directory relative to /workspace (default: its root)"`
}

// ListFilesOutput lists a directory.
type ListFilesOutput struct {
	Dir     string      `json:"dir"`
	Entries []FileEntry `json:"entries"`
}

func (t *tools) listFiles(ctx context.Context, _ *sdk.CallToolRequest, in ListFilesInput) (*sdk.CallToolResult, ListFilesOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, ListFilesOutput{}, err
	}
	es, err := cs.ListFiles(ctx, in.ContextID, in.Dir)
	if err != nil {
		return nil, ListFilesOutput{}, toolError(err)
	}
	out := ListFilesOutput{Dir: in.Dir, Entries: []FileEntry{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%d entries", len(es))
	for _, e := range es {
		out.Entries = append(out.Entries, FileEntry(e))
		fmt.Fprintf(&b, "\n%s %s %d", e.Type, e.Path, e.Size)
	}
	return text(b.String()), out, nil
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// toolError is a service error as a tool error: "<code>: <message>" (the
// cause of an internal error is not shown).
func toolError(err error) error {
	return fmt.Errorf("%s: %s", exec.ErrorCode(err), exec.ErrorMessage(err))
}

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
	ExecutionID string          `json:"executionId"`
	Outcome     exec.Outcome    `json:"outcome"`
	Installed   []P             `json:"installed"`
	Stdout      string          `json:"stdout,omitempty"`
	Error       *exec.ErrorData `json:"error,omitempty"`
}

// NPMInstallOutput is the completed npm install.
type NPMInstallOutput = InstallOutput[exec.NPMPackage]

// installAnswer is the tool result of an install: a line for the model
// and the record.
func installAnswer[P any](tool, contextID string, res *exec.Result, installed []P) (*sdk.CallToolResult, InstallOutput[P]) {
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
	r.IsError = out.Outcome != exec.Succeeded
	return r, out
}

func (t *tools) npmInstall(ctx context.Context, _ *sdk.CallToolRequest, in NPMInstallInput) (*sdk.CallToolResult, NPMInstallOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, NPMInstallOutput{}, err
	}
	// Contexts is guarded per tenant: another tenant's id is not found.
	if _, err := cs.Get(ctx, in.ContextID); err != nil {
		return nil, NPMInstallOutput{}, toolError(err)
	}
	res, err := t.cfg.NPM.Install(ctx, in.ContextID, &exec.NPMInstallRequest{Packages: in.Packages, Dev: in.Dev, Frozen: in.Frozen, TimeoutMs: in.TimeoutMs})
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
type PipInstallOutput = InstallOutput[exec.PipPackage]

func (t *tools) pipInstall(ctx context.Context, _ *sdk.CallToolRequest, in PipInstallInput) (*sdk.CallToolResult, PipInstallOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, PipInstallOutput{}, err
	}
	// Contexts is guarded per tenant: another tenant's id is not found.
	d, err := cs.Get(ctx, in.ContextID)
	if err != nil {
		return nil, PipInstallOutput{}, toolError(err)
	}
	if d.Language != "" && d.Language != exec.Python {
		return nil, PipInstallOutput{}, toolError(exec.Errorf(exec.ELanguageMismatch, "context %q is a %s context; pip_install is for python contexts", in.ContextID, d.Language))
	}
	res, err := t.cfg.Pip.Install(ctx, in.ContextID, &exec.PipInstallRequest{Packages: in.Packages, RequirementsFile: in.RequirementsFile, Upgrade: in.Upgrade, TimeoutMs: in.TimeoutMs})
	if err != nil {
		return nil, PipInstallOutput{}, toolError(err)
	}
	r, out := installAnswer("pip install", in.ContextID, res.Result, res.Installed)
	return r, out, nil
}
