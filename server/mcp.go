package server

import (
	"context"

	"github.com/labstack/echo/v4"
)

// mcpPath is where MCP is served.
const mcpPath = "/mcp"

// routeMCP mounts the MCP handler (Streamable HTTP: POST carries
// JSON-RPC). The server is stateless: it offers no server-to-client stream
// (GET) and no session to end (DELETE), which the transport says to
// answer with 405, and echo does, as for any method a route lacks.
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
	s.e.POST(mcpPath, h)
}
