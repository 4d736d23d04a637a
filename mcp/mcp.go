// Package mcp serves wasmexec to agents as a Model Context Protocol server
// (Streamable HTTP transport, mounted by server/ at /mcp).
//
// Its tools call the same services as the HTTP API (a wasmexec.Runner, the
// server.Contexts manager, the server.Checker, the processes through
// server.ProcessAPI, the history), so runs get the same limits, the same
// queue, the same tenancy and the same execution history. Each tool result
// carries a short text for the model and the structured result (the same
// JSON document the HTTP API returns where there is one, bytes that are
// not UTF-8 as base64 with an encoding field, as there).
//
// A service error (unknown context, bad argument, overload) is a tool
// result with isError set and the text "<code>: <message>", and so are
// arguments that don't match a tool's input schema (the 2025-11-25 spec:
// the model can correct itself); unknown tools are JSON-RPC errors in a
// 200 response, and messages the transport refuses (not JSON: -32700, an
// unknown method: -32601, over the body limit and the rest: -32600) are a
// 4xx with a JSON-RPC error without an id (rpcErrors).
//
// A call that carries a progress token (params._meta.progressToken) gets
// its answer as a stream: notifications/progress with run_code's output
// and the installs' progress lines as they happen, then the result; other
// calls get one JSON response (progress.go).
//
// Size: it is one tool per thing the HTTP API does (runs, contexts, files,
// processes, history, installs: about twenty), each an input type, an
// output type and a handler that writes the model's text; one file per
// group of tools.
package mcp

import (
	"log/slog"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/server"
)

// Version is reported as the server's implementation version.
const Version = "1"

// Config wires the tools. Optional services left nil make their tools
// answer not_implemented, or (NPM, Pip, Processes, History) leave them out.
type Config struct {
	// Runner runs one-shot executions (nil: they answer server.ErrLoading).
	Runner   wasmexec.Runner
	Contexts server.Contexts
	Checker  server.Checker
	// NPM, when set, adds the npm_install tool.
	NPM server.NPM
	// Pip, when set, adds the pip_install tool.
	Pip server.Pip
	// Processes, when set, adds the process tools (spawn_process,
	// write_stdin, signal_process, wait_process, read_process_output,
	// list_processes).
	Processes *server.ProcessAPI
	// History, when set, adds list_executions and get_execution (the
	// guarded history: server.Guard's Config.History).
	History server.History
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
// request-scoped auth) can answer it. It answers in JSON, but streams the
// answer of a call that asks for progress.
func Handler(cfg Config) http.Handler {
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = 16 << 20
	}
	s := NewServer(cfg)
	transport := func(jsonResponse bool) http.Handler {
		return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
			Stateless:                    true,
			JSONResponse:                 jsonResponse,
			Logger:                       cfg.Logger,
			MaxRequestBodyBytes:          cfg.BodyLimit,
			PropagateRequestCancellation: true,
			DisableLocalhostProtection:   !cfg.RebindingProtection,
		})
	}
	return rpcErrors(byProgress(cfg.BodyLimit, transport(true), transport(false)))
}

