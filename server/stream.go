package server

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// StreamRetainBytes caps the live output log of a streamed run: a reader
// may lag that far behind before it is told events were dropped
// (truncated). The run's record keeps this window for replay.
var StreamRetainBytes int64 = 4 << 20

// wantsStream reports whether the request's Accept prefers Server-Sent
// Events to JSON: text/event-stream listed with a higher q than
// application/json (whether named or matched by a wildcard). Equal
// preference is JSON, the API's default.
func wantsStream(r *http.Request) bool {
	sse, js := -1.0, -1.0
	for _, part := range strings.Split(r.Header.Get(echo.HeaderAccept), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case "text/event-stream":
			sse = max(sse, q)
		case echo.MIMEApplicationJSON, "application/*", "*/*":
			js = max(js, q)
		}
	}
	return sse > 0 && sse > js
}

// runResult is how a streamed run ended.
type runResult struct {
	res *wasmexec.Result
	err error
}

// streamRun runs req while its output goes to the client as Server-Sent
// Events:
//
//	id: <cursor>  event: output     data: <event JSON>, as the run writes
//	              event: truncated  data: {"after","resumeAfter","dropped"}
//	: keep-alive                    every SSEKeepAlive while quiet
//	              event: result     data: <the record>, then the stream ends
//	              event: error      data: {"code","message"}: a service
//	                                error after the stream began
//
// The response is held back until the first event, the run's end or the
// first keep-alive, so a request refused before its run starts (a bad
// language, a full queue) is the usual JSON error with its status. The
// run's ctx is the request's: a client that goes away cancels the run.
func (s *Server) streamRun(c echo.Context, req *wasmexec.Request) error {
	ctx := c.Request().Context()
	log := wasmexec.NewOutputLog(0, StreamRetainBytes)
	done := make(chan runResult, 1)
	go func() {
		res, err := s.runRequest(wasmexec.WithLiveOutput(ctx, log), req, wasmexec.RunOptions{Log: log})
		log.Close() // a run refused before its guest never opened it
		done <- runResult{res, err}
	}()
	w := c.Response()
	committed := false
	commit := func() {
		if committed {
			return
		}
		committed = true
		h := w.Header()
		h.Set(echo.HeaderContentType, "text/event-stream")
		h.Set(echo.HeaderCacheControl, "no-cache")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
	}
	var (
		after uint64
		buf   []byte
	)
	for {
		closed := log.Closed() // before Read: a closed log gets no more events
		r := log.Read(after, sseBatch)
		buf, after = appendOutputEvents(buf[:0], r, after)
		if len(buf) > 0 {
			commit()
			if _, err := w.Write(buf); err != nil {
				return nil // the client went away: ctx ends the run
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
				<-done
				return nil
			}
			commit()
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
			w.Flush()
		}
	}
	out := <-done
	if out.err != nil {
		if !committed {
			return out.err // the usual JSON error and status
		}
		code, msg := wasmexec.ErrorCode(out.err), wasmexec.ErrorMessage(out.err)
		if code == wasmexec.EInternal {
			s.log.Error("internal error", "method", c.Request().Method, "path", c.Request().URL.Path, "err", out.err)
		}
		data, _ := json.Marshal(errorBody{Code: code, Message: msg})
		w.Write(appendSSE(nil, "", "error", data))
		w.Flush()
		return nil
	}
	data, err := json.Marshal(out.res)
	if err != nil {
		return err
	}
	commit()
	if _, err := w.Write(appendSSE(nil, "", "result", data)); err == nil {
		w.Flush()
	}
	return nil
}

// appendOutputEvents appends the SSE form of page r, read after cursor
// after, and returns the cursor after it: an output event per event,
// preceded by a truncated event when the page starts past events the log
// dropped.
func appendOutputEvents(buf []byte, r wasmexec.Replay, after uint64) ([]byte, uint64) {
	if r.Truncated {
		resume := after
		if len(r.Events) > 0 {
			resume = r.Events[0].Sequence - 1
		} else if seq, err := wasmexec.ParseCursor(r.NextCursor); err == nil {
			resume = seq
		}
		note, _ := json.Marshal(map[string]any{"after": wasmexec.EncodeCursor(after), "resumeAfter": wasmexec.EncodeCursor(resume), "dropped": resume - after})
		buf = appendSSE(buf, "", "truncated", note)
		if len(r.Events) == 0 {
			after = resume
		}
	}
	for _, ev := range r.Events {
		buf = append(buf, "id: "...)
		buf = append(buf, wasmexec.EncodeCursor(ev.Sequence)...)
		buf = append(buf, "\nevent: output\ndata: "...)
		buf = ev.AppendJSON(buf)
		buf = append(buf, "\n\n"...)
		after = ev.Sequence
	}
	return buf, after
}

// runRequest runs req in its context, or one-shot with opts.
func (s *Server) runRequest(ctx context.Context, req *wasmexec.Request, opts wasmexec.RunOptions) (*wasmexec.Result, error) {
	if req.ContextID != "" {
		if s.cfg.Contexts == nil {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "execution contexts are not enabled on this server")
		}
		return s.cfg.Contexts.Run(ctx, req)
	}
	if s.cfg.Runner == nil {
		return nil, ErrLoading
	}
	return s.cfg.Runner.Run(ctx, req, opts)
}

// ErrLoading is the answer to a run while there is no Runner yet: a
// server answers its probes at once and runs once its guest images are
// loaded (GET /readyz says how far it is).
var ErrLoading = wasmexec.Errorf(wasmexec.EUnavailable, "the server is still loading its guest images; see /readyz")
