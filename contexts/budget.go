package contexts

// The memory budget of live contexts (docs/CONTEXTS.md "Memory budget").
//
// A context's guest is live (in memory) or hibernated (in its record). The
// budget, Config.MemoryBudget, bounds what the live ones cost together
// with the rest of the server: used = Σ live guests + the server's other
// memory, the latter sampled as its RSS less the live guests' share. So
// the server's RSS stays under the budget, whatever the contexts do.
//
// What a live guest costs is measured, not assumed: the resident pages of
// its linear memory (wasmexec.ResidentMeter: what RSS counts for it, not its
// reserved or grown size) plus GuestOverhead for what the host keeps for
// it outside that memory. Until a guest is measured (it just started, or
// just ran) it is counted at its family's running estimate.
//
// The governor, one background loop, keeps used under budgetHigh of the
// budget: it measures the guests that ran, trims the idle ones (their
// mappings of image pages they only read are dropped: engine.Guest.Trim),
// and when that is not enough it hibernates the least recently used idle
// contexts until used is under budgetLow (hysteresis: it evicts in bulk,
// ahead of need, rather than one at a time at each admission). A guest
// about to start or wake is admitted first (admit): its estimate is
// reserved, in one step with the check that it fits within the budget;
// if that takes used past budgetFull of it, the caller trims recently
// run guests and, if that is not enough, hibernates one victim on its
// own path, never more; if it doesn't fit at all, the caller hibernates
// victims until it does. Contexts
// with a run in flight or queued, a held slot (an install, a file call's
// wake), live processes, or a recent failed capture are never chosen.

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
)

const (
	// budgetHigh is the share of the budget past which the governor
	// hibernates contexts; budgetLow, the share it brings used back to.
	budgetHigh = 0.82
	budgetLow  = 0.72
	// budgetFull is the share past which an admission trims and, if
	// that is not enough, hibernates one context itself: while creations
	// outrun the governor, used settles here, and the margin above it
	// absorbs what a sample of RSS has not seen yet.
	budgetFull = 0.88
	// evictWorkers hibernate victims side by side: a hibernation is part
	// CPU (the capture), part waiting for the disk (writing the record;
	// its fsync is the committer's, commit.go).
	evictWorkers = 2
	// governorEvery is how often the governor looks when nothing kicks it.
	governorEvery = 200 * time.Millisecond
	// DefaultGuestOverhead is the host memory of a live guest outside its
	// linear memory: its store, instance and tables, the stack of the
	// thread parked in recv, the Go side (measured on the build machine:
	// ~0.35 MiB for JS, ~0.15 MiB for Python; rounded up).
	DefaultGuestOverhead = 512 << 10
	// initialGuestEstimate is what a guest of a family is assumed to cost
	// until one of the family has been measured.
	initialGuestEstimate = 16 << 20
	// trimAfter: a live guest idle this long has its read-only image pages
	// unmapped (they cost RSS, not memory: the page cache shares them).
	trimAfter = time.Second
	// DefaultMaxLive bounds the live guests whatever the budget: each
	// holds an OS thread parked in recv, and the Go runtime stops the
	// process past 10000 threads (debug.SetMaxThreads); one-shot runs,
	// processes and the runtime need the rest.
	DefaultMaxLive = 6000
	// MinMemoryBudget is the smallest budget that keeps one context live
	// beside the server itself (its images loaded, ~100 MiB of RSS).
	MinMemoryBudget = 128 << 20
)

// memBudget is the bookkeeping of Config.MemoryBudget.
type memBudget struct {
	limit, full, high, low int64
	maxLive                int
	kick                   chan struct{}

	mu       sync.Mutex
	live     int64 // Σ guests' bytes (measured, estimated or reserved)
	other    int64 // the server's RSS outside live guests, last sampled
	peak     int64 // the most used has been
	guests   map[*execContext]*guestMem
	est      map[string]int64 // a new guest's cost, by family
	evicting int              // hibernations for the budget under way, until their guests are closed
	room     chan struct{}    // closed (and replaced) when used goes down

	evictions, onPath, failures, trimmed atomic.Int64
}

