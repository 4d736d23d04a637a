package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// The numpy section: the first `import numpy`, `import pandas` and
// `import matplotlib.pyplot` in a fresh guest, and four numpy kernels timed
// inside the interpreter (median of three runs of work(), after a warm-up
// run), in the guest and in the machine's native Python with Debian's
// python3-numpy, python3-pandas, python3-matplotlib. Skipped when the
// Python image has no numpy (an image built before numpy was part of it).
func init() {
	register("numpy", benchNumpy)
}

var numpyPrograms = []struct{ name, code string }{
	{"np.dot 200x200 float64", `import numpy as np
a = np.random.default_rng(1).random((200, 200)); b = a.T.copy()
def work():
    return float(np.dot(a, b)[0, 0])
`},
	{"np.linalg.solve 200x200", `import numpy as np
r = np.random.default_rng(2); a = r.random((200, 200)) + 200 * np.eye(200); y = r.random(200)
def work():
    return float(np.linalg.solve(a, y)[0])
`},
	{"np.fft.fft 2^16", `import numpy as np
x = np.random.default_rng(3).random(1 << 16)
def work():
    return float(abs(np.fft.fft(x)[1]))
`},
	{"default_rng(0).normal(1e6).sum()", `import numpy as np
def work():
    return float(np.random.default_rng(0).normal(size=10**6).sum())
`},
}

const numpyHarness = "import time\nwork()\nts = []\nfor _ in range(3):\n    t0 = time.perf_counter(); work(); ts.append((time.perf_counter() - t0) * 1000)\n"

// importCode times the import of mod inside the interpreter (ms).
func importCode(mod string) string {
	return "import time\nt0 = time.perf_counter()\nimport " + mod + "\nt = (time.perf_counter() - t0) * 1000\n"
}

func benchNumpy(t *table, srv *server, _ string) error {
	probe, err := srv.post("/v1/evaluate", `{"language":"python","code":"import importlib.util\nimportlib.util.find_spec('numpy') is not None"}`)
	if err != nil || strings.TrimSpace(string(probe.Value)) != "true" {
		t.add("numpy", "skipped: the Python image has no numpy (rebuild it: guest-images/build-cached.sh python)", "")
		return nil
	}
	// Debian's interpreter, which has Debian's python3-numpy (a python3.11
	// earlier on PATH, e.g. pyenv's, may not).
	native := "/usr/bin/python3"
	if _, err := exec.LookPath(native); err != nil {
		native = "python3"
	}
	nativeMs := func(code string) (float64, error) {
		out, err := exec.Command(native, "-c", code).Output()
		if err != nil {
			return 0, err
		}
		return strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	}
	guestMs := func(code string) (float64, error) {
		body, _ := json.Marshal(map[string]any{"language": "python", "code": code})
		res, err := srv.post("/v1/evaluate", string(body))
		if err != nil {
			return 0, err
		}
		return strconv.ParseFloat(strings.TrimSpace(string(res.Value)), 64)
	}
	ratio := func(label string, g, n float64, nerr error) {
		if nerr != nil || n <= 0 {
			t.add(label+" (ms)", fmt.Sprintf("%.1f (native: no numpy on the host)", g), "report")
			return
		}
		t.add(label+" guest / native (ms)", fmt.Sprintf("%.1f / %.1f = %.1fx", g, n, g/n), "report")
	}
	// Cold: each evaluate is a fresh guest from the snapshot.
	for _, mod := range []string{"numpy", "pandas", "matplotlib.pyplot"} {
		var gs []float64
		for i := 0; i < 3; i++ {
			g, err := guestMs(importCode(mod) + "t")
			if err != nil {
				t.add("import "+mod, "error: "+firstLine(err.Error()), "")
				break
			}
			gs = append(gs, g)
		}
		if len(gs) == 3 {
			n, nerr := nativeMs(importCode(mod) + "print(t)")
			ratio("import "+mod+" (fresh guest)", median(gs), n, nerr)
		}
	}
	for _, p := range numpyPrograms {
		g, err := guestMs(p.code + numpyHarness + "sorted(ts)[1]")
		if err != nil {
			t.add("numpy "+p.name, "error: "+firstLine(err.Error()), "")
			continue
		}
		n, nerr := nativeMs(p.code + numpyHarness + "print(sorted(ts)[1])")
		ratio(p.name, g, n, nerr)
	}
	return nil
}
