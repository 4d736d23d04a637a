package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
)

// The OpenAPI 3.1 document of the HTTP API, served at GET /openapi.json.
// It is built here, next to the routes, from small helpers; a test walks
// echo's routes and fails when one is missing, and the server tests
// validate every real response against it (kin-openapi).

// OpenAPIVersion is the document's info.version: the API's, not the build's.
const OpenAPIVersion = "1.0.0"

var (
	openAPIOnce sync.Once
	openAPIJSON []byte
)

// OpenAPI returns the OpenAPI 3.1 document as JSON.
func OpenAPI() []byte {
	openAPIOnce.Do(func() {
		b, err := json.MarshalIndent(openAPIDoc(), "", "  ")
		if err != nil {
			panic(err)
		}
		openAPIJSON = b
	})
	return openAPIJSON
}

func (s *Server) openAPI(c echo.Context) error {
	return c.JSONBlob(http.StatusOK, OpenAPI())
}

type obj = map[string]any

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

func str(desc string) obj { return obj{"type": "string", "description": desc} }

func enum(desc string, vals ...string) obj {
	return obj{"type": "string", "enum": vals, "description": desc}
}

func integer(desc string) obj { return obj{"type": "integer", "description": desc} }

func number(desc string) obj { return obj{"type": "number", "description": desc} }

func boolean(desc string) obj { return obj{"type": "boolean", "description": desc} }

func array(items obj) obj { return obj{"type": "array", "items": items} }

func stringMap(desc string) obj {
	return obj{"type": "object", "additionalProperties": obj{"type": "string"}, "description": desc}
}