// guestMem is what a live guest is counted at.
type guestMem struct {
	bytes   int64 // total resident + overhead, or an estimate
	private int64 // measured private bytes (0 until measured)
	stale   bool  // used since measured
	trimmed bool  // trimmed since last used
}

func newBudget(limit int64, maxLive int) *memBudget {
	return &memBudget{maxLive: maxLive,
		limit: limit, full: int64(float64(limit) * budgetFull), high: int64(float64(limit) * budgetHigh), low: int64(float64(limit) * budgetLow),
		kick: make(chan struct{}, 1), guests: map[*execContext]*guestMem{}, est: map[string]int64{}, room: make(chan struct{}),
	}
}

// used is what the budget is compared with. b.mu held.
func (b *memBudget) used() int64 { return b.live + b.other }

// pressed: past the high mark, in bytes or live guests. b.mu held.
func (b *memBudget) pressed() bool {
	return b.used() > b.high || len(b.guests) > b.maxLive*int(budgetHigh*100)/100
}

// relieved: down to the low mark, in bytes and live guests. b.mu held.
func (b *memBudget) relieved() bool {
	return b.used() <= b.low && len(b.guests) <= b.maxLive*int(budgetLow*100)/100
}

// set counts c's guest at n bytes (unmeasured: stale). b.mu held.
func (b *memBudget) set(c *execContext, n int64) {
	g := b.guests[c]
	if g == nil {
		g = &guestMem{}
		b.guests[c] = g
	}
	b.changed(n - g.bytes)
	g.bytes, g.stale, g.trimmed = n, true, false
}

// changed adds d to the live guests' bytes. b.mu held.
func (b *memBudget) changed(d int64) {
	b.live += d
	b.moved(d)
}

// moved notes that used moved by d: its peak, and room for admissions
// waiting (admit) when it went down. b.mu held.
func (b *memBudget) moved(d int64) {
	if d < 0 {
		b.signal()
	}
	b.peak = max(b.peak, b.used())
}

// signal wakes the admissions waiting for room. b.mu held.
func (b *memBudget) signal() {
	close(b.room)
	b.room = make(chan struct{})
}

// fits: a guest of need bytes more stays within the budget, in bytes
// and live guests. b.mu held.
func (b *memBudget) fits(need int64) bool {
	return b.used()+need <= b.limit && len(b.guests) < b.maxLive
}

// crowded: past budgetFull, in bytes or live guests. b.mu held.
func (b *memBudget) crowded() bool {
	return b.used() > b.full || len(b.guests) > b.maxLive*int(budgetFull*100)/100
}

func (b *memBudget) estimate(family string) int64 {
	if e := b.est[family]; e > 0 {
		return e
	}
	return initialGuestEstimate
}

// admit reserves what c's guest, about to start or wake, is estimated to
// cost (plus extra: a state's bytes) against the budget. The check and
// the reservation are one step: the reservation is counted before the
// guest exists (converted to what the guest costs when it is measured,
// released if it fails to start), and one that would take used past the
// budget is not made, so admissions at once can't all pass the check
// before any of them is counted. Past budgetFull, the admission trims
// recently run guests and, if that is not enough, hibernates one least
// recently used idle context on its own path (its record is committed
// later: commit.go); the governor does the rest in the background. An
// admission that finds no room even at the budget trims, then
// hibernates victims one at a time until its reservation fits (each
// frees its guest's memory as it is closed). When nothing is left to
// hibernate (every other live guest is busy) and no hibernation is under
// way, it is admitted over the budget, since waiting could not make room
// before a run ends; while one is under way, it waits for it. Errors:
// overloaded (ctx ended while waiting).
func (m *Manager) admit(ctx context.Context, c *execContext, extra int64) error {
	b := m.budget
	if b == nil {
		return nil
	}
	trimmed, evicted := false, 0
	for {
		b.mu.Lock()
		need := b.estimate(c.family.Name) + extra
		_, had := b.guests[c]
		if had || b.fits(need) {
			b.set(c, need)
			over, pressed := !had && b.crowded(), b.pressed()
			b.mu.Unlock()
			if over && evicted == 0 && !m.trimFor(c, need) {
				m.evictOne(c)
			}
			if over || pressed {
				m.kickGovernor()
			}
			return nil
		}
		room := b.room
		b.mu.Unlock()
		m.kickGovernor()
		if !trimmed {
			trimmed = true
			m.trimFor(c, need)
			continue
		}
		if m.evictOne(c) {
			evicted++
			continue
		}
		b.mu.Lock()
		if b.evicting == 0 {
			b.set(c, need)
			used, limit := b.used(), b.limit
			b.mu.Unlock()
			m.log.Info("a guest admitted over the memory budget: no idle context is left to hibernate", "contextId", c.id, "used", used, "budget", limit)
			return nil
		}
		b.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return wasmexec.Errorf(wasmexec.EOverloaded, "no room in the memory budget for the guest of context %s: %v", c.id, ctx.Err())
		}
	}
}

