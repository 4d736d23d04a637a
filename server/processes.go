package server

// Processes manages long-running guests (processes.Manager).
type Processes interface{}

// routeProcesses adds /v1/processes routes when Processes is set.
func (s *Server) routeProcesses() {}
