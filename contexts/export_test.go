package contexts

import (
	"context"

	"github.com/wasmexec/wasmexec"
)

// KillGuest stops a context's guest behind the manager's back, as if it had
// died by itself while idle (tests only).
func KillGuest(m *Manager, id string) {
	c, err := m.lookup(id)
	if err != nil {
		panic(err)
	}
	c.acquire(context.Background(), 0, atFront)
	c.guest.Close()
	c.release()
}

// ResidentOf is the resident bytes of a live context's guest (zeros when
// it has none), tests only.
func ResidentOf(m *Manager, id string) (total, private int64) {
	c, err := m.lookup(id)
	if err != nil {
		panic(err)
	}
	c.acquire(context.Background(), 0, atFront)
	defer c.release()
	if rm, ok := c.guest.(wasmexec.ResidentMeter); ok {
		return rm.Resident()
	}
	return 0, 0
}

// SetMemoryBudget changes the memory budget of a manager made with one
// (tests only).
func SetMemoryBudget(m *Manager, n int64) {
	b := m.budget
	b.mu.Lock()
	b.limit, b.full, b.high, b.low = n, int64(float64(n)*budgetFull), int64(float64(n)*budgetHigh), int64(float64(n)*budgetLow)
	b.mu.Unlock()
}

// MeasureDisk measures the workspaces that may have changed now, as the
// disk loop does (tests only).
func MeasureDisk(m *Manager) { m.measureDisk() }

// TrimAfter is how long a live guest is idle before it is trimmed.
const TrimAfter = trimAfter

// TrimAll measures and trims every idle live guest now, as the governor
// does under pressure (tests only).
func TrimAll(m *Manager) { m.measureGuests(true) }

// BudgetLow is the share of the budget the governor brings used down to.
const BudgetLow = budgetLow

// WaitCommits returns once no hibernation's record waits for its commit
// (tests only).
func WaitCommits(m *Manager) { m.waitCommits() }

// PeakUsed is the most the budget has counted as used since the last
// call (tests only).
func PeakUsed(m *Manager) int64 {
	b := m.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.peak
	b.peak = b.used()
	return p
}

// Estimate is what the budget reserves for a new guest of family
// (tests only).
func Estimate(m *Manager, family string) int64 {
	b := m.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.estimate(family)
}

// FamilyOf is the name of the guest family of context id (tests only).
func FamilyOf(m *Manager, id string) (string, error) {
	c, err := m.lookup(id)
	if err != nil {
		return "", err
	}
	return c.family.Name, nil
}