// object is a schema with properties, the required ones listed.
func object(props obj, required ...string) obj {
	o := obj{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// strictObject refuses unknown properties (request bodies: the server
// refuses unknown fields).
func strictObject(props obj, required ...string) obj {
	o := object(props, required...)
	o["additionalProperties"] = false
	return o
}

func jsonBody(schema obj) obj {
	return obj{"required": true, "content": obj{"application/json": obj{"schema": schema}}}
}

func jsonResponse(desc string, schema obj) obj {
	return obj{"description": desc, "content": obj{"application/json": obj{"schema": schema}}}
}

func errResponse(desc string) obj {
	return obj{"$ref": "#/components/responses/" + desc}
}

// op is one operation: its responses plus the errors every route can give.
func op(id, summary string, responses obj, extra ...obj) obj {
	o := obj{"operationId": id, "summary": summary, "description": summary, "responses": responses}
	for _, code := range []string{"400", "401", "404", "429", "500", "501", "503"} {
		if _, ok := responses[code]; !ok {
			responses[code] = errResponse(code)
		}
	}
	for _, e := range extra {
		for k, v := range e {
			o[k] = v
		}
	}
	return o
}

func params(ps ...obj) obj { return obj{"parameters": ps} }

func pathParam(name, desc string) obj {
	return pathParamSchema(name, desc, obj{"type": "string"})
}

func pathParamSchema(name, desc string, schema obj) obj {
	return obj{"name": name, "in": "path", "required": true, "schema": schema, "description": desc}
}

func queryParam(name string, schema obj) obj {
	return obj{"name": name, "in": "query", "required": false, "schema": schema}
}

func headerParam(name, desc string) obj {
	return obj{"name": name, "in": "header", "required": false, "schema": obj{"type": "string"}, "description": desc}
}

func body(b obj) obj { return obj{"requestBody": b} }

// optionalBody is a request body a client may leave out.
func optionalBody(b obj) obj {
	b["required"] = false
	return obj{"requestBody": b}
}

// sse is a Server-Sent Events response whose events' data are JSON
// documents of the schema named data (contentSchema: what the text holds).
func sse(desc, data string) obj {
	return obj{"description": desc, "content": obj{"text/event-stream": obj{"schema": sseSchema(desc, data)}}}
}

func sseSchema(desc, data string) obj {
	return obj{"type": "string", "description": desc, "contentMediaType": "text/event-stream", "contentSchema": ref(data)}
}

// Patterns and bounds the server enforces, stated once for the document.
const (
	contextIDPattern = `^[A-Za-z0-9_-]{1,64}$`
	executionPattern = `^exe_[A-Za-z0-9_-]+$`
)

func openAPIDoc() obj {
	idParam := pathParamSchema("id", "the context's id", obj{"type": "string", "pattern": contextIDPattern})
	pidParam := pathParamSchema("pid", "the process's pid", obj{"type": "integer", "format": "int64", "minimum": 1})
	exeParam := pathParamSchema("id", "the execution's id (exe_...)", obj{"type": "string", "minLength": 1})
	fileParam := pathParam("path", "the file's path relative to /workspace; it may contain slashes; ending in / names a directory")
	// Cursors are opaque; the patterns only say what a cursor can look
	// like, so a client can't send what no server would accept.
	cursor := func(name string) obj {
		return queryParam(name, obj{"type": "string", "pattern": `^(c[0-9A-Za-z]{1,15})?$`, "description": "an opaque cursor: return what follows it"})
	}
	limit := queryParam("limit", obj{"type": "integer", "minimum": 1})
	maxBytes := queryParam("maxBytes", obj{"type": "integer", "minimum": 1})
	runOK := obj{"description": "the execution record; a guest failure is a 200 with outcome failed. With Accept: text/event-stream the run streams instead: `id: <cursor>` `event: output` data Event JSON as the output happens; `event: truncated` data {after, resumeAfter, dropped} when the reader fell behind the retained window; `: keep-alive` comments while quiet; then `event: result` data Result JSON (the record the JSON answer would be) and the stream ends, or `event: error` data Error JSON for a service failure after the stream began. Closing the stream cancels the run.",
		"content": obj{"application/json": obj{"schema": ref("Result")}, "text/event-stream": obj{"schema": sseSchema("output events, then the result", "Event")}}}
	runOp := func(id, summary string) obj {
		return obj{"post": op(id, summary, obj{"200": runOK, "409": errResponse("409"), "413": errResponse("413")}, body(jsonBody(ref("RunRequest"))))}
	}
	contextOK := jsonResponse("the context", ref("Context"))
	processOK := jsonResponse("the process", ref("Process"))
	replay := jsonResponse("a page of output events", ref("Replay"))
	deleted := obj{"description": "deleted"}
	install := func(entry obj) obj {
		return obj{"allOf": []any{ref("Result"), object(obj{"installed": array(entry)}, "installed")}}
	}
	file := obj{
		"get": op("readFile", "Read a file (or list a directory when path ends in /)", obj{"413": errResponse("413"), "200": obj{"description": "the file's bytes, or the listing of a path ending in /", "content": obj{"application/octet-stream": obj{"schema": obj{"type": "string", "format": "binary"}}, "application/json": obj{"schema": ref("FileList")}}}}, params(idParam, fileParam)),
		"put": op("writeFile", "Write a file (the body is its bytes; parents are created)", obj{"200": jsonResponse("the written entry", ref("FileEntry")), "409": errResponse("409"), "413": errResponse("413")}, params(idParam, fileParam),
			body(obj{"required": true, "content": obj{
				"application/octet-stream": obj{"schema": obj{"type": "string", "format": "binary"}},
				"*/*":                      obj{"schema": obj{"type": "string", "format": "binary", "description": "any other type (or none): the file's bytes"}},
				"application/json":         obj{"schema": obj{"description": "a JSON string is the file's text, stored decoded (what a generated client's default serializer sends for a string); any other JSON document is stored as sent"}},
			}})),
		"delete": op("deleteFile", "Delete a file, or a directory with everything in it", obj{"204": deleted, "409": errResponse("409")}, params(idParam, fileParam)),
	}
	paths := obj{
		"/healthz":      obj{"get": op("healthz", "Liveness", obj{"200": jsonResponse("alive", object(obj{"status": str("ok")}, "status"))})},
		"/readyz":       obj{"get": op("readyz", "Readiness: 200 once the guest images are loaded", obj{"200": jsonResponse("ready", ref("Readiness")), "503": jsonResponse("not ready yet", ref("Readiness"))})},
		"/metrics":      obj{"get": op("metrics", "Prometheus metrics (text exposition format)", obj{"200": obj{"description": "metrics", "content": obj{"text/plain": obj{"schema": obj{"type": "string"}}}}})},
		"/openapi.json": obj{"get": op("openapi", "This document", obj{"200": jsonResponse("the OpenAPI 3.1 document", anyObject("the document"))})},
		"/mcp": obj{
			"post": mcpOp(op("mcp", "Model Context Protocol (Streamable HTTP, stateless): one JSON-RPC message or batch per POST. There is no server-to-client stream and no session to end: GET and DELETE are 405. A 401 carries WWW-Authenticate: Bearer (an API key; this server has no OAuth authorization server)",
				obj{"200": obj{"description": "the JSON-RPC response: application/json, or text/event-stream when a tools/call asks for progress (params._meta.progressToken): notifications/progress messages, then the response", "content": obj{
					"application/json":  obj{"schema": anyObject("a JSON-RPC 2.0 response (or an array of them)")},
					"text/event-stream": obj{"schema": obj{"type": "string"}},
				}}, "202": obj{"description": "a notification or response was accepted"}, "400": rpcError("not JSON-RPC (-32700) or an unknown method (-32601)"), "403": rpcError("refused by the DNS-rebinding protection of an open server (-32600)"), "413": rpcError("over the body limit (-32600)")},
				body(obj{"required": true, "content": obj{"application/json": obj{"schema": obj{"description": "a JSON-RPC 2.0 message, or an array of them", "oneOf": []any{anyObject("a message"), array(anyObject("a message"))}}}}}))),
		},
		"/v1/evaluate":         runOp("evaluate", "Evaluate code: the completion value of the last expression, stdout, stderr"),
		"/v1/execute":          runOp("execute", "Execute code as a program (stdin, args, exit code)"),
		"/v1/typescript/check": obj{"post": op("typescriptCheck", "Type-check TypeScript (type errors are outcome succeeded with hasErrors)", obj{"200": jsonResponse("diagnostics", ref("CheckResult")), "413": errResponse("413")}, body(jsonBody(ref("CheckRequest"))))},
		"/v1/typescript":       obj{"get": op("typescriptInfo", "The TypeScript checkers: versions, which is the default, and whether each is ready", obj{"200": jsonResponse("checkers", anyObject("the checkers"))})},
		"/v1/executions": obj{"get": op("listExecutions", "Completed executions, newest first", obj{"200": jsonResponse("a page", ref("ExecutionPage"))},
			params(queryParam("contextId", obj{"type": "string"}), queryParam("language", ref("Language")), queryParam("outcome", enum("a run's outcome, or a process's exit (exited, signalled)", "succeeded", "failed", "cancelled", "timed_out", "exited", "signalled")), queryParam("kind", ref("Kind")),
				queryParam("after", obj{"type": "string", "pattern": `^(l[0-9a-z]{1,13})?$`, "description": "an opaque cursor: the page after it"}), limit))},
		"/v1/executions/{id}": obj{
			"get":    op("getExecution", "One execution record (404 not_found, or execution_expired); include=code adds the stored code (at most 64 KiB, codeTruncated)", obj{"200": jsonResponse("the record", ref("Result"))}, params(exeParam, queryParam("include", enum("", "code")))),
			"delete": op("deleteExecution", "Delete a completed record (404 not_found or execution_expired; 409 while its process runs)", obj{"204": deleted, "409": errResponse("409")}, params(exeParam)),
		},
		"/v1/executions/{id}/output": obj{"get": op("executionOutput", "Replay an execution's retained output events after a cursor; maxBytes bounds a page's chunk bytes (a larger single event comes alone); 409 execution_output_not_retained when the run kept no events", obj{"200": replay, "409": errResponse("409")}, params(exeParam, cursor("after"), limit, maxBytes))},
		"/v1/contexts": obj{
			"post": op("createContext", "Create an execution context", obj{"201": jsonResponse("the new context", ref("Context")), "409": errResponse("409"), "413": errResponse("413")}, body(jsonBody(ref("ContextSpec")))),
			"get":  op("listContexts", "List execution contexts", obj{"200": jsonResponse("the contexts", object(obj{"contexts": array(ref("Context"))}, "contexts"))}),
		},
		"/v1/templates": obj{
			"post": op("createTemplate", "Build a template: packages installed, files seeded, setupCode run, then captured with its workspace (202: the build goes on; state building, then ready or failed; template.* events)", obj{"202": jsonResponse("the template, building", ref("Template")), "409": errResponse("409")}, body(jsonBody(ref("TemplateSpec")))),
			"get":  op("listTemplates", "List templates (the caller's, and the server's implicit ones of the caller's one-shot package sets)", obj{"200": jsonResponse("the templates", object(obj{"templates": array(ref("Template"))}, "templates"))}),
		},
		"/v1/templates/{id}": obj{
			"get":    op("getTemplate", "One template", obj{"200": jsonResponse("the template", ref("Template"))}, params(pathParam("id", "the template's id"))),
			"delete": op("deleteTemplate", "Delete a template (runs started from it go on)", obj{"204": obj{"description": "deleted"}}, params(pathParam("id", "the template's id"))),
		},
		"/v1/contexts/{id}": obj{
			"get":    op("getContext", "One context", obj{"200": contextOK}, params(idParam)),
			"delete": op("deleteContext", "Delete a context, its guest and its workspace", obj{"204": deleted, "409": errResponse("409")}, params(idParam)),
		},
		"/v1/contexts/{id}/npm/install": obj{"post": op("npmInstall", "Install npm packages into the context's workspace (all or nothing; no install scripts); a completed npm_install record with installed. No body: install the project from package.json", obj{
			"200": jsonResponse("the completed install", install(object(obj{"name": str(""), "version": str(""), "integrity": str(""), "path": str(""), "scripts": array(str("declared, not run"))}, "name", "version", "integrity", "path"))),
			"409": errResponse("409"), "413": errResponse("413"),
		}, params(idParam), optionalBody(jsonBody(ref("NPMInstallRequest"))))},
		"/v1/contexts/{id}/reset":     obj{"post": op("resetContext", "Replace the context's guest (workspace kept)", obj{"200": contextOK, "409": errResponse("409")}, params(idParam))},
		"/v1/contexts/{id}/hibernate": obj{"post": op("hibernateContext", "Capture the context's guest and drop it from memory; the next run, file call or fork restores it", obj{"200": contextOK, "409": errResponse("409")}, params(idParam))},
		"/v1/contexts/{id}/fork": obj{"post": op("forkContext", "A new context with this one's state and a copy of its workspace", obj{"201": jsonResponse("the new context", ref("Context")), "409": errResponse("409"), "413": errResponse("413")},
			params(idParam), optionalBody(jsonBody(strictObject(obj{"contextId": contextID("1-64 of [A-Za-z0-9_-]; generated when absent")}))))},
		"/v1/contexts/{id}/pip/install": obj{"post": op("pipInstall", "Install Python packages (pure wheels from the allowed indexes, verified by sha256) into the context's workspace .python-packages, on the guest's sys.path (all or nothing); a completed pip_install record with installed", obj{
			"200": jsonResponse("the completed install", install(object(obj{"name": str(""), "version": str(""), "sha256": str("the wheel's")}, "name", "version", "sha256"))),
			"409": errResponse("409"), "413": errResponse("413"),
		}, params(idParam), body(jsonBody(ref("PipInstallRequest"))))},
		"/v1/contexts/{id}/files": obj{
			"get": op("listFiles", "List a workspace directory, or with archive=tar|tgz download its tree as an archive", obj{
				"200": obj{"description": "the entries, or the tree (archive)", "content": obj{
					"application/json":  obj{"schema": ref("FileList")},
					"application/x-tar": obj{"schema": obj{"type": "string", "format": "binary"}},
					"application/gzip":  obj{"schema": obj{"type": "string", "format": "binary"}},
				}}},
				params(idParam, queryParam("dir", obj{"type": "string"}), queryParam("archive", enum("tar or tgz: the tree under dir as an archive (symlinks stored as symlinks)", "tar", "tgz")))),
			"put": op("putArchive", "Unpack an archive (tar, gzipped tar or zip) under dir, all or nothing: every entry is checked as a single upload is (no .., absolute paths, symlinks, hard links or devices), and the whole is charged once against the workspace's limits", obj{
				"200": jsonResponse("what was unpacked", ref("ExtractResult")), "413": errResponse("413"), "409": errResponse("409")},
				params(idParam, queryParam("dir", str("where to unpack, relative to /workspace (default the root)")), queryParam("archive", enum("the format; empty: detect it", "", "tar", "tgz", "zip"))),
				body(obj{"required": true, "content": obj{"application/octet-stream": obj{"schema": obj{"type": "string", "format": "binary"}}}})),
		},
		"/v1/contexts/{id}/files/{path}": file,
		"/v1/processes": obj{
			"post": op("spawnProcess", "Start a long-running process", obj{"201": processOK, "409": errResponse("409"), "413": errResponse("413")}, body(jsonBody(ref("SpawnRequest")))),
			"get":  op("listProcesses", "List processes", obj{"200": jsonResponse("the processes", object(obj{"processes": array(ref("Process"))}, "processes"))}),
		},
		"/v1/events": obj{"get": op("events",
			"Follow the caller's lifecycle events (Server-Sent Events): `id: <cursor>` `event: <type>` data LifecycleEvent JSON; `event: truncated` data {after, resumeAfter, dropped} when the cursor fell out of the retained window; `: keep-alive` comments while idle. Without a cursor (or with one past the newest event) only new events come. Servers sharing a PostgreSQL store give the same stream and cursors. A malformed Last-Event-ID or an unknown type is a 400.",
			obj{"200": sse("lifecycle events", "LifecycleEvent")},
			params(cursor("after"), headerParam("Last-Event-ID", "resume after this cursor"),
				queryParam("type", obj{"type": "string", "description": "comma-separated event types: " + strings.Join(events.Types, ", ")}),
				queryParam("contextId", obj{"type": "string"})))},
		"/v1/processes/{pid}": obj{"get": op("getProcess", "One process", obj{"200": processOK}, params(pidParam))},
		"/v1/processes/{pid}/stdin": obj{"post": op("writeStdin", "Write to a process's stdin: the raw body, or JSON {data, encoding} (409 once stdin is closed or the process exited)", obj{"200": jsonResponse("written", object(obj{"pid": integer(""), "written": integer("bytes written")}, "pid", "written")), "409": errResponse("409"), "413": errResponse("413")}, params(pidParam),
			body(obj{"required": true, "content": obj{"application/json": obj{"schema": ref("StdinWrite")}, "application/octet-stream": obj{"schema": obj{"type": "string", "format": "binary"}}}}))},
		"/v1/processes/{pid}/stdin/close": obj{"post": op("closeStdin", "Close a process's stdin (EOF)", obj{"200": processOK}, params(pidParam))},
		"/v1/processes/{pid}/signal": obj{"post": op("signalProcess", "Signal a process (SIGTERM, SIGINT: grace then kill; SIGKILL); 409 when it has exited", obj{"200": processOK, "409": errResponse("409"), "413": errResponse("413")}, params(pidParam),
			optionalBody(jsonBody(strictObject(obj{"signal": enum("default SIGTERM", "SIGTERM", "SIGINT", "SIGKILL")}))))},
		"/v1/processes/{pid}/wait": obj{"get": op("waitProcess", "Long-poll until the process exits or timeoutMs passes", obj{"200": jsonResponse("the exit, or state running", ref("ProcessWait"))},
			params(pidParam, queryParam("timeoutMs", obj{"type": "integer", "minimum": 0, "maximum": maxWaitMs, "default": defaultWaitMs})))},
		"/v1/processes/{pid}/output": obj{"get": op("processOutput", "Replay a process's output after a cursor (maxBytes bounds a page's chunk bytes)", obj{"200": replay}, params(pidParam, cursor("after"), limit, maxBytes))},
		"/v1/processes/{pid}/output/stream": obj{"get": op("streamProcessOutput",
			"Follow a process's output live (Server-Sent Events): `id: <cursor>` `event: output` data Event JSON; `event: truncated` data {after, resumeAfter, dropped} when the reader fell behind the retained window; `event: exit` data ProcessExit JSON, then the stream ends; `: keep-alive` comments while idle. Resume with Last-Event-ID.",
			obj{"200": sse("output, truncated and exit events", "Event")}, params(pidParam, cursor("after"), headerParam("Last-Event-ID", "resume after this cursor")))},
	}
	errorCodes := []string{wasmexec.EInvalid, wasmexec.EUnauthorized, wasmexec.ENotFound, wasmexec.EExpired, wasmexec.EContextNotFound, wasmexec.EMethodNotAllowed, wasmexec.EConflict, wasmexec.EContextConflict, wasmexec.ELanguageMismatch, wasmexec.ENotRetained, wasmexec.ETooLarge, wasmexec.EOverloaded, wasmexec.EQuota, wasmexec.EUnavailable, "not_implemented", wasmexec.EInternal}
	errResp := func(desc string, retry bool) obj {
		r := jsonResponse(desc, ref("Error"))
		if retry {
			r["headers"] = obj{"Retry-After": obj{"description": "seconds to wait before retrying", "schema": obj{"type": "integer"}}}
		}
		return r
	}
	unauthorized := errResp("unauthorized: a missing or wrong API key (no detail which). This server takes a bearer API key (--auth-keys-file) and has no OAuth authorization server", false)
	unauthorized["headers"] = obj{"WWW-Authenticate": obj{"description": `Bearer realm="wasmexec", error="invalid_token", error_description="..."`, "schema": obj{"type": "string"}}}
	count := func(desc string) obj { return obj{"type": "integer", "minimum": 0, "description": desc} }
	timeoutMs := count("wall-clock timeout in ms; 0 or absent: the server default; above the server maximum: 400")
	runLimits := strictObject(obj{"fuel": count("wasm instruction budget (0: default; above the server maximum: 400)"), "memoryBytes": count("linear memory cap (0: default; above the server maximum or below what the guest needs: 400)"), "outputBytes": count("cap per output stream (0: default)")})
	errorData := object(obj{"code": str("exception, exit, cpu_limit, memory_limit, output_limit, stack_overflow, syntax_error, quota_exceeded, transpile_failed, internal, ..."), "name": str(""), "message": str(""), "stack": str(""), "details": anyObject("code-specific details")}, "code", "message")
	language := enum("javascript, typescript or python", string(wasmexec.JavaScript), string(wasmexec.TypeScript), string(wasmexec.Python))
	kinds := make([]string, len(wasmexec.Kinds))
	for i, k := range wasmexec.Kinds {
		kinds[i] = string(k)
	}
	nonEmpty := func(field string) obj {
		return obj{"required": []string{field}, "properties": obj{field: obj{"minLength": 1}}}
	}
	schemas := obj{
		"Error":    object(obj{"code": obj{"type": "string", "description": "a stable code", "examples": errorCodes}, "message": str("a message safe to show")}, "code", "message"),
		"Language": language,
		// A context's language is empty until its first run pins it.
		"ContextLanguage": enum("javascript, typescript or python; empty: pinned by the context's first run", "", string(wasmexec.JavaScript), string(wasmexec.TypeScript), string(wasmexec.Python)),
		"Outcome":         enum("", "succeeded", "failed", "cancelled", "timed_out"),
		"Kind":            enum("which API made the record", kinds...),
		"Limits":          runLimits,
		"Network":         strictObject(obj{"allow": array(str("host[:port], *.domain, scheme://host[:port], an IP or CIDR; within the server's --network-allow; none: no network"))}),
		"Secrets": obj{"type": "object", "description": "name to secret: the guest's env holds wasmexec-secret-NAME, the host sends the value to its hosts only",
			"additionalProperties": strictObject(obj{"value": str("never stored or returned"), "hosts": array(str("allow-list patterns; without a scheme, https only"))}, "value", "hosts")},
		"DisplayOutput":  object(obj{"type": enum("a rich output (display data)", "image/png", "image/svg+xml", "text/html", "text/plain"), "data": str("base64 for image/png, text otherwise"), "width": integer("image/png"), "height": integer("image/png"), "text": str("text/html: the plain-text form")}, "type", "data"),
		"NetworkRequest": object(obj{"method": str(""), "url": str("as the guest wrote it: placeholders, never secret values"), "status": integer("0 when it failed"), "bytes": integer("response body bytes"), "ms": integer(""), "error": str("why it failed or was refused"), "secrets": array(str("secrets substituted"))}, "method", "url", "status", "bytes", "ms"),
		"RunRequest": withOneOf(strictObject(obj{
			"language": ref("Language"), "code": str("the source (or give filePath)"), "contextId": contextID("run in this context"),
			"inputs": anyObject("exposed to the code as the read-only global inputs"),
			"stdin":  str(""), "env": stringMap("environment"), "args": array(obj{"type": "string"}), "cwd": str("relative to /workspace"),
			"files":        stringMap("path to content, written into the workspace first"),
			"filePath":     str("instead of code: a workspace file (relative; .js/.ts/... or .py) run as the entry point or the program"),
			"tsconfigPath": str("JavaScript/TypeScript: a workspace tsconfig.json whose compilerOptions (paths, baseUrl, jsx, ...) apply"),
			"packages":     array(str("one-shot runs: npm packages (JavaScript, TypeScript) or PEP 508 requirements (Python) installed into the run's workspace first")),
			"timeoutMs":    timeoutMs, "limits": ref("Limits"),
			"output":  strictObject(obj{"capture": enum("", "all", "none", "stderr"), "retainEvents": boolean("keep output events for replay")}),
			"format":  enum("JavaScript/TypeScript module format", "module", "commonjs"),
			"network": ref("Network"), "secrets": ref("Secrets"),
			"outputs":  strictObject(obj{"formats": array(enum("figure formats of the rich outputs (Python); default png", "png", "svg"))}),
			"template": str("start the run's guest from this template (one-shot runs)"),
		}, "language"), nonEmpty("code"), nonEmpty("filePath")),
		"ErrorData": errorData,
		"Result": object(obj{
			"executionId": str("exe_..."), "kind": ref("Kind"), "language": ref("Language"), "contextId": str(""), "pid": integer(""),
			"outcome": ref("Outcome"), "value": obj{"description": "evaluate: the completion value, any JSON value"}, "valueTruncated": boolean(""),
			"error": ref("ErrorData"), "exitCode": integer(""), "stdout": str("absent when not captured"), "stderr": str("absent when not captured"),
			"stdoutTruncated": boolean(""), "stderrTruncated": boolean(""), "startedAtMs": integer(""), "completedAtMs": integer(""),
			"durationMs": number(""), "fuelConsumed": integer(""), "contextReset": boolean("the context's guest was replaced (a timeout, cancel or crash): its globals are gone, its files kept"), "codeSha256": str(""),
			"stdoutEncoding": enum("present when stdout is base64 (not valid UTF-8)", "base64"), "stderrEncoding": enum("present when stderr is base64", "base64"),
			"code": str("include=code: the stored code"), "codeTruncated": boolean("include=code: the code was cut at 64 KiB"),
			"eventsRetained": boolean(""), "outputTruncated": boolean(""), "requestId": str("the X-Request-Id of the request that ran it"),
			"extra":          anyObject("kind-specific payload"),
			"network":        array(ref("NetworkRequest")),
			"outputs":        array(ref("DisplayOutput")),
			"outputsDropped": integer("outputs the store did not keep (over its cap)"),
		}, "executionId", "kind", "language", "outcome", "exitCode", "stdoutTruncated", "stderrTruncated", "startedAtMs", "completedAtMs", "durationMs", "fuelConsumed"),
		"ExecutionPage": object(obj{"executions": array(ref("Result")), "nextCursor": str(""), "hasMore": boolean("")}, "executions", "nextCursor", "hasMore"),
		"Event": object(obj{"pid": integer("the process's; 0 for a run"), "sequence": integer(""), "channel": enum("network: the chunk is a NetworkRequest as JSON; display: a DisplayOutput as JSON (a rich output, when the run ends)", "stdout", "stderr", "pty", "network", "display"), "chunk": str(""), "encoding": enum("present when chunk is base64", "base64"), "timestampMs": integer("")},
			"sequence", "channel", "chunk", "timestampMs"),
		"Replay":      object(obj{"events": array(ref("Event")), "nextCursor": str(""), "hasMore": boolean(""), "truncated": boolean("events older than the cursor were dropped")}, "events", "nextCursor", "hasMore", "truncated"),
		"ContextSpec": strictObject(obj{"contextId": contextID("1-64 of [A-Za-z0-9_-]; generated when absent"), "language": ref("ContextLanguage"), "env": stringMap("fixed for the context's life"), "limits": strictObject(obj{"memoryBytes": count("fixed for the context's life (0: default); fuel and outputBytes are per run")}), "network": ref("Network"), "secrets": ref("Secrets"), "template": str("start from this template (its language, env and memoryBytes)")}),
		"TemplateSpec": strictObject(obj{
			"templateId": str("1-64 of [A-Za-z0-9_-]; generated when absent"), "language": ref("Language"),
			"packages":  array(str("npm packages (JavaScript, TypeScript) or PEP 508 requirements (Python)")),
			"files":     stringMap("path to content, written into its workspace"),
			"setupCode": str("evaluated once in its guest after the packages and files; what it defines is every run's"),
			"env":       stringMap("its guests' environment"), "limits": ref("Limits"), "timeoutMs": integer("the build's timeout"),
		}, "language"),
		"Template": object(obj{
			"templateId": str(""), "language": ref("Language"), "state": enum("", "building", "ready", "failed"),
			"implicit":    boolean("the server's own, for a one-shot run's package set"),
			"createdAtMs": integer(""), "readyAtMs": integer(""), "lastUsedAtMs": integer(""),
			"packages": array(object(obj{"name": str(""), "version": str("the resolved version")}, "name", "version")),
			"files":    array(str("")), "env": stringMap(""), "memoryBytes": integer(""),
			"stateBytes": integer("its captured guest state"), "workspaceBytes": integer("its workspace"),
			"buildExecutionId": str("its build's record (kind template_build)"), "builds": integer(""), "runs": integer(""),
			"error": ref("ErrorData"), "notice": str("why it was last rebuilt"),
		}, "templateId", "language", "state", "createdAtMs", "packages", "memoryBytes", "stateBytes", "workspaceBytes", "builds", "runs"),
		"Context": object(obj{
			"contextId": str(""), "language": ref("ContextLanguage"), "state": enum("", "idle", "running", "resetting", "deleting", "failed"),
			"createdAtMs": integer(""), "lastStartedAtMs": integer(""), "lastCompletedAtMs": integer(""), "idleExpiresAtMs": integer(""),
			"memoryBytes": integer(""), "runs": integer(""), "resets": integer(""), "queued": integer(""),
			"workspace": object(obj{"usedBytes": integer(""), "quotaBytes": integer("")}), "error": ref("ErrorData"),
			"hibernated": boolean("the guest is not in memory; the next run, file call or fork restores it"), "snapshotBytes": integer(""),
			"stateAsOfMs": integer("when the state that survives a restart was captured"), "restoredAtMs": integer(""),
			"notice":  str("why it is not hibernated or snapshotted, or why it came back fresh"),
			"network": ref("Network"), "secrets": array(str("names only")),
		}, "contextId", "language", "state", "createdAtMs"),
		"FileEntry":     object(obj{"path": str("relative to /workspace"), "type": enum("", "file", "dir", "symlink", "other"), "size": integer(""), "modifiedAtMs": integer("")}, "path", "type", "size", "modifiedAtMs"),
		"FileList":      object(obj{"dir": str(""), "entries": array(ref("FileEntry"))}, "dir", "entries"),
		"ExtractResult": object(obj{"dir": str("where it was unpacked"), "files": integer(""), "dirs": integer(""), "bytes": integer("bytes unpacked")}, "dir", "files", "dirs", "bytes"),
		"SpawnRequest": withOneOf(strictObject(obj{"language": ref("Language"), "code": str("the program (or give file)"), "file": str("a file of the context's workspace to run (with contextId)"), "args": array(obj{"type": "string"}), "env": stringMap(""), "cwd": str(""), "contextId": contextID("run in this context's workspace"), "timeoutMs": timeoutMs, "limits": ref("Limits"), "format": enum("", "module", "commonjs"), "network": ref("Network"), "secrets": ref("Secrets"), "template": str("start from this template (not in a context)")}, "language"),
			nonEmpty("code"), nonEmpty("file")),
		"ProcessExit": object(exitProps(obj{"pid": integer(""), "executionId": str("")}), "pid", "executionId", "outcome", "exitedAtMs", "durationMs"),
		"Process": object(obj{"pid": integer(""), "executionId": str(""), "state": enum("", "running", "exited"), "language": ref("Language"), "command": str(""), "contextId": str(""), "startedAtMs": integer(""), "stdinClosed": boolean(""), "signal": str(""), "exit": ref("ProcessExit")},
			"pid", "executionId", "state", "language", "command", "startedAtMs", "stdinClosed"),
		"ProcessWait": object(exitProps(obj{"pid": integer(""), "state": enum("running: the wait timed out; exited: the exit's fields follow", "running", "exited"), "executionId": str("exited only")}), "pid", "state"),
		"StdinWrite":  strictObject(obj{"data": str(""), "encoding": enum("", "utf8", "utf-8", "base64")}, "data"),
		"CheckRequest": withOneOf(strictObject(obj{"code": str("one file (or give files)"), "files": obj{"type": "object", "additionalProperties": obj{"type": "string"}, "description": "path to content"}, "filePath": str("the file whose diagnostics are reported; with code, code's own name"),
			"tsconfigPath":    str("a tsconfig.json among files: its compilerOptions (compilerOptions override them)"),
			"compilerOptions": anyObject("TypeScript 7's compilerOptions as in a tsconfig.json (with typescriptVersion 5.9: that checker's subset); a removed option is a 400 saying what replaced it"),
			"timeoutMs":       timeoutMs, "typescriptVersion": obj{"type": "string", "pattern": `^(7|5\.9)(\.[0-9]+)*$`, "description": "the checker: 7 (default) or 5.9; a full version names its major"}}),
			nonEmpty("code"), obj{"required": []string{"files"}, "properties": obj{"files": obj{"minProperties": 1}}}),
		"CheckResult": object(obj{"outcome": ref("Outcome"), "hasErrors": boolean(""), "typeScriptVersion": str("the compiler that checked, e.g. 7.0.2"), "diagnostics": array(object(obj{
			"code": integer(""), "category": enum("", "error", "warning", "suggestion", "message"), "message": str(""), "filePath": str(""), "line": integer("1-based"), "column": integer("1-based"),
		}, "code", "category", "message"))}, "outcome", "hasErrors", "diagnostics"),
		"NPMInstallRequest": strictObject(obj{"packages": array(str("name, name@range or name@tag")), "dev": boolean("add them to devDependencies"), "frozen": boolean("no packages: fail when package-lock.json would change"), "timeoutMs": timeoutMs}),
		"PipInstallRequest": strictObject(obj{"packages": array(str("PEP 508 requirement")), "requirementsFile": str("a workspace path"), "indexUrl": str("an allowed index"), "extraIndexUrls": array(str("allowed indexes")), "upgrade": boolean("prefer the newest versions"), "timeoutMs": timeoutMs}),
		"LifecycleEvent": object(obj{
			"type": enum("", events.Types...), "timestampMs": integer(""), "contextId": str(""), "templateId": str(""), "executionId": str(""), "kind": ref("Kind"), "language": ref("Language"),
			"outcome": str("execution.completed: the run's outcome; process.exited: exited, signalled or timed_out"), "exitCode": integer(""), "durationMs": number(""), "pid": integer(""), "requestId": str("the X-Request-Id of the request that caused it"),
		}, "type", "timestampMs"),
		"Readiness": obj{"type": "object", "required": []string{"ready"}, "properties": obj{"ready": boolean("")}, "additionalProperties": true, "description": "ready, and details by component"},
	}
	tagOperations(paths)
	return obj{
		"openapi": "3.1.0",
		"tags":    apiTags,
		"info": obj{
			"title":       "wasmexec",
			"version":     OpenAPIVersion,
			"description": "Run untrusted JavaScript, TypeScript and Python in WebAssembly sandboxes. Errors are {code, message} with the HTTP status of the code; a guest failure is a 200 with outcome failed. A method a path does not list is a 405 method_not_allowed with an Allow header; a malformed query string is a 400.",
			"license":     obj{"name": "Apache-2.0", "identifier": "Apache-2.0"},
		},
		"servers": []obj{{"url": "http://127.0.0.1:8080", "description": "the default --addr; a deployment serves the same paths at its own address"}},
		"paths":   paths,
		"components": obj{
			"schemas": schemas,
			"responses": obj{
				"400": errResp("invalid_argument: a malformed or invalid request", false),
				"401": unauthorized,
				"404": errResp("not_found (also another tenant's id), execution_expired, context_not_found", false),
				"409": errResp("conflict, context_conflict, context_language_mismatch, execution_output_not_retained", false),
				"413": errResp("payload_too_large", false),
				"429": errResp("overloaded, or a tenant quota (the message names it)", true),
				"500": errResp("internal", false),
				"501": errResp("not_implemented: the feature is not enabled on this server", false),
				"503": errResp("unavailable: not ready yet or shutting down", true),
			},
			"securitySchemes": obj{"bearer": obj{"type": "http", "scheme": "bearer", "description": "an API key from --auth-keys-file; a server without keys is open (loopback only)"}},
		},
		"security": []obj{{"bearer": []string{}}, {}},
	}
}

// exitProps adds a process exit's fields to props.
func exitProps(props obj) obj {
	for k, v := range (obj{"outcome": enum("", "exited", "signalled", "timed_out"), "exitCode": integer("exited only"), "signal": str("signalled only"), "error": ref("ErrorData"), "exitedAtMs": integer(""), "durationMs": number("")}) {
		props[k] = v
	}
	return props
}

// anyObject is a JSON object whose members may be any JSON value
// (generated types then read Record<string, unknown>, not never).
func anyObject(desc string) obj {
	return obj{"type": "object", "additionalProperties": true, "description": desc}
}

func contextID(desc string) obj {
	return obj{"type": "string", "pattern": contextIDPattern, "description": desc}
}

// withOneOf adds "exactly one of" the alternatives to an object schema.
func withOneOf(o obj, alts ...obj) obj {
	o["oneOf"] = alts
	return o
}

// mcpOp makes /mcp's errors JSON-RPC errors without an id, as the server
// sends them there (handleError), the API's {code, message} in data.
func mcpOp(o obj) obj {
	rs := o["responses"].(obj)
	for code, what := range map[string]string{"401": "unauthorized: no valid API key (-32600); this server takes a bearer API key and has no OAuth authorization server", "429": "overloaded or a tenant quota (-32600)", "500": "internal (-32603)", "501": "MCP is not enabled on this server (-32603)", "503": "unavailable (-32603)"} {
		r := rpcError(what)
		switch code {
		case "401":
			r["headers"] = obj{"WWW-Authenticate": obj{"description": `Bearer realm="wasmexec", error="invalid_token", error_description="..."`, "schema": obj{"type": "string"}}}
		case "429", "503":
			r["headers"] = obj{"Retry-After": obj{"description": "seconds to wait before retrying", "schema": obj{"type": "integer"}}}
		}
		rs[code] = r
	}
	return o
}

// rpcError is an MCP transport error: a JSON-RPC error response without an
// id (mcp/rpcerrors.go).
func rpcError(what string) obj {
	return obj{"description": "a JSON-RPC error without an id: " + what, "content": obj{"application/json": obj{"schema": obj{
		"type": "object", "required": []string{"jsonrpc", "error"},
		"properties": obj{
			"jsonrpc": obj{"const": "2.0"},
			"id":      obj{"type": "null"},
			"error": obj{"type": "object", "required": []string{"code", "message"}, "properties": obj{
				"code": obj{"type": "integer"}, "message": obj{"type": "string"}, "data": ref("Error"),
			}},
		},
	}}}}
}

// apiTags group the operations as the docs do, so generated clients and
// doc sites show the API by topic.
var apiTags = []obj{
	{"name": "runs", "description": "One-shot runs: evaluate and execute (docs/API.md)"},
	{"name": "contexts", "description": "Contexts, their files and installs (docs/CONTEXTS.md, docs/PACKAGES.md)"},
	{"name": "templates", "description": "Warm templates (docs/TEMPLATES.md)"},
	{"name": "processes", "description": "Long-running processes, stdin, signals, live output (docs/API.md)"},
	{"name": "executions", "description": "Completed executions and their output (docs/API.md)"},
	{"name": "typescript", "description": "The TypeScript checker"},
	{"name": "events", "description": "Lifecycle events (docs/FRONTDOOR.md)"},
	{"name": "server", "description": "Probes, metrics, this document and MCP"},
}

// tagOperations gives each operation the tag of its path's topic.
func tagOperations(paths obj) {
	for path, item := range paths {
		methods, ok := item.(obj)
		if !ok {
			continue
		}
		tag := "server"
		switch rest := strings.TrimPrefix(path, "/v1/"); {
		case rest == "evaluate" || rest == "execute":
			tag = "runs"
		case strings.HasPrefix(rest, "contexts"):
			tag = "contexts"
		case strings.HasPrefix(rest, "templates"):
			tag = "templates"
		case strings.HasPrefix(rest, "processes"):
			tag = "processes"
		case strings.HasPrefix(rest, "executions"):
			tag = "executions"
		case strings.HasPrefix(rest, "typescript"):
			tag = "typescript"
		case strings.HasPrefix(rest, "events"):
			tag = "events"
		}
		for _, o := range methods {
			if operation, ok := o.(obj); ok {
				operation["tags"] = []string{tag}
			}
		}
	}
}
