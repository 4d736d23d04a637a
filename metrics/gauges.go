package metrics

import (
	"context"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/wasmexec/wasmexec"
)

// The parts of a server whose state /metrics reads at each scrape. Each
// is an interface of what the owning package already exposes, so the
// owner keeps its counters and this package only reads them.
type (
	// Runs is the run pipeline (pipeline.Pipeline).
	Runs interface {
		Live() int64
		Queued() int64
	}
	// Guests is the engine's driver (engine.Driver).
	Guests interface {
		PoolStats() map[string][2]int64
		Snapshotted(image string) bool
	}
	// Contexts is the contexts manager (contexts.Manager).
	Contexts interface {
		Count() int
		Hibernated() int
		SnapshotErrors() int64
		Memory() wasmexec.ContextsMemory
		DiskBytes() (used, limit int64)
	}
	// Processes is the processes manager (processes.Manager).
	Processes interface{ Running() int }
	// History is the store (store.Store).
	History interface {
		Stats(ctx context.Context) (count int, sizeBytes int64, err error)
	}
	// EventLog is the shared event log of a PostgreSQL store
	// (store.EventLog): written, dropped and queued events.
	EventLog interface {
		Counts() (written, dropped uint64, queued int)
	}
)

// Parts are the parts of a server; any may be nil (not built, or not yet:
// a server serves /metrics while it loads its images).
type Parts struct {
	LiveGuests func() int64 // guest instances alive (engine.Engine.LiveGuests)
	Runs       Runs
	Guests     Guests
	Contexts   Contexts
	Processes  Processes
	History    History
	EventLog   EventLog
}

// watched are the parts the gauges read, set by Watch and Update.
type watched struct {
	mu    sync.Mutex
	parts Parts
}

