package contexts

import (
	"context"

	"github.com/wasmexec/wasmexec/exec"
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
	if rm, ok := c.guest.(exec.ResidentMeter); ok {
		return rm.Resident()
	}
	return 0, 0
}
