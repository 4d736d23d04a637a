package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec/exec"
)

// Cluster routes a context's requests to the server that owns it
// (package cluster, docs/DEPLOY.md). The errors it returns may carry a
// RetrySeconds() int method: the Retry-After of their 503.
type Cluster interface {
	// NodeID names this server in the forwarded-by header.
	NodeID() string
	// ContextOwner returns "" to serve context id here (this server owns
	// it, claimed it, or nobody knows it), else the URL of its owner, and
	// how long the owner's lease has left. tenant is the client's ("" with
	// no keys); forwarded requests are never sent on. Errors:
	// context_not_found (another tenant's), unavailable.
	ContextOwner(ctx context.Context, id, tenant string, forwarded bool) (owner string, lease time.Duration, err error)
	// ProcessNode returns the URL of the server running pid ("": this one,
	// or none known: the local answer is a 404).
	ProcessNode(ctx context.Context, pid int64) (string, error)
}

// Headers between the servers of a cluster. A request carrying either
// without the right node secret is refused (401): a client can't pose as
// a server.
const (
	HeaderForwardedBy = "X-Wasmexec-Forwarded-By"
	HeaderNodeSecret  = "X-Wasmexec-Node-Secret"
)

// proxyTransport is the connection pool to the other servers.
var proxyTransport = &http.Transport{
	MaxIdleConnsPerHost: 64,
	IdleConnTimeout:     90 * time.Second,
	DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
}

// secretEqual compares in constant time (of the secret's hash).
func secretEqual(got, want string) bool {
	a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// route is the middleware after the front door (the client is
// authenticated, the route is known): a request about a context (a run
// with contextId, /v1/contexts/:id/…, a spawn in a context) or a process
// of another server is proxied to the server that serves it, with the
// client's own Authorization (the owner checks the key and tenant again)
// and the forwarded-by header; everything else is served here.
func (s *Server) route(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		cl := s.cfg.Cluster
		if cl == nil {
			return next(c)
		}
		req := c.Request()
		forwarded := req.Header.Get(HeaderForwardedBy) != ""
		if forwarded || req.Header.Get(HeaderNodeSecret) != "" {
			if !s.peer(req) {
				return exec.Errorf(exec.EUnauthorized, "the %s and %s headers are for the servers of a cluster (wrong or missing node secret)", HeaderForwardedBy, HeaderNodeSecret)
			}
		}
		owner, lease, err := s.owner(c, forwarded)
		if err != nil {
			return err
		}
		if owner == "" {
			return next(c)
		}
		return s.forward(c, owner, lease)
	}
}

// peer reports whether req carries the node secret.
func (s *Server) peer(req *http.Request) bool {
	return s.cfg.NodeSecret != "" && secretEqual(req.Header.Get(HeaderNodeSecret), s.cfg.NodeSecret)
}

// owner finds who serves c's request ("": this server).
func (s *Server) owner(c echo.Context, forwarded bool) (string, time.Duration, error) {
	cl := s.cfg.Cluster
	ctx := c.Request().Context()
	path, method := c.Path(), c.Request().Method
	var id string
	switch {
	case strings.HasPrefix(path, "/v1/contexts/:id"):
		id = c.Param("id")
	case method == http.MethodPost && (path == "/v1/evaluate" || path == "/v1/execute" || path == "/v1/processes"):
		var err error
		if id, err = s.peekContextID(c); err != nil {
			return "", 0, err
		}
	case strings.HasPrefix(path, "/v1/processes/:pid"):
		pid, err := strconv.ParseInt(c.Param("pid"), 10, 64)
		if err != nil || forwarded {
			return "", 0, nil // the handler says what is wrong
		}
		url, err := cl.ProcessNode(ctx, pid)
		return url, time.Second, err
	}
	if id == "" {
		return "", 0, nil
	}
	return cl.ContextOwner(ctx, id, exec.TenantID(ctx), forwarded)
}

// peekContextID reads the contextId of a run or spawn body and puts the
// body back for the handler. A body that is too large or not JSON is left
// to the handler to refuse.
func (s *Server) peekContextID(c echo.Context) (string, error) {
	req := c.Request()
	b, err := io.ReadAll(io.LimitReader(req.Body, s.cfg.BodyLimit+1))
	if err != nil {
		return "", exec.Errorf(exec.EInvalid, "reading the body: %v", err)
	}
	req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), req.Body))
	var v struct {
		ContextID string `json:"contextId"`
	}
	if json.Unmarshal(b, &v) != nil {
		return "", nil
	}
	return v.ContextID, nil
}

// forward proxies c's request to the server at owner. An owner that
// doesn't answer is a 503 with Retry-After = what its lease has left (then
// another server may claim the context).
func (s *Server) forward(c echo.Context, owner string, lease time.Duration) error {
	u, err := url.Parse(owner)
	if err != nil || u.Host == "" {
		return exec.Errorf(exec.EInternal, "the owner's URL %q is not a URL", owner)
	}
	req := c.Request()
	var proxyErr error
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = u.Host
			pr.Out.Header.Set(HeaderForwardedBy, s.cfg.Cluster.NodeID())
			pr.Out.Header.Set(HeaderNodeSecret, s.cfg.NodeSecret)
			pr.Out.Header.Set(HeaderRequestID, exec.RequestIDFrom(req.Context()))
		},
		Transport:     proxyTransport,
		FlushInterval: -1, // SSE streams and long polls pass through at once
		ErrorHandler:  func(_ http.ResponseWriter, _ *http.Request, err error) { proxyErr = err },
	}
	// The owner answers with the same request id.
	c.Response().Header().Del(HeaderRequestID)
	rp.ServeHTTP(c.Response(), req)
	if proxyErr == nil || c.Response().Committed {
		return nil
	}
	c.Response().Header().Set(HeaderRequestID, exec.RequestIDFrom(req.Context()))
	if errors.Is(proxyErr, context.Canceled) && req.Context().Err() != nil {
		return nil // the client went away
	}
	return &retryAfterError{&exec.Error{Code: exec.EUnavailable, Message: "the server that holds this context (" + u.Host + ") does not answer; retry", Err: proxyErr}, retrySeconds(lease)}
}

func retrySeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}