// NewServer returns the MCP server with every tool added.
func NewServer(cfg Config) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "wasmexec", Title: "wasmexec: run untrusted code in WebAssembly sandboxes", Version: Version}, &sdk.ServerOptions{
		Instructions: "Run JavaScript, TypeScript or Python in isolated WebAssembly sandboxes. " +
			"Use run_code for one-shot snippets; create_context for state kept between calls (variables, files in /workspace); " +
			"spawn_process for a long-running program you talk to through stdin. A run that times out in a context resets it: its variables are gone, its files kept.",
		Logger: cfg.Logger,
	})
	t := &tools{cfg: cfg}
	addTool(s, &sdk.Tool{Name: "run_code", Description: "Run code in a sandbox and return its value (evaluate: the completion value of the last expression, as JSON), stdout, stderr and outcome (succeeded, failed, cancelled, timed_out; failed comes with error {code, message}). Give contextId to run inside a context created by create_context, keeping state between calls. Output that is not UTF-8 comes as base64 (stdoutEncoding/stderrEncoding). With a progress token, output comes as progress notifications while the code runs.",
		Annotations: hints("Run code", write, openWorld)}, t.runCode)
	addTool(s, &sdk.Tool{Name: "create_context", Description: "Create an execution context: a long-lived sandbox pinned to a language (javascript and typescript share one) whose globals and /workspace files persist across run_code calls.",
		Annotations: hints("Create a context", write)}, t.createContext)
	addTool(s, &sdk.Tool{Name: "delete_context", Description: "Delete an execution context, its sandbox and its files.",
		Annotations: hints("Delete a context", destructive, idempotent)}, t.deleteContext)
	addTool(s, &sdk.Tool{Name: "reset_context", Description: "Replace a context's sandbox with a fresh one (globals are lost, /workspace files kept).",
		Annotations: hints("Reset a context", destructive, idempotent)}, t.resetContext)
	addTool(s, &sdk.Tool{Name: "fork_context", Description: "Copy a context: a new context with the same globals (state as of now, taken between runs) and a copy of its /workspace files; the two are independent afterwards. Useful to try alternatives from one state.",
		Annotations: hints("Fork a context", write)}, t.forkContext)
	addTool(s, &sdk.Tool{Name: "list_contexts", Description: "List the execution contexts.",
		Annotations: hints("List contexts", readOnly)}, t.listContexts)
	addTool(s, &sdk.Tool{Name: "typescript_check", Description: "Type-check TypeScript without running it: diagnostics with 1-based line and column. Type errors are outcome succeeded with hasErrors true.",
		Annotations: hints("Type-check TypeScript", readOnly)}, t.typescriptCheck)
	addTool(s, &sdk.Tool{Name: "read_file", Description: "Read a file from a context's /workspace. Text comes back as utf8; other bytes as base64.",
		Annotations: hints("Read a file", readOnly)}, t.readFile)
	addTool(s, &sdk.Tool{Name: "write_file", Description: "Write a file into a context's /workspace (parents are created; an existing file is replaced; within the workspace quota).",
		Annotations: hints("Write a file", destructive, idempotent)}, t.writeFile)
	addTool(s, &sdk.Tool{Name: "delete_file", Description: "Delete a file from a context's /workspace, or a directory with everything in it.",
		Annotations: hints("Delete a file", destructive, idempotent)}, t.deleteFile)
	addTool(s, &sdk.Tool{Name: "list_files", Description: "List the entries of a directory of a context's /workspace.",
		Annotations: hints("List files", readOnly)}, t.listFiles)
	if cfg.NPM != nil {
		addTool(s, &sdk.Tool{Name: "npm_install", Description: "Install npm packages (\"lodash@4.17.21\", \"zod\") into a JavaScript/TypeScript context's /workspace/node_modules, so its code can import or require them; with no packages, install the project from package.json/package-lock.json. All or nothing; install scripts are never run. With a progress token, progress lines come as notifications.",
			Annotations: hints("Install npm packages", write, openWorld)}, t.npmInstall)
	}
	if cfg.Templates != nil {
		addTool(s, &sdk.Tool{Name: "create_template", Annotations: hints("Build a template", write, openWorld), Description: "Build a template: a sandbox prepared once (packages installed, files written, setupCode run, e.g. \"import sympy, openpyxl\" or \"const z = require('zod')\") and kept, so that run_code and create_context with template start from it in milliseconds, its imports done. The build goes on in the background: state building, then ready or failed (see list_templates); runs naming it wait for it."}, t.createTemplate)
		addTool(s, &sdk.Tool{Name: "list_templates", Annotations: hints("List templates", readOnly), Description: "List the templates: id, language, state (building, ready, failed), packages with their versions, and size."}, t.listTemplates)
	}
	if cfg.Pip != nil {
		addTool(s, &sdk.Tool{Name: "pip_install", Description: "Install Python packages (\"attrs==23.1.0\", \"tomli\") into a Python context, so its code can import them: pure-Python wheels only (packages with C extensions such as numpy can't run in the sandbox), or a requirements file from /workspace. All or nothing; no package code runs at install. With a progress token, progress lines come as notifications.",
			Annotations: hints("Install Python packages", write, openWorld)}, t.pipInstall)
	}
	if cfg.Processes != nil {
		addTool(s, &sdk.Tool{Name: "spawn_process", Description: "Start a long-running program (a server, a REPL, a program reading stdin) and return its pid at once. Talk to it with write_stdin, read what it prints with read_process_output, wait for its exit with wait_process, stop it with signal_process.",
			Annotations: hints("Start a process", write, openWorld)}, t.spawnProcess)
		addTool(s, &sdk.Tool{Name: "write_stdin", Description: "Write to a process's standard input (utf8 text, or base64 bytes); close: true closes stdin afterwards (the program reads end of file).",
			Annotations: hints("Write to a process's stdin", write)}, t.writeStdin)
		addTool(s, &sdk.Tool{Name: "signal_process", Description: "Signal a process: SIGTERM or SIGINT (stdin closes, then it is killed after a grace period) or SIGKILL (at once).",
			Annotations: hints("Signal a process", destructive)}, t.signalProcess)
		addTool(s, &sdk.Tool{Name: "wait_process", Description: "Wait until a process exits or timeoutMs passes (default 30000; 0 only looks): its exit (outcome exited, signalled or timed_out, exitCode) or state running.",
			Annotations: hints("Wait for a process", readOnly)}, t.waitProcess)
		addTool(s, &sdk.Tool{Name: "read_process_output", Description: "Read a process's output events after a cursor (from the start without one); nextCursor resumes after the last event returned.",
			Annotations: hints("Read a process's output", readOnly)}, t.readProcessOutput)
		addTool(s, &sdk.Tool{Name: "list_processes", Description: "List the processes, running and recently exited.",
			Annotations: hints("List processes", readOnly)}, t.listProcesses)
	}
	if cfg.History != nil {
		addTool(s, &sdk.Tool{Name: "list_executions", Description: "List completed executions (runs, processes, installs), newest first, filtered by contextId, language, outcome or kind; nextCursor pages on.",
			Annotations: hints("List executions", readOnly)}, t.listExecutions)
		addTool(s, &sdk.Tool{Name: "get_execution", Description: "One completed execution's record by its executionId: outcome, value, stdout, stderr, error.",
			Annotations: hints("Get an execution", readOnly)}, t.getExecution)
	}
	return s
}

type tools struct{ cfg Config }

// Tool behaviours, combined by hints.
type hint int

const (
	readOnly hint = iota
	write
	destructive
	idempotent
	openWorld
)

// hints are a tool's annotations: every tool states all four hints, so a
// client never falls back on the spec's defaults (destructive, open
// world).
func hints(title string, hs ...hint) *sdk.ToolAnnotations {
	a := &sdk.ToolAnnotations{Title: title}
	no, yes := false, true
	a.DestructiveHint, a.OpenWorldHint = &no, &no
	for _, h := range hs {
		switch h {
		case readOnly:
			a.ReadOnlyHint = true
		case destructive:
			a.DestructiveHint = &yes
		case idempotent:
			a.IdempotentHint = true
		case openWorld:
			a.OpenWorldHint = &yes
		}
	}
	if a.ReadOnlyHint {
		a.IdempotentHint = true
	}
	return a
}
