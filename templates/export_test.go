package templates

import (
	"context"
	"time"

	"github.com/wasmexec/wasmexec"
)

// ImplicitLookup reports, for the implicit template a run of lang with
// packages and memory in ctx's tenant would use: whether this node is
// looking it up in the cluster now, its lookups that failed in a row and
// when the next may start.
func (m *Manager) ImplicitLookup(ctx context.Context, lang wasmexec.Language, packages []string, memory int64) (syncing bool, failures int, retryAt time.Time) {
	f, err := m.cfg.Runner.Family(lang)
	if err != nil {
		panic(err)
	}
	key := implicitKey(wasmexec.TenantID(ctx), f.Name, packages, memory)
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.retries[key]; r != nil {
		failures, retryAt = r.failures, r.at
	}
	return m.syncing[key], failures, retryAt
}
