package ts

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// workerEnv makes the test binary act as a transpile worker (TestMain).
const workerEnv = "WASMEXEC_TS_TEST_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		if err := WorkerMain(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testWorkers(t *testing.T, cmd []string, timeout time.Duration) *Workers {
	t.Helper()
	if cmd == nil {
		t.Setenv(workerEnv, "1")
		cmd = []string{os.Args[0]}
	}
	w := NewWorkers(cmd, 2, timeout)
	t.Cleanup(w.Close)
	return w
}

func TestWorkersTranspileLikeInProcess(t *testing.T) {
	w := testWorkers(t, nil, 10*time.Second)
	code := "interface P { x: number }\nconst p: P = { x: 41 }\np.x + 1\n"
	want, err := Transpile(code, "main.ts")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ { // the worker is reused
		got, err := w.Transpile(context.Background(), code, "main.ts")
		if err != nil {
			t.Fatal(err)
		}
		if got.JS != want.JS || string(got.SourceMap) != string(want.SourceMap) || got.Filename != want.Filename {
			t.Fatalf("worker output differs:\n%q\n%q", got.JS, want.JS)
		}
	}
	_, err = w.Transpile(context.Background(), "const s = \"😀\" +;", "main.ts")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Column != 17 {
		t.Fatalf("syntax error through a worker: %#v", err)
	}
}

// A worker that dies or hangs costs only its request.
func TestWorkersCrashAndHang(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  []string
	}{
		{"dies", []string{"sh", "-c", "exit 3"}},
		{"hangs", []string{"sleep", "30"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := testWorkers(t, tc.cmd, 300*time.Millisecond)
			start := time.Now()
			_, err := w.Transpile(context.Background(), "1 + 1", "main.ts")
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SyntaxError saying the code could not be transpiled", err)
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
		})
	}
}
