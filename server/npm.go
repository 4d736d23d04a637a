package server

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// NPM installs npm packages into contexts' workspaces (npm.Service).
// Errors are *wasmexec.Error codes; a failed install is a completed record.
type NPM interface {
	Install(ctx context.Context, contextID string, req *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error)
}

// routeNPM adds POST /v1/contexts/:id/npm/install (501 when NPM is nil).
func (s *Server) routeNPM() {
	s.e.POST("/v1/contexts/:id/npm/install", s.npmInstall)
}

func (s *Server) npmInstall(c echo.Context) error {
	if s.cfg.NPM == nil {
		return notImplemented("npm install")
	}
	var req wasmexec.NPMInstallRequest
	if c.Request().ContentLength != 0 {
		if err := s.decode(c, &req); err != nil {
			return err
		}
	}
	// The context must be the caller's: with tenants, Contexts is guarded
	// and another tenant's id is context_not_found, like an unknown one.
	if s.cfg.Contexts != nil {
		if _, err := s.cfg.Contexts.Get(c.Request().Context(), c.Param("id")); err != nil {
			return err
		}
	}
	res, err := s.cfg.NPM.Install(c.Request().Context(), c.Param("id"), &req)
	if err != nil {
		return err
	}
	return c.JSON(200, res)
}
