package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

func init() {
	register("modules", benchModules)
}

// benchModules measures JavaScript modules: a two-file ES module
// program run by filePath against the same code as one cell, npm installs
// cold and warm, and importing lodash in a context.
func benchModules(t *table, srv *server, _ string) error {
	files := `{"main.mjs": "import { f } from './lib.mjs';\nf(20)", "lib.mjs": "export const f = x => x + 22;\n"}`
	bodyFile := fmt.Sprintf(`{"language":"javascript","filePath":"main.mjs","files":%s}`, files)
	bodyCell := fmt.Sprintf(`{"language":"javascript","code":%q,"files":%s}`, "const f = x => x + 22;\nf(20)", files)
	for i := 0; i < 20; i++ {
		srv.post("/v1/evaluate", bodyFile)
		srv.post("/v1/evaluate", bodyCell)
	}
	// Alternated, so a change in the machine's load weighs on both alike.
	lat := srv.alternating("/v1/evaluate", []string{bodyFile, bodyCell}, *samples)
	file, cell := lat[0], lat[1]
	t.add("two-file ESM by filePath vs one cell, one-shot p50 (ms)", fmt.Sprintf("%.2f vs %.2f (%+.2f)", pct(file, 50), pct(cell, 50), pct(file, 50)-pct(cell, 50)), "≤ +1 ms")
	// Fuel is the guest's work, whatever the load.
	rf, errF := srv.post("/v1/evaluate", bodyFile)
	rc, errC := srv.post("/v1/evaluate", bodyCell)
	if errF == nil && errC == nil {
		t.add("two-file ESM by filePath vs one cell, guest fuel (M)", fmt.Sprintf("%.2f vs %.2f", float64(rf.FuelConsumed)/1e6, float64(rc.FuelConsumed)/1e6), "report")
	}

	// npm install of lodash + zod + dayjs: cold (the npm cache emptied
	// first, when the bench knows where it is) and warm.
	cold := "first (cache state unknown)"
	if dir := os.Getenv("WASMEXEC_CACHE_DIR"); dir != "" {
		os.RemoveAll(filepath.Join(dir, "npm"))
		cold = "cold"
	}
	install := `{"packages":["lodash@4.17.21","zod@3.23.8","dayjs@1.11.13"]}`
	for i, label := range []string{cold, "warm"} {
		id := fmt.Sprintf("bench-npm-%d", i)
		if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":"javascript"}`, id)); err != nil {
			return err
		}
		defer srv.delete("/v1/contexts/" + id)
		t0 := time.Now()
		if _, err := srv.post("/v1/contexts/"+id+"/npm/install", install); err != nil {
			t.add("npm install lodash + zod + dayjs", "skipped: "+firstLine(err.Error()), "")
			return nil
		}
		t.add(fmt.Sprintf("npm install lodash + zod + dayjs, %s (ms)", label), fmt.Sprintf("%.0f", float64(time.Since(t0).Microseconds())/1000), "report")
	}

	body := `{"language":"javascript","contextId":"bench-npm-1","code":"import _ from 'lodash';\n_.sum([1, 2, 3])"}`
	t0 := time.Now()
	if _, err := srv.post("/v1/evaluate", body); err != nil {
		return err
	}
	first := float64(time.Since(t0).Microseconds()) / 1000
	later := srv.latencies("/v1/evaluate", body, *samples)
	t.add("import _ from \"lodash\" in a context: first / later p50 (ms)", fmt.Sprintf("%.1f / %.2f", first, pct(later, 50)), "report")
	return nil
}
