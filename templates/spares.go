package templates

// Spare workspaces: a run from a template gets a copy of its workspace,
// and copying hundreds of files (a node_modules) costs milliseconds of
// the run's own. For a template whose workspace holds more than
// spareMinBytes, the manager keeps Config.Spares copies made ahead in the
// one-shot runs' scratch (Config.Scratch), hands one to each run that
// finds one ready and makes the next in the background, as the engine's
// pools pre-start guests. A template used once only costs one copy more;
// the copies go with their generation.

import (
	"github.com/wasmexec/wasmexec/internal/copytree"
)

const (
	// spareMinBytes: a smaller workspace is copied on the run's path (a
	// few files cost less than handing a spare over).
	spareMinBytes = 16 << 10
	// spareMaxBytes: a larger one is copied on the run's path too (its
	// spares would hold too much memory of a tmpfs scratch).
	spareMaxBytes = 32 << 20
)

// spareLocked returns a ready copy of g's workspace ("" when none is) and
// starts making the next ones. m.mu held.
func (m *Manager) spareLocked(g *generation, wsBytes int64) string {
	if m.cfg.Scratch == nil || m.cfg.Spares <= 0 || wsBytes < spareMinBytes || wsBytes > spareMaxBytes || g.retired {
		return ""
	}
	dir := ""
	if n := len(g.spares); n > 0 {
		dir, g.spares = g.spares[n-1], g.spares[:n-1]
	}
	if !g.filling && len(g.spares) < m.cfg.Spares && !m.closed {
		g.filling = true
		g.refs++ // its workspace stays while it is copied
		m.wg.Add(1)
		go m.fillSpares(g)
	}
	return dir
}

// fillSpares makes copies of g's workspace until it has Config.Spares,
// or g is retired.
func (m *Manager) fillSpares(g *generation) {
	defer m.wg.Done()
	for {
		m.mu.Lock()
		if g.retired || m.closed || len(g.spares) >= m.cfg.Spares {
			g.filling = false
			m.releaseLocked(g)
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		dir, err := m.cfg.Scratch.NewWorkspace()
		if err == nil {
			if _, err = copytree.CopyTimes(g.ws, dir); err != nil {
				m.cfg.Scratch.RemoveWorkspace(dir)
			}
		}
		m.mu.Lock()
		if err != nil {
			g.filling = false
			m.releaseLocked(g)
			m.mu.Unlock()
			m.log.Warn("a spare copy of a template's workspace could not be made", "err", err)
			return
		}
		if g.retired || m.closed {
			m.cfg.Scratch.RemoveWorkspace(dir)
		} else {
			g.spares = append(g.spares, dir)
		}
		m.mu.Unlock()
	}
}

// releaseLocked drops one hold of g, removing it once retired and
// unheld. m.mu held.
func (m *Manager) releaseLocked(g *generation) {
	if g.refs--; g.refs == 0 && g.retired {
		m.removeGeneration(g)
	}
}

// dropSparesLocked removes g's spare copies. m.mu held.
func (m *Manager) dropSparesLocked(g *generation) {
	if m.cfg.Scratch == nil {
		return
	}
	for _, dir := range g.spares {
		m.cfg.Scratch.RemoveWorkspace(dir)
	}
	g.spares = nil
}
