package ts

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	wexec "github.com/wasmexec/wasmexec/exec"
)

// esbuild parses recursively and can't be cancelled: input nested deeply
// enough makes the Go runtime abort the whole process (a goroutine stack
// over 1 GB), and some shapes take exponential time. guard.go refuses every
// such shape we know of, but it models esbuild from the outside. So the
// server transpiles in worker processes of its own binary
// (`wasmexec ts-transpile-worker`): a worker that crashes or overruns its
// deadline costs only the request that caused it.

// Workers is a small pool of transpile worker processes. Its zero value is
// not usable; use NewWorkers.
type Workers struct {
	cmd     []string
	timeout time.Duration
	slots   chan struct{} // bounds live workers
	mu      sync.Mutex
	idle    []*worker
	closed  bool
}

type worker struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

type workerRequest struct {
	Code     string `json:"code"`
	Filename string `json:"filename"`
}

type workerResponse struct {
	JS          string       `json:"js,omitempty"`
	SourceMap   []byte       `json:"sourceMap,omitempty"`
	Filename    string       `json:"filename,omitempty"`
	SyntaxError *SyntaxError `json:"syntaxError,omitempty"`
}

// NewWorkers returns a pool running at most size workers started by cmd
// (e.g. [os.Args[0], "ts-transpile-worker"]); each transpile gets timeout.
func NewWorkers(cmd []string, size int, timeout time.Duration) *Workers {
	if size <= 0 {
		size = 2
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return &Workers{cmd: cmd, timeout: timeout, slots: make(chan struct{}, size)}
}

// Transpile is the package's Transpile, run in a worker process. A worker
// that dies or overruns the deadline is killed and replaced; its request
// gets a *SyntaxError saying the code could not be transpiled.
func (w *Workers) Transpile(ctx context.Context, code, filename string) (*Program, error) {
	if filename == "" {
		filename = DefaultFilename
	}
	// The guard is cheap and refuses the known hostile shapes up front.
	if err := checkSource(code, filename); err != nil {
		return nil, err
	}
	select {
	case w.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, wexec.Errorf(wexec.EOverloaded, "gave up waiting for a TypeScript transpiler: %v", ctx.Err())
	}
	defer func() { <-w.slots }()
	wk, err := w.take()
	if err != nil {
		return nil, err
	}
	resp, err := wk.call(ctx, w.timeout, workerRequest{Code: code, Filename: filename})
	if err != nil {
		wk.kill()
		var ee *wexec.Error
		if errors.As(err, &ee) {
			return nil, err
		}
		return nil, &SyntaxError{Filename: filename, Line: 1, Column: 1, Message: "the TypeScript transpiler could not process this code (" + err.Error() + "); it may be nested too deeply or be too large"}
	}
	w.put(wk)
	if resp.SyntaxError != nil {
		return nil, resp.SyntaxError
	}
	return &Program{JS: resp.JS, Filename: resp.Filename, SourceMap: resp.SourceMap}, nil
}

// Close stops the idle workers.
func (w *Workers) Close() {
	w.mu.Lock()
	idle := w.idle
	w.idle, w.closed = nil, true
	w.mu.Unlock()
	for _, wk := range idle {
		wk.in.Close()
		wk.cmd.Wait()
	}
}

func (w *Workers) take() (*worker, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil, wexec.Errorf(wexec.EUnavailable, "the TypeScript transpiler is shut down")
	}
	if n := len(w.idle); n > 0 {
		wk := w.idle[n-1]
		w.idle = w.idle[:n-1]
		w.mu.Unlock()
		return wk, nil
	}
	w.mu.Unlock()
	c := exec.Command(w.cmd[0], w.cmd[1:]...)
	c.Stderr = os.Stderr
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("start a TypeScript transpile worker: %w", err)
	}
	return &worker{cmd: c, in: in, out: bufio.NewReader(out)}, nil
}

func (w *Workers) put(wk *worker) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		wk.kill()
		return
	}
	w.idle = append(w.idle, wk)
}

func (wk *worker) kill() {
	wk.cmd.Process.Kill()
	wk.in.Close()
	go wk.cmd.Wait()
}

func (wk *worker) call(ctx context.Context, timeout time.Duration, req workerRequest) (*workerResponse, error) {
	type answer struct {
		resp *workerResponse
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		if err := writeFrame(wk.in, req); err != nil {
			done <- answer{err: err}
			return
		}
		var resp workerResponse
		err := readFrame(wk.out, &resp)
		done <- answer{&resp, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case a := <-done:
		return a.resp, a.err
	case <-t.C:
		return nil, fmt.Errorf("no answer within %v", timeout)
	case <-ctx.Done():
		return nil, wexec.Errorf(wexec.EUnavailable, "cancelled while transpiling: %v", ctx.Err())
	}
}

// WorkerMain is the body of `wasmexec ts-transpile-worker`: it transpiles
// one framed request at a time until stdin closes.
func WorkerMain(stdin io.Reader, stdout io.Writer) error {
	in := bufio.NewReader(stdin)
	out := bufio.NewWriter(stdout)
	for {
		var req workerRequest
		if err := readFrame(in, &req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var resp workerResponse
		p, err := Transpile(req.Code, req.Filename)
		var se *SyntaxError
		switch {
		case errors.As(err, &se):
			resp.SyntaxError = se
		case err != nil:
			resp.SyntaxError = &SyntaxError{Filename: req.Filename, Line: 1, Column: 1, Message: err.Error()}
		default:
			resp = workerResponse{JS: p.JS, SourceMap: p.SourceMap, Filename: p.Filename}
		}
		if err := writeFrame(out, resp); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// Frames are a 4-byte big-endian length and a JSON document.
const maxFrame = 64 << 20

func writeFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	if _, err := w.Write(append(n[:], b...)); err != nil {
		return err
	}
	return nil
}

func readFrame(r io.Reader, v any) error {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > maxFrame {
		return fmt.Errorf("frame of %d bytes is too large", size)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return json.Unmarshal(b, v)
}
