package main

import (
	"fmt"

	"github.com/wasmexec/wasmexec"
)

func init() {
	register("output", benchOutput)
}

// benchOutput measures what one line of output costs a run: the same loop
// of outputLines iterations with and without printing a short line, as
// one-shot evaluations (output captured, and with events retained).
func benchOutput(t *table, srv *server, _ string) error {
	const outputLines = 10000
	for _, lang := range []struct{ name, quiet, loud string }{
		{"javascript",
			fmt.Sprintf(`let s = 0; for (let i = 0; i < %d; i++) { s += i } s`, outputLines),
			fmt.Sprintf(`let s = 0; for (let i = 0; i < %d; i++) { s += i; console.log("line", i) } s`, outputLines)},
		{"python",
			fmt.Sprintf("s = 0\nfor i in range(%d):\n    s += i\ns", outputLines),
			fmt.Sprintf("s = 0\nfor i in range(%d):\n    s += i\n    print('line', i)\ns", outputLines)},
	} {
		for _, retain := range []bool{false, true} {
			body := func(code string) string {
				return fmt.Sprintf(`{"language":%q,"code":%q,"output":{"retainEvents":%v}}`, lang.name, code, retain)
			}
			quiet, loud := body(lang.quiet), body(lang.loud)
			rl, err := srv.post("/v1/evaluate", loud)
			if err != nil || rl.Outcome != "succeeded" {
				return fmt.Errorf("%s output loop: %v %+v", lang.name, err, rl)
			}
			rq, err := srv.post("/v1/evaluate", quiet)
			if err != nil || rq.Outcome != "succeeded" {
				return fmt.Errorf("%s quiet loop: %v %+v", lang.name, err, rq)
			}
			// The guest's own share (the language's console.log/print),
			// from fuel: the same on a loaded machine.
			guestUs := float64(rl.FuelConsumed-rq.FuelConsumed) / outputLines / wasmexec.FuelPerSecond * 1e6
			// Interleaved, so both see the same machine noise.
			var q, l []float64
			for i := 0; i < 15; i++ {
				q = append(q, srv.latencies("/v1/evaluate", quiet, 1)...)
				l = append(l, srv.latencies("/v1/evaluate", loud, 1)...)
			}
			perLine := (pct(l, 50) - pct(q, 50)) * 1000 / outputLines // ms → µs
			what := "captured"
			if retain {
				what = "captured + events retained"
			}
			t.add(fmt.Sprintf("%s cost of one output line, %s (µs; %d lines: %.1f vs %.1f ms)", lang.name, what, outputLines, pct(l, 50), pct(q, 50)),
				fmt.Sprintf("%.2f (guest code %.2f, output path %.2f)", perLine, guestUs, perLine-guestUs), "≤ 2 µs")
		}
	}
	return nil
}
