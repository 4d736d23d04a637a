package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/wasmexec/wasmexec"
)

func init() {
	register("fuel", benchFuelRate)
}

// fuelPrograms are small kernels in the style of the "Are We Fast Yet?"
// benchmarks (recursion, arrays, object graphs and the GC, floating
// point, strings and maps, JSON, sorting), each a few hundred ms of guest
// CPU. Fuel counts wasm instructions, and how many run per CPU-second
// depends on the program (memory traffic, bulk copies counted as one
// instruction), so the rate is reported as a median and a range.
var fuelPrograms = map[wasmexec.Language][]struct{ name, code string }{
	wasmexec.JavaScript: {
		{"fib", `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(25)`},
		{"sieve", `let c = 0; for (let r = 0; r < 13; r++) { const f = new Array(5001).fill(true); c = 0
  for (let i = 2; i <= 5000; i++) if (f[i]) { c++; for (let k = i + i; k <= 5000; k += i) f[k] = false } } c`},
		{"towers", `let moves = 0; function hanoi(n, a, b, c) { if (n === 0) return; hanoi(n - 1, a, c, b); a.pop(); c.push(n); moves++; hanoi(n - 1, b, a, c) }
for (let r = 0; r < 1; r++) { const a = []; for (let i = 16; i > 0; i--) a.push(i); hanoi(16, a, [], []) } moves`},
		{"storage", `function tree(d) { return d === 0 ? new Array(4) : [tree(d - 1), tree(d - 1), tree(d - 1), tree(d - 1)] }
let n = 0; for (let r = 0; r < 12; r++) n += tree(6).length; n`},
		{"nbody", `let x = 0.1, y = 0.2, vx = 0, vy = 0; for (let i = 0; i < 30000; i++) { const r = Math.sqrt(x * x + y * y) + 0.01; vx -= x / (r * r * r) * 1e-4; vy -= y / (r * r * r) * 1e-4; x += vx; y += vy } x + y`},
		{"strings-maps", `const m = new Map(); for (let i = 0; i < 60000; i++) { const k = "key" + (i % 997); m.set(k, (m.get(k) || "") .length + i) } m.size`},
		{"json", `const o = []; for (let i = 0; i < 2000; i++) o.push({ id: i, name: "n" + i, tags: ["a", "b"], v: i / 3 })
let s = 0; for (let r = 0; r < 4; r++) s += JSON.parse(JSON.stringify(o)).length; s`},
		{"sort", `let s = 1; const a = []; for (let i = 0; i < 10000; i++) { s = (s * 16807) % 2147483647; a.push(s) } a.sort((p, q) => p - q); a[0]`},
	},
	wasmexec.Python: {
		{"fib", "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nfib(28)"},
		{"sieve", "c = 0\nfor r in range(60):\n    f = [True] * 5001\n    c = 0\n    for i in range(2, 5001):\n        if f[i]:\n            c += 1\n            for k in range(i + i, 5001, i):\n                f[k] = False\nc"},
		{"towers", "moves = 0\ndef hanoi(n, a, b, c):\n    global moves\n    if n == 0:\n        return\n    hanoi(n - 1, a, c, b)\n    c.append(a.pop())\n    moves += 1\n    hanoi(n - 1, b, a, c)\nhanoi(18, list(range(18, 0, -1)), [], [])\nmoves"},
		{"storage", "def tree(d):\n    return [None] * 4 if d == 0 else [tree(d - 1) for _ in range(4)]\nsum(len(tree(6)) for _ in range(40))"},
		{"nbody", "import math\nx, y, vx, vy = 0.1, 0.2, 0.0, 0.0\nfor i in range(150000):\n    r = math.sqrt(x * x + y * y) + 0.01\n    vx -= x / (r * r * r) * 1e-4\n    vy -= y / (r * r * r) * 1e-4\n    x += vx\n    y += vy\nx + y"},
		{"strings-dicts", "d = {}\nfor i in range(150000):\n    k = 'key' + str(i % 997)\n    d[k] = d.get(k, 0) + i\nlen(d)"},
		{"json", "import json\no = [{'id': i, 'name': 'n' + str(i), 'tags': ['a', 'b'], 'v': i / 3} for i in range(2000)]\nsum(len(json.loads(json.dumps(o))) for _ in range(15))"},
		{"sort", "s, a = 1, []\nfor i in range(200000):\n    s = (s * 16807) % 2147483647\n    a.append(s)\na.sort()\na[0]"},
	},
}

// benchFuelRate measures the fuel the server's guests burn per CPU-second
// (fuelConsumed over the server's CPU for the request, less an empty
// request's) on fuelPrograms, and what the default fuel is in CPU-seconds
// at the median rate: wasmexec.FuelPerSecond is meant to make it 10. Per
// wall-second (durationMs) is shown too: on a shared machine it is much
// lower, and it is not what the limit means.
func benchFuelRate(t *table, srv *server, _ string) error {
	var all []float64
	for _, lang := range []wasmexec.Language{wasmexec.JavaScript, wasmexec.Python} {
		empty, _ := json.Marshal(map[string]any{"language": lang, "code": "0"})
		if _, err := srv.post("/v1/evaluate", string(empty)); err != nil {
			t.add(fmt.Sprintf("%s fuel rate", lang), "skipped: "+firstLine(err.Error()), "")
			continue
		}
		var base []float64
		for i := 0; i < 3; i++ {
			ms, _, err := srv.requestCPU(string(empty))
			if err != nil {
				return err
			}
			base = append(base, ms)
		}
		var rates, wall []float64
		var each []string
		for _, p := range fuelPrograms[lang] {
			body, _ := json.Marshal(map[string]any{"language": lang, "code": p.code})
			var rs []float64
			for i := 0; i < 2; i++ {
				ms, res, err := srv.requestCPU(string(body))
				if err != nil {
					return fmt.Errorf("%s %s: %w", lang, p.name, err)
				}
				if cpu := ms - pct(base, 50); cpu > 0 {
					rs = append(rs, float64(res.FuelConsumed)/(cpu/1000))
				}
				wall = append(wall, float64(res.FuelConsumed)/(res.DurationMs/1000))
			}
			if len(rs) > 0 {
				r := pct(rs, 50)
				rates = append(rates, r)
				each = append(each, fmt.Sprintf("%s %.1f", p.name, r/1e9))
			}
		}
		if len(rates) == 0 {
			continue
		}
		all = append(all, rates...)
		sort.Float64s(rates)
		t.add(fmt.Sprintf("%s fuel per CPU-second, median (range) over %d programs; per wall-second", lang, len(rates)), fmt.Sprintf("%.2g (%.2g–%.2g); %.2g", pct(rates, 50), rates[0], rates[len(rates)-1], pct(wall, 50)), "report")
		t.add(fmt.Sprintf("%s fuel per CPU-second by program (1e9)", lang), strings.Join(each, ", "), "report")
	}
	if len(all) > 0 {
		m := pct(all, 50)
		t.add("default fuel in CPU-seconds at the median rate", fmt.Sprintf("%.1f (%.3g units / %.2g per s; wasmexec.FuelPerSecond %.2g)", float64(wasmexec.DefaultLimits().Fuel)/m, float64(wasmexec.DefaultLimits().Fuel), m, float64(wasmexec.FuelPerSecond)), "≈ 20")
	}
	return nil
}
