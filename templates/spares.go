package templates

// Spare workspaces: a run from a template gets a copy of its workspace,
// and copying hundreds of files (a node_modules) costs milliseconds of
// the run's own. For a template whose workspace holds more than
// spareMinBytes, the manager keeps Config.Spares copies made ahead in the
// one-shot runs' scratch (Config.Scratch), hands one to each run that
// finds one ready and makes the next in the background, as the engine's
// pools pre-start guests. A template used once only costs one copy more;
// the copies go with their generation.
//
// Spare guests: what remains of a run from a template that a run in a
// context doesn't pay is its guest's restore (the state mapped, the
// driver's start: entropy reseeded, environment set, ~2.5 ms for a Python
// guest) and the copy-on-write faults of the pages its run writes (a
// Python run of sympy.solve from a 47 MB template: ~1,100, ~3 ms). For a
// template runs start from, the manager keeps Config.SpareGuests guests
// restored ahead, each in a copy of the workspace of its own, with the
// pages earlier runs wrote already copied in (engine/learn.go); a run
// takes one, and the next is made once that run's guest is closed. Each
// is used by one run only, so nothing of one run reaches another, and
// each drew its own entropy when its driver started. They cost the
// memory of those pages while they wait (a few MB each), so all
// templates together keep at most maxSpareGuests, the least recently
// used templates losing theirs first, and none until a template's first
// run.

import (
	"os"

	"github.com/wasmexec/wasmexec"
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

// dropSparesLocked removes g's spare copies and closes its spare guests
// (in the background). m.mu held.
func (m *Manager) dropSparesLocked(g *generation) {
	if len(g.guests) > 0 {
		guests := g.guests
		g.guests = nil
		m.spareGuests -= len(guests)
		m.closeGuestsLater(guests)
	}
	if m.cfg.Scratch == nil {
		return
	}
	for _, dir := range g.spares {
		m.cfg.Scratch.RemoveWorkspace(dir)
	}
	g.spares = nil
}

// maxSpareGuests bounds the spare guests of all templates together.
const maxSpareGuests = 4

// spareGuest is a guest restored ahead from a generation's state, in a
// workspace copy of its own.
type spareGuest struct {
	g   wasmexec.Guest
	dir string
}

// spareGuestLocked returns a spare guest of g (nil when none is ready),
// its workspace, and the function to call once the run's guest is closed
// (it makes the next one). A run that finds none starts the making of one
// at once. m.mu held.
func (m *Manager) spareGuestLocked(g *generation, spec wasmexec.GuestSpec) (wasmexec.Guest, string, func()) {
	if m.cfg.Scratch == nil || m.cfg.SpareGuests <= 0 || g.retired || g.noGuests || m.closed {
		return nil, "", nil
	}
	m.takes++
	g.taken = m.takes
	n := len(g.guests)
	if n == 0 {
		m.fillGuestsLocked(g, spec)
		return nil, "", nil
	}
	sg := g.guests[n-1]
	g.guests = g.guests[:n-1]
	m.spareGuests--
	if !sg.g.Alive() { // should not happen: it never ran
		m.closeGuestsLater([]spareGuest{sg})
		m.fillGuestsLocked(g, spec)
		return nil, "", nil
	}
	return sg.g, sg.dir, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.fillGuestsLocked(g, spec)
	}
}

// fillGuestsLocked starts making g's spare guests, unless that is under
// way or no longer wanted. m.mu held.
func (m *Manager) fillGuestsLocked(g *generation, spec wasmexec.GuestSpec) {
	if g.guestFilling || g.retired || g.noGuests || m.closed || len(g.guests) >= m.cfg.SpareGuests {
		return
	}
	g.guestFilling = true
	g.refs++ // its record and workspace stay while a guest is made
	m.wg.Add(1)
	go m.fillGuests(g, spec)
}

// fillGuests restores guests of g until it has Config.SpareGuests, g is
// retired, or there is no room for more.
func (m *Manager) fillGuests(g *generation, spec wasmexec.GuestSpec) {
	defer m.wg.Done()
	stop := func() {
		g.guestFilling = false
		m.releaseLocked(g)
		m.mu.Unlock()
	}
	for {
		m.mu.Lock()
		if g.retired || m.closed || g.noGuests || len(g.guests) >= m.cfg.SpareGuests || !m.roomForGuestLocked(g) {
			stop()
			return
		}
		m.spareGuests++ // reserved while it is made
		checked := g.checked
		m.mu.Unlock()
		sg, err := m.restoreSpare(g, spec, checked)
		m.mu.Lock()
		if err != nil {
			m.spareGuests--
			g.noGuests = true // runs restore their own (and report a refused state)
			m.log.Debug("a spare guest of a template could not be restored", "err", err)
			stop()
			return
		}
		g.checked = true
		if g.retired || m.closed {
			m.spareGuests--
			m.mu.Unlock()
			m.closeGuests([]spareGuest{sg})
			continue
		}
		g.guests = append(g.guests, sg)
		m.mu.Unlock()
	}
}

// roomForGuestLocked makes room for one more spare guest of g, closing
// one of the template least recently run from when all are taken and g
// was run from since. m.mu held.
func (m *Manager) roomForGuestLocked(g *generation) bool {
	if m.spareGuests < maxSpareGuests {
		return true
	}
	var victim *generation
	for _, t := range m.byID {
		if o := t.cur; o != nil && o != g && len(o.guests) > 0 && o.taken < g.taken && (victim == nil || o.taken < victim.taken) {
			victim = o
		}
	}
	if victim == nil {
		return false
	}
	n := len(victim.guests)
	sg := victim.guests[n-1]
	victim.guests = victim.guests[:n-1]
	m.spareGuests--
	m.closeGuestsLater([]spareGuest{sg})
	return true
}

// restoreSpare restores a guest of g's state in a fresh copy of its
// workspace.
func (m *Manager) restoreSpare(g *generation, spec wasmexec.GuestSpec, checked bool) (spareGuest, error) {
	dir, err := m.cfg.Scratch.NewWorkspace()
	if err != nil {
		return spareGuest{}, err
	}
	fail := func(err error) (spareGuest, error) {
		m.cfg.Scratch.RemoveWorkspace(dir)
		return spareGuest{}, err
	}
	if _, err := copytree.CopyTimes(g.ws, dir); err != nil {
		return fail(err)
	}
	f, err := os.Open(g.record)
	if err != nil {
		return fail(err)
	}
	defer f.Close() // the guest's mapping keeps the file
	spec.Workspace, spec.Spare, spec.StateChecked = dir, true, checked
	guest, err := m.cfg.Runner.RestoreGuestFile(m.ctx, spec, f, g.off)
	if err != nil {
		return fail(err)
	}
	return spareGuest{g: guest, dir: dir}, nil
}

// closeGuests closes spare guests and removes their workspaces.
func (m *Manager) closeGuests(guests []spareGuest) {
	for _, sg := range guests {
		sg.g.Close()
		m.cfg.Scratch.RemoveWorkspace(sg.dir)
	}
}

// closeGuestsLater closes spare guests off the caller's path (a guest's
// Close may wait for its driver). m.mu held.
func (m *Manager) closeGuestsLater(guests []spareGuest) {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.closeGuests(guests)
	}()
}
