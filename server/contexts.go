package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// Contexts runs requests in named execution contexts and serves their
// workspaces (contexts.Manager). Errors are *wasmexec.Error codes (see the
// contexts package doc).
type Contexts interface {
	Run(ctx context.Context, req *wasmexec.Request) (*wasmexec.Result, error)
	Create(ctx context.Context, spec *wasmexec.ContextSpec) (*wasmexec.Context, error)
	Get(ctx context.Context, id string) (*wasmexec.Context, error)
	List(ctx context.Context) ([]*wasmexec.Context, error)
	Reset(ctx context.Context, id string) (*wasmexec.Context, error)
	Delete(ctx context.Context, id string) error
	WriteFile(ctx context.Context, id, path string, data []byte) (*wasmexec.FileEntry, error)
	ReadFile(ctx context.Context, id, path string) ([]byte, error)
	DeleteFile(ctx context.Context, id, path string) error
	ListFiles(ctx context.Context, id, dir string) ([]wasmexec.FileEntry, error)
	// ExtractArchive unpacks an archive (format "tar", "tgz" or "zip" as a
	// client names it, "" to detect it) under dir, all or nothing, charged
	// once against the workspace's limits.
	ExtractArchive(ctx context.Context, id, dir, format string, r io.Reader) (*wasmexec.ArchiveResult, error)
	// WriteArchive writes the tree under dir as a tar ("tar") or gzipped
	// tar ("tgz").
	WriteArchive(ctx context.Context, id, dir, format string, out io.Writer) error
	Hibernate(ctx context.Context, id string) (*wasmexec.Context, error)
	Fork(ctx context.Context, id string, spec *wasmexec.ForkSpec) (*wasmexec.Context, error)
}

// routeContexts adds the /v1/contexts routes (501 when Contexts is nil).
func (s *Server) routeContexts() {
	s.e.POST("/v1/contexts", s.createContext)
	s.e.GET("/v1/contexts", s.listContexts)
	s.e.GET("/v1/contexts/:id", s.contextByID(Contexts.Get))
	s.e.DELETE("/v1/contexts/:id", s.deleteContext)
	s.e.POST("/v1/contexts/:id/reset", s.contextByID(Contexts.Reset))
	s.e.POST("/v1/contexts/:id/hibernate", s.contextByID(Contexts.Hibernate))
	s.e.POST("/v1/contexts/:id/fork", s.forkContext)
	s.e.GET("/v1/contexts/:id/files", s.listFiles)
	s.e.PUT("/v1/contexts/:id/files", s.putArchive)
	s.e.GET("/v1/contexts/:id/files/*", s.readFile)
	s.e.PUT("/v1/contexts/:id/files/*", s.writeFile)
	s.e.DELETE("/v1/contexts/:id/files/*", s.deleteFile)
}

func (s *Server) contexts() (Contexts, error) {
	if s.cfg.Contexts == nil {
		return nil, notImplemented("execution contexts")
	}
	return s.cfg.Contexts, nil
}

func (s *Server) createContext(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	var spec wasmexec.ContextSpec
	if err := s.decode(c, &spec); err != nil {
		return err
	}
	d, err := cs.Create(c.Request().Context(), &spec)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, d)
}

func (s *Server) listContexts(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	list, err := cs.List(c.Request().Context())
	if err != nil {
		return err
	}
	if list == nil {
		list = []*wasmexec.Context{}
	}
	return c.JSON(http.StatusOK, map[string]any{"contexts": list})
}

// contextByID serves GET /v1/contexts/:id and POST .../reset: one call by
// id, the descriptor back.
func (s *Server) contextByID(op func(Contexts, context.Context, string) (*wasmexec.Context, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		cs, err := s.contexts()
		if err != nil {
			return err
		}
		d, err := op(cs, c.Request().Context(), c.Param("id"))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, d)
	}
}

// forkContext serves POST /v1/contexts/:id/fork: an optional
// {"contextId"} body, 201 with the new context's descriptor.
func (s *Server) forkContext(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	var spec wasmexec.ForkSpec
	if c.Request().ContentLength != 0 {
		if err := s.decode(c, &spec); err != nil {
			return err
		}
	}
	d, err := cs.Fork(c.Request().Context(), c.Param("id"), &spec)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, d)
}

