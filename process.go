package wasmexec

import "encoding/json"

// Process vocabulary. The processes package implements
// them; server/ speaks them on the wire.

// ProcessState is where a process is in its life:
//
//	running → exited
//
// A process is running from the moment Spawn returns until its guest has
// stopped and its record was completed (persisted); it never comes back.
type ProcessState string

const (
	ProcessRunning ProcessState = "running"
	ProcessExited  ProcessState = "exited"
)

// Signal names a signal a client may send a process. SIGTERM and SIGINT
// close the process's stdin at once (the guest reads EOF; a guest that
// asks learns the signal there and acts as a process would: the Python
// guest runs its handler or ends) and kill it after a grace period if it is
// still running; SIGKILL kills it at once.
type Signal string

const (
	SIGTERM Signal = "SIGTERM"
	SIGINT  Signal = "SIGINT"
	SIGKILL Signal = "SIGKILL"
)

// Number is the signal's Linux number (0 for an unknown one). A process
// ended by signal n reports exit code 128+n, as Linux shells do.
func (s Signal) Number() int {
	switch s {
	case SIGINT:
		return 2
	case SIGKILL:
		return 9
	case SIGTERM:
		return 15
	}
	return 0
}

// ExitOutcome is how a process ended.
type ExitOutcome string

const (
	// ExitExited: the program finished by itself (returned, exited, threw or
	// hit a limit); exitCode says how.
	ExitExited ExitOutcome = "exited"
	// ExitSignalled: killed by a signal (or because its context was deleted:
	// SIGKILL; or the server shut down: SIGTERM, error name ShutdownError).
	ExitSignalled ExitOutcome = "signalled"
	// ExitTimedOut: killed at its wall-clock deadline (timeoutMs).
	ExitTimedOut ExitOutcome = "timed_out"
)

// SpawnRequest starts a process: POST /v1/processes.
type SpawnRequest struct {
	Language Language `json:"language"`
	// Code is the program; File instead names a file in the workspace of
	// ContextID to run. Exactly one of them.
	Code      string            `json:"code,omitempty"`
	File      string            `json:"file,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	ContextID string            `json:"contextId,omitempty"`
	TimeoutMs int64             `json:"timeoutMs,omitempty"`
	Limits    Limits            `json:"limits"`
	Format    string            `json:"format,omitempty"` // JS/TS only
	// Network and Secrets as for a run (a process in a context does not
	// inherit the context's).
	Network *Network          `json:"network,omitempty"`
	Secrets map[string]Secret `json:"secrets,omitempty"`
	// Template starts the process from a template (not in a context).
	Template string `json:"template,omitempty"`
}

// Process is a process descriptor: GET /v1/processes/:pid.
type Process struct {
	PID         int64        `json:"pid"`
	ExecutionID string       `json:"executionId"`
	State       ProcessState `json:"state"`
	Language    Language     `json:"language"`
	Command     string       `json:"command"`
	ContextID   string       `json:"contextId,omitempty"`
	StartedAtMs int64        `json:"startedAtMs"`
	StdinClosed bool         `json:"stdinClosed"`
	// Signal is the last signal sent, if any.
	Signal Signal `json:"signal,omitempty"`
	// Exit is set once State is exited.
	Exit *ProcessExit `json:"exit,omitempty"`
}

// ProcessExit is how a process ended. ExitCode is set for ExitExited only;
// Signal for ExitSignalled only. Error carries the run's failure, if any
// (e.g. cpu_limit, exception, cancelled), as in an execution result.
type ProcessExit struct {
	PID         int64       `json:"pid"`
	ExecutionID string      `json:"executionId"`
	Outcome     ExitOutcome `json:"outcome"`
	ExitCode    *int        `json:"exitCode,omitempty"`
	Signal      Signal      `json:"signal,omitempty"`
	Error       *ErrorData  `json:"error,omitempty"`
	ExitedAtMs  int64       `json:"exitedAtMs"`
	DurationMs  float64     `json:"durationMs"`
}

// ProcessWait is the answer of a wait: State running (the wait timed out)
// or exited with the exit fields inlined.
type ProcessWait struct {
	PID   int64        `json:"pid"`
	State ProcessState `json:"state"`
	Exit  *ProcessExit `json:"-"`
}

// MarshalJSON inlines the exit: {"pid":1,"state":"exited","outcome":...}.
func (w ProcessWait) MarshalJSON() ([]byte, error) {
	if w.Exit == nil {
		return json.Marshal(struct {
			PID   int64        `json:"pid"`
			State ProcessState `json:"state"`
		}{w.PID, w.State})
	}
	type exit ProcessExit
	return json.Marshal(struct {
		State ProcessState `json:"state"`
		*exit
	}{w.State, (*exit)(w.Exit)})
}

// PIDShift is where a cluster server's number sits in the pids it gives
// out: pid = server<<PIDShift + n. 2^53 (JSON's exact integers) leaves
// 2^21 servers.
const PIDShift = 32
