package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// JSON-RPC 2.0 error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInternalError  = -32603
)

// maxErrorText bounds the text of an HTTP error kept for its JSON-RPC
// error's message.
const maxErrorText = 1024

// rpcErrors turns the transport's plain-text HTTP errors (a body that is
// not JSON, too large, an unknown method, a wrong content type) into
// JSON-RPC error responses without an id, keeping the HTTP status: what
// the Streamable HTTP transport allows ("the HTTP response body MAY
// comprise a JSON-RPC error response that has no id"), so a client always
// gets a JSON-RPC error to parse. JSON responses pass through untouched.
func rpcErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ew := &errorWriter{ResponseWriter: w}
		next.ServeHTTP(ew, r)
		if !ew.rewrite {
			return
		}
		text := strings.TrimSpace(ew.text.String())
		code := rpcInvalidRequest
		switch {
		case ew.status >= 500:
			code = rpcInternalError
		case strings.Contains(text, "malformed payload"), strings.Contains(text, "unmarshal"), strings.Contains(text, "invalid character"):
			code = rpcParseError
		case strings.Contains(text, "not handled"), strings.Contains(text, "unsupported"):
			code = rpcMethodNotFound
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": text}})
		h := w.Header()
		h.Del("Content-Length")
		h.Del("X-Content-Type-Options")
		h.Set("Content-Type", "application/json")
		w.WriteHeader(ew.status)
		w.Write(b)
	})
}

// errorWriter holds back an error status with a non-JSON body.
type errorWriter struct {
	http.ResponseWriter
	rewrite bool
	status  int
	text    bytes.Buffer
}

func (w *errorWriter) WriteHeader(status int) {
	if status >= 400 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.rewrite, w.status = true, status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *errorWriter) Write(b []byte) (int, error) {
	if !w.rewrite {
		return w.ResponseWriter.Write(b)
	}
	if room := maxErrorText - w.text.Len(); room > 0 {
		w.text.Write(b[:min(len(b), room)])
	}
	return len(b), nil
}

// Flush passes through (streamed responses are never errors).
func (w *errorWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.rewrite {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *errorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