// trimFor trims idle live guests (but self) that ran since they were
// last trimmed, most recently used first (they mapped the most), until
// need bytes are freed or none is left, and reports whether used is
// within the budget again. A trim costs no disk and ~0.1 ms: a guest
// that just ran maps several MiB of its image it only read, and freeing
// them first spares a hibernation on the caller's path.
func (m *Manager) trimFor(self *execContext, need int64) bool {
	b := m.budget
	b.mu.Lock()
	var todo []*execContext
	for c, g := range b.guests {
		if c != self && !g.trimmed {
			todo = append(todo, c)
		}
	}
	b.mu.Unlock()
	last := func(c *execContext) time.Time {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.lastUsed
	}
	slices.SortFunc(todo, func(x, y *execContext) int { return last(y).Compare(last(x)) })
	freed := int64(0)
	for _, c := range todo {
		if freed >= need {
			break
		}
		if !c.tryAcquire() {
			continue
		}
		b.mu.Lock()
		before := int64(0)
		if g := b.guests[c]; g != nil {
			before = g.bytes
		}
		b.mu.Unlock()
		m.measure(c, true)
		b.mu.Lock()
		if g := b.guests[c]; g != nil {
			freed += before - g.bytes
		}
		b.mu.Unlock()
		c.release()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used() <= b.full
}

// dropped stops counting c's guest (closed or being closed).
func (m *Manager) dropped(c *execContext) {
	b := m.budget
	if b == nil {
		return
	}
	b.mu.Lock()
	if g := b.guests[c]; g != nil {
		b.changed(-g.bytes)
		delete(b.guests, c)
	}
	b.mu.Unlock()
}

// recount counts c's guest, back in memory without an admission, at its
// family's estimate plus extra until it is measured.
func (m *Manager) recount(c *execContext, extra int64) {
	b := m.budget
	if b == nil {
		return
	}
	b.mu.Lock()
	b.set(c, b.estimate(c.family.Name)+extra)
	b.mu.Unlock()
}

// used marks c's guest as used: measured again, trimmed again later.
func (m *Manager) usedGuest(c *execContext) {
	b := m.budget
	if b == nil {
		return
	}
	b.mu.Lock()
	if g := b.guests[c]; g != nil {
		g.stale, g.trimmed = true, false
	}
	b.mu.Unlock()
}

// trimIdle trims and measures c's guest, idle after a snapshot. Slot
// held.
func (m *Manager) trimIdle(c *execContext) {
	if m.budget == nil || c.guest == nil {
		return
	}
	b := m.budget
	b.mu.Lock()
	_, live := b.guests[c]
	b.mu.Unlock()
	if live {
		m.measure(c, true)
	}
}

func (m *Manager) kickGovernor() {
	select {
	case m.budget.kick <- struct{}{}:
	default:
	}
}

// govern is the governor's loop (Start).
func (m *Manager) govern() {
	defer m.wg.Done()
	t := time.NewTicker(governorEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-m.budget.kick:
		case <-m.stop:
			return
		}
		m.balance()
	}
}

// Balance is one pass of the governor: it measures the guests used since
// their last measure, trims those idle for trimAfter (all idle ones when
// used is past budgetHigh), samples the server's RSS, and hibernates least
// recently used idle contexts while used is past budgetHigh, down to
// budgetLow. It returns how many it hibernated, once their records are
// committed.
func (m *Manager) Balance() int {
	n := 0
	for _, h := range m.balance() {
		if <-h {
			n++
		}
	}
	return n
}

