package server

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
)

// CheckRequest is the body of POST /v1/typescript/check.
type CheckRequest struct {
	Code            string            `json:"code,omitempty"`
	Files           map[string]string `json:"files,omitempty"`
	FilePath        string            `json:"filePath,omitempty"`
	TsconfigPath    string            `json:"tsconfigPath,omitempty"`
	CompilerOptions json.RawMessage   `json:"compilerOptions,omitempty"`
	TimeoutMs       int64             `json:"timeoutMs,omitempty"`
	// TypeScriptVersion picks the checker: "7" (the default: TypeScript
	// 7, the native compiler) or "5.9" (the last JavaScript compiler, for
	// clients that pin 5.x); a full version ("7.0.2") names its major.
	TypeScriptVersion string `json:"typescriptVersion,omitempty"`
}

// CheckerInfo describes the checkers: GET /v1/typescript (versions and
// readiness).
type CheckerInfo func() any

// Checker type-checks TypeScript. The result is encoded as JSON as is:
// {outcome, hasErrors, diagnostics, typescriptVersion, durationMs, ...}.
type Checker interface {
	Check(ctx context.Context, req *CheckRequest) (any, error)
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
	var req CheckRequest
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
