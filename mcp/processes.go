package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
)

// SpawnInput is the input of spawn_process.
type SpawnInput struct {
	Language  string            `json:"language" enum:"javascript,typescript,python" jsonschema:"javascript, typescript or python"`
	Code      string            `json:"code,omitempty" jsonschema:"the program (or give file)"`
	File      string            `json:"file,omitempty" jsonschema:"instead of code: a file of the context's /workspace to run (with contextId)"`
	ContextID string            `json:"contextId,omitempty" jsonschema:"run in this context's /workspace"`
	Args      []string          `json:"args,omitempty" jsonschema:"program arguments"`
	Env       map[string]string `json:"env,omitempty" jsonschema:"environment variables"`
	TimeoutMs int64             `json:"timeoutMs,omitempty" jsonschema:"wall-clock limit of the process's life in milliseconds"`
	Limits    *LimitsInput      `json:"limits,omitempty" jsonschema:"resource limits below the server's maxima"`
	Network   []string          `json:"network,omitempty" jsonschema:"hosts the program may reach over HTTP(S), within the server's --network-allow"`
}

// ProcessExit is how a process ended.
type ProcessExit struct {
	Outcome    string              `json:"outcome" jsonschema:"exited, signalled or timed_out"`
	ExitCode   *int                `json:"exitCode,omitempty" jsonschema:"exited only"`
	Signal     string              `json:"signal,omitempty" jsonschema:"signalled only"`
	Error      *wasmexec.ErrorData `json:"error,omitempty"`
	DurationMs float64             `json:"durationMs"`
}

// ProcessOutput is a process descriptor.
type ProcessOutput struct {
	PID         int64        `json:"pid"`
	ExecutionID string       `json:"executionId"`
	State       string       `json:"state" jsonschema:"running or exited"`
	Language    string       `json:"language"`
	Command     string       `json:"command"`
	ContextID   string       `json:"contextId,omitempty"`
	StartedAtMs int64        `json:"startedAtMs"`
	StdinClosed bool         `json:"stdinClosed"`
	Exit        *ProcessExit `json:"exit,omitempty"`
}

func processOutput(d *wasmexec.Process) ProcessOutput {
	out := ProcessOutput{PID: d.PID, ExecutionID: d.ExecutionID, State: string(d.State), Language: string(d.Language), Command: d.Command, ContextID: d.ContextID, StartedAtMs: d.StartedAtMs, StdinClosed: d.StdinClosed}
	if d.Exit != nil {
		out.Exit = exitOutput(d.Exit)
	}
	return out
}

func exitOutput(x *wasmexec.ProcessExit) *ProcessExit {
	return &ProcessExit{Outcome: string(x.Outcome), ExitCode: x.ExitCode, Signal: string(x.Signal), Error: x.Error, DurationMs: x.DurationMs}
}

// processText is what the model reads of a process.
func processText(d ProcessOutput) string {
	s := fmt.Sprintf("process %d (%s): %s", d.PID, d.ExecutionID, d.State)
	if x := d.Exit; x != nil {
		s += ", " + x.Outcome
		if x.ExitCode != nil {
			s += fmt.Sprintf(", exitCode %d", *x.ExitCode)
		}
		if x.Signal != "" {
			s += ", " + x.Signal
		}
		if x.Error != nil {
			s += fmt.Sprintf(", error %s: %s", x.Error.Code, x.Error.Message)
		}
	}
	return s
}

func (t *tools) spawnProcess(ctx context.Context, _ *sdk.CallToolRequest, in SpawnInput) (*sdk.CallToolResult, ProcessOutput, error) {
	req := &wasmexec.SpawnRequest{Language: wasmexec.Language(in.Language), Code: in.Code, File: in.File, ContextID: in.ContextID, Args: in.Args, Env: in.Env, TimeoutMs: in.TimeoutMs}
	if in.Limits != nil {
		req.Limits = wasmexec.Limits{Fuel: in.Limits.Fuel, MemoryBytes: in.Limits.MemoryBytes, OutputBytes: in.Limits.OutputBytes}
	}
	if len(in.Network) > 0 {
		req.Network = &wasmexec.Network{Allow: in.Network}
	}
	d, err := t.cfg.Processes.Spawn(ctx, req)
	if err != nil {
		return nil, ProcessOutput{}, toolError(err)
	}
	out := processOutput(d)
	return text(processText(out)), out, nil
}

