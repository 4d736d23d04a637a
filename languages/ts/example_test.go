package ts_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec/languages/ts"
)

// A transpile that would never finish (esbuild backtracks exponentially
// over these ternaries) is stopped by its timeout: the request fails with
// transpile_failed, and a fresh worker serves the next one.
func ExampleWorkers_Transpile_timeout() {
	w, err := ts.NewWorkers(ts.WorkersConfig{
		// In the server: [os.Executable(), "ts-transpile-worker"]. Here the
		// test binary, whose TestMain runs ts.WorkerMain.
		Command: []string{os.Args[0]},
		Env:     []string{"WASMEXEC_TS_TEST_WORKER=1"},
		Size:    1,
		Timeout: 2 * time.Second, // generous: a loaded machine starts the next worker slowly
	})
	if err != nil {
		panic(err)
	}
	defer w.Close()
	ctx := context.Background()
	if err := w.Start(ctx); err != nil {
		panic(err)
	}

	_, err = w.Transpile(ctx, strings.Repeat("a ? (b): c => ", 30)+"1", "main.ts")
	var te *ts.TranspileError
	if errors.As(err, &te) {
		fmt.Println(te.ErrorData().Code, te.Reason)
	}

	p, err := w.Transpile(ctx, "const n: number = 41;\nn + 1", "main.ts")
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.TrimSpace(p.JS))
	// Output:
	// transpile_failed timeout
	// const n = 41;
	// n + 1;
}
