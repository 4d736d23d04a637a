package wasmexec

// Execution-context vocabulary. The contexts package
// implements it (and documents the state machine); server/ speaks it on the
// wire.

// ContextState is where an execution context is in its life.
type ContextState string

const (
	ContextIdle      ContextState = "idle"      // guest parked, ready for a run
	ContextRunning   ContextState = "running"   // one run in progress (more may queue)
	ContextResetting ContextState = "resetting" // guest being replaced
	ContextDeleting  ContextState = "deleting"  // being torn down; gone when done
	ContextFailed    ContextState = "failed"    // guest died unexpectedly; runs refused until reset
)

// ContextSpec creates a context: POST /v1/contexts. Env and
// Limits.MemoryBytes are fixed for the context's life (they are WASI-level
// settings of its guest); other limits are per run.
type ContextSpec struct {
	// ContextID is chosen by the client (1-64 of [A-Za-z0-9_-]) or, when
	// empty, generated (ctx_...).
	ContextID string            `json:"contextId,omitempty"`
	Language  Language          `json:"language"`
	Env       map[string]string `json:"env,omitempty"`
	Limits    Limits            `json:"limits"`
	// Network is the default network of the context's runs (a run may
	// give its own); Secrets are fixed for the context's life, like Env.
	Network *Network          `json:"network,omitempty"`
	Secrets map[string]Secret `json:"secrets,omitempty"`
	// Template starts the context from a template, as a fork starts from
	// its source: its state and a copy of its workspace; its language,
	// env and memoryBytes are the template's.
	Template string `json:"template,omitempty"`
}

// Context is a context descriptor: GET /v1/contexts/:id.
type Context struct {
	ContextID         string       `json:"contextId"`
	Language          Language     `json:"language"`
	State             ContextState `json:"state"`
	CreatedAtMs       int64        `json:"createdAtMs"`
	LastStartedAtMs   int64        `json:"lastStartedAtMs,omitempty"`
	LastCompletedAtMs int64        `json:"lastCompletedAtMs,omitempty"`
	// IdleExpiresAtMs is when the context is deleted if nothing uses it
	// (absent when idle expiry is off or work is in progress).
	IdleExpiresAtMs int64 `json:"idleExpiresAtMs,omitempty"`
	MemoryBytes     int64 `json:"memoryBytes"`
	// Runs counts completed runs; Resets counts guest replacements (explicit
	// resets and resets after a timeout, cancel or limit).
	Runs   int64 `json:"runs"`
	Resets int64 `json:"resets"`
	// Queued is the number of requests waiting behind the running one.
	Queued    int             `json:"queued"`
	Workspace *WorkspaceUsage `json:"workspace,omitempty"`
	// Network is the default network of its runs; Secrets names its
	// secrets (never their values).
	Network *Network `json:"network,omitempty"`
	Secrets []string `json:"secrets,omitempty"`
	// Error says why a failed context failed.
	Error *ErrorData `json:"error,omitempty"`
	// Hibernated: the guest is not in memory; its state is in a snapshot
	// (SnapshotBytes) and the next run restores it.
	Hibernated    bool  `json:"hibernated"`
	SnapshotBytes int64 `json:"snapshotBytes,omitempty"`
	// StateAsOfMs is when the state that survives a restart was captured
	// (the latest snapshot); RestoredAtMs when the guest was last restored
	// from one (after hibernation or a restart).
	StateAsOfMs  int64 `json:"stateAsOfMs,omitempty"`
	RestoredAtMs int64 `json:"restoredAtMs,omitempty"`
	// Notice says why the context is not hibernated or snapshotted now
	// (live processes, open files), or why its last restore came back
	// fresh (a snapshot that was corrupt or made for another image).
	Notice string `json:"notice,omitempty"`
}

// ForkSpec is the optional body of POST /v1/contexts/:id/fork.
type ForkSpec struct {
	// ContextID names the new context (generated when empty).
	ContextID string `json:"contextId,omitempty"`
}

// WorkspaceUsage is the byte usage of a context's workspace.
type WorkspaceUsage struct {
	UsedBytes  int64 `json:"usedBytes"`
	QuotaBytes int64 `json:"quotaBytes,omitempty"` // 0: unlimited
}

// FileEntry is one item of a workspace listing.
type FileEntry struct {
	Path         string `json:"path"` // relative to /workspace
	Type         string `json:"type"` // file | dir | symlink | other
	Size         int64  `json:"size"`
	ModifiedAtMs int64  `json:"modifiedAtMs"`
}

// ArchiveResult says what an archive unpacked into a workspace added.
type ArchiveResult struct {
	Dir   string `json:"dir"`
	Files int    `json:"files"`
	Dirs  int    `json:"dirs"`
	Bytes int64  `json:"bytes"`
	// Paths are the entries written (workspace paths), for the host's
	// bookkeeping; not sent to clients.
	Paths []string `json:"-"`
}

// ContextsMemory are the figures of a server's contexts in memory
// (contexts.Manager.Memory), for /metrics.
type ContextsMemory struct {
	Budget       int64 // the memory budget of live contexts (0: none)
	Used         int64 // what is compared with it: live guests and the server's other memory
	LiveBytes    int64 // live guests: their resident bytes and overhead
	PrivateBytes int64 // live guests' private bytes, as last measured
	Live         int   // contexts whose guest is in memory
	Evictions    int64 // contexts hibernated to stay within the budget
	OnPath       int64 // of Evictions, those a create or wake did on its own path
	Failures     int64 // hibernations for the budget that failed (the context stayed live)
	TrimmedBytes int64 // bytes of read-only image pages unmapped from idle guests
}
