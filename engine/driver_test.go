package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/pipeline"
)

// An image added after the driver started is served like the others, with
// its pool; before, the driver's Missing says why it isn't there.
func TestDriverAddImage(t *testing.T) {
	building := wasmexec.Errorf(wasmexec.EUnavailable, "still being built")
	for _, tc := range []struct {
		name    string
		missing func(string) error
		want    error
	}{
		{"default", nil, nil},
		{"missing says why", func(string) error { return building }, building},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := engine.NewDriver(engine.DriverConfig{Workspaces: testenv.Workspaces(t), PoolSize: 1, Missing: tc.missing})
			defer d.Close()
			_, err := d.Image(js.ImageName)
			if wasmexec.ErrorCode(err) != wasmexec.EUnavailable || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("before: %v, want unavailable (%v)", err, tc.want)
			}
			img := testenv.Image(t, js.ImageName)
			if !d.AddImage(js.ImageName, img) || d.AddImage(js.ImageName, img) {
				t.Fatal("AddImage: want true once, then false")
			}
			if f, err := d.Image(js.ImageName); err != nil || f.Name != js.ImageName {
				t.Fatalf("after: %+v %v", f, err)
			}
			g, err := d.Guest(context.Background(), pipeline.GuestSpec{Image: js.ImageName, MemoryBytes: wasmexec.DefaultPolicy().Default.MemoryBytes})
			if err != nil {
				t.Fatal(err)
			}
			g.Close()
		})
	}
}
