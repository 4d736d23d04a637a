package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func init() {
	register("python", benchPython)
	register("ts", benchTypeScript)
}

const pyLoop = "def work():\n    s = 0\n    for i in range(2_000_000):\n        s += i * i % 7\n    return s\n"

func benchPython(t *table, srv *server, _ string) error {
	if _, err := srv.post("/v1/evaluate", `{"language":"python","code":"1+1"}`); err != nil {
		t.add("python", "skipped: "+firstLine(err.Error()), "")
		return nil
	}
	benchLanguage(t, srv, "python", "1+1", "≤ 30 ms p50", "report")

	// Guest CPU: the same pure-Python loop in the guest (durationMs of the
	// run minus an empty run) and in the machine's native python3.
	var guest []float64
	for i := 0; i < 3; i++ {
		body, _ := json.Marshal(map[string]any{"language": "python", "code": pyLoop + "import time\nt0 = time.perf_counter()\nwork()\n(time.perf_counter() - t0) * 1000"})
		res, err := srv.post("/v1/evaluate", string(body))
		if err != nil {
			return err
		}
		ms, _ := strconv.ParseFloat(string(res.Value), 64)
		guest = append(guest, ms)
	}
	out, err := exec.Command("python3", "-c", pyLoop+"import time\nts = []\nfor _ in range(3):\n    t0 = time.perf_counter(); work(); ts.append((time.perf_counter() - t0) * 1000)\nprint(sorted(ts)[1])").Output()
	if err != nil {
		t.add("native python3 loop", "error: "+err.Error(), "")
		return nil
	}
	native, _ := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	g := pct(guest, 50)
	t.add("Python loop: guest (fuel on) / native python3 (ms)", fmt.Sprintf("%.0f / %.0f", g, native), "report")
	t.add("Python guest CPU ratio vs native CPython", fmt.Sprintf("%.2fx", g/native), "≤ 8x")
	return nil
}

// tsFile is a ~30-line file for the checker benchmark.
const tsFile = `interface User { id: number; name: string; email?: string; roles: Role[] }
type Role = "admin" | "editor" | "viewer";
enum Level { Low = 1, Mid, High }
function can(user: User, role: Role): boolean {
  return user.roles.includes(role);
}
class Registry<T extends { id: number }> {
  private items = new Map<number, T>();
  add(item: T): this { this.items.set(item.id, item); return this; }
  get(id: number): T | undefined { return this.items.get(id); }
  all(): T[] { return [...this.items.values()]; }
}
const reg = new Registry<User>();
reg.add({ id: 1, name: "ada", roles: ["admin"] }).add({ id: 2, name: "bob", roles: [] });
const admins = reg.all().filter((u) => can(u, "admin"));
function level(n: number): Level {
  if (n > 10) return Level.High;
  if (n > 5) return Level.Mid;
  return Level.Low;
}
async function load(ids: number[]): Promise<Array<User | undefined>> {
  return ids.map((id) => reg.get(id));
}
const total: number = admins.length + level(7);
const wrong: string = total;
export { load, total, wrong };
`

func benchTypeScript(t *table, srv *server, _ string) error {
	check := func(libs []string) string {
		b, _ := json.Marshal(map[string]any{"code": tsFile, "compilerOptions": map[string]any{"strict": true, "lib": libs}})
		return string(b)
	}
	if _, err := srv.post("/v1/typescript/check", check([]string{"es2022"})); err != nil {
		t.add("typescript check", "skipped: "+firstLine(err.Error()), "")
		return nil
	}
	for _, libs := range [][]string{{"es2022"}, {"es2022", "dom"}} {
		for i := 0; i < 5; i++ { // warm (the first dom check parses lib.dom.d.ts)
			srv.post("/v1/typescript/check", check(libs))
		}
		lat := srv.latencies("/v1/typescript/check", check(libs), 40)
		t.add(fmt.Sprintf("TS warm check of a 30-line file over HTTP, lib %s, p50 / p95 (ms)", strings.Join(libs, "+")), fmt.Sprintf("%.1f / %.1f", pct(lat, 50), pct(lat, 95)), "≤ 150 ms p50")
	}
	lat := srv.latencies("/v1/typescript/check", check([]string{"es2022"}), 40)
	if f, err := os.CreateTemp("", "bench-*.ts"); err == nil {
		f.WriteString(tsFile)
		f.Close()
		defer os.Remove(f.Name())
		out, err := exec.Command("node", filepath.Join("guest-images", "typescript", "bench-node.js"), filepath.Join(*imagesDir, "typescript"), f.Name(), "--json").Output()
		var node struct {
			P50Ms float64 `json:"p50Ms"`
		}
		if err == nil && json.Unmarshal(out, &node) == nil && node.P50Ms > 0 {
			t.add("TS warm check: wasmexec over HTTP / node tsc API in-process (ms, p50)", fmt.Sprintf("%.1f / %.1f (%.1fx)", pct(lat, 50), node.P50Ms, pct(lat, 50)/node.P50Ms), "report")
		} else {
			t.add("node tsc baseline", fmt.Sprintf("unavailable: %v %s", err, firstLine(string(out))), "")
		}
	}
	jsBody := `{"language":"javascript","code":"const xs = [1, 2, 3]; xs.map((x) => x * 2).reduce((a, b) => a + b, 0)"}`
	tsBody := `{"language":"typescript","code":"const xs: number[] = [1, 2, 3]; xs.map((x: number): number => x * 2).reduce((a: number, b: number) => a + b, 0)"}`
	js := srv.latencies("/v1/evaluate", jsBody, *samples)
	ts := srv.latencies("/v1/evaluate", tsBody, *samples)
	t.add("small snippet one-shot p50: TypeScript / JavaScript (ms)", fmt.Sprintf("%.2f / %.2f (+%.2f)", pct(ts, 50), pct(js, 50), pct(ts, 50)-pct(js, 50)), "TS within 1 ms of JS")
	return nil
}
