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

// SpareGuests is how many spare guests template id has ready (-1: it has
// no current generation) and how many all templates have.
func (m *Manager) SpareGuests(id string) (ready, all int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ready = -1
	for _, t := range m.byID {
		if t.cur == nil {
			continue
		}
		if t.d.TemplateID == id {
			ready = len(t.cur.guests)
		}
		all += len(t.cur.guests)
	}
	return ready, all
}

// MaxSpareGuests bounds the spare guests of all templates.
const MaxSpareGuests = maxSpareGuests
