package ts

import (
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/wasmexec/wasmexec"
)

// SyntaxError is TypeScript that could not be transpiled, positioned in the
// original source. Line is 1-based; Column is 1-based and counted in UTF-16
// code units (a tab is one column, "é" one, "😀" two), as TypeScript and
// editors count. Line and Column are 0 when the position is unknown.
type SyntaxError struct {
	Filename string
	Line     int
	Column   int
	Message  string
}

// Error formats the error as "file:line:col: message".
func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Filename, e.Line, e.Column, e.Message)
	}
	if e.Filename != "" {
		return e.Filename + ": " + e.Message
	}
	return e.Message
}

// ErrorData returns the wire form of the error: code "syntax_error", name
// "SyntaxError", the message, and details {"line", "column"} (omitted when
// the position is unknown).
func (e *SyntaxError) ErrorData() *wasmexec.ErrorData {
	d := &wasmexec.ErrorData{
		Code:    wasmexec.CodeSyntaxError,
		Name:    "SyntaxError",
		Message: e.Message,
	}
	if e.Line > 0 {
		d.Details = map[string]any{"line": e.Line, "column": e.Column}
	}
	return d
}

// TranspileError is code the transpiler could not process, through no
// syntax error of the code: its worker crashed, ran out of memory or stack,
// or overran the transpile timeout. Reason is one of the Reason* constants.
type TranspileError struct {
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Reasons of a TranspileError (ErrorData.Details["reason"]).
const (
	ReasonTimeout       = "timeout"        // the transpile overran its timeout
	ReasonStackOverflow = "stack_overflow" // the worker ran out of stack (deep nesting)
	ReasonMemoryLimit   = "memory_limit"   // the worker ran out of memory
	ReasonCrashed       = "crashed"        // any other failure of the transpiler
)

// Error returns the message.
func (e *TranspileError) Error() string { return e.Message }

// ErrorData returns the wire form of the error: code "transpile_failed",
// name "TranspileError", the message, and details {"reason"}.
func (e *TranspileError) ErrorData() *wasmexec.ErrorData {
	return &wasmexec.ErrorData{
		Code:    wasmexec.CodeTranspileFailed,
		Name:    "TranspileError",
		Message: e.Message,
		Details: map[string]any{"reason": e.Reason},
	}
}

// firstLine is s up to its first line break, at most 300 bytes.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// errorFromMessage converts esbuild's first error: a *SyntaxError, unless
// esbuild reports a panic of its own it recovered (no location, "panic: "),
// which is no fault of the code's syntax: a *TranspileError.
func errorFromMessage(msg api.Message, filename, code string) error {
	if msg.Location == nil && strings.HasPrefix(msg.Text, "panic: ") {
		return &TranspileError{Reason: ReasonCrashed, Message: "the TypeScript transpiler failed: " + firstLine(msg.Text)}
	}
	return syntaxErrorFromMessage(msg, filename, code)
}

// syntaxErrorFromMessage converts esbuild's first error. esbuild's
// Location.Line is 1-based; Location.Column is a 0-based byte offset into
// Location.LineText (the full line, split on the same terminators
// TypeScript uses), so the UTF-16 column is the UTF-16 length of the bytes
// before it, plus one.
func syntaxErrorFromMessage(msg api.Message, filename, code string) *SyntaxError {
	e := &SyntaxError{Filename: filename, Message: msg.Text}
	if loc := msg.Location; loc != nil && loc.Line > 0 {
		e.Line = loc.Line
		line := loc.LineText
		if loc.Column > len(line) {
			// Defensive: esbuild always gives the whole line, but if it
			// ever did not, find the line in the source ourselves.
			if l, ok := sourceLine(code, loc.Line); ok {
				line = l
			}
		}
		e.Column = byteToUTF16Col(line, loc.Column) + 1
	}
	return e
}

// sourceLine returns 1-based line n of s (terminators as in lineStarts).
func sourceLine(s string, n int) (string, bool) {
	starts := lineStarts(s)
	if n < 1 || n > len(starts) {
		return "", false
	}
	start := int(starts[n-1])
	end := len(s)
	if n < len(starts) {
		end = int(starts[n])
	}
	line := s[start:end]
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	line = strings.TrimSuffix(line, "\u2028")
	line = strings.TrimSuffix(line, "\u2029")
	return line, true
}
