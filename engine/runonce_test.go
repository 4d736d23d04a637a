package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

var onePlusOne = []byte(`{"op":"evaluate","code":"1+1","filename":"main.js"}`)

// A guest instantiated ahead of its run (a pool keeps them) may wait any
// time: RunOnce bounds the driver's start-up by the run's ctx, not by the
// start timeout counted from the instantiation.
func TestRunOnceStartupBelongsToTheRun(t *testing.T) {
	img := testenv.Image(t, "js")
	g, err := engine.Instantiate(img, engine.GuestOptions{StartTimeout: time.Nanosecond, Workspace: testenv.ScratchDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := g.RunOnce(ctx, wasmexec.CallInput{Payload: onePlusOne, Fuel: wasmexec.DefaultLimits().Fuel, Output: wasmexec.NewOutput(wasmexec.CaptureAll, 1<<10, nil)})
	if res.Response == nil {
		t.Fatalf("no reply: %s %+v", res.Outcome, res.Error)
	}
	if g.Alive() {
		t.Fatal("a guest is dead after RunOnce")
	}
	// A second request finds the guest gone.
	if res := g.RunOnce(ctx, wasmexec.CallInput{Payload: onePlusOne, Fuel: 1e9, Output: wasmexec.NewOutput(wasmexec.CaptureAll, 1<<10, nil)}); res.Response != nil || !res.Died {
		t.Fatalf("second RunOnce = %+v, want a dead guest", res)
	}
}

// A run whose ctx has ended before the driver starts is reported as such.
func TestRunOnceCancelledBeforeStart(t *testing.T) {
	img := testenv.Image(t, "js")
	g, err := engine.Instantiate(img, engine.GuestOptions{Workspace: testenv.ScratchDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := g.RunOnce(ctx, wasmexec.CallInput{Payload: onePlusOne, Fuel: 1e9, Output: wasmexec.NewOutput(wasmexec.CaptureAll, 1<<10, nil)})
	if res.Outcome != wasmexec.Cancelled {
		t.Fatalf("outcome %s, want cancelled", res.Outcome)
	}
}

// Closing a guest that was instantiated and never run frees it at once.
func TestCloseNeverStartedGuest(t *testing.T) {
	img := testenv.Image(t, "js")
	e := testenv.Engine(t)
	before := e.LiveGuests()
	g, err := engine.Instantiate(img, engine.GuestOptions{Workspace: testenv.ScratchDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Alive() {
		t.Fatal("an instantiated guest is alive")
	}
	g.Close()
	select {
	case <-g.Done():
	default:
		t.Fatal("Done is open after Close")
	}
	if n := e.LiveGuests(); n > before {
		t.Fatalf("%d live guests after Close, %d before", n, before)
	}
}
