// Package server is wasmexec's HTTP API (echo). Handlers are thin: decode,
// validate, call one method, encode. Errors become JSON {code, message} with
// the status chosen in one table (statusOf).
//
// Size: it is the whole HTTP API (about forty routes, the OpenAPI document
// built beside them, SSE, tenancy and cluster routing); each file is one
// group of routes or one layer of the front door.
package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
)

// Readiness reports whether the service can take work, and details.
type Readiness func() (ready bool, details map[string]any)

// Config wires a Server. Optional services left nil answer 501/404.
type Config struct {
	// Runner runs one-shot executions (the pipeline). nil: runs answer
	// ErrLoading, as a server does while it loads its guest images.
	Runner   wasmexec.Runner
	Contexts Contexts // nil: contextId rejected
	History  History  // nil: /v1/executions answers 501
	Checker  Checker  // nil: /v1/typescript/check answers 501
	// CheckerInfo serves GET /v1/typescript (nil: 501).
	CheckerInfo CheckerInfo
	Processes   Processes // nil: /v1/processes answers 501
	NPM         NPM       // nil: /v1/contexts/:id/npm/install answers 501
	Pip         Pip       // nil: /v1/contexts/:id/pip/install answers 501
	Templates   Templates // nil: /v1/templates answers 501
	Ready       Readiness
	Metrics     Metrics // nil: /metrics answers 501
	// MetricsHandler, when set, serves /metrics (promhttp) instead.
	MetricsHandler http.Handler
	// ObserveHTTP, when set, is told of every request.
	ObserveHTTP HTTPObserver
	// Auth, when set, requires an API key on every route but the probes,
	// /metrics and /openapi.json, and scopes everything to its tenant
	// (tenancy.go).
	Auth Authenticator
	// Tenants are the tenants' counters; the Runner must admit its runs
	// with the same ones (pipeline.Config.Tenants), as one-shot and
	// context runs count against their tenant there. nil: new ones (a
	// server whose runner counts no tenant's runs).
	Tenants *Tenants
	// Events, when set, records lifecycle events and serves GET /v1/events:
	// an *events.Hub (one server) or a log shared by every server of a
	// PostgreSQL store (store.EventLog).
	Events events.Log
	// ContextDeletions says the contexts manager reports every deletion
	// through Config.ContextDeleted (idle expiry included).
	ContextDeletions bool
	// ContextOwners gives the tenant of each context that existed before
	// the server started (durable contexts, contexts.Manager.Owners).
	ContextOwners map[string]string
	// tenancy and guarded are set by Guard.
	tenancy *tenancy
	guarded bool
	// MCP serves the Model Context Protocol at /mcp (package mcp); nil:
	// /mcp answers 501.
	MCP http.Handler
	// Cluster, when set, sends the requests of contexts and processes other
	// servers hold to them (cluster.go); NodeSecret authenticates the
	// requests between servers.
	Cluster    Cluster
	NodeSecret string
	// ContextTenant, when set, gives the tenant of a context the tenancy
	// guard has not seen created (one adopted from another server).
	ContextTenant func(id string) string
	// BodyLimit caps request bodies (default 16 MiB).
	BodyLimit int64
	Logger    *slog.Logger
}

// Server is the HTTP front of wasmexec.
type Server struct {
	cfg Config
	e   *echo.Echo
	log *slog.Logger
	// routes are the route patterns (the bounded label of HTTP metrics).
	routes map[string]bool
}

// New builds the routes.
func New(cfg Config) *Server {
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = 16 << 20
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Ready == nil {
		cfg.Ready = func() (bool, map[string]any) { return true, nil }
	}
	cfg = Guard(cfg)
	s := &Server{cfg: cfg, e: echo.New(), log: cfg.Logger}
	s.e.HideBanner, s.e.HidePort = true, true
	s.e.HTTPErrorHandler = s.handleError
	s.e.Use(s.frontDoor, s.route)
	s.e.GET("/healthz", s.healthz)
	s.e.GET("/readyz", s.readyz)
	s.e.GET("/metrics", s.metrics)
	s.e.GET("/openapi.json", s.openAPI)
	s.e.POST("/v1/evaluate", s.run(wasmexec.KindEvaluate))
	s.e.POST("/v1/execute", s.run(wasmexec.KindExecute))
	s.routeContexts()
	s.routeNPM()
	s.routePip()
	s.routeHistory()
	s.routeChecker()
	s.routeProcesses()
	s.routeMCP()
	s.routeEvents()
	s.routeTemplates()
	s.routes = map[string]bool{}
	for _, r := range s.e.Routes() {
		s.routes[r.Path] = true
	}
	return s
}

