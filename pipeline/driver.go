package pipeline

import (
	"context"
	"os"

	"github.com/wasmexec/wasmexec"
)

// Driver is what the pipeline needs of an engine, as database/sql/driver
// is for database/sql: guests of an image, started fresh, kept, or
// restored from a captured state. engine.Driver is the real one
// (wasmtime); pipelinetest.Driver is a fake for fast tests of what lies
// around the guest.
type Driver interface {
	// Image describes guest image name: unavailable when it isn't loaded.
	Image(name string) (wasmexec.Family, error)
	// Guest returns a guest for one run: it serves one Call, and Close
	// discards it with the workspace it made (when spec.Workspace is "").
	Guest(ctx context.Context, spec GuestSpec) (wasmexec.Guest, error)
	// StartGuest starts a guest kept across runs in spec.Workspace.
	StartGuest(ctx context.Context, spec GuestSpec) (wasmexec.Guest, error)
	// RestoreGuest and RestoreGuestFile start a kept guest from a
	// captured state (see wasmexec.Runner).
	RestoreGuest(ctx context.Context, spec GuestSpec, state []byte) (wasmexec.Guest, error)
	RestoreGuestFile(ctx context.Context, spec GuestSpec, f *os.File, off int64) (wasmexec.Guest, error)
	// StateRefused reports whether err is a restore's refusal of a state.
	StateRefused(err error) bool
}

// GuestSpec says which guest a driver starts.
type GuestSpec struct {
	Image       string
	Env         map[string]string
	MemoryBytes int64
	// Workspace is the host directory mounted at /workspace; "" (runs
	// only) makes a throwaway one that the guest's Close removes.
	Workspace string
	// StateChecked (RestoreGuestFile) says the state's file was checked
	// whole by an earlier restore and is unchanged (a template's): its
	// raw pages are mapped without being read for their checksums.
	StateChecked bool
	// Template (RestoreGuestFile) says the state is a template's, which
	// one guest per run restores; Ahead, that the guest is made ahead of
	// its run (a spare): the engine copies in now the pages earlier runs
	// from the state wrote (engine/learn.go).
	Template, Ahead bool
}
