package pypi

// CompileStats is what one host-side compile did.
type CompileStats = compileStats

// WatchCompiles makes c report each compiler it starts (its pid, also its
// process group) and what each did.
func WatchCompiles(c *Client, started func(pid int), done func(CompileStats)) {
	c.compileStarted, c.compileDone = started, done
}

// CompilesWaiting is how many of c's compiles are waiting for a slot.
func CompilesWaiting(c *Client) int { return int(c.slotWaiters.Load()) }
