// Command testworker runs ts.WorkerMain. The package's tests build it
// without the race detector when they themselves run with -race: a
// race-instrumented worker runs esbuild several times slower and cannot
// take an RLIMIT_DATA. Production workers are `wasmexec ts-transpile-worker`.
package main

import (
	"fmt"
	"os"

	"github.com/wasmexec/wasmexec/languages/ts"
)

func main() {
	if err := ts.WorkerMain(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ts-transpile worker:", err)
		os.Exit(1)
	}
}
