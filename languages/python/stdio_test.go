package python_test

import (
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// WASI fd 1 and 2 are the run's stdout and stderr: os.write and C-level
// writes (faulthandler writes to the fileno of sys.stderr) land in the
// run's output in order with print(), and the standard streams have
// fileno() 1 and 2 and are no terminals.
func TestStdioFileDescriptors(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import errno, faulthandler, io, os, sys
print("a")
os.write(1, b"b\n")
sys.stdout.write("c\n")
print("d", end="", flush=True)
os.write(1, b"e\n")
os.write(2, b"err\n")
print("f", file=sys.stderr)
faulthandler.dump_traceback(all_threads=False)
try:
    os.pwrite(1, b"x", 0)
    pwrite = "wrote"
except OSError as e:
    pwrite = e.errno == errno.ESPIPE
try:
    sys.stdin.fileno()
    stdin = "fileno"
except io.UnsupportedOperation:
    stdin = "unsupported"
[sys.stdout.fileno(), sys.stderr.fileno(), sys.__stdout__.fileno(), sys.__stderr__.fileno(),
 sys.stdout.isatty(), os.isatty(1), os.isatty(2), pwrite, stdin]`})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if want := `[1,2,1,2,false,false,false,true,"unsupported"]`; string(res.Value) != want {
		t.Fatalf("value %s, want %s", res.Value, want)
	}
	if *res.Stdout != "a\nb\nc\nde\n" {
		t.Fatalf("stdout %q", *res.Stdout)
	}
	if !strings.HasPrefix(*res.Stderr, "err\nf\nStack (most recent call first):\n") {
		t.Fatalf("stderr %q", *res.Stderr)
	}

	// A descriptor closed by the code is an ordinary closed descriptor;
	// print() still reaches the run's stdout.
	res = MustRun(t, r, wasmexec.Request{Code: `
import errno, os
os.close(1)
try:
    os.write(1, b"lost\n")
    r = "wrote"
except OSError as e:
    r = e.errno == errno.EBADF
print("still here")
r`})
	wantOutcome(t, res, wasmexec.Succeeded, "")
	if string(res.Value) != "true" || *res.Stdout != "still here\n" {
		t.Fatalf("after os.close(1): %s stdout %q", res.Value, *res.Stdout)
	}
}

// A flood written to fd 1 or 2 directly is bounded by the output limit
// exactly as print() is.
func TestStdioFileDescriptorFlood(t *testing.T) {
	r := MustRunner(t)
	for _, tc := range []struct {
		name, code string
		stderr     bool
	}{
		{"fd 1", "import os\nwhile True:\n    os.write(1, b'x' * 1000)", false},
		{"fd 2", "import os\nwhile True:\n    os.write(2, b'x' * 1000)", true},
		{"fd 1, one huge write", "import os\nos.write(1, b'x' * (8 << 20))", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: tc.code, Limits: wasmexec.Limits{OutputBytes: 64 << 10}})
			wantOutcome(t, res, wasmexec.Failed, wasmexec.CodeOutputLimit)
			out, truncated := res.Stdout, res.StdoutTruncated
			if tc.stderr {
				out, truncated = res.Stderr, res.StderrTruncated
			}
			if !truncated || out == nil || len(*out) != 64<<10 {
				t.Fatalf("truncated=%v len=%d", truncated, len(*out))
			}
		})
	}
}
