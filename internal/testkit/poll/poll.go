// Package poll is how tests wait for another goroutine or process to reach
// a state: they check the state until it holds, never sleep a guessed time.
package poll

import (
	"testing"
	"time"
)

// Every is the interval between two checks.
const Every = 5 * time.Millisecond

// Until checks cond every Every until it holds, failing tb (naming what it
// waited for) after limit.
func Until(tb testing.TB, limit time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(Every)
	}
}
