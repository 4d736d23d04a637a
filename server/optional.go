package server

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec/exec"
)

// Contexts runs requests in named execution contexts (contexts.Manager).
type Contexts interface {
	Run(ctx context.Context, req *exec.Request) (*exec.Result, error)
}

// History reads completed executions (store.Store).
type History interface{}

// Checker type-checks TypeScript (tscheck.Pool).
type Checker interface{}

// Processes manages long-running guests.
type Processes interface{}

func (s *Server) routeContexts()  {}
func (s *Server) routeHistory()   {}
func (s *Server) routeChecker()   {}
func (s *Server) routeProcesses() {}

var _ = echo.New
