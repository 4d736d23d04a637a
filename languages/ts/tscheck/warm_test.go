package tscheck

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// dom is warmed in the background once a worker is ready: a check that
// arrives meanwhile is served at once (the warm-up yields to it, keeping
// what it parsed, and resumes when the worker is idle), and once the
// warm-up is done the first dom check is fast and right.
func TestBackgroundWarmDom(t *testing.T) {
	p := MustStartPool(t, PoolConfig{Size: 1, BackgroundLibs: [][]string{{"es2022", "dom"}}})

	for i := 0; i < 3; i++ { // each one preempts the warm-up
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res, err := p.Check(ctx, Request{Code: "export const x: number = \"1\";\nconsole.log(inputs);\n"})
		cancel()
		if err != nil || res.Outcome != "succeeded" || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != 2322 {
			t.Fatalf("check %d during the warm-up: %+v, %v", i, res, err)
		}
	}

	poll.Until(t, 5*time.Minute, "dom warmed in the background", func() bool { return p.warmed.Load() >= 1 })

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := p.Check(ctx, Request{
		Code:            "document.body.innerHTML = 1;\nsetTimeout(() => window.alert(String(inputs)), 1);\n",
		CompilerOptions: CompilerOptions{Lib: []string{"es2022", "dom"}},
		Timeout:         5 * time.Second,
	})
	if err != nil || res.Outcome != "succeeded" || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != 2322 {
		t.Fatalf("dom check after the warm-up: %+v, %v", res, err)
	}
}
