package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
)

// The Python CPU section: a small fixed set of programs,
// each timed inside the interpreter (the fastest of five runs of work(),
// the figure least disturbed by other load on the machine; start-up and
// the HTTP round trip don't count), in
// the guest (fuel on, as every run) and in the machine's native CPython
// 3.11. The ratio guest/native is what build options (and engine options)
// of the Python guest change.
func init() {
	register("pycpu", benchPythonCPU)
}

// pyPrograms each define work(); names are in a fixed order.
var pyPrograms = []struct{ name, code string }{
	{"loop", `def work():
    s = 0
    for i in range(500_000):
        s += i * i % 7
    return s
`},
	{"fib", `def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def work():
    return fib(25)
`},
	{"nbody", `import math
def work():
    bodies = [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 39.47],
              [4.84, -1.16, -0.10, 0.60, 2.81, -0.02, 0.037],
              [8.34, 4.12, -0.40, -1.01, 1.82, 0.008, 0.011],
              [12.89, -15.11, -0.22, 1.08, 0.86, -0.01, 0.0017],
              [15.37, -25.91, 0.17, 0.97, 0.59, -0.03, 0.002]]
    for _ in range(8000):
        for i, a in enumerate(bodies):
            for b in bodies[i + 1:]:
                dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
                d2 = dx * dx + dy * dy + dz * dz
                mag = 0.01 / (d2 * math.sqrt(d2))
                a[3] -= dx * b[6] * mag; a[4] -= dy * b[6] * mag; a[5] -= dz * b[6] * mag
                b[3] += dx * a[6] * mag; b[4] += dy * a[6] * mag; b[5] += dz * a[6] * mag
        for a in bodies:
            a[0] += 0.01 * a[3]; a[1] += 0.01 * a[4]; a[2] += 0.01 * a[5]
    return bodies[0][0]
`},
	{"objects", `class Point:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
    def add(self, o):
        return Point(self.x + o.x, self.y + o.y)
def work():
    p = Point(0, 0)
    step = Point(1, 2)
    for _ in range(100_000):
        p = p.add(step)
    return p.x + p.y
`},
	{"strings", `def work():
    words = ("alpha beta gamma delta epsilon zeta eta theta " * 10000).split()
    counts = {}
    for w in words:
        counts[w.upper()] = counts.get(w.upper(), 0) + 1
    return len("-".join(sorted(counts))) + sum(counts.values())
`},
	{"json+re", `import json, re
def work():
    doc = {"items": [{"id": i, "name": "item%d" % i, "tags": ["a", "b"], "price": i * 0.5} for i in range(10000)]}
    s = json.dumps(doc)
    n = len(json.loads(s)["items"])
    return n + len(re.findall(r'"name": "item(\d+)"', s))
`},
}

const pyHarness = "import time\nts = []\nfor _ in range(5):\n    t0 = time.perf_counter(); work(); ts.append((time.perf_counter() - t0) * 1000)\n"

func benchPythonCPU(t *table, srv *server, _ string) error {
	if _, err := srv.post("/v1/evaluate", `{"language":"python","code":"1+1"}`); err != nil {
		t.add("python cpu", "skipped: "+firstLine(err.Error()), "")
		return nil
	}
	native := "python3.11"
	if _, err := exec.LookPath(native); err != nil {
		native = "python3"
	}
	logSum, n := 0.0, 0
	for _, p := range pyPrograms {
		body, _ := json.Marshal(map[string]any{"language": "python", "code": p.code + pyHarness + "min(ts)"})
		res, err := srv.post("/v1/evaluate", string(body))
		if err != nil {
			t.add("python cpu "+p.name, "error: "+err.Error(), "")
			continue
		}
		g, _ := strconv.ParseFloat(string(res.Value), 64)
		out, err := exec.Command(native, "-c", p.code+pyHarness+"print(min(ts))").Output()
		if err != nil {
			t.add("python cpu "+p.name+" (native)", "error: "+err.Error(), "")
			continue
		}
		nat, _ := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		if g <= 0 || nat <= 0 {
			continue
		}
		t.add(fmt.Sprintf("Python %s: guest / native %s (ms)", p.name, native), fmt.Sprintf("%.1f / %.1f = %.2fx", g, nat, g/nat), "report")
		logSum += math.Log(g / nat)
		n++
	}
	if n > 0 {
		t.add(fmt.Sprintf("Python guest/native CPU, geomean of %d programs", n), fmt.Sprintf("%.2fx", math.Exp(logSum/float64(n))), "report")
	}
	return nil
}
