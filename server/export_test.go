package server

import "github.com/labstack/echo/v4"

// Routes returns echo's routes (for the OpenAPI coverage test).
func (s *Server) Routes() []*echo.Route { return s.e.Routes() }
