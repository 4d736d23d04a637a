// Package workertest picks how a package's tests start its worker
// processes: the test binary itself (re-executed with an environment
// variable that makes its TestMain run the worker), or — when the tests run
// with -race — a build of a small worker command without -race, because a
// race-instrumented worker runs ~10x slower and cannot take an RLIMIT_DATA
// (the detector's shadow mappings count against it).
package workertest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
)

// Setup is how tests start workers.
type Setup struct {
	// Command and Env start one worker.
	Command []string
	Env     []string
	// Note says which of the two it is, for failure messages.
	Note string
	// MemoryCapApplies is false when the workers are race-instrumented and
	// so do not take their memory cap.
	MemoryCapApplies bool
}

// ModeEnv set to "self" forces the re-executed test binary even under
// -race.
const ModeEnv = "WASMEXEC_TEST_WORKER_MODE"

// Choose returns the setup for a test binary built with race (the
// package's own race flag). selfEnv is the "KEY=value" that makes the test
// binary act as a worker; pkg is the import path of the worker command
// built when race is on, under name in the user cache (a stable path per
// checkout lets `go build` skip relinking). When the build fails, the test binary is used
// and the reason printed.
func Choose(race bool, selfEnv, pkg, name string) Setup {
	s := Setup{Command: []string{os.Args[0]}, Env: []string{selfEnv},
		Note: "re-exec of the test binary", MemoryCapApplies: !race}
	if !race || os.Getenv(ModeEnv) == "self" {
		return s
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = osexec.LookPath("go"); err != nil {
			fmt.Fprintln(os.Stderr, "workertest: no go tool; using the race-instrumented test binary as worker (slow)")
			return s
		}
	}
	dir := os.TempDir()
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "wasmexec", "test-workers")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "workertest: %v; using the race-instrumented test binary as worker (slow)\n", err)
		return s
	}
	// One binary per checkout: worktrees of different versions must not
	// run each other's workers.
	wd, _ := os.Getwd()
	sum := sha256.Sum256([]byte(wd))
	out := filepath.Join(dir, name+"-"+hex.EncodeToString(sum[:6]))
	cmd := osexec.Command(goBin, "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "workertest: building %s without -race failed (%v): %s; using the race-instrumented test binary (slow)\n", pkg, err, b)
		return s
	}
	return Setup{Command: []string{out}, Note: pkg + " built without -race", MemoryCapApplies: true}
}
