package wasmexec

// HistoryFilter selects completed executions (GET /v1/executions). Empty
// fields match everything; a value that names nothing (an unknown
// language, say) matches nothing.
type HistoryFilter struct {
	ContextID string
	Language  string
	// Outcome is a run outcome (succeeded, failed, cancelled, timed_out) or
	// a process exit outcome (exited, signalled: process records only).
	Outcome string
	Kind    string
	// After is the NextCursor of the previous page; empty for the first.
	After string
	// Limit is the page size: 0 means the store's default, more than its
	// maximum is clamped to it.
	Limit int
}

// HistoryPage is one page of completed executions, newest first.
type HistoryPage struct {
	Executions []*Result `json:"executions"`
	// NextCursor resumes after the last record of this page; empty when
	// HasMore is false.
	NextCursor string `json:"nextCursor"`
	HasMore    bool   `json:"hasMore"`
}