// PIDInput names one process.
type PIDInput struct {
	PID int64 `json:"pid" jsonschema:"the process's pid (spawn_process)"`
}

// StdinInput is the input of write_stdin.
type StdinInput struct {
	PID      int64  `json:"pid" jsonschema:"the process's pid"`
	Data     string `json:"data,omitempty" jsonschema:"what to write"`
	Encoding string `json:"encoding,omitempty" enum:"utf8,base64" jsonschema:"utf8 (default) or base64"`
	Close    bool   `json:"close,omitempty" jsonschema:"close stdin after writing (end of file)"`
}

// StdinOutput says what was written.
type StdinOutput struct {
	PID         int64 `json:"pid"`
	Written     int   `json:"written" jsonschema:"bytes written"`
	StdinClosed bool  `json:"stdinClosed"`
}

func (t *tools) writeStdin(ctx context.Context, _ *sdk.CallToolRequest, in StdinInput) (*sdk.CallToolResult, StdinOutput, error) {
	data := []byte(in.Data)
	switch in.Encoding {
	case "", "utf8":
	case "base64":
		var err error
		if data, err = base64.StdEncoding.DecodeString(in.Data); err != nil {
			return nil, StdinOutput{}, wasmexec.Errorf(wasmexec.EInvalid, "data is not valid base64: %v", err)
		}
	default:
		return nil, StdinOutput{}, wasmexec.Errorf(wasmexec.EInvalid, "encoding must be utf8 or base64, not %q", in.Encoding)
	}
	out := StdinOutput{PID: in.PID, Written: len(data)}
	if len(data) > 0 || !in.Close {
		if err := t.cfg.Processes.WriteStdin(ctx, in.PID, data); err != nil {
			return nil, StdinOutput{}, toolError(err)
		}
	}
	if in.Close {
		if _, err := t.cfg.Processes.CloseStdin(ctx, in.PID); err != nil {
			return nil, StdinOutput{}, toolError(err)
		}
		out.StdinClosed = true
	}
	msg := fmt.Sprintf("wrote %d bytes to process %d", out.Written, in.PID)
	if out.StdinClosed {
		msg += "; stdin closed"
	}
	return text(msg), out, nil
}

// SignalInput is the input of signal_process.
type SignalInput struct {
	PID    int64  `json:"pid" jsonschema:"the process's pid"`
	Signal string `json:"signal,omitempty" enum:"SIGTERM,SIGINT,SIGKILL" jsonschema:"SIGTERM (default), SIGINT or SIGKILL"`
}

func (t *tools) signalProcess(ctx context.Context, _ *sdk.CallToolRequest, in SignalInput) (*sdk.CallToolResult, ProcessOutput, error) {
	d, err := t.cfg.Processes.Signal(ctx, in.PID, wasmexec.Signal(in.Signal))
	if err != nil {
		return nil, ProcessOutput{}, toolError(err)
	}
	out := processOutput(d)
	return text(processText(out)), out, nil
}

// WaitInput is the input of wait_process.
type WaitInput struct {
	PID       int64  `json:"pid" jsonschema:"the process's pid"`
	TimeoutMs *int64 `json:"timeoutMs,omitempty" jsonschema:"how long to wait in milliseconds: 0 only looks; default 30000, at most 600000 (keep it below your client's request timeout)"`
}

// WaitOutput is the answer of wait_process: state running (the wait timed
// out) or exited with the exit.
type WaitOutput struct {
	PID   int64        `json:"pid"`
	State string       `json:"state" jsonschema:"running (the wait timed out) or exited"`
	Exit  *ProcessExit `json:"exit,omitempty"`
}

