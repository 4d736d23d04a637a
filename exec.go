// Package wasmexec is the vocabulary of wasmexec: requests, results, outcomes,
// output events and replay, limits, context and process descriptors, the
// one error type, and the Runner interface of the run lifecycle.
//
// It has no cgo and never imports wasmtime: the run pipeline (package
// pipeline) implements Runner over the engine (package engine, its
// Driver), and adapters (server/, store/, vfs/, contexts/, processes/,
// languages/*) depend on it, never on the engine.
//
// Size: it is the vocabulary every package shares (requests, results, errors,
// limits, events, contexts, processes, network, tenants); one file per
// noun.
package wasmexec

import (
	"encoding/json"
	"time"
)

// Language names a guest language on the wire.
type Language string

const (
	JavaScript Language = "javascript"
	TypeScript Language = "typescript"
	Python     Language = "python"
)

// Kind says which API produced an execution record.
type Kind string

const (
	KindEvaluate        Kind = "evaluate"
	KindExecute         Kind = "execute"
	KindProcess         Kind = "process"
	KindTypeScriptCheck Kind = "typescript_check"
	KindNPMInstall      Kind = "npm_install" // POST /v1/contexts/:id/npm/install
	KindPipInstall      Kind = "pip_install" // POST /v1/contexts/:id/pip/install
)

// Kinds lists every Kind: the history filter and the OpenAPI enum are
// built from it, so a new kind can't be missing from either.
var Kinds = []Kind{KindEvaluate, KindExecute, KindProcess, KindTypeScriptCheck, KindNPMInstall, KindPipInstall, KindTemplateBuild}

// Outcome is how a run ended. A guest failure is an outcome, never a Go error.
type Outcome string

const (
	Succeeded Outcome = "succeeded"
	Failed    Outcome = "failed"    // comes with ErrorData
	Cancelled Outcome = "cancelled" // client cancel, signal, server shutdown
	TimedOut  Outcome = "timed_out" // wall-clock deadline
)

// Guest error codes carried in ErrorData.Code when Outcome is Failed.
const (
	CodeException     = "exception"      // user code threw
	CodeExit          = "exit"           // non-zero exit status
	CodeCPULimit      = "cpu_limit"      // fuel exhausted
	CodeMemoryLimit   = "memory_limit"   // memory limiter refused growth
	CodeOutputLimit   = "output_limit"   // a stream went past limits.outputBytes
	CodeStackOverflow = "stack_overflow" // runaway recursion
	CodeSyntaxError   = "syntax_error"   // the code did not parse
	CodeQuotaExceeded = "quota_exceeded" // workspace over its byte quota
	CodeInternal      = "internal"       // the guest or driver broke

	// CodeTranspileFailed: the transpiler could not process the code (it
	// crashed, ran out of memory or stack, or overran its timeout); not a
	// syntax error, which is CodeSyntaxError.
	CodeTranspileFailed = "transpile_failed"
)

// ErrorData describes why a run failed (or was cancelled / timed out).
type ErrorData struct {
	Code    string         `json:"code"`
	Name    string         `json:"name,omitempty"`
	Message string         `json:"message"`
	Stack   string         `json:"stack,omitempty"`
	Details map[string]any `json:"details,omitempty"`
}

// Result is the record of one completed execution. It is what the HTTP API
// returns and what the store keeps.
type Result struct {
	ExecutionID     string          `json:"executionId"`
	Kind            Kind            `json:"kind"`
	Language        Language        `json:"language"`
	ContextID       string          `json:"contextId,omitempty"`
	PID             int64           `json:"pid,omitempty"`
	Outcome         Outcome         `json:"outcome"`
	Value           json.RawMessage `json:"value,omitempty"`          // evaluate only
	ValueTruncated  bool            `json:"valueTruncated,omitempty"` // a value over a cap was dropped (the store's MaxValueBytes)
	Error           *ErrorData      `json:"error,omitempty"`
	ExitCode        int             `json:"exitCode"`
	Stdout          *string         `json:"stdout,omitempty"` // nil when not captured
	Stderr          *string         `json:"stderr,omitempty"`
	StdoutTruncated bool            `json:"stdoutTruncated"`
	StderrTruncated bool            `json:"stderrTruncated"`
	StartedAtMs     int64           `json:"startedAtMs"`
	CompletedAtMs   int64           `json:"completedAtMs"`
	DurationMs      float64         `json:"durationMs"`
	FuelConsumed    uint64          `json:"fuelConsumed"`
	ContextReset    bool            `json:"contextReset,omitempty"` // the context's guest was replaced
	CodeSHA256      string          `json:"codeSha256,omitempty"`
	Code            string          `json:"-"` // kept by the store up to a size cap
	CodeTruncated   bool            `json:"-"` // the store kept only the first part of Code
	EventsRetained  bool            `json:"eventsRetained,omitempty"`
	OutputTruncated bool            `json:"outputTruncated,omitempty"` // retained event log dropped events
	Extra           json.RawMessage `json:"extra,omitempty"`           // kind-specific payload (e.g. typescript diagnostics)
	RequestID       string          `json:"requestId,omitempty"`       // the X-Request-Id of the request that ran it
	// Tenant is the tenant (API key's) the execution belongs to; "" on an
	// open server. Not on the wire: the store keeps it to scope reads.
	Tenant string `json:"-"`
	// Network lists the HTTP requests the run made through the host
	//, in order; absent when it made none.
	Network []NetworkRequest `json:"network,omitempty"`
	// Outputs are the run's rich outputs (display data: figures, tables),
	// in order; absent when it made none.
	Outputs []DisplayOutput `json:"outputs,omitempty"`
	// OutputsDropped counts the outputs the store did not keep (over its
	// cap of a record's outputs).
	OutputsDropped int `json:"outputsDropped,omitempty"`
}

// Millis converts a time to Unix milliseconds, the unit of every timestamp on the wire.
func Millis(t time.Time) int64 { return t.UnixMilli() }