// balance is Balance, but returns once the victims' guests are closed:
// their records are committed later (commit.go), and the outcomes say
// which were hibernated. The governor doesn't wait for the commits: a
// pass that did would leave the admissions meanwhile to hibernate on
// their own paths (a batch's fsyncs take hundreds of ms on a busy disk).
func (m *Manager) balance() []<-chan bool {
	b := m.budget
	if b == nil {
		return nil
	}
	m.measureGuests(false)
	m.sample()
	b.mu.Lock()
	pressed := b.pressed()
	b.mu.Unlock()
	if !pressed {
		return nil
	}
	start := time.Now()
	defer func() {
		s := m.Memory()
		m.log.Debug("memory budget: governor pass", "took", time.Since(start).String(), "hibernated", s.Evictions, "used", s.Used, "budget", s.Budget, "live", s.Live)
	}()
	m.measureGuests(true)
	m.sample()
	victims := m.victims()
	var next atomic.Int64
	var mu sync.Mutex
	var outcomes []<-chan bool
	var wg sync.WaitGroup
	for range evictWorkers {
		wg.Go(func() {
			for {
				b.mu.Lock()
				done := b.relieved()
				b.mu.Unlock()
				i := int(next.Add(1)) - 1
				if done || i >= len(victims) {
					return
				}
				if freed, hibernated := m.evict(victims[i], false); freed {
					mu.Lock()
					outcomes = append(outcomes, hibernated)
					mu.Unlock()
					m.sample()
				}
			}
		})
	}
	wg.Wait()
	if len(outcomes) > 0 && m.cfg.ReleaseMemory != nil {
		m.cfg.ReleaseMemory()
		m.sample()
	}
	return outcomes
}

// sample reads the server's RSS: what the live guests don't account for
// is the server's other memory.
func (m *Manager) sample() {
	rss := m.cfg.ProcessRSS()
	if rss <= 0 {
		return
	}
	b := m.budget
	b.mu.Lock()
	other := max(0, rss-b.live)
	d := other - b.other
	b.other = other
	b.moved(d)
	b.mu.Unlock()
}

// measureGuests measures the guests used since they were last measured,
// and trims idle ones: those idle for trimAfter, or every idle one when
// all is set. A guest whose slot is taken is left for the next pass.
func (m *Manager) measureGuests(all bool) {
	b := m.budget
	now := m.cfg.Now()
	type item struct {
		c    *execContext
		trim bool
	}
	var todo []item
	b.mu.Lock()
	for c, g := range b.guests {
		if g.stale || !g.trimmed {
			todo = append(todo, item{c: c, trim: !g.trimmed})
		}
	}
	b.mu.Unlock()
	for _, it := range todo {
		c := it.c
		c.mu.Lock()
		idle := now.Sub(c.lastUsed)
		c.mu.Unlock()
		trim := it.trim && (all || idle >= trimAfter)
		b.mu.Lock()
		g := b.guests[c]
		stale := g != nil && g.stale
		b.mu.Unlock()
		if !trim && !stale || !c.tryAcquire() {
			continue
		}
		m.measure(c, trim)
		c.release()
	}
}

// measure measures c's live guest (trimming it first when trim). Slot held.
func (m *Manager) measure(c *execContext, trim bool) {
	rm, ok := c.guest.(wasmexec.ResidentMeter)
	if !ok || c.guest == nil {
		return
	}
	if tr, ok := c.guest.(wasmexec.Trimmer); ok && trim {
		if n := tr.Trim(); n > 0 {
			m.budget.trimmed.Add(n)
		}
	}
	total, private := rm.Resident()
	cost := total + m.cfg.GuestOverhead
	b := m.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	g := b.guests[c]
	if g == nil { // dropped meanwhile (it can't be: the slot is held)
		return
	}
	if !trim && g.stale {
		// What a guest costs once it has run and before it is trimmed:
		// the estimate for the next one of its family.
		if e := b.est[c.family.Name]; e > 0 {
			b.est[c.family.Name] = (7*e + cost) / 8
		} else {
			b.est[c.family.Name] = cost
		}
	}
	b.changed(cost - g.bytes)
	g.bytes, g.private, g.stale = cost, private, false
	if trim {
		g.trimmed = true
	}
}

