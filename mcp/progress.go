package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
)

// byProgress sends a POST whose message asks for progress (a request with
// params._meta.progressToken, alone or in a batch) to streamed, which
// answers with an SSE stream that carries the notifications before the
// result, and every other request to plain, which answers in one JSON
// document. (A stateless server answering in JSON has nowhere to send a
// notification.) A body over limit goes to plain, which refuses it.
func byProgress(limit int64, plain, streamed http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			plain.ServeHTTP(w, r)
			return
		}
		b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(b))
		if err == nil && int64(len(b)) <= limit && bytes.Contains(b, []byte(`"progressToken"`)) && asksProgress(b) {
			streamed.ServeHTTP(w, r)
			return
		}
		plain.ServeHTTP(w, r)
	})
}

// asksProgress reports whether the JSON-RPC message (or batch) b has a
// request carrying a progress token.
func asksProgress(b []byte) bool {
	type message struct {
		Method string `json:"method"`
		Params struct {
			Meta struct {
				ProgressToken any `json:"progressToken"`
			} `json:"_meta"`
		} `json:"params"`
	}
	var batch []message
	if err := json.Unmarshal(b, &batch); err != nil {
		var m message
		if err := json.Unmarshal(b, &m); err != nil {
			return false
		}
		batch = []message{m}
	}
	for _, m := range batch {
		if m.Method != "" && m.Params.Meta.ProgressToken != nil {
			return true
		}
	}
	return false
}

// progress sends the notifications of one call that gave a token; nil
// when it gave none (every method is then a no-op).
type progress struct {
	req   *sdk.CallToolRequest
	token any
	mu    sync.Mutex
	n     float64
}

func newProgress(req *sdk.CallToolRequest) *progress {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	return &progress{req: req, token: tok}
}

// send notifies one step with message. Progress counts the steps.
func (p *progress) send(ctx context.Context, message string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: p.n, Message: message})
}

// line is an install's progress observer.
func (p *progress) line(ctx context.Context) func(string) {
	return func(line string) { p.send(ctx, line) }
}

// follow sends the events of log as notifications as they are written,
// until the log is closed and read to its end; the returned function
// waits for that. A chunk that is not UTF-8 is sent as base64, marked.
func (p *progress) follow(ctx context.Context, log *wasmexec.OutputLog) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		var after uint64
		for {
			closed := log.Closed()
			r := log.Read(after, 256)
			for _, ev := range r.Events {
				after = ev.Sequence
				if ev.Channel == wasmexec.NetworkChannel {
					continue
				}
				msg := string(ev.Chunk)
				if !utf8.Valid(ev.Chunk) {
					msg = "(" + string(ev.Channel) + ", base64) " + base64.StdEncoding.EncodeToString(ev.Chunk)
				} else if ev.Channel == wasmexec.Stderr {
					msg = "(stderr) " + msg
				}
				p.send(ctx, msg)
			}
			if r.HasMore {
				continue
			}
			if closed || log.Wait(ctx, after) != nil {
				return
			}
		}
	}()
	return func() { <-done }
}
