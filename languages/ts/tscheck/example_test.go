package tscheck_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/wasmexec/wasmexec/languages/ts/tscheck"
)

// A server wires `wasmexec tscheck-worker` to tscheck.WorkerMain and keeps a
// pool of workers; each check is one call.
func ExamplePool_Check() {
	if len(os.Args) > 1 && os.Args[1] == "tscheck-worker" {
		if err := tscheck.WorkerMain(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}

	pool, err := tscheck.NewPool(tscheck.PoolConfig{
		Size:          2,
		WorkerCommand: []string{os.Args[0], "tscheck-worker"},
		ImageDir:      "build/images/typescript",
		PrewarmLibs:   [][]string{{"es2022"}, {"es2022", "dom"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	if err := pool.Start(context.Background()); err != nil {
		log.Fatal(err)
	}

	strict := true
	res, err := pool.Check(context.Background(), tscheck.Request{
		Code:            `const n: number = "one";`,
		CompilerOptions: tscheck.CompilerOptions{Strict: &strict},
		Timeout:         5 * time.Second,
	})
	if err != nil {
		log.Fatal(err) // *exec.Error: invalid_argument, payload_too_large, unavailable
	}
	for _, d := range res.Diagnostics {
		fmt.Printf("%s(%d,%d): %s TS%d: %s\n", d.FilePath, d.Line, d.Column, d.Category, d.Code, d.Message)
	}
	// /main.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.
}
