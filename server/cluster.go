package server

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
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
	// Peers returns the URLs of the other live servers (for lists).
	Peers(ctx context.Context) ([]string, error)
	// Moved says a request for context id forwarded to its owner failed
	// or was refused: the owner is looked up afresh next time.
	Moved(id string)
}

// ContextCounter is a Cluster that counts a tenant's contexts on every
// server, for its maxContexts quota (found by type assertion; without it,
// this server's are counted). TenantContexts leaves out the contexts named
// in except: those this server is making, which it counts itself whether
// they are registered yet or not.
type ContextCounter interface {
	TenantContexts(ctx context.Context, tenant string, except []string) (int64, error)
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
				return wasmexec.Errorf(wasmexec.EUnauthorized, "the %s and %s headers are for the servers of a cluster (wrong or missing node secret)", HeaderForwardedBy, HeaderNodeSecret)
			}
		}
		if req.Method == http.MethodGet && !forwarded {
			switch c.Path() {
			case "/v1/contexts":
				return s.gather(c, next, "contexts")
			case "/v1/processes":
				return s.gather(c, next, "processes")
			}
		}
		id, owner, lease, err := s.owner(c, forwarded)
		if err != nil {
			return err
		}
		if owner == "" {
			return next(c)
		}
		gone, err := s.forward(c, id, owner, lease)
		if !gone || forwarded {
			return err
		}
		// The owner was remembered, and it is gone (drained: the row says
		// released; or dead): read the row again, and serve the context
		// here when this server may claim it now.
		if again, _, aerr := cl.ContextOwner(req.Context(), id, wasmexec.TenantID(req.Context()), false); aerr == nil && again == "" {
			return next(c)
		}
		return err
	}
}

// peer reports whether req carries the node secret.
func (s *Server) peer(req *http.Request) bool {
	return s.cfg.NodeSecret != "" && secretEqual(req.Header.Get(HeaderNodeSecret), s.cfg.NodeSecret)
}

// owner finds who serves c's request ("": this server), and the context
// it is about ("": none).
func (s *Server) owner(c echo.Context, forwarded bool) (string, string, time.Duration, error) {
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
			return "", "", 0, err
		}
	case method == http.MethodPost && path == "/mcp":
		var err error
		if id, err = s.peekMCPContextID(c); err != nil {
			return "", "", 0, err
		}
	case strings.HasPrefix(path, "/v1/processes/:pid"):
		pid, err := strconv.ParseInt(c.Param("pid"), 10, 64)
		if err != nil || forwarded {
			return "", "", 0, nil // the handler says what is wrong
		}
		url, err := cl.ProcessNode(ctx, pid)
		return "", url, time.Second, err
	}
	if id == "" {
		return "", "", 0, nil
	}
	owner, lease, err := cl.ContextOwner(ctx, id, wasmexec.TenantID(ctx), forwarded)
	return id, owner, lease, err
}

// peekContextID reads the contextId of a run or spawn body and puts the
// body back for the handler. A body that is too large or not JSON is left
// to the handler to refuse.
func (s *Server) peekContextID(c echo.Context) (string, error) {
	var v struct {
		ContextID string `json:"contextId"`
	}
	if ok, err := s.peekBody(c, &v); !ok {
		return "", err
	}
	return v.ContextID, nil
}

// peekMCPContextID reads the context an MCP tool call is about (MCP here
// is stateless: one JSON-RPC message per POST, so the whole call can go
// to the context's owner). create_context makes its context here, like
// POST /v1/contexts; a call without a contextId is served here.
func (s *Server) peekMCPContextID(c echo.Context) (string, error) {
	var v struct {
		Method string `json:"method"`
		Params struct {
			Name      string `json:"name"`
			Arguments struct {
				ContextID string `json:"contextId"`
			} `json:"arguments"`
		} `json:"params"`
	}
	if ok, err := s.peekBody(c, &v); !ok || v.Method != "tools/call" || v.Params.Name == "create_context" {
		return "", err
	}
	return v.Params.Arguments.ContextID, nil
}

