package contexts

import (
	"testing"

	"github.com/wasmexec/wasmexec/exec"
)

// The transition table is the state machine: every state is in it, only
// deleting is terminal, and a few transitions that must never happen don't.
func TestTransitions(t *testing.T) {
	all := []exec.ContextState{exec.ContextIdle, exec.ContextRunning, exec.ContextResetting, exec.ContextDeleting, exec.ContextFailed}
	for _, s := range all {
		if _, ok := transitions[s]; !ok {
			t.Errorf("state %s missing from the table", s)
		}
		if s != exec.ContextDeleting && !canTransition(s, exec.ContextDeleting) {
			t.Errorf("%s can't be deleted", s)
		}
	}
	for _, tc := range []struct {
		from, to exec.ContextState
		ok       bool
	}{
		{exec.ContextIdle, exec.ContextRunning, true},
		{exec.ContextRunning, exec.ContextIdle, true},
		{exec.ContextRunning, exec.ContextResetting, true},
		{exec.ContextRunning, exec.ContextFailed, true},
		{exec.ContextResetting, exec.ContextIdle, true},
		{exec.ContextFailed, exec.ContextResetting, true},
		{exec.ContextFailed, exec.ContextRunning, false}, // runs in a failed context are refused
		{exec.ContextFailed, exec.ContextIdle, false},    // only a reset revives it
		{exec.ContextResetting, exec.ContextRunning, false},
		{exec.ContextRunning, exec.ContextRunning, false},
		{exec.ContextDeleting, exec.ContextIdle, false},
		{exec.ContextDeleting, exec.ContextDeleting, false},
	} {
		if got := canTransition(tc.from, tc.to); got != tc.ok {
			t.Errorf("%s → %s: %v, want %v", tc.from, tc.to, got, tc.ok)
		}
	}
	c := &execContext{id: "t", state: exec.ContextFailed}
	if err := c.to(exec.ContextRunning); err == nil || c.state != exec.ContextFailed {
		t.Fatalf("illegal transition accepted: %v %s", err, c.state)
	}
}
