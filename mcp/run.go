package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/server"
)

// RunCodeInput is the input of run_code.
type RunCodeInput struct {
	Language  string            `json:"language" enum:"javascript,typescript,python" jsonschema:"javascript, typescript or python"`
	Code      string            `json:"code" jsonschema:"the source code to run"`
	Mode      string            `json:"mode,omitempty" enum:"evaluate,execute" jsonschema:"evaluate (default: returns the value of the last expression) or execute (runs the code as a program; stdin and args apply)"`
	ContextID string            `json:"contextId,omitempty" jsonschema:"run inside this context (create_context) instead of a fresh sandbox"`
	Inputs    map[string]any    `json:"inputs,omitempty" jsonschema:"JSON object exposed to the code as the read-only global inputs"`
	Files     map[string]string `json:"files,omitempty" jsonschema:"files to write into /workspace before running: path to UTF-8 content"`
	Stdin     string            `json:"stdin,omitempty" jsonschema:"standard input"`
	Args      []string          `json:"args,omitempty" jsonschema:"program arguments (execute)"`
	Env       map[string]string `json:"env,omitempty" jsonschema:"environment variables (in a context: fixed when it was created; omit them)"`
	Packages  []string          `json:"packages,omitempty" jsonschema:"one-shot runs: npm packages (javascript, typescript) or PEP 508 requirements (python) installed first, e.g. lodash@4 or attrs==23.1.0"`
	TimeoutMs int64             `json:"timeoutMs,omitempty" jsonschema:"wall-clock timeout in milliseconds (at most the server's maximum)"`
	Limits    *LimitsInput      `json:"limits,omitempty" jsonschema:"resource limits below the server's maxima (0 or absent: the server default)"`
	Network   []string          `json:"network,omitempty" jsonschema:"hosts the code may reach over HTTP(S) through the host (fetch, urllib), e.g. api.example.com or *.example.org; within the server's --network-allow"`
	Template  string            `json:"template,omitempty" jsonschema:"start the fresh sandbox from this template (create_template): its imports and files are there already"`
}

// LimitsInput bounds one run (wasmexec.Limits).
type LimitsInput struct {
	Fuel        uint64 `json:"fuel,omitempty" jsonschema:"wasm instruction budget"`
	MemoryBytes int64  `json:"memoryBytes,omitempty" jsonschema:"linear memory cap in bytes (in a context: fixed when it was created)"`
	OutputBytes int64  `json:"outputBytes,omitempty" jsonschema:"cap per output stream in bytes"`
}

// Record is an execution record as the tools return it: the HTTP API's
// record less its bookkeeping. Stdout and stderr that are not UTF-8 are
// base64, with stdoutEncoding or stderrEncoding base64.
type Record struct {
	ExecutionID     string              `json:"executionId"`
	Kind            string              `json:"kind,omitempty" jsonschema:"evaluate, execute, process, typescript_check, npm_install or pip_install"`
	Language        string              `json:"language,omitempty"`
	Outcome         string              `json:"outcome" jsonschema:"succeeded, failed, cancelled or timed_out"`
	Value           any                 `json:"value,omitempty" jsonschema:"evaluate: the completion value of the last expression"`
	Error           *wasmexec.ErrorData `json:"error,omitempty"`
	ExitCode        int                 `json:"exitCode"`
	Stdout          string              `json:"stdout"`
	StdoutEncoding  string              `json:"stdoutEncoding,omitempty" jsonschema:"base64 when stdout is not UTF-8 text"`
	Stderr          string              `json:"stderr"`
	StderrEncoding  string              `json:"stderrEncoding,omitempty" jsonschema:"base64 when stderr is not UTF-8 text"`
	StdoutTruncated bool                `json:"stdoutTruncated,omitempty"`
	StderrTruncated bool                `json:"stderrTruncated,omitempty"`
	DurationMs      float64             `json:"durationMs"`
	StartedAtMs     int64               `json:"startedAtMs,omitempty"`
	ContextID       string              `json:"contextId,omitempty"`
	PID             int64               `json:"pid,omitempty"`
	ContextReset    bool                `json:"contextReset,omitempty" jsonschema:"the context's sandbox was replaced after this run: its globals are gone, its files kept"`
	// Outputs describe the run's rich outputs (figures, tables), which
	// follow the text as content items: images as image content.
	Outputs []OutputInfo `json:"outputs,omitempty"`
}