func (s *Server) deleteContext(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	if err := cs.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// filePath is the workspace path of a file route: the rest of the URL path
// after /files/, percent-decoded once (so %2F and %00 reach the path
// checks as / and NUL).
func filePath(c echo.Context) (string, error) {
	p := c.Param("*")
	if c.Request().URL.RawPath == "" {
		return p, nil
	}
	u, err := url.PathUnescape(p)
	if err != nil {
		return "", wasmexec.Errorf(wasmexec.EInvalid, "malformed path escape: %v", err)
	}
	return u, nil
}

func (s *Server) listFiles(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	dir := c.QueryParam("dir")
	if c.QueryParams().Has("archive") {
		return s.getArchive(c, cs, dir)
	}
	return s.listDir(c, cs, dir)
}

func (s *Server) listDir(c echo.Context, cs Contexts, dir string) error {
	es, err := cs.ListFiles(c.Request().Context(), c.Param("id"), dir)
	if err != nil {
		return err
	}
	if es == nil {
		es = []wasmexec.FileEntry{}
	}
	return c.JSON(http.StatusOK, map[string]any{"dir": dir, "entries": es})
}

func (s *Server) readFile(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	p, err := filePath(c)
	if err != nil {
		return err
	}
	if p == "" {
		return s.listFiles(c) // files/?dir=
	}
	if strings.HasSuffix(p, "/") {
		// A path ending in / names the directory: list it.
		return s.listDir(c, cs, strings.TrimSuffix(p, "/"))
	}
	b, err := cs.ReadFile(c.Request().Context(), c.Param("id"), p)
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEOctetStream, b)
}

func (s *Server) writeFile(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	p, err := filePath(c)
	if err != nil {
		return err
	}
	body := http.MaxBytesReader(c.Response(), c.Request().Body, s.cfg.BodyLimit)
	data, err := io.ReadAll(body)
	if err != nil {
		return decodeError(err, s.cfg.BodyLimit)
	}
	data = jsonStringContent(c.Request().Header.Get(echo.HeaderContentType), data)
	e, err := cs.WriteFile(c.Request().Context(), c.Param("id"), p, data)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, e)
}

// jsonStringContent is the file content of a PUT body: with Content-Type
// application/json, a body that is one JSON string is the file's text
// (what a generated client's default serializer sends for a string);
// any other body is the file's bytes as sent.
func jsonStringContent(contentType string, body []byte) []byte {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != echo.MIMEApplicationJSON || len(body) == 0 || body[0] != '"' {
		return body
	}
	var text string
	if err := json.Unmarshal(body, &text); err != nil {
		return body
	}
	return []byte(text)
}

func (s *Server) deleteFile(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	p, err := filePath(c)
	if err != nil {
		return err
	}
	if err := cs.DeleteFile(c.Request().Context(), c.Param("id"), p); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// getArchive serves the tree under dir as a tar (archive=tar) or gzipped
// tar (archive=tgz), streamed. An error found before the first byte is an
// error response; one after it cuts the stream (the archive then lacks its
// end-of-archive marker, which tar readers report).
func (s *Server) getArchive(c echo.Context, cs Contexts, dir string) error {
	format, mime, name := "tar", "application/x-tar", "workspace.tar"
	switch a := strings.ToLower(c.QueryParam("archive")); a {
	case "", "tar":
	case "tgz", "tar.gz", "gz", "gzip":
		format, mime, name = "tgz", "application/gzip", "workspace.tar.gz"
	default:
		return wasmexec.Errorf(wasmexec.EInvalid, "a workspace tree is served as archive=tar or archive=tgz, not %q", a)
	}
	w := &lazyWriter{c: c, mime: mime, name: name}
	if err := cs.WriteArchive(c.Request().Context(), c.Param("id"), dir, format, w); err != nil {
		if !w.started {
			return err
		}
		panic(http.ErrAbortHandler) // the status line is gone: cut the stream
	}
	if !w.started {
		w.start()
	}
	return nil
}

// lazyWriter sends the response's header at the first write, so that an
// error found before any byte is still an error response.
type lazyWriter struct {
	c          echo.Context
	mime, name string
	started    bool
}

func (w *lazyWriter) start() {
	w.started = true
	h := w.c.Response().Header()
	h.Set(echo.HeaderContentType, w.mime)
	h.Set("Content-Disposition", `attachment; filename="`+w.name+`"`)
	w.c.Response().WriteHeader(http.StatusOK)
}

func (w *lazyWriter) Write(p []byte) (int, error) {
	if !w.started {
		w.start()
	}
	return w.c.Response().Write(p)
}

// putArchive unpacks the body, an archive (archive=tar|tgz|zip, or empty to
// detect it), under dir (default the workspace root), all or nothing.
func (s *Server) putArchive(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	if !c.QueryParams().Has("archive") {
		return wasmexec.Errorf(wasmexec.EInvalid, "PUT /v1/contexts/:id/files takes an archive (?archive=tar|tgz|zip, or ?archive to detect it); a single file goes to /v1/contexts/:id/files/PATH")
	}
	body := http.MaxBytesReader(c.Response(), c.Request().Body, s.cfg.BodyLimit)
	data, err := io.ReadAll(body)
	if err != nil {
		return decodeError(err, s.cfg.BodyLimit)
	}
	res, err := cs.ExtractArchive(c.Request().Context(), c.Param("id"), c.QueryParam("dir"), c.QueryParam("archive"), bytes.NewReader(data))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}
