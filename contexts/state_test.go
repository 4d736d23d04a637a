package contexts

import (
	"testing"

	"github.com/wasmexec/wasmexec"
)

// The transition table is the state machine: every state is in it, only
// deleting is terminal, and a few transitions that must never happen don't.
func TestTransitions(t *testing.T) {
	all := []wasmexec.ContextState{wasmexec.ContextIdle, wasmexec.ContextRunning, wasmexec.ContextResetting, wasmexec.ContextDeleting, wasmexec.ContextFailed}
	for _, s := range all {
		if _, ok := transitions[s]; !ok {
			t.Errorf("state %s missing from the table", s)
		}
		if s != wasmexec.ContextDeleting && !canTransition(s, wasmexec.ContextDeleting) {
			t.Errorf("%s can't be deleted", s)
		}
	}
	for _, tc := range []struct {
		from, to wasmexec.ContextState
		ok       bool
	}{
		{wasmexec.ContextIdle, wasmexec.ContextRunning, true},
		{wasmexec.ContextRunning, wasmexec.ContextIdle, true},
		{wasmexec.ContextRunning, wasmexec.ContextResetting, true},
		{wasmexec.ContextRunning, wasmexec.ContextFailed, true},
		{wasmexec.ContextResetting, wasmexec.ContextIdle, true},
		{wasmexec.ContextFailed, wasmexec.ContextResetting, true},
		{wasmexec.ContextFailed, wasmexec.ContextRunning, false}, // runs in a failed context are refused
		{wasmexec.ContextFailed, wasmexec.ContextIdle, false},    // only a reset revives it
		{wasmexec.ContextResetting, wasmexec.ContextRunning, false},
		{wasmexec.ContextRunning, wasmexec.ContextRunning, false},
		{wasmexec.ContextDeleting, wasmexec.ContextIdle, false},
		{wasmexec.ContextDeleting, wasmexec.ContextDeleting, false},
	} {
		if got := canTransition(tc.from, tc.to); got != tc.ok {
			t.Errorf("%s → %s: %v, want %v", tc.from, tc.to, got, tc.ok)
		}
	}
	c := &execContext{id: "t", state: wasmexec.ContextFailed}
	if err := c.to(wasmexec.ContextRunning); err == nil || c.state != wasmexec.ContextFailed {
		t.Fatalf("illegal transition accepted: %v %s", err, c.state)
	}
}
