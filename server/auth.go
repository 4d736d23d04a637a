package server

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// Authenticator checks an API key (auth.Keys): the key's tenant, or nil
// for a wrong key.
type Authenticator interface {
	Authenticate(token string) *wasmexec.Tenant
}

// openPaths answer without a key: probes, and the API's own description.
var openPaths = map[string]bool{"/healthz": true, "/readyz": true, "/openapi.json": true, "/metrics": true}

// noOAuth is what a request without a valid key is told. MCP clients that
// can do OAuth (the MCP Inspector) start OAuth discovery on a 401 unless
// told otherwise; this server has no authorization server, so the 401
// says how to authenticate instead, names no resource metadata, and the
// discovery paths (/.well-known/...) answer 404 without a key, saying the
// same (wellKnown).
const noOAuth = "a valid API key is required: send it as the header Authorization: Bearer KEY (the keys are the server operator's, from --auth-keys-file). This server does not use OAuth and has no authorization server"

// challenge is the WWW-Authenticate of a 401 (RFC 6750): the bearer
// scheme, its realm, why (invalid_token, when a key was sent) and how.
func challenge(sent bool) string {
	c := `Bearer realm="wasmexec"`
	if sent {
		c += `, error="invalid_token"`
	}
	return c + `, error_description="an API key is required as the bearer token; this server has no OAuth authorization server"`
}

// wellKnown reports whether path is a discovery document's (RFC 8615):
// no key is needed to learn that there is none.
func wellKnown(path string) bool { return strings.HasPrefix(path, "/.well-known/") }

// requestIDPattern is what an X-Request-Id from a client must look like
// to be kept; anything else is replaced by a generated one.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:/+=-]{1,128}$`)

// HeaderRequestID names the request id header.
const HeaderRequestID = "X-Request-Id"

// frontDoor is the first middleware: the request id (kept from the client
// when well-formed, else generated; echoed on every response and carried
// in the request's context), the API key (when Auth is set), and one
// structured access-log line per request.
func (s *Server) frontDoor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		req := c.Request()
		id := req.Header.Get(HeaderRequestID)
		if !requestIDPattern.MatchString(id) {
			id = newRequestID()
		}
		c.Response().Header().Set(HeaderRequestID, id)
		ctx := wasmexec.WithRequestID(req.Context(), id)
		var tenant string
		var err error
		if s.cfg.Auth != nil && !openPaths[req.URL.Path] && !wellKnown(req.URL.Path) {
			token := bearer(req)
			t := s.cfg.Auth.Authenticate(token)
			if t == nil {
				c.Response().Header().Set("WWW-Authenticate", challenge(token != ""))
				err = wasmexec.Errorf(wasmexec.EUnauthorized, "%s", noOAuth)
			} else {
				tenant = t.ID
				ctx = wasmexec.WithTenant(ctx, t)
			}
		}
		c.SetRequest(req.WithContext(ctx))
		if err == nil {
			err = checkQuery(req)
		}
		if err == nil {
			err = next(c)
		}
		if err != nil {
			c.Error(err)
		}
		s.access(c, id, tenant, start)
		return nil
	}
}

// checkQuery refuses a query string that does not parse: echo's
// QueryParam drops a malformed pair, so ?after=%%% would read as no
// cursor at all and replay from the start.
func checkQuery(r *http.Request) error {
	if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
		return wasmexec.Errorf(wasmexec.EInvalid, "malformed query string: %v", err)
	}
	return nil
}

// access logs one line per request.
func (s *Server) access(c echo.Context, id, tenant string, start time.Time) {
	status := c.Response().Status
	if s.cfg.ObserveHTTP != nil {
		route := c.Path()
		if !s.routes[route] {
			route = "" // no route: never the raw path (unbounded)
		}
		s.cfg.ObserveHTTP(route, c.Request().Method, status, time.Since(start))
	}
	level := slog.LevelInfo
	if openPaths[c.Request().URL.Path] && status < 400 {
		level = slog.LevelDebug // probes and scrapes would drown the log
	}
	attrs := make([]slog.Attr, 0, 8) // room for the tenant: no second allocation
	attrs = append(attrs,
		slog.String("method", c.Request().Method),
		slog.String("path", c.Request().URL.Path),
		slog.String("route", c.Path()),
		slog.Int("status", status),
		slog.Float64("durationMs", float64(time.Since(start).Microseconds())/1000),
		slog.String("requestId", id),
		slog.Int64("bytes", c.Response().Size),
	)
	if tenant != "" {
		attrs = append(attrs, slog.String("tenant", tenant))
	}
	s.log.LogAttrs(c.Request().Context(), level, "request", attrs...)
}

// bearer returns the token of an Authorization: Bearer header, or "".
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return ""
	}
	return strings.TrimSpace(h[7:])
}

func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}
