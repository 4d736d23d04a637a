package workerpool

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"syscall"
)

// The environment a pool passes its workers: their limits, as byte counts.
const (
	EnvMemoryLimit = "WASMEXEC_WORKER_MEMORY_LIMIT"
	EnvMaxStack    = "WASMEXEC_WORKER_MAX_STACK"
	EnvNice        = "WASMEXEC_WORKER_NICE"
)

// softMemoryShare is where a worker's Go runtime sets its soft memory limit
// (debug.SetMemoryLimit), as a share of the cap: the GC works hard before
// the hard limit is reached.
const softMemoryShare = 0.7

// ApplyLimits is the first thing a worker process does: it applies the
// limits its pool passed in the environment — the goroutine stack limit
// ($WASMEXEC_WORKER_MAX_STACK) and the memory cap
// ($WASMEXEC_WORKER_MEMORY_LIMIT, as RLIMIT_DATA with the runtime's soft
// limit at 70 % of it) — and returns the memory cap (0: none). Unset
// variables change nothing, so running a worker's main in-process (tests)
// leaves the process alone. Under the race detector RLIMIT_DATA is not
// applied: the detector's shadow mappings count against it.
func ApplyLimits() (memLimit int64, err error) {
	if s := os.Getenv(EnvNice); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("bad %s=%q", EnvNice, s)
		}
		// Threads the runtime starts later inherit it from the ones here.
		if err := Renice(os.Getpid(), n); err != nil {
			return 0, fmt.Errorf("nice %d: %w", n, err)
		}
	}
	if s := os.Getenv(EnvMaxStack); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("bad %s=%q", EnvMaxStack, s)
		}
		debug.SetMaxStack(int(n))
	}
	s := os.Getenv(EnvMemoryLimit)
	if s == "" || s == "0" {
		return 0, nil
	}
	limit, err := strconv.ParseInt(s, 10, 64)
	if err != nil || limit < 0 {
		return 0, fmt.Errorf("bad %s=%q", EnvMemoryLimit, s)
	}
	debug.SetMemoryLimit(int64(float64(limit) * softMemoryShare))
	if raceEnabled {
		fmt.Fprintf(os.Stderr, "worker: race detector on, RLIMIT_DATA not applied\n")
		return limit, nil
	}
	rl := syscall.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &rl); err != nil {
		return 0, fmt.Errorf("setrlimit RLIMIT_DATA %d: %w", limit, err)
	}
	return limit, nil
}

// MaxFrame bounds one frame, both ways; a larger length means the stream is
// corrupt.
const MaxFrame = 64 << 20

// WriteFrame writes v as one frame: a 4-byte big-endian length, then that
// many bytes of JSON.
func WriteFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > MaxFrame {
		return fmt.Errorf("frame of %d bytes exceeds %d", len(b), MaxFrame)
	}
	buf := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	_, err = w.Write(buf)
	return err
}

// ReadFrame reads one frame into v. io.EOF means a clean end between
// frames; a stream that ends inside a frame is io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader, v any) error {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return fmt.Errorf("frame length %d exceeds %d", n, MaxFrame)
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

// Renice sets the nice value of every thread of process pid (on Linux a
// nice value belongs to a thread, and a new thread inherits its creator's).
func Renice(pid, nice int) error {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return err
	}
	var first error
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice); err != nil && first == nil && err != syscall.ESRCH {
			first = err
		}
	}
	return first
}