// Handler returns the HTTP handler; cmd/wasmexec serves it, tests use it
// with httptest.
func (s *Server) Handler() http.Handler { return s.e }

func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"status": "ok"})
}

func (s *Server) readyz(c echo.Context) error {
	ready, details := s.cfg.Ready()
	body := map[string]any{"ready": ready}
	for k, v := range details {
		body[k] = v
	}
	if !ready {
		return c.JSON(http.StatusServiceUnavailable, body)
	}
	return c.JSON(http.StatusOK, body)
}

func (s *Server) run(kind wasmexec.Kind) echo.HandlerFunc {
	return func(c echo.Context) error {
		var req wasmexec.Request
		if err := s.decode(c, &req); err != nil {
			return err
		}
		req.Kind = kind
		if req.Language == "" {
			return wasmexec.Errorf(wasmexec.EInvalid, "language is required")
		}
		if req.Code == "" && req.FilePath == "" {
			return wasmexec.Errorf(wasmexec.EInvalid, "code or filePath is required")
		}
		if req.FilePath != "" && req.Language != wasmexec.JavaScript && req.Language != wasmexec.TypeScript && req.Language != wasmexec.Python {
			return wasmexec.Errorf(wasmexec.EInvalid, "filePath is for javascript, typescript and python runs")
		}
		if req.TsconfigPath != "" && req.Language != wasmexec.JavaScript && req.Language != wasmexec.TypeScript {
			return wasmexec.Errorf(wasmexec.EInvalid, "tsconfigPath is for javascript and typescript runs")
		}
		if len(req.Packages) > 0 && req.Language != wasmexec.JavaScript && req.Language != wasmexec.TypeScript && req.Language != wasmexec.Python {
			return wasmexec.Errorf(wasmexec.EInvalid, "packages are for javascript, typescript and python runs")
		}
		if wantsStream(c.Request()) {
			return s.streamRun(c, &req)
		}
		res, err := s.runRequest(c.Request().Context(), &req, wasmexec.RunOptions{})
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, res)
	}
}

// MaxJSONDepth is how deeply arrays and objects may nest in a request body
// (encoding/json allows 10,000; deeper "inputs" failed later as internal
// errors instead of at the door).
const MaxJSONDepth = 1000

// decode reads a JSON body strictly (decodeJSON), size-capped.
func (s *Server) decode(c echo.Context, v any) error {
	body := http.MaxBytesReader(c.Response(), c.Request().Body, s.cfg.BodyLimit)
	return decodeJSON(body, s.cfg.BodyLimit, v)
}

// decodeJSON reads one JSON value from r into v: the body must be valid
// UTF-8 (encoding/json would silently replace bad bytes with U+FFFD),
// nest at most MaxJSONDepth deep, have no unknown fields and nothing after
// the value; type errors are named by field. Errors are invalid_argument,
// or payload_too_large when r reports a *http.MaxBytesError.
func decodeJSON(r io.Reader, limit int64, v any) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return decodeError(err, limit)
	}
	if !utf8.Valid(b) {
		return wasmexec.Errorf(wasmexec.EInvalid, "request body is not valid UTF-8 (at byte %d)", invalidUTF8At(b))
	}
	if err := checkDepth(b, MaxJSONDepth); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err, limit)
	}
	if rest := bytes.TrimLeft(b[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return wasmexec.Errorf(wasmexec.EInvalid, "request body has data after the JSON object")
	}
	return nil
}

