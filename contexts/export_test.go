package contexts

import "context"

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