// peekBody decodes the request's JSON body into v and puts the body back
// for the handler; ok is false when it is too large or not that JSON (the
// handler refuses it).
func (s *Server) peekBody(c echo.Context, v any) (ok bool, err error) {
	req := c.Request()
	b, err := io.ReadAll(io.LimitReader(req.Body, s.cfg.BodyLimit+1))
	if err != nil {
		return false, wasmexec.Errorf(wasmexec.EInvalid, "reading the body: %v", err)
	}
	req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), req.Body))
	return json.Unmarshal(b, v) == nil, nil
}

// forward proxies c's request to the server at owner. An owner that
// doesn't answer is a 503 with Retry-After = what its lease has left (then
// another server may claim the context); gone says the request is
// untouched (nothing answered, not a byte of its body read), so that
// route may still serve it another way.
func (s *Server) forward(c echo.Context, id, owner string, lease time.Duration) (gone bool, _ error) {
	u, err := url.Parse(owner)
	if err != nil || u.Host == "" {
		return false, wasmexec.Errorf(wasmexec.EInternal, "the owner's URL %q is not a URL", owner)
	}
	req := c.Request()
	var body *heldBody
	if req.Body != nil && req.Body != http.NoBody {
		body = &heldBody{r: req.Body}
		req.Body = body
	}
	var proxyErr error
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = u.Host
			pr.Out.Header.Set(HeaderForwardedBy, s.cfg.Cluster.NodeID())
			pr.Out.Header.Set(HeaderNodeSecret, s.cfg.NodeSecret)
			pr.Out.Header.Set(HeaderRequestID, wasmexec.RequestIDFrom(req.Context()))
		},
		Transport:     proxyTransport,
		FlushInterval: -1, // SSE streams and long polls pass through at once
		ErrorHandler:  func(_ http.ResponseWriter, _ *http.Request, err error) { proxyErr = err },
		ModifyResponse: func(resp *http.Response) error {
			if resp.StatusCode == http.StatusServiceUnavailable && id != "" {
				s.cfg.Cluster.Moved(id) // e.g. it moved meanwhile: look again
			}
			return nil
		},
	}
	// The owner answers with the same request id.
	c.Response().Header().Del(HeaderRequestID)
	rp.ServeHTTP(c.Response(), req)
	untouched := true
	if body != nil {
		untouched = body.stop()
		req.Body = body.r
	}
	if proxyErr == nil || c.Response().Committed {
		return false, nil
	}
	c.Response().Header().Set(HeaderRequestID, wasmexec.RequestIDFrom(req.Context()))
	if id != "" {
		s.cfg.Cluster.Moved(id)
	}
	if errors.Is(proxyErr, context.Canceled) && req.Context().Err() != nil {
		return false, nil // the client went away
	}
	return untouched && id != "", &retryAfterError{&wasmexec.Error{Code: wasmexec.EUnavailable, Message: "the server that holds this context (" + u.Host + ") does not answer; retry", Err: proxyErr}, retrySeconds(lease)}
}

// heldBody is a request body lent to the proxy: it records whether the
// proxy read from it, and once stopped it gives the proxy nothing more
// (the transport may still hold it after a failed round trip), so that an
// untouched body can be served here instead. Close is the server's, not
// the proxy's.
type heldBody struct {
	mu      sync.Mutex
	r       io.ReadCloser
	read    bool
	stopped bool
}

func (b *heldBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return 0, io.ErrClosedPipe
	}
	b.read = true
	return b.r.Read(p)
}

func (b *heldBody) Close() error { return nil }

// stop ends the loan and reports whether the body is untouched.
func (b *heldBody) stop() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopped = true
	return !b.read
}

func retrySeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// gather serves a list (contexts, processes) from every live server: this
// one's, then each peer's (asked as a forwarded request, so it answers
// with its own only), merged in the order a single server uses. A peer
// that does not answer within peerListTimeout is left out (and logged):
// its contexts are claimable once its lease ends.
func (s *Server) gather(c echo.Context, next echo.HandlerFunc, key string) error {
	req := c.Request()
	orig := c.Response()
	rec := &bufferedWriter{header: http.Header{}}
	c.SetResponse(echo.NewResponse(rec, c.Echo()))
	err := next(c)
	local := c.Response()
	c.SetResponse(orig)
	if err != nil || local.Status != http.StatusOK {
		if err == nil {
			for k, v := range rec.header {
				orig.Header()[k] = v
			}
			return c.Blob(local.Status, rec.header.Get(echo.HeaderContentType), rec.body.Bytes())
		}
		return err
	}
	peers, err := s.cfg.Cluster.Peers(req.Context())
	if err != nil {
		return err
	}
	lists := make([][]json.RawMessage, len(peers)+1)
	lists[0], _ = listItems(rec.body.Bytes(), key)
	ctx, cancel := context.WithTimeout(req.Context(), peerListTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for i, peer := range peers {
		wg.Go(func() {
			items, err := s.peerList(ctx, req, peer, key)
			if err != nil {
				s.log.Warn("a server's list is left out", "peer", peer, "err", err)
				return
			}
			lists[i+1] = items
		})
	}
	wg.Wait()
	type item struct {
		raw         json.RawMessage
		ContextID   string `json:"contextId"`
		CreatedAtMs int64  `json:"createdAtMs"`
		PID         int64  `json:"pid"`
	}
	var items []item
	for _, raw := range slices.Concat(lists...) {
		it := item{raw: raw}
		json.Unmarshal(raw, &it)
		items = append(items, it)
	}
	slices.SortStableFunc(items, func(a, b item) int {
		if key == "processes" {
			return cmp.Compare(a.PID, b.PID)
		}
		return cmp.Or(cmp.Compare(a.CreatedAtMs, b.CreatedAtMs), strings.Compare(a.ContextID, b.ContextID))
	})
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		out[i] = it.raw
	}
	return c.JSON(http.StatusOK, map[string]any{key: out})
}

// peerListTimeout bounds asking a peer for its list.
const peerListTimeout = 5 * time.Second

// maxPeerListBytes bounds a peer's list answer.
const maxPeerListBytes = 64 << 20

func (s *Server) peerList(ctx context.Context, in *http.Request, peer, key string) ([]json.RawMessage, error) {
	return peerList(ctx, s.cfg, clientOf(in), peer+in.URL.RequestURI(), key)
}

// client is what a request to a peer carries of the client's.
type client struct{ authorization, requestID string }

func clientOf(req *http.Request) client {
	return client{req.Header.Get("Authorization"), wasmexec.RequestIDFrom(req.Context())}
}

// peerList asks a peer (a forwarded request: it answers with its own list
// only, for the client's key) for the list at url.
func peerList(ctx context.Context, cfg Config, cl client, url, key string) ([]json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if cl.authorization != "" {
		req.Header.Set("Authorization", cl.authorization)
	}
	req.Header.Set(HeaderForwardedBy, cfg.Cluster.NodeID())
	req.Header.Set(HeaderNodeSecret, cfg.NodeSecret)
	req.Header.Set(HeaderRequestID, cl.requestID)
	resp, err := (&http.Client{Transport: proxyTransport}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxPeerListBytes))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, b)
	}
	return listItems(b, key)
}

func listItems(b []byte, key string) ([]json.RawMessage, error) {
	var m map[string][]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m[key], nil
}

// bufferedWriter keeps a local answer to merge it.
type bufferedWriter struct {
	header http.Header
	body   bytes.Buffer
	status int
}

func (w *bufferedWriter) Header() http.Header         { return w.header }
func (w *bufferedWriter) Write(b []byte) (int, error) { return w.body.Write(b) }
func (w *bufferedWriter) WriteHeader(status int)      { w.status = status }

