package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// Processes manages long-running guests (processes.Manager). A manager that
// also implements LiveOutput serves /v1/executions/:id/output for its
// processes.
type Processes interface {
	Spawn(ctx context.Context, req *wasmexec.SpawnRequest) (*wasmexec.Process, error)
	Get(pid int64) (*wasmexec.Process, error)
	List() []*wasmexec.Process
	WriteStdin(pid int64, data []byte) error
	CloseStdin(pid int64) (*wasmexec.Process, error)
	Signal(pid int64, sig wasmexec.Signal) (*wasmexec.Process, error)
	// Wait answers State running when timeout passed first.
	Wait(ctx context.Context, pid int64, timeout time.Duration) (*wasmexec.ProcessWait, error)
	Output(pid int64, after string, limit int) (*wasmexec.Replay, error)
	// Follow returns the live output log and a channel closed at exit.
	Follow(pid int64) (*wasmexec.OutputLog, <-chan struct{}, error)
}

// Stream tuning (variables so tests can shorten them).
var (
	// SSEKeepAlive is the idle time after which a stream sends a comment.
	SSEKeepAlive = 15 * time.Second
	// sseBatch is how many events one log read returns.
	sseBatch = 512
)

const (
	defaultWaitMs = 30_000
	maxWaitMs     = 600_000
)

// routeProcesses adds /v1/processes routes; without Processes they answer
// 501.
func (s *Server) routeProcesses() {
	g := s.e.Group("/v1/processes")
	g.POST("", s.spawnProcess)
	g.GET("", s.listProcesses)
	g.GET("/:pid", s.getProcess)
	g.POST("/:pid/stdin", s.writeStdin)
	g.POST("/:pid/stdin/close", s.closeStdin)
	g.POST("/:pid/signal", s.signalProcess)
	g.GET("/:pid/wait", s.waitProcess)
	g.GET("/:pid/output", s.processOutput)
	g.GET("/:pid/output/stream", s.streamOutput)
}

func (s *Server) processes() (Processes, error) {
	if s.cfg.Processes == nil {
		return nil, notImplemented("processes")
	}
	return s.cfg.Processes, nil
}

// pidParam returns the manager and the :pid of the request.
func (s *Server) pidParam(c echo.Context) (Processes, int64, error) {
	p, err := s.processes()
	if err != nil {
		return nil, 0, err
	}
	pid, err := strconv.ParseInt(c.Param("pid"), 10, 64)
	if err != nil || pid <= 0 {
		return nil, 0, wasmexec.Errorf(wasmexec.ENotFound, "no process %q (a pid is a positive integer)", c.Param("pid"))
	}
	if !s.ownsPID(c.Request().Context(), pid) {
		return nil, 0, processNotFound(p, pid)
	}
	return p, pid, nil
}

func (s *Server) spawnProcess(c echo.Context) error {
	if _, err := s.processes(); err != nil {
		return err
	}
	var req wasmexec.SpawnRequest
	if err := s.decode(c, &req); err != nil {
		return err
	}
	d, err := NewProcessAPI(s.cfg).Spawn(c.Request().Context(), &req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, d)
}

func (s *Server) listProcesses(c echo.Context) error {
	p, err := s.processes()
	if err != nil {
		return err
	}
	list := p.List()
	if s.cfg.tenancy != nil {
		list = s.cfg.tenancy.visible(c.Request().Context(), list)
	}
	return c.JSON(http.StatusOK, map[string]any{"processes": list})
}

func (s *Server) getProcess(c echo.Context) error {
	p, pid, err := s.pidParam(c)
	if err != nil {
		return err
	}
	d, err := p.Get(pid)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// stdinBody is the JSON form of a stdin write.
type stdinBody struct {
	Data     *string `json:"data"`
	Encoding string  `json:"encoding,omitempty"` // utf8 (default) or base64
}

// writeStdin takes the raw body as stdin bytes, or, with Content-Type
// application/json, {"data": "...", "encoding": "utf8"|"base64"}.
func (s *Server) writeStdin(c echo.Context) error {
	p, pid, err := s.pidParam(c)
	if err != nil {
		return err
	}
	if _, err := p.Get(pid); err != nil {
		return err
	}
	var data []byte
	mt, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if mt == echo.MIMEApplicationJSON {
		var b stdinBody
		if err := s.decode(c, &b); err != nil {
			return err
		}
		if b.Data == nil {
			return wasmexec.Errorf(wasmexec.EInvalid, "data is required (a string; encoding utf8 or base64)")
		}
		switch b.Encoding {
		case "", "utf8", "utf-8":
			data = []byte(*b.Data)
		case "base64":
			if data, err = base64.StdEncoding.DecodeString(*b.Data); err != nil {
				return wasmexec.Errorf(wasmexec.EInvalid, "data is not valid base64: %v", err)
			}
		default:
			return wasmexec.Errorf(wasmexec.EInvalid, "encoding must be utf8 or base64, not %q", b.Encoding)
		}
	} else {
		body := http.MaxBytesReader(c.Response(), c.Request().Body, s.cfg.BodyLimit)
		if data, err = io.ReadAll(body); err != nil {
			return decodeError(err, s.cfg.BodyLimit)
		}
	}
	if err := p.WriteStdin(pid, data); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"pid": pid, "written": len(data)})
}