func (t *tools) waitProcess(ctx context.Context, _ *sdk.CallToolRequest, in WaitInput) (*sdk.CallToolResult, WaitOutput, error) {
	ms := int64(30_000)
	if in.TimeoutMs != nil {
		ms = *in.TimeoutMs
	}
	if ms < 0 || ms > 600_000 {
		return nil, WaitOutput{}, wasmexec.Errorf(wasmexec.EInvalid, "timeoutMs must be in 0..600000, not %d", ms)
	}
	w, err := t.cfg.Processes.Wait(ctx, in.PID, time.Duration(ms)*time.Millisecond)
	if err != nil {
		return nil, WaitOutput{}, toolError(err)
	}
	out := WaitOutput{PID: w.PID, State: string(w.State)}
	msg := fmt.Sprintf("process %d: %s", w.PID, w.State)
	if w.Exit != nil {
		out.Exit = exitOutput(w.Exit)
		msg = processText(ProcessOutput{PID: w.PID, ExecutionID: w.Exit.ExecutionID, State: string(w.State), Exit: out.Exit})
	}
	return text(msg), out, nil
}

// OutputInput is the input of read_process_output.
type OutputInput struct {
	PID   int64  `json:"pid" jsonschema:"the process's pid"`
	After string `json:"after,omitempty" jsonschema:"the nextCursor of the previous read; absent: from the start"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many events (default 1000)"`
}

// OutputEvent is one write of the process.
type OutputEvent struct {
	Sequence    uint64 `json:"sequence"`
	Channel     string `json:"channel" jsonschema:"stdout, stderr or network"`
	Chunk       string `json:"chunk"`
	Encoding    string `json:"encoding,omitempty" jsonschema:"base64 when the chunk is not UTF-8 text"`
	TimestampMs int64  `json:"timestampMs"`
}

// OutputPage is a page of output events.
type OutputPage struct {
	Events     []OutputEvent `json:"events"`
	NextCursor string        `json:"nextCursor" jsonschema:"resumes after the last event returned"`
	HasMore    bool          `json:"hasMore"`
	Truncated  bool          `json:"truncated" jsonschema:"events after the cursor were dropped by the output cap before they were read"`
}

func (t *tools) readProcessOutput(ctx context.Context, _ *sdk.CallToolRequest, in OutputInput) (*sdk.CallToolResult, OutputPage, error) {
	if in.Limit < 0 {
		return nil, OutputPage{}, wasmexec.Errorf(wasmexec.EInvalid, "limit must be positive")
	}
	r, err := t.cfg.Processes.Output(ctx, in.PID, in.After, in.Limit)
	if err != nil {
		return nil, OutputPage{}, toolError(err)
	}
	out := OutputPage{Events: []OutputEvent{}, NextCursor: r.NextCursor, HasMore: r.HasMore, Truncated: r.Truncated}
	var b strings.Builder
	fmt.Fprintf(&b, "%d events, nextCursor %s", len(r.Events), r.NextCursor)
	if r.HasMore {
		b.WriteString(", more to read")
	}
	if r.Truncated {
		b.WriteString(", older events were dropped")
	}
	for _, ev := range r.Events {
		e := OutputEvent{Sequence: ev.Sequence, Channel: string(ev.Channel), Chunk: string(ev.Chunk), TimestampMs: ev.TimestampMs}
		if !utf8.Valid(ev.Chunk) {
			e.Chunk, e.Encoding = base64.StdEncoding.EncodeToString(ev.Chunk), "base64"
		}
		out.Events = append(out.Events, e)
		if e.Channel == string(wasmexec.Stdout) && e.Encoding == "" {
			b.WriteString("\n" + strings.TrimSuffix(e.Chunk, "\n"))
		} else {
			fmt.Fprintf(&b, "\n[%s%s] %s", e.Channel, map[bool]string{true: ", base64"}[e.Encoding != ""], strings.TrimSuffix(e.Chunk, "\n"))
		}
	}
	return text(b.String()), out, nil
}

// ListProcessesOutput lists processes.
type ListProcessesOutput struct {
	Processes []ProcessOutput `json:"processes"`
}

func (t *tools) listProcesses(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, ListProcessesOutput, error) {
	list, err := t.cfg.Processes.List(ctx)
	if err != nil {
		return nil, ListProcessesOutput{}, toolError(err)
	}
	out := ListProcessesOutput{Processes: []ProcessOutput{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%d processes", len(list))
	for _, d := range list {
		p := processOutput(d)
		out.Processes = append(out.Processes, p)
		b.WriteString("\n" + processText(p))
	}
	return text(b.String()), out, nil
}
