package server

import (
	"context"

	"github.com/labstack/echo/v4"
)

// routeMCP mounts the MCP handler (Streamable HTTP: POST carries
// JSON-RPC; GET and DELETE belong to the transport too).
func (s *Server) routeMCP() {
	h := func(c echo.Context) error {
		if s.cfg.MCP == nil {
			return notImplemented("MCP")
		}
		req := c.Request()
		if s.cfg.Cluster != nil && req.Header.Get(HeaderForwardedBy) == "" {
			// For ClusterContexts: a list gathers the peers' lists with
			// the client's key.
			req = req.WithContext(context.WithValue(req.Context(), clientKey{}, clientOf(req)))
		}
		s.cfg.MCP.ServeHTTP(c.Response(), req)
		return nil
	}
	for _, m := range []string{"GET", "POST", "DELETE"} {
		s.e.Add(m, "/mcp", h)
	}
}
