package server

import (
	"github.com/labstack/echo/v4"
)

// routeMCP mounts the MCP handler (Streamable HTTP: POST carries
// JSON-RPC; GET and DELETE belong to the transport too).
func (s *Server) routeMCP() {
	h := func(c echo.Context) error {
		if s.cfg.MCP == nil {
			return notImplemented("MCP")
		}
		s.cfg.MCP.ServeHTTP(c.Response(), c.Request())
		return nil
	}
	for _, m := range []string{"GET", "POST", "DELETE"} {
		s.e.Add(m, "/mcp", h)
	}
}
