package js_test

import (
	"context"
	"encoding/json"
	"testing"

	wexec "github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/npm"
)

// mathjs is the largest first load of the corpus (typed-function builds
// and sorts the signatures of ~700 functions when it loads, ~50 G fuel;
// its live heap ends near 70 MiB): as a one-shot run with packages it
// loads and answers within the server's default fuel, memory and timeout
// (docs/RATIONALE.md, "The default fuel" and "mathjs in 256 MiB").
func TestMathjsLoadsWithinDefaultLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("short: the test installs mathjs from the registry")
	}
	skipUnlessRegistry(t, "mathjs")
	r := testenv.Runner(t, testenv.RunnerConfig{
		Policy:    wexec.DefaultPolicy(),
		Images:    map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		Languages: map[wexec.Language]wexec.LanguageDriver{wexec.JavaScript: js.Driver{Packages: &npm.Client{CacheDir: corpusCache(t)}}},
	})
	req := &wexec.Request{
		Kind: wexec.KindEvaluate, Language: wexec.JavaScript,
		Code:     `require('mathjs').evaluate('sqrt(16)+2')`,
		Packages: []string{"mathjs@13.1.1"}, // the corpus's version
	}
	res, err := r.Run(context.Background(), req, wexec.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fuel %.1f G of the default %.0f G, %.0f ms, memory limit %d MiB", float64(res.FuelConsumed)/1e9, float64(wexec.DefaultLimits().Fuel)/1e9, res.DurationMs, wexec.DefaultLimits().MemoryBytes>>20)
	if res.Outcome != wexec.Succeeded {
		t.Fatalf("%s %+v", res.Outcome, res.Error)
	}
	var v float64
	if err := json.Unmarshal(res.Value, &v); err != nil || v != 6 {
		t.Fatalf("value %s (%v), want 6", res.Value, err)
	}
}
