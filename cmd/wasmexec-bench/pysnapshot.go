package main

import (
	"encoding/json"
	"fmt"
	"time"
)

// The Python snapshot section: the snapshotted CPython guest
// against the JavaScript guest in the same run, back to back (no pacing:
// the pre-started pool can't refill between requests).
func init() {
	register("pysnapshot", benchPythonSnapshot)
}

func benchPythonSnapshot(t *table, srv *server, _ string) error {
	py := `{"language":"python","code":"1+1"}`
	js := `{"language":"javascript","code":"1+1"}`
	imports := `{"language":"python","code":"import json, re, datetime, collections\n1+1"}`
	if _, err := srv.post("/v1/evaluate", py); err != nil {
		t.add("python snapshot", "skipped: "+firstLine(err.Error()), "")
		return nil
	}
	for i := 0; i < 20; i++ {
		srv.post("/v1/evaluate", py)
		srv.post("/v1/evaluate", js)
		srv.post("/v1/evaluate", imports)
	}
	n := *samples
	pyP50 := pct(srv.latencies("/v1/evaluate", py, n), 50)
	jsP50 := pct(srv.latencies("/v1/evaluate", js, n), 50)
	// The imports against 1+1 alternate (both Python, back to back as
	// above), so a change in the machine's load weighs on both alike.
	alt := srv.alternating("/v1/evaluate", []string{imports, py}, n)
	impMinus := pct(alt[0], 50) - pct(alt[1], 50)
	t.add(`python / javascript one-shot "1+1" back to back p50 (ms)`, fmt.Sprintf("%.2f / %.2f", pyP50, jsP50), "python ≤ 1.5 ms")
	t.add("python / javascript one-shot p50 ratio", fmt.Sprintf("%.2fx", pyP50/jsP50), "≤ 1.5x")
	t.add(`python "import json, re, datetime, collections" minus "1+1" p50 (ms)`, fmt.Sprintf("%.2f", impMinus), "≤ 0.3 ms")
	// Fuel is the guest's work, whatever the load: the modules are in the
	// snapshot, so the import line costs what any line does.
	if a, err := srv.post("/v1/evaluate", imports); err == nil {
		if b, err := srv.post("/v1/evaluate", py); err == nil {
			t.add(`python "import json, re, datetime, collections" minus "1+1" fuel`, fmt.Sprintf("%d", int64(a.FuelConsumed)-int64(b.FuelConsumed)), "report")
		}
	}

	// Throughput in alternating rounds, so the machine's drifting load
	// falls on both languages alike; the ratio is the median of the
	// rounds' ratios.
	var pyT, jsT, ratio []float64
	for range 3 {
		p := srv.throughput("/v1/evaluate", py, 4, *duration).rate
		j := srv.throughput("/v1/evaluate", js, 4, *duration).rate
		pyT, jsT, ratio = append(pyT, p), append(jsT, j), append(ratio, p/j)
	}
	t.add("python / javascript one-shot throughput at c=4 (req/s, medians of 3 alternating rounds)", fmt.Sprintf("%.0f / %.0f (%.2fx)", pct(pyT, 50), pct(jsT, 50), pct(ratio, 50)), "≥ 0.6x")

	// Fuel of a one-shot 1+1 (the guest's whole request, start excluded).
	if b, err := srv.postStatus("/v1/evaluate", py); err == nil {
		var r struct {
			FuelConsumed uint64 `json:"fuelConsumed"`
		}
		if json.Unmarshal(b, &r) == nil {
			t.add(`python one-shot "1+1" fuel`, fmt.Sprintf("%d", r.FuelConsumed), "report")
		}
	}

	// A fresh context and its first evaluate.
	var lat []float64
	for i := 0; i < min(n, 50); i++ {
		id := fmt.Sprintf("pysnap-%d", i)
		t0 := time.Now()
		if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":"python"}`, id)); err != nil {
			return err
		}
		if _, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":"python","contextId":%q,"code":"1+1"}`, id)); err != nil {
			return err
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
		srv.delete("/v1/contexts/" + id)
	}
	t.add(`python create context + evaluate "1+1" p50 (ms)`, fmt.Sprintf("%.2f", pct(lat, 50)), "≤ 3 ms")
	return nil
}
