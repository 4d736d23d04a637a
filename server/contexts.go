package server

import (
	"context"

	"github.com/wasmexec/wasmexec/exec"
)

// Contexts runs requests in named execution contexts (contexts.Manager).
type Contexts interface {
	Run(ctx context.Context, req *exec.Request) (*exec.Result, error)
}

// routeContexts adds /v1/contexts routes when Contexts is set.
func (s *Server) routeContexts() {}
