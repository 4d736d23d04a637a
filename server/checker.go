package server

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// CheckerInfo describes the checkers: GET /v1/typescript (versions and
// readiness).
type CheckerInfo func() any

// Checker type-checks TypeScript. The result is encoded as JSON as is:
// {outcome, hasErrors, diagnostics, typescriptVersion, durationMs, ...}.
type Checker interface {
	Check(ctx context.Context, req *wasmexec.TypeScriptCheckRequest) (any, error)
}

// routeChecker adds POST /v1/typescript/check and GET /v1/typescript.
func (s *Server) routeChecker() {
	s.e.POST("/v1/typescript/check", s.check)
	s.e.GET("/v1/typescript", s.checkerInfo)
}

func (s *Server) checkerInfo(c echo.Context) error {
	if s.cfg.CheckerInfo == nil {
		return notImplemented("the TypeScript checker")
	}
	return c.JSON(http.StatusOK, s.cfg.CheckerInfo())
}

func (s *Server) check(c echo.Context) error {
	if s.cfg.Checker == nil {
		return notImplemented("the TypeScript checker")
	}
	var req wasmexec.TypeScriptCheckRequest
	if err := s.decode(c, &req); err != nil {
		return err
	}
	if req.Code == "" && len(req.Files) == 0 {
		return wasmexec.Errorf(wasmexec.EInvalid, "code or files is required")
	}
	if req.Code != "" && len(req.Files) > 0 {
		return wasmexec.Errorf(wasmexec.EInvalid, "give code or files, not both")
	}
	if req.TimeoutMs < 0 {
		return wasmexec.Errorf(wasmexec.EInvalid, "timeoutMs must be positive")
	}
	if len(req.CompilerOptions) > 0 && req.CompilerOptions[0] != '{' && string(req.CompilerOptions) != "null" {
		return wasmexec.Errorf(wasmexec.EInvalid, "compilerOptions must be an object, as in a tsconfig.json")
	}
	res, err := s.cfg.Checker.Check(c.Request().Context(), &req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}
