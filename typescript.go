package wasmexec

import "encoding/json"

// TypeScriptCheckRequest is the body of POST /v1/typescript/check (and of
// the MCP typescript_check tool): Code (one file) or Files (path →
// content), checked with the compiler TypeScriptVersion picks.
type TypeScriptCheckRequest struct {
	Code            string            `json:"code,omitempty"`
	Files           map[string]string `json:"files,omitempty"`
	FilePath        string            `json:"filePath,omitempty"`
	TsconfigPath    string            `json:"tsconfigPath,omitempty"`
	CompilerOptions json.RawMessage   `json:"compilerOptions,omitempty"`
	TimeoutMs       int64             `json:"timeoutMs,omitempty"`
	// TypeScriptVersion picks the checker: "7" (the default: TypeScript
	// 7, the native compiler) or "5.9" (the last JavaScript compiler, for
	// clients that pin 5.x); a full version ("7.0.2") names its major.
	TypeScriptVersion string `json:"typescriptVersion,omitempty"`
}