// victims lists the contexts whose guests may be hibernated now, least
// recently used first.
func (m *Manager) victims() []*execContext {
	b := m.budget
	b.mu.Lock()
	live := make([]*execContext, 0, len(b.guests))
	for c := range b.guests {
		live = append(live, c)
	}
	b.mu.Unlock()
	now := m.cfg.Now()
	type cand struct {
		c    *execContext
		used time.Time
	}
	cands := make([]cand, 0, len(live))
	for _, c := range live {
		c.mu.Lock()
		ok := m.evictable(c) && c.state == wasmexec.ContextIdle && !c.hib.hibernated && c.family.Name != "" && !now.Before(c.hib.retryAt)
		used := c.lastUsed
		c.mu.Unlock()
		if ok && (m.cfg.LiveProcesses == nil || m.cfg.LiveProcesses(c.id) == 0) {
			cands = append(cands, cand{c, used})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return a.used.Compare(b.used) })
	out := make([]*execContext, len(cands))
	for i, cd := range cands {
		out[i] = cd.c
	}
	return out
}

// evictOne hibernates the least recently used idle context but self, on
// the caller's path (admit): it returns once that context's guest is
// closed, its record committed later (commit.go). False: none could be.
func (m *Manager) evictOne(self *execContext) bool {
	for _, c := range m.victims() {
		if c == self {
			continue
		}
		if freed, _ := m.evict(c, true); freed {
			return true
		}
	}
	return false
}

// evict hibernates c for the budget (onPath: on a request's path). It
// returns once c's guest is closed (freed) or could not be; its record may be committed later, with
// others' (commit.go), and hibernated yields once whether c is
// hibernated: false when its slot was taken meanwhile, or the capture or
// its record's write or commit failed (it stays live, says why in its
// notice, and is not tried again before its retry time).
func (m *Manager) evict(c *execContext, onPath bool) (freed bool, hibernated <-chan bool) {
	out := make(chan bool, 1)
	b := m.budget
	// Counted before the slot is taken: an admission that finds no victim
	// left waits for those under way (admit).
	b.mu.Lock()
	b.evicting++
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.evicting--
		b.signal()
		b.mu.Unlock()
	}()
	if !c.tryAcquire() {
		out <- false
		return false, out
	}
	c.mu.Lock()
	ok := c.state == wasmexec.ContextIdle && !c.hib.hibernated && m.cfg.Now().After(c.hib.retryAt)
	c.mu.Unlock()
	if !ok || c.guest == nil {
		c.release()
		out <- false
		return false, out
	}
	counted := func(err error) {
		if err != nil {
			m.budget.failures.Add(1)
			m.note(c, "stays live though memory is short: it could not be hibernated: "+wasmexec.ErrorMessage(err))
			m.log.Warn("a context could not be hibernated to stay within the memory budget; it stays live", "contextId", c.id, "err", err)
		} else {
			m.budget.evictions.Add(1)
			if onPath {
				m.budget.onPath.Add(1)
			}
			m.log.Debug("context hibernated for the memory budget", "contextId", c.id)
		}
		out <- err == nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), guestStartTimeout)
	defer cancel()
	deferred, err := m.hibernateWith(ctx, c, counted)
	if deferred {
		return true, out // the commit releases the slot
	}
	c.release()
	counted(err)
	return err == nil, out
}

// Memory returns the budget's figures (zeros without a budget but Live).
func (m *Manager) Memory() wasmexec.ContextsMemory {
	b := m.budget
	if b == nil {
		return wasmexec.ContextsMemory{Live: m.Count() - m.Hibernated()}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	s := wasmexec.ContextsMemory{Budget: b.limit, Used: b.used(), LiveBytes: b.live, Live: len(b.guests),
		Evictions: b.evictions.Load(), OnPath: b.onPath.Load(), Failures: b.failures.Load(), TrimmedBytes: b.trimmed.Load()}
	for _, g := range b.guests {
		s.PrivateBytes += g.private
	}
	return s
}

// ProcessRSS is the resident set size of this process (Linux:
// /proc/self/statm), or 0 when it can't be read.
func ProcessRSS() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
