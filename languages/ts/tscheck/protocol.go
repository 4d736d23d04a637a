package tscheck

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// The pool and a worker talk over the worker's stdin/stdout in frames: a
// 4-byte big-endian length, then that many bytes of JSON. One request is in
// flight per worker; a "cancel" may arrive while a check runs. Worker
// diagnostics that are not protocol (a Go runtime fatal error, a race report)
// go to stderr, which the pool keeps a tail of.

// maxFrame bounds one frame, both ways. Requests are capped well below it
// (maxSourceBytes); a larger length means the stream is corrupt.
const maxFrame = 64 << 20

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
	ImageDir    string     `json:"imageDir,omitempty"`
	Prewarm     [][]string `json:"prewarm,omitempty"`
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
	Console    bool              `json:"console"`
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

func writeFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > maxFrame {
		return fmt.Errorf("frame of %d bytes exceeds %d", len(b), maxFrame)
	}
	buf := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	_, err = w.Write(buf)
	return err
}

// readFrame reads one frame into v. io.EOF means a clean end between frames.
func readFrame(r io.Reader, v any) error {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return fmt.Errorf("frame length %d exceeds %d", n, maxFrame)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return json.Unmarshal(b, v)
}