// OutputInfo describes one rich output of a run (its data is a content
// item of the tool's result, and in the execution record).
type OutputInfo struct {
	Type   string `json:"type"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Bytes  int    `json:"bytes"`
}

// outputContent turns a run's rich outputs into content items the model
// reads: PNG figures as images it can see, tables as their plain text,
// SVG as a note (models take raster images).
func outputContent(outs []wasmexec.DisplayOutput) []sdk.Content {
	var c []sdk.Content
	for i := range outs {
		o := &outs[i]
		switch o.Type {
		case "image/png":
			data, err := base64.StdEncoding.DecodeString(o.Data)
			if err != nil {
				continue
			}
			c = append(c, &sdk.ImageContent{Data: data, MIMEType: "image/png"})
		case "text/html":
			text := o.Text
			if text == "" {
				text = o.Data
			}
			c = append(c, &sdk.TextContent{Text: text})
		case "text/plain":
			c = append(c, &sdk.TextContent{Text: o.Data})
		default:
			c = append(c, &sdk.TextContent{Text: fmt.Sprintf("(%s output of %d bytes: in the execution record)", o.Type, len(o.Data))})
		}
	}
	return c
}

// RunCodeOutput is the structured result of run_code.
type RunCodeOutput = Record

// record converts a result by its JSON, so stdout and stderr follow the
// HTTP API's rule (text, or base64 with an encoding field).
func record(res *wasmexec.Result) (Record, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return Record{}, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, err
	}
	return r, nil
}

func (t *tools) runCode(ctx context.Context, call *sdk.CallToolRequest, in RunCodeInput) (*sdk.CallToolResult, RunCodeOutput, error) {
	req, err := runRequest(in)
	if err != nil {
		return nil, Record{}, err
	}
	var opts wasmexec.RunOptions
	var wait func()
	if p := newProgress(call); p != nil {
		opts.Log = wasmexec.NewOutputLog(0, 4<<20)
		ctx = wasmexec.WithLiveOutput(ctx, opts.Log)
		wait = p.follow(ctx, opts.Log)
	}
	var res *wasmexec.Result
	switch {
	case req.ContextID != "" && t.cfg.Contexts == nil:
		err = wasmexec.Errorf(wasmexec.EInvalid, "execution contexts are not enabled on this server")
	case req.ContextID != "":
		res, err = t.cfg.Contexts.Run(ctx, req)
	case t.cfg.Runner == nil:
		err = server.ErrLoading
	default:
		res, err = t.cfg.Runner.Run(ctx, req, opts)
	}
	if opts.Log != nil {
		opts.Log.Close() // a run refused before its guest never opened it
		wait()           // every notification goes before the result
	}
	if err != nil {
		return nil, Record{}, toolError(err)
	}
	out, err := record(res)
	if err != nil {
		return nil, Record{}, err
	}
	out.Outputs = nil // the record's outputs carry their data: describe them instead
	for i := range res.Outputs {
		o := &res.Outputs[i]
		out.Outputs = append(out.Outputs, OutputInfo{Type: o.Type, Width: o.Width, Height: o.Height, Bytes: len(o.Data)})
	}
	r := text(runText(&out, res.Value))
	r.Content = append(r.Content, outputContent(res.Outputs)...)
	r.IsError = out.Outcome != string(wasmexec.Succeeded)
	return r, out, nil
}

// runRequest builds the run's request from the tool's input.
func runRequest(in RunCodeInput) (*wasmexec.Request, error) {
	req := &wasmexec.Request{
		Kind: wasmexec.KindEvaluate, Language: wasmexec.Language(in.Language), Code: in.Code, ContextID: in.ContextID, Template: in.Template,
		Files: in.Files, Stdin: in.Stdin, Args: in.Args, Env: in.Env, Packages: in.Packages, TimeoutMs: in.TimeoutMs,
	}
	if in.Limits != nil {
		req.Limits = wasmexec.Limits{Fuel: in.Limits.Fuel, MemoryBytes: in.Limits.MemoryBytes, OutputBytes: in.Limits.OutputBytes}
	}
	if len(in.Network) > 0 {
		req.Network = &wasmexec.Network{Allow: in.Network}
	}
	switch in.Mode {
	case "", "evaluate":
	case "execute":
		req.Kind = wasmexec.KindExecute
	default:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "mode must be evaluate or execute, not %q", in.Mode)
	}
	if in.Inputs != nil {
		b, err := json.Marshal(in.Inputs)
		if err != nil {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "inputs: %v", err)
		}
		req.Inputs = b
	}
	if req.Language == "" || req.Code == "" {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "language and code are required")
	}
	return req, nil
}

// runText is what the model reads of a run.
func runText(o *Record, value json.RawMessage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "outcome: %s", o.Outcome)
	if o.Error != nil {
		fmt.Fprintf(&b, "\nerror: %s: %s", o.Error.Code, o.Error.Message)
		if o.Error.Stack != "" {
			fmt.Fprintf(&b, "\n%s", o.Error.Stack)
		}
	}
	if o.ContextReset {
		fmt.Fprintf(&b, "\ncontextReset: true: context %s was given a fresh sandbox after this run, so its variables, functions and imports are gone (its /workspace files are kept); run your setup code again before using them", o.ContextID)
	}
	if len(value) > 0 {
		fmt.Fprintf(&b, "\nvalue: %s", value)
	}
	if o.ExitCode != 0 {
		fmt.Fprintf(&b, "\nexitCode: %d", o.ExitCode)
	}
	stream := func(name, s, encoding string, truncated bool) {
		if s == "" {
			return
		}
		label := name
		if encoding != "" {
			label += " (" + encoding + ": not UTF-8 text)"
		}
		if truncated {
			label += " (truncated)"
		}
		fmt.Fprintf(&b, "\n%s:\n%s", label, s)
	}
	stream("stdout", o.Stdout, o.StdoutEncoding, o.StdoutTruncated)
	stream("stderr", o.Stderr, o.StderrEncoding, o.StderrTruncated)
	return b.String()
}