// invalidUTF8At returns the offset of the first byte of b that is not part
// of valid UTF-8.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// checkDepth fails (invalid_argument) when arrays and objects in the JSON
// text b nest deeper than max. It only counts brackets outside strings; the
// decoder judges the rest.
func checkDepth(b []byte, max int) error {
	depth, inString, escaped := 0, false, false
	for i, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > max {
				return wasmexec.Errorf(wasmexec.EInvalid, "request body nests arrays and objects more than %d deep (at byte %d)", max, i)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return nil
}

func decodeError(err error, limit int64) error {
	var (
		mbe   *http.MaxBytesError
		syn   *json.SyntaxError
		typ   *json.UnmarshalTypeError
		coded *exec.Error
	)
	switch {
	case errors.As(err, &mbe):
		return wasmexec.Errorf(wasmexec.ETooLarge, "request body is larger than %d bytes", limit)
	case errors.As(err, &coded):
		return coded
	case errors.As(err, &syn):
		return wasmexec.Errorf(wasmexec.EInvalid, "malformed JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return wasmexec.Errorf(wasmexec.EInvalid, "%s must be %s, not %s", field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.EOF):
		return wasmexec.Errorf(wasmexec.EInvalid, "request body is empty; a JSON object is required")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return wasmexec.Errorf(wasmexec.EInvalid, "malformed JSON: unexpected end of body")
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return wasmexec.Errorf(wasmexec.EInvalid, "%s", strings.TrimPrefix(err.Error(), "json: "))
	default:
		return wasmexec.Errorf(wasmexec.EInvalid, "malformed JSON: %v", err)
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "int32", "uint64", "uint32", "float64":
		return "a number"
	case "bool":
		return "a boolean"
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	}
	return goKind
}

// statusOf is the one table from error codes to HTTP status.
func statusOf(code string) int {
	switch code {
	case wasmexec.EInvalid:
		return http.StatusBadRequest
	case wasmexec.EMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case wasmexec.EUnauthorized:
		return http.StatusUnauthorized
	case wasmexec.ENotFound, wasmexec.EExpired, wasmexec.EContextNotFound, wasmexec.ETemplateNotFound:
		return http.StatusNotFound
	case wasmexec.EConflict, wasmexec.EContextConflict, wasmexec.ETemplateConflict, wasmexec.ELanguageMismatch, wasmexec.ENotRetained:
		return http.StatusConflict
	case wasmexec.ETooLarge:
		return http.StatusRequestEntityTooLarge
	case wasmexec.EOverloaded, wasmexec.EQuota:
		return http.StatusTooManyRequests
	case wasmexec.EUnavailable:
		return http.StatusServiceUnavailable
	case "not_implemented":
		return http.StatusNotImplemented
	default:
		return http.StatusInternalServerError
	}
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC 2.0 error codes of the errors /mcp answers before MCP does.
const (
	rpcInvalidRequest = -32600
	rpcInternalError  = -32603
)

// rpcErrorBody is a JSON-RPC error response without an id (the request
// was refused before its id was read).
type rpcErrorBody struct {
	JSONRPC string       `json:"jsonrpc"`
	ID      *int         `json:"id"`
	Error   rpcErrorData `json:"error"`
}

type rpcErrorData struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Data    errorBody `json:"data"`
}

func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, msg := wasmexec.ErrorCode(err), wasmexec.ErrorMessage(err)
	status := statusOf(code)
	var he *echo.HTTPError
	if errors.As(err, &he) {
		status = he.Code
		switch he.Code {
		case http.StatusNotFound:
			code, msg = wasmexec.ENotFound, fmt.Sprintf("no route for %s %s", c.Request().Method, c.Request().URL.Path)
			if wellKnown(c.Request().URL.Path) {
				msg = "no " + c.Request().URL.Path + ": this server has no OAuth authorization server or protected resource metadata; it takes an API key as a bearer token (Authorization: Bearer <key>)"
			}
		case http.StatusMethodNotAllowed:
			// Its own code: the request is fine, the route takes other
			// methods (echo has set Allow).
			code, msg = wasmexec.EMethodNotAllowed, fmt.Sprintf("method %s is not allowed on %s", c.Request().Method, c.Request().URL.Path)
		case http.StatusRequestEntityTooLarge:
			code, msg = wasmexec.ETooLarge, "request body is too large"
		default:
			code, msg = wasmexec.EInvalid, fmt.Sprint(he.Message)
		}
	}
	if status == http.StatusInternalServerError {
		s.log.Error("internal error", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		retry := 1
		var ra *retryAfterError
		var rs interface{ RetrySeconds() int }
		if errors.As(err, &ra) && ra.seconds > 0 {
			retry = ra.seconds
		} else if errors.As(err, &rs) && rs.RetrySeconds() > 0 {
			retry = rs.RetrySeconds()
		}
		c.Response().Header().Set("Retry-After", strconv.Itoa(retry))
	}
	if c.Request().URL.Path == mcpPath {
		// MCP clients parse JSON-RPC: an error the front door gives /mcp
		// (no key, not enabled, overloaded) is one, as the transport's own
		// are (mcp/rpcerrors.go), with the API's code in its data.
		rpc := rpcInvalidRequest
		if status >= 500 {
			rpc = rpcInternalError
		}
		if err := c.JSON(status, rpcErrorBody{JSONRPC: "2.0", Error: rpcErrorData{Code: rpc, Message: msg, Data: errorBody{Code: code, Message: msg}}}); err != nil {
			s.log.Error("write error response", "err", err)
		}
		return
	}
	if err := c.JSON(status, errorBody{Code: code, Message: msg}); err != nil {
		s.log.Error("write error response", "err", err)
	}
}

func notImplemented(what string) error {
	return &wasmexec.Error{Code: "not_implemented", Message: what + " is not enabled on this server"}
}
