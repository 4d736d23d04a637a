package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/languages/python"
)

// Every clock a guest can ask for answers (clock_time_get is ours, in C):
// realtime is the wall clock, the monotonic and CPU-time clocks are the
// host's monotonic clock, and a sleep (poll_oneoff, ours, in Go) is
// measured by it.
func TestGuestClocks(t *testing.T) {
	r := testenv.Runner(t, testenv.RunnerConfig{
		Images: map[string]*engine.Image{
			js.ImageName:     testenv.Image(t, js.ImageName),
			python.ImageName: testenv.Image(t, python.ImageName),
		},
		Languages: map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{}, wasmexec.Python: python.Driver{}},
		PoolSize:  -1,
	})
	for _, tt := range []struct {
		name string
		lang wasmexec.Language
		code string
	}{
		{"js", wasmexec.JavaScript, `const t0 = Date.now(); await new Promise(r => setTimeout(r, 30));
[t0 > 1.7e12, Date.now() - t0 >= 29]`},
		{"python", wasmexec.Python, `import time
t0, m0, p0 = time.time(), time.monotonic(), time.process_time()
time.sleep(0.03)
[t0 > 1.7e9, time.monotonic() - m0 >= 0.029, time.process_time() >= p0, time.perf_counter() > 0]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Language: tt.lang, Code: tt.code})
			if res.Outcome != wasmexec.Succeeded {
				t.Fatalf("outcome %s: %+v", res.Outcome, res.Error)
			}
			var got []bool
			if err := json.Unmarshal(res.Value, &got); err != nil {
				t.Fatalf("value %s: %v", res.Value, err)
			}
			for i, ok := range got {
				if !ok {
					t.Errorf("check %d failed: %s", i, res.Value)
				}
			}
		})
	}
}
