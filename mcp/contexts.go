package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/server"
)

// CreateContextInput is the input of create_context.
type CreateContextInput struct {
	Language    string            `json:"language,omitempty" enum:",javascript,typescript,python" jsonschema:"javascript, typescript or python; empty: the first run pins it"`
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

func contextOutput(c *wasmexec.Context) ContextOutput {
	return ContextOutput{ContextID: c.ContextID, Language: string(c.Language), State: string(c.State), CreatedAtMs: c.CreatedAtMs, MemoryBytes: c.MemoryBytes, Runs: c.Runs, Resets: c.Resets}
}

func (t *tools) contexts() (server.Contexts, error) {
	if t.cfg.Contexts == nil {
		return nil, wasmexec.Errorf("not_implemented", "execution contexts are not enabled on this server")
	}
	return t.cfg.Contexts, nil
}

func (t *tools) createContext(ctx context.Context, _ *sdk.CallToolRequest, in CreateContextInput) (*sdk.CallToolResult, ContextOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, ContextOutput{}, err
	}
	c, err := cs.Create(ctx, &wasmexec.ContextSpec{ContextID: in.ContextID, Language: wasmexec.Language(in.Language), Env: in.Env, Limits: wasmexec.Limits{MemoryBytes: in.MemoryBytes}, Template: in.Template})
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
	c, err := cs.Fork(ctx, in.ContextID, &wasmexec.ForkSpec{ContextID: in.NewID})
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

// CheckInput is the input of typescript_check.
type CheckInput struct {
	Code      string            `json:"code,omitempty" jsonschema:"one TypeScript file to check (or give files)"`
	Files     map[string]string `json:"files,omitempty" jsonschema:"a project: path to content"`
	FilePath  string            `json:"filePath,omitempty" jsonschema:"the name of code in diagnostics (default main.ts)"`
	TimeoutMs int64             `json:"timeoutMs,omitempty"`
	// CompilerOptions and TypeScriptVersion are those of POST /v1/typescript/check.
	CompilerOptions   map[string]any `json:"compilerOptions,omitempty" jsonschema:"compilerOptions as in a tsconfig.json (TypeScript 7's)"`
	TypeScriptVersion string         `json:"typescriptVersion,omitempty" enum:"7,5.9" jsonschema:"7 (default) or 5.9"`
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
		return nil, CheckOutput{}, wasmexec.Errorf("not_implemented", "the TypeScript checker is not enabled on this server")
	}
	if (in.Code == "") == (len(in.Files) == 0) {
		return nil, CheckOutput{}, wasmexec.Errorf(wasmexec.EInvalid, "give code or files (one of them)")
	}
	req := &wasmexec.TypeScriptCheckRequest{Code: in.Code, Files: in.Files, FilePath: in.FilePath, TimeoutMs: in.TimeoutMs, TypeScriptVersion: in.TypeScriptVersion}
	if len(in.CompilerOptions) > 0 {
		b, err := json.Marshal(in.CompilerOptions)
		if err != nil {
			return nil, CheckOutput{}, wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions: %v", err)
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
	Encoding string `json:"encoding" enum:"utf8,base64" jsonschema:"utf8 or base64"`
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
	Encoding  string `json:"encoding,omitempty" enum:"utf8,base64" jsonschema:"utf8 (default) or base64"`
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
			return nil, FileEntry{}, wasmexec.Errorf(wasmexec.EInvalid, "content is not valid base64: %v", err)
		}
	default:
		return nil, FileEntry{}, wasmexec.Errorf(wasmexec.EInvalid, "encoding must be utf8 or base64, not %q", in.Encoding)
	}
	e, err := cs.WriteFile(ctx, in.ContextID, in.Path, data)
	if err != nil {
		return nil, FileEntry{}, toolError(err)
	}
	return text(fmt.Sprintf("wrote %s (%d bytes)", e.Path, e.Size)), FileEntry(*e), nil
}

// DeleteFileOutput confirms a deletion.
type DeleteFileOutput struct {
	ContextID string `json:"contextId"`
	Path      string `json:"path"`
	Deleted   bool   `json:"deleted"`
}

func (t *tools) deleteFile(ctx context.Context, _ *sdk.CallToolRequest, in ReadFileInput) (*sdk.CallToolResult, DeleteFileOutput, error) {
	cs, err := t.contexts()
	if err != nil {
		return nil, DeleteFileOutput{}, err
	}
	if err := cs.DeleteFile(ctx, in.ContextID, in.Path); err != nil {
		return nil, DeleteFileOutput{}, toolError(err)
	}
	return text("deleted " + in.Path), DeleteFileOutput{ContextID: in.ContextID, Path: in.Path, Deleted: true}, nil
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
	return fmt.Errorf("%s: %s", wasmexec.ErrorCode(err), wasmexec.ErrorMessage(err))
}
