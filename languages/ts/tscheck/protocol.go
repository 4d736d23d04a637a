package tscheck

// The pool and a worker talk over the worker's stdin/stdout in frames
// (workerpool.WriteFrame: a 4-byte big-endian length, then that many bytes
// of JSON; requests are capped well below workerpool.MaxFrame by
// maxSourceBytes). One request is in flight per worker; a "cancel" may
// arrive while a check runs. Worker diagnostics that are not protocol (a Go
// runtime fatal error, a race report) go to stderr, which the pool keeps
// the head and tail of.

// Operations sent by the pool.
const (
	opInit   = "init"
	opCheck  = "check"
	opCancel = "cancel"
)

// Message types sent by the worker.
const (
	msgLog    = "log"
	msgReady  = "ready"
	msgResult = "result"
	msgFatal  = "fatal"
)

// Outcome of a check as reported by the worker. "invalid" means the options
// were rejected by the compiler's own option parser.
const wireInvalid = "invalid"

// workerRequest is every message from pool to worker.
type workerRequest struct {
	Op string `json:"op"`
	ID uint64 `json:"id,omitempty"`

	// init
	ImageDir string     `json:"imageDir,omitempty"`
	Prewarm  [][]string `json:"prewarm,omitempty"`
	// Background lib sets are warmed after ready, while the worker is idle.
	Background  [][]string `json:"background,omitempty"`
	MaxCallSize int        `json:"maxCallStack,omitempty"`

	// check (the payload is passed to driver.js as is)
	Check     *checkPayload `json:"check,omitempty"`
	TimeoutMs int64         `json:"timeoutMs,omitempty"`
}

// checkPayload is what driver.js's check() receives.
type checkPayload struct {
	Files      map[string]string `json:"files"`
	Roots      []string          `json:"roots"`
	CheckFiles []string          `json:"checkFiles"`
	Options    map[string]any    `json:"options"`
	// Ambient are the sandbox declaration files added as roots.
	Ambient []string `json:"ambient,omitempty"`
}

// workerMessage is every message from worker to pool.
type workerMessage struct {
	Type string `json:"type"`
	ID   uint64 `json:"id,omitempty"`

	// log
	Msg   string         `json:"msg,omitempty"`
	Attrs map[string]any `json:"attrs,omitempty"`

	// ready
	Version string              `json:"version,omitempty"`
	Libs    []string            `json:"libs,omitempty"`
	Enums   map[string][]string `json:"enums,omitempty"`

	// result
	Outcome     string       `json:"outcome,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	Error       *wireError   `json:"error,omitempty"`
	DurationMs  float64      `json:"durationMs,omitempty"`
	// Timings of the check's phases in ms (program, syntactic, global —
	// which creates the checker —, semantic), for logs and profiling.
	Timings map[string]float64 `json:"timings,omitempty"`
	// CPUMs is the worker process's CPU time (all threads, GC included)
	// during the check.
	CPUMs float64 `json:"cpuMs,omitempty"`
	// Recycle: the worker exits after this result (it ran out of memory or
	// holds too much); the pool must not give it another check.
	Recycle bool `json:"recycle,omitempty"`
}

type wireError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
