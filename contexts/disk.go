package contexts

// The contexts' disk use (Config.MaxDiskBytes): every context, live or
// hibernated, has a record in the state dir and a workspace. A record's
// size is known when it is written; a workspace's is measured (a walk of
// its directory) in the background after it may have changed: after a
// run, a file call, held work (an install), and while processes run in
// it. Creating a context past the bound is overloaded (429); nothing is
// removed to make room.

import (
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
)

// diskEvery is how often the workspaces that may have changed are
// measured again.
const diskEvery = 2 * time.Second

// diskUse tracks the bytes of each context's record and workspace.
type diskUse struct {
	mu      sync.Mutex
	records map[string]int64
	ws      map[string]int64
	stale   map[string]*execContext // workspaces to measure again
	total   int64
}

func (d *diskUse) init() {
	if d.records == nil {
		d.records, d.ws, d.stale = map[string]int64{}, map[string]int64{}, map[string]*execContext{}
	}
}

// setRecord notes the size of id's record (0: removed).
func (d *diskUse) setRecord(id string, n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.init()
	d.total += n - d.records[id]
	if n == 0 {
		delete(d.records, id)
	} else {
		d.records[id] = n
	}
}

// setWorkspace notes the size of c's workspace.
func (d *diskUse) setWorkspace(id string, n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.init()
	d.total += n - d.ws[id]
	d.ws[id] = n
}

// forget drops context id (deleted).
func (d *diskUse) forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.init()
	d.total -= d.records[id] + d.ws[id]
	delete(d.records, id)
	delete(d.ws, id)
	delete(d.stale, id)
}

// changed marks c's workspace to be measured again.
func (d *diskUse) changed(c *execContext) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.init()
	d.stale[c.id] = c
}

// wsChanged marks c's workspace to be measured again (with a disk bound).
func (m *Manager) wsChanged(c *execContext) {
	if m.cfg.MaxDiskBytes > 0 {
		m.disk.changed(c)
	}
}

// Total is the bytes of the records and workspaces as last measured.
func (d *diskUse) Total() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.total
}

// measureDisk measures the workspaces marked changed, and those with
// processes running in them.
func (m *Manager) measureDisk() {
	m.disk.mu.Lock()
	m.disk.init()
	todo := make([]*execContext, 0, len(m.disk.stale))
	for _, c := range m.disk.stale {
		todo = append(todo, c)
	}
	clear(m.disk.stale)
	m.disk.mu.Unlock()
	if m.cfg.LiveProcesses != nil {
		m.mu.Lock()
		for _, c := range m.ctxs {
			if m.cfg.LiveProcesses(c.id) > 0 {
				todo = append(todo, c)
			}
		}
		m.mu.Unlock()
	}
	for _, c := range todo {
		c.mu.Lock()
		gone := c.state == wasmexec.ContextDeleting
		c.mu.Unlock()
		if gone || c.ws == nil {
			continue
		}
		if n, err := c.ws.Usage(); err == nil {
			m.disk.setWorkspace(c.id, n)
		}
	}
}

// roomOnDisk refuses a new context when the records and workspaces are
// past Config.MaxDiskBytes (overloaded).
func (m *Manager) roomOnDisk() error {
	if m.cfg.MaxDiskBytes <= 0 {
		return nil
	}
	if used := m.disk.Total(); used >= m.cfg.MaxDiskBytes {
		return wasmexec.Errorf(wasmexec.EOverloaded, "the contexts' records and workspaces take %d bytes of the data dir, the most it may hold for them (contexts-max-disk-bytes %d); delete contexts, or retry once idle ones expire", used, m.cfg.MaxDiskBytes)
	}
	return nil
}

// DiskBytes returns the bytes of the contexts' records and workspaces as
// last measured, and Config.MaxDiskBytes (0: no bound), for /metrics.
func (m *Manager) DiskBytes() (used, limit int64) {
	return m.disk.Total(), m.cfg.MaxDiskBytes
}
