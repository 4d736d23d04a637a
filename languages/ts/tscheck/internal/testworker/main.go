// Command testworker runs tscheck.WorkerMain. The package's tests build it
// without the race detector when they themselves run with -race: a
// race-instrumented worker runs the compiler ~10x slower and cannot take an
// RLIMIT_DATA (the detector's shadow mappings count against it). Production
// workers are `wasmexec tscheck-worker`.
package main

import (
	"fmt"
	"os"

	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
)

func main() {
	if err := tscheck.WorkerMain(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tscheck worker:", err)
		os.Exit(1)
	}
}
