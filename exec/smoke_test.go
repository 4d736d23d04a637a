package exec

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSmokeJS(t *testing.T) {
	e, err := NewEngine(EngineConfig{CacheDir: filepath.Join(os.Getenv("HOME"), ".cache/wasmexec")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	img, err := e.LoadImage(context.Background(), "../build/images/js")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		t0 := time.Now()
		g, err := img.Start(context.Background(), GuestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		out := NewOutput(CaptureAll, 1<<20, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		r := g.Call(ctx, CallInput{Payload: []byte(`{"op":"evaluate","code":"console.log('hi'); 1+1"}`), Fuel: 1e10, Output: out})
		cancel()
		var res Result
		out.fill(&res)
		t.Logf("start %v call %v: %s %+v stdout=%q", t1.Sub(t0), time.Since(t1), r.Response, r, *res.Stdout)
		g.Close()
	}
}