// ClusterContexts returns cfg.Contexts, whose List, in a cluster, gathers
// every live server's list as GET /v1/contexts does: for MCP's
// list_contexts (MCP's calls about one context are forwarded whole to its
// owner; a list is served where it arrives). The client's key goes along
// (routeMCP puts it in the request's context), so each server lists that
// tenant's own.
func ClusterContexts(cfg Config) Contexts {
	if cfg.Cluster == nil || cfg.Contexts == nil {
		return cfg.Contexts
	}
	return clusterContexts{next: cfg.Contexts, cfg: cfg}
}

// clusterContexts gathers the peers' contexts into a List; the rest pass
// through (each request about one context is routed before it gets here).
type clusterContexts struct {
	next Contexts
	cfg  Config
}

var _ Contexts = clusterContexts{}

func (cc clusterContexts) Run(ctx context.Context, req *wasmexec.Request) (*wasmexec.Result, error) {
	return cc.next.Run(ctx, req)
}

func (cc clusterContexts) Create(ctx context.Context, spec *wasmexec.ContextSpec) (*wasmexec.Context, error) {
	return cc.next.Create(ctx, spec)
}

func (cc clusterContexts) Get(ctx context.Context, id string) (*wasmexec.Context, error) {
	return cc.next.Get(ctx, id)
}

func (cc clusterContexts) Reset(ctx context.Context, id string) (*wasmexec.Context, error) {
	return cc.next.Reset(ctx, id)
}

func (cc clusterContexts) Delete(ctx context.Context, id string) error {
	return cc.next.Delete(ctx, id)
}

func (cc clusterContexts) Hibernate(ctx context.Context, id string) (*wasmexec.Context, error) {
	return cc.next.Hibernate(ctx, id)
}

func (cc clusterContexts) Fork(ctx context.Context, id string, spec *wasmexec.ForkSpec) (*wasmexec.Context, error) {
	return cc.next.Fork(ctx, id, spec)
}

func (cc clusterContexts) WriteFile(ctx context.Context, id, path string, data []byte) (*wasmexec.FileEntry, error) {
	return cc.next.WriteFile(ctx, id, path, data)
}

func (cc clusterContexts) ReadFile(ctx context.Context, id, path string) ([]byte, error) {
	return cc.next.ReadFile(ctx, id, path)
}

func (cc clusterContexts) DeleteFile(ctx context.Context, id, path string) error {
	return cc.next.DeleteFile(ctx, id, path)
}

func (cc clusterContexts) ListFiles(ctx context.Context, id, dir string) ([]wasmexec.FileEntry, error) {
	return cc.next.ListFiles(ctx, id, dir)
}

func (cc clusterContexts) ExtractArchive(ctx context.Context, id, dir, format string, r io.Reader) (*wasmexec.ArchiveResult, error) {
	return cc.next.ExtractArchive(ctx, id, dir, format, r)
}

func (cc clusterContexts) WriteArchive(ctx context.Context, id, dir, format string, out io.Writer) error {
	return cc.next.WriteArchive(ctx, id, dir, format, out)
}

type clientKey struct{}

func (cc clusterContexts) List(ctx context.Context) ([]*wasmexec.Context, error) {
	list, err := cc.next.List(ctx)
	cl, ok := ctx.Value(clientKey{}).(client)
	if err != nil || !ok {
		return list, err
	}
	peers, err := cc.cfg.Cluster.Peers(ctx)
	if err != nil {
		return nil, err
	}
	lists := make([][]json.RawMessage, len(peers))
	lctx, cancel := context.WithTimeout(ctx, peerListTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for i, peer := range peers {
		wg.Go(func() {
			lists[i], _ = peerList(lctx, cc.cfg, cl, peer+"/v1/contexts", "contexts")
		})
	}
	wg.Wait()
	for _, raw := range slices.Concat(lists...) {
		var d wasmexec.Context
		if json.Unmarshal(raw, &d) == nil {
			list = append(list, &d)
		}
	}
	slices.SortStableFunc(list, func(a, b *wasmexec.Context) int {
		return cmp.Or(cmp.Compare(a.CreatedAtMs, b.CreatedAtMs), strings.Compare(a.ContextID, b.ContextID))
	})
	return list, nil
}
