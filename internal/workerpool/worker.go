package workerpool

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Worker is one worker process of a Pool.
type Worker[M any] struct {
	cmd      *osexec.Cmd
	pid      int
	stdin    io.WriteCloser
	writeMu  sync.Mutex
	msgs     chan M
	dead     chan struct{} // closed once the process has exited and been reaped
	waitErr  error         // set before dead is closed
	stderr   *stderrBuffer
	memLimit int64
	retired  atomic.Bool
}

// PID is the worker's process id.
func (w *Worker[M]) PID() int { return w.pid }

// Send writes one frame to the worker's stdin. An error means the worker
// is gone (or going).
func (w *Worker[M]) Send(v any) error {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	return WriteFrame(w.stdin, v)
}

// Messages delivers the worker's messages (those Config.Route did not
// consume), in order. Messages written just before the worker exited are
// delivered before Dead is closed.
func (w *Worker[M]) Messages() <-chan M { return w.msgs }

// Dead is closed once the worker has exited; then Exit says why.
func (w *Worker[M]) Dead() <-chan struct{} { return w.dead }

// Kill ends the worker at once (SIGKILL). Its pool starts a fresh one.
func (w *Worker[M]) Kill() {
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
}

// Retire marks a worker that announced it exits after its current work
// (e.g. it holds too much memory): Release does not reuse it, and its exit
// is expected, not logged as a failure.
func (w *Worker[M]) Retire() { w.retired.Store(true) }

func (w *Worker[M]) isDead() bool {
	select {
	case <-w.dead:
		return true
	default:
		return false
	}
}

// Cause is why a worker died by itself.
type Cause int

const (
	// Crashed is any other end: a runtime fatal error, a signal, an exit
	// status.
	Crashed Cause = iota
	// OutOfMemory: the worker hit its memory cap.
	OutOfMemory
	// StackOverflow: a goroutine passed the worker's stack limit.
	StackOverflow
)

// crashedOfMemoryAt: a worker with a memory cap that crashed without
// naming a cause, after its peak RSS reached this share of the cap, is
// taken to have hit the cap. The Go runtime does not survive every failed
// mmap cleanly: some paths end in a SIGSEGV with no "out of memory".
const crashedOfMemoryAt = 0.5

// Exit describes how a worker ended.
type Exit struct {
	Cause Cause
	// Status is the process's end: "exit status 2", "signal: killed".
	Status string
	// Stderr is the first lines the worker wrote to stderr, where a Go
	// fatal error states its cause ("" if none).
	Stderr string
}

// Exit says how the worker ended. Call it once Dead is closed; before,
// Status is "still running".
func (w *Worker[M]) Exit() Exit {
	e := Exit{Status: w.exitDescription(), Stderr: w.stderr.Summary()}
	if w.isDead() {
		e.Cause = w.cause()
	}
	return e
}

func (w *Worker[M]) cause() Cause {
	stderr := w.stderr.String()
	switch {
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory"):
		return OutOfMemory
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		return StackOverflow
	case w.memLimit <= 0 || w.killedBySignal(syscall.SIGKILL):
		return Crashed
	case strings.Contains(stderr, "pthread_create failed"):
		// Thread stacks count against RLIMIT_DATA too.
		return OutOfMemory
	case float64(w.peakRSS()) >= float64(w.memLimit)*crashedOfMemoryAt:
		return OutOfMemory
	}
	return Crashed
}

// peakRSS is the exited process's maximum resident set size in bytes.
func (w *Worker[M]) peakRSS() int64 {
	if w.cmd.ProcessState == nil {
		return 0
	}
	if ru, ok := w.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // kilobytes on Linux
	}
	return 0
}

// killedBySignal reports whether the exited process was ended by sig.
func (w *Worker[M]) killedBySignal(sig syscall.Signal) bool {
	if w.cmd.ProcessState == nil {
		return false
	}
	ws, ok := w.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

func (w *Worker[M]) exitDescription() string {
	if !w.isDead() {
		return "still running"
	}
	if w.waitErr == nil {
		return "exit status 0"
	}
	return w.waitErr.Error()
}

// readLoop dispatches the worker's frames until its stdout closes, then
// reaps the process.
func (w *Worker[M]) readLoop(stdout io.Reader, route func(*Worker[M], M) bool, log *slog.Logger) {
	defer func() {
		w.waitErr = w.cmd.Wait()
		close(w.dead)
	}()
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		var m M
		if err := ReadFrame(r, &m); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				log.Warn("worker protocol error; killing it", "err", err)
				w.Kill()
			}
			// Drain so Wait can finish even if the worker keeps writing.
			_, _ = io.Copy(io.Discard, r)
			return
		}
		if route != nil && route(w, m) {
			continue
		}
		select {
		case w.msgs <- m:
		default:
			log.Warn("worker message dropped: no one is waiting for it")
		}
	}
}

// stderrBuffer keeps the first stderrHeadMax and the last stderrTailMax
// bytes written to it: a Go fatal error puts its cause first and goroutine
// traces after.
type stderrBuffer struct {
	mu   sync.Mutex
	head []byte
	tail []byte
}

const (
	stderrHeadMax = 4 << 10
	stderrTailMax = 8 << 10
)

func (t *stderrBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if room := stderrHeadMax - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.tail = append(t.tail, b...)
	if len(t.tail) > stderrTailMax {
		t.tail = append(t.tail[:0:0], t.tail[len(t.tail)-stderrTailMax:]...)
	}
	return n, nil
}

// String is the kept output (head, then tail).
func (t *stderrBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + string(t.tail)
}

// Summary is the first few lines, where a Go fatal error states its cause.
func (t *stderrBuffer) Summary() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.head)), "\n")
	if len(lines) > 4 {
		lines = lines[:4]
	}
	return strings.Join(lines, " | ")
}
