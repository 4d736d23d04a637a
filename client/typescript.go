package client

import (
	"context"

	"github.com/wasmexec/wasmexec"
)

// CheckRequest is a type check: Code (one file, /main.ts) or Files (path →
// source) with FilePath naming the file whose diagnostics are reported.
type CheckRequest struct {
	Code         string            `json:"code,omitempty"`
	Files        map[string]string `json:"files,omitempty"`
	FilePath     string            `json:"filePath,omitempty"`
	TsconfigPath string            `json:"tsconfigPath,omitempty"`
	// CompilerOptions are spelled as in a tsconfig.json, e.g.
	// {"strict": true, "lib": ["es2022", "dom"]}.
	CompilerOptions map[string]any `json:"compilerOptions,omitempty"`
	TimeoutMs       int64          `json:"timeoutMs,omitempty"`
	// TypeScriptVersion is "7" (the default) or "5.9".
	TypeScriptVersion string `json:"typescriptVersion,omitempty"`
}

// Diagnostic is one compiler diagnostic; Line and Column are 1-based (0
// for a diagnostic without a file), Column in UTF-16 units.
type Diagnostic struct {
	Code     int    `json:"code"`
	Category string `json:"category"` // error | warning | suggestion | message
	Message  string `json:"message"`
	FilePath string `json:"filePath"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// CheckResult is a check's answer. Type errors are Outcome succeeded with
// HasErrors; another outcome means the checker could not finish (Error).
type CheckResult struct {
	ExecutionID       string              `json:"executionId"`
	Outcome           wasmexec.Outcome    `json:"outcome"`
	HasErrors         bool                `json:"hasErrors"`
	Diagnostics       []Diagnostic        `json:"diagnostics"`
	Error             *wasmexec.ErrorData `json:"error,omitempty"`
	TypeScriptVersion string              `json:"typeScriptVersion"`
	DurationMs        float64             `json:"durationMs"`
}

// CheckTypeScript type-checks TypeScript with the official compiler.
func (c *Client) CheckTypeScript(ctx context.Context, req *CheckRequest) (*CheckResult, error) {
	return call[CheckResult](c, ctx, "POST", "/v1/typescript/check", req)
}

// TypeScriptInfo lists the checker versions (GET /v1/typescript).
type TypeScriptInfo struct {
	Default  string              `json:"default"`
	Versions []TypeScriptVersion `json:"versions"`
}

// TypeScriptVersion is one checker: its major ("7", "5.9"), its full
// version, and whether it is ready (State says what it is doing).
type TypeScriptVersion struct {
	Major   string `json:"major"`
	Version string `json:"version"`
	Default bool   `json:"default"`
	Ready   bool   `json:"ready"`
	State   string `json:"state"`
	Error   string `json:"error,omitempty"`
}

// TypeScript describes the checker versions the server offers.
func (c *Client) TypeScript(ctx context.Context) (*TypeScriptInfo, error) {
	return call[TypeScriptInfo](c, ctx, "GET", "/v1/typescript", nil)
}
