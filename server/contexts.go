package server

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec/exec"
)

// Contexts runs requests in named execution contexts and serves their
// workspaces (contexts.Manager). Errors are *exec.Error codes (see the
// contexts package doc).
type Contexts interface {
	Run(ctx context.Context, req *exec.Request) (*exec.Result, error)
	Create(ctx context.Context, spec *exec.ContextSpec) (*exec.Context, error)
	Get(ctx context.Context, id string) (*exec.Context, error)
	List(ctx context.Context) ([]*exec.Context, error)
	Reset(ctx context.Context, id string) (*exec.Context, error)
	Delete(ctx context.Context, id string) error
	WriteFile(ctx context.Context, id, path string, data []byte) (*exec.FileEntry, error)
	ReadFile(ctx context.Context, id, path string) ([]byte, error)
	DeleteFile(ctx context.Context, id, path string) error
	ListFiles(ctx context.Context, id, dir string) ([]exec.FileEntry, error)
	Hibernate(ctx context.Context, id string) (*exec.Context, error)
	Fork(ctx context.Context, id string, spec *exec.ForkSpec) (*exec.Context, error)
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
	var spec exec.ContextSpec
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
		list = []*exec.Context{}
	}
	return c.JSON(http.StatusOK, map[string]any{"contexts": list})
}

// contextByID serves GET /v1/contexts/:id and POST .../reset: one call by
// id, the descriptor back.
func (s *Server) contextByID(op func(Contexts, context.Context, string) (*exec.Context, error)) echo.HandlerFunc {
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
	var spec exec.ForkSpec
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
		return "", exec.Errorf(exec.EInvalid, "malformed path escape: %v", err)
	}
	return u, nil
}

func (s *Server) listFiles(c echo.Context) error {
	cs, err := s.contexts()
	if err != nil {
		return err
	}
	return s.listDir(c, cs, c.QueryParam("dir"))
}

func (s *Server) listDir(c echo.Context, cs Contexts, dir string) error {
	es, err := cs.ListFiles(c.Request().Context(), c.Param("id"), dir)
	if err != nil {
		return err
	}
	if es == nil {
		es = []exec.FileEntry{}
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