// Watch registers the gauges and counters read at each scrape from the
// parts: p at first, then as Update changes them.
func (m *Metrics) Watch(p Parts) {
	m.watched.mu.Lock()
	m.watched.parts = p
	m.watched.mu.Unlock()
	parts := m.current

	gauge := func(name, help string, f func(Parts) float64) {
		m.Gauge(name, help, func() float64 { return f(parts()) })
	}
	counter := func(name, help string, f func(Parts) float64) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return f(parts()) }))
	}
	counter("wasmexec_events_dropped_total", "Lifecycle events this server could not add to the shared log (PostgreSQL store: the queue to the database was full, or the server was stopping); never with SQLite.", func(p Parts) float64 {
		if p.EventLog == nil {
			return 0
		}
		_, d, _ := p.EventLog.Counts()
		return float64(d)
	})
	counter("wasmexec_events_written_total", "Lifecycle events this server wrote to the shared log (PostgreSQL store).", func(p Parts) float64 {
		if p.EventLog == nil {
			return 0
		}
		w, _, _ := p.EventLog.Counts()
		return float64(w)
	})
	gauge("wasmexec_events_queued", "Lifecycle events waiting to be written to the shared log (PostgreSQL store).", func(p Parts) float64 {
		if p.EventLog == nil {
			return 0
		}
		_, _, q := p.EventLog.Counts()
		return float64(q)
	})
	gauge("wasmexec_guests_live", "Guest instances alive (pre-started, in contexts, running).", func(p Parts) float64 {
		if p.LiveGuests == nil {
			return 0
		}
		return float64(p.LiveGuests())
	})
	gauge("wasmexec_runs_live", "Runs holding a run slot or running unslotted.", func(p Parts) float64 {
		if p.Runs == nil {
			return 0
		}
		return float64(p.Runs.Live())
	})
	gauge("wasmexec_runs_queued", "Runs waiting for a run slot.", func(p Parts) float64 {
		if p.Runs == nil {
			return 0
		}
		return float64(p.Runs.Queued())
	})
	gauge("wasmexec_contexts", "Execution contexts, live or hibernated (each has a record; --max-contexts bounds them).", func(p Parts) float64 {
		if p.Contexts == nil {
			return 0
		}
		return float64(p.Contexts.Count())
	})
	mem := func(f func(wasmexec.ContextsMemory) float64) func(Parts) float64 {
		return func(p Parts) float64 {
			if p.Contexts == nil {
				return 0
			}
			return f(p.Contexts.Memory())
		}
	}
	gauge("wasmexec_contexts_live", "Execution contexts whose guest is in memory.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.Live) }))
	gauge("wasmexec_contexts_memory_budget_bytes", "The memory budget of live contexts (--contexts-memory-bytes): the server's RSS is kept under it by hibernating least recently used idle contexts.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.Budget) }))
	gauge("wasmexec_contexts_memory_used_bytes", "What the budget is compared with: live contexts' guests and the server's other memory.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.Used) }))
	gauge("wasmexec_contexts_live_bytes", "Resident bytes of live contexts' guests (what RSS counts for them) with their per-guest overhead.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.LiveBytes) }))
	gauge("wasmexec_contexts_live_private_bytes", "Private bytes of live contexts' guests (pages they wrote), as last measured.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.PrivateBytes) }))
	counter("wasmexec_contexts_evictions_total", "Contexts hibernated to keep within the memory budget.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.Evictions) }))
	counter("wasmexec_contexts_evictions_on_request_path_total", "Of the contexts hibernated for the memory budget, those a create or wake hibernated on its own path (past 88% of the budget) rather than the background loop.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.OnPath) }))
	counter("wasmexec_contexts_eviction_failures_total", "Hibernations for the memory budget that failed (capture or record write): the context stayed live, its notice says why.", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.Failures) }))
	counter("wasmexec_contexts_trimmed_bytes_total", "Bytes of read-only image pages unmapped from idle live guests (shared in the page cache; mapped again when read).", mem(func(s wasmexec.ContextsMemory) float64 { return float64(s.TrimmedBytes) }))
	gauge("wasmexec_contexts_disk_bytes", "Bytes of the contexts' records and workspaces in the data dir, as last measured.", func(p Parts) float64 {
		if p.Contexts == nil {
			return 0
		}
		u, _ := p.Contexts.DiskBytes()
		return float64(u)
	})
	gauge("wasmexec_contexts_disk_limit_bytes", "--contexts-max-disk-bytes: past it, creating a context is 429.", func(p Parts) float64 {
		if p.Contexts == nil {
			return 0
		}
		_, l := p.Contexts.DiskBytes()
		return float64(l)
	})
	gauge("wasmexec_contexts_hibernated", "Execution contexts whose guest is hibernated (not in memory).", func(p Parts) float64 {
		if p.Contexts == nil {
			return 0
		}
		return float64(p.Contexts.Hibernated())
	})
	counter("wasmexec_context_snapshot_errors_total", "Context snapshots that could not be written to the data dir (the context stays live; what was stored before is kept).", func(p Parts) float64 {
		if p.Contexts == nil {
			return 0
		}
		return float64(p.Contexts.SnapshotErrors())
	})
	gauge("wasmexec_processes_live", "Processes running.", func(p Parts) float64 {
		if p.Processes == nil {
			return 0
		}
		return float64(p.Processes.Running())
	})
	pool := func(i int) func() map[string]float64 {
		return func() map[string]float64 {
			out := map[string]float64{}
			if g := parts().Guests; g != nil {
				for img, hm := range g.PoolStats() {
					out[img] = float64(hm[i])
				}
			}
			return out
		}
	}
	m.Counters("wasmexec_pool_hits_total", "One-shot runs that took a pre-started guest, by image.", []string{"image"}, pool(0))
	m.Counters("wasmexec_pool_misses_total", "One-shot runs that found no pre-started guest, by image.", []string{"image"}, pool(1))
	m.Counters("wasmexec_guest_starts_total", "Guests handed to one-shot runs by source: pool (pre-started) or cold (started on the request's path), by image, and whether the image's guests start from a snapshot of their initialized runtime.", []string{"image", "source", "snapshot"}, func() map[string]float64 {
		g := parts().Guests
		snap := func(img string) string {
			if g != nil && g.Snapshotted(img) {
				return "true"
			}
			return "false"
		}
		out := map[string]float64{}
		for img, v := range pool(0)() {
			out[img+"\x00pool\x00"+snap(img)] = v
		}
		for img, v := range pool(1)() {
			out[img+"\x00cold\x00"+snap(img)] = v
		}
		return out
	})
	gauge("wasmexec_store_executions", "Completed executions kept in the store.", func(p Parts) float64 {
		if p.History == nil {
			return 0
		}
		n, _, _ := p.History.Stats(context.Background())
		return float64(n)
	})
	gauge("wasmexec_store_bytes", "Size of the store's SQLite file.", func(p Parts) float64 {
		if p.History == nil {
			return 0
		}
		_, size, _ := p.History.Stats(context.Background())
		return float64(size)
	})
}

// Update changes the parts the gauges read: a server serves /metrics while
// it loads its guest images, and builds the runner, the driver, the
// contexts and the processes once they are loaded.
func (m *Metrics) Update(set func(p *Parts)) {
	m.watched.mu.Lock()
	defer m.watched.mu.Unlock()
	set(&m.watched.parts)
}

// current is what the gauges read now.
func (m *Metrics) current() Parts {
	m.watched.mu.Lock()
	defer m.watched.mu.Unlock()
	return m.watched.parts
}