func (s *Server) closeStdin(c echo.Context) error {
	p, pid, err := s.pidParam(c)
	if err != nil {
		return err
	}
	d, err := p.CloseStdin(pid)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// signalBody is the JSON form of a signal: {"signal": "SIGTERM"}.
type signalBody struct {
	Signal string `json:"signal"`
}

func (s *Server) signalProcess(c echo.Context) error {
	p, pid, err := s.pidParam(c)
	if err != nil {
		return err
	}
	var b signalBody
	if c.Request().ContentLength != 0 {
		if err := s.decode(c, &b); err != nil {
			return err
		}
	}
	d, err := p.Signal(pid, wasmexec.Signal(b.Signal))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// waitProcess long-polls: 200 {pid, state: "exited", outcome, exitCode?,
// signal?, ...} once the process exited, or 200 {pid, state: "running"}
// when timeoutMs (default 30000, at most 600000; 0 only looks) passed.
func (s *Server) waitProcess(c echo.Context) error {
	p, pid, err := s.pidParam(c)
	if err != nil {
		return err
	}
	ms := int64(defaultWaitMs)
	if v := c.QueryParam("timeoutMs"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > maxWaitMs {
			return wasmexec.Errorf(wasmexec.EInvalid, "timeoutMs must be an integer in 0..%d, not %q", maxWaitMs, v)
		}
		ms = n
	}
	w, err := p.Wait(c.Request().Context(), pid, time.Duration(ms)*time.Millisecond)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, w)
}

func (s *Server) processOutput(c echo.Context) error {
	p, pid, err := s.pidParam(c)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", 1000)
	if err != nil {
		return err
	}
	maxBytes, err := queryInt(c, "maxBytes", 0)
	if err != nil {
		return err
	}
	r, err := p.Output(pid, c.QueryParam("after"), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, capReplay(r, maxBytes))
}

// streamOutput serves a process's output as Server-Sent Events:
//
//	id: <cursor>            event: output   data: <event JSON>
//	                        event: truncated data: {"after","resumeAfter","dropped"}
//	                        event: exit     data: <exit JSON>, then the stream ends
//	: keep-alive            every SSEKeepAlive while idle
//
// It starts after Last-Event-ID, else ?after=, else at the beginning. A
// reader that fell behind the retained window gets one truncated event and
// continues from the oldest retained event; the guest never waits for a
// reader.
func (s *Server) streamOutput(c echo.Context) error {
	p, pid, err := s.pidParam(c)
	if err != nil {
		return err
	}
	cursor := c.Request().Header.Get("Last-Event-ID")
	if cursor == "" {
		cursor = c.QueryParam("after")
	}
	after, err := wasmexec.ParseCursor(cursor)
	if err != nil {
		return err
	}
	log, exited, err := p.Follow(pid)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, ": stream of process "+strconv.FormatInt(pid, 10)+"\n\n"); err != nil {
		return nil
	}
	w.Flush()

	var buf []byte
	for {
		closed := log.Closed() // before Read: a closed log gets no more events
		r := log.Read(after, sseBatch)
		buf, after = appendOutputEvents(buf[:0], r, after)
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return nil // the client went away
			}
			w.Flush()
		}
		if r.HasMore {
			continue
		}
		if closed {
			break
		}
		if err := waitFor(ctx, log, after); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
			w.Flush()
		}
	}
	// The run ended and every event was sent: the exit follows once the
	// process is completed (persisted).
	select {
	case <-exited:
	case <-ctx.Done():
		return nil
	}
	wr, err := p.Wait(ctx, pid, 0)
	if err != nil || wr.Exit == nil {
		return nil
	}
	data, err := json.Marshal(wr.Exit)
	if err != nil {
		return err
	}
	if _, err := w.Write(appendSSE(nil, "", "exit", data)); err == nil {
		w.Flush()
	}
	return nil
}

// errIdle means no event arrived within SSEKeepAlive.
var errIdle = errors.New("idle")

// waitFor waits for an event after seq, the log's end, ctx's end or the
// keep-alive interval (errIdle).
func waitFor(ctx context.Context, log *wasmexec.OutputLog, seq uint64) error {
	wctx, cancel := context.WithTimeout(ctx, SSEKeepAlive)
	defer cancel()
	if err := log.Wait(wctx, seq); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errIdle
	}
	return nil
}

// appendSSE appends one event. data is JSON (no newlines).
func appendSSE(buf []byte, id, event string, data []byte) []byte {
	if id != "" {
		buf = append(buf, "id: "...)
		buf = append(buf, id...)
		buf = append(buf, '\n')
	}
	buf = append(buf, "event: "...)
	buf = append(buf, event...)
	buf = append(buf, "\ndata: "...)
	buf = append(buf, data...)
	return append(buf, "\n\n"...)
}
