package server

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// Pip installs Python packages into contexts' workspaces (pypi.Service).
// Errors are *wasmexec.Error codes; a failed install is a completed record.
type Pip interface {
	Install(ctx context.Context, contextID string, req *wasmexec.PipInstallRequest) (*wasmexec.PipInstallResult, error)
}

// routePip adds POST /v1/contexts/:id/pip/install (501 when Pip is nil).
func (s *Server) routePip() {
	s.e.POST("/v1/contexts/:id/pip/install", s.pipInstall)
}

func (s *Server) pipInstall(c echo.Context) error {
	if s.cfg.Pip == nil {
		return notImplemented("pip install")
	}
	var req wasmexec.PipInstallRequest
	if err := s.decode(c, &req); err != nil {
		return err
	}
	// The context must be the caller's (another tenant's is not found) and
	// a Python one.
	if s.cfg.Contexts != nil {
		d, err := s.cfg.Contexts.Get(c.Request().Context(), c.Param("id"))
		if err != nil {
			return err
		}
		if d.Language != "" && d.Language != wasmexec.Python {
			return wasmexec.Errorf(wasmexec.ELanguageMismatch, "context %q is a %s context; pip install is for python contexts", c.Param("id"), d.Language)
		}
	}
	res, err := s.cfg.Pip.Install(c.Request().Context(), c.Param("id"), &req)
	if err != nil {
		return err
	}
	return c.JSON(200, res)
}
