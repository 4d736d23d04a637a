// Package slottest checks, for npm and pip installs alike, that an install
// into a context holds the context's run slot: a run that arrives during
// the install waits behind it and then sees all of it, never half.
package slottest

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// InstallHoldsTheRunSlot runs install, which blocks (in its registry or
// index) until release is called and makes held true while it does; then
// starts run in the same context, checks it queues, releases the install,
// and checks the install succeeded and the run, after it, has value want.
func InstallHoldsTheRunSlot(t *testing.T, m *contexts.Manager, run *wasmexec.Request, held func() bool, release func(), install func() (wasmexec.Outcome, error), want string) {
	t.Helper()
	ctx := context.Background()
	installed := make(chan wasmexec.Outcome, 1)
	go func() {
		o, err := install()
		if err != nil {
			t.Error(err)
		}
		installed <- o
	}()
	poll.Until(t, time.Minute, "the install to download", held)
	ran := make(chan *wasmexec.Result, 1)
	go func() {
		r, err := m.Run(ctx, run)
		if err != nil {
			t.Error(err)
		}
		ran <- r
	}()
	poll.Until(t, time.Minute, "the run to queue behind the install", func() bool {
		d, err := m.Get(ctx, run.ContextID)
		return err == nil && d.Queued == 1
	})
	release()
	if o := <-installed; o != wasmexec.Succeeded {
		t.Fatalf("install: %q", o)
	}
	if r := <-ran; r == nil || r.Outcome != wasmexec.Succeeded || string(r.Value) != want {
		t.Fatalf("the run after the install: %+v", r)
	}
}
