package server

// Checker type-checks TypeScript.
type Checker interface{}

// routeChecker adds /v1/typescript/check when Checker is set.
func (s *Server) routeChecker() {}
