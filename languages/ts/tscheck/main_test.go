package tscheck

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/workerpool/workertest"
)

// envTestWorker makes the test binary act as a worker (the re-exec trick).
const envTestWorker = "TSCHECK_TEST_WORKER"

// envTestLaunch makes the test binary act as the TypeScript 7 launcher.
const envTestLaunch = "TSCHECK_TEST_LAUNCH"

// Under -race the workers are internal/testworker built without -race
// (workertest.Choose; WASMEXEC_TEST_WORKER_MODE=self forces the test
// binary): an instrumented worker is ~10x slower and cannot take
// RLIMIT_DATA.

var (
	testImageDir   string   // "" when the image is absent
	testImageWhy   string   // why it is absent
	testWorkerCmd  []string // how tests start workers
	testWorkerEnv  []string
	testWorkerNote string
	testRLimitOK   bool // workers apply RLIMIT_DATA
)

func TestMain(m *testing.M) {
	if os.Getenv(envTestLaunch) == "1" {
		err := LaunchMain(os.Args[1:])
		fmt.Fprintln(os.Stderr, "tscheck7-launch:", err)
		os.Exit(1)
	}
	if os.Getenv(envTestWorker) == "1" {
		if err := WorkerMain(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "tscheck worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	testImageDir, testImageWhy = findImage()
	if testImageDir != "" {
		setupWorkerCommand()
	}
	code := m.Run()
	closeSharedPool()
	if sharedNative.pool != nil {
		sharedNative.pool.Close() // removes its copy of the compiler
	}
	return code
}

// findImage locates build/images/typescript: $WASMEXEC_IMAGES_DIR or
// <repo root>/build/images.
func findImage() (dir, why string) {
	images := os.Getenv("WASMEXEC_IMAGES_DIR")
	if images == "" {
		wd, _ := os.Getwd()
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				images = filepath.Join(d, "build", "images")
				break
			}
			if filepath.Dir(d) == d {
				return "", "no go.mod above " + wd
			}
		}
	}
	dir = filepath.Join(images, "typescript")
	for _, f := range []string{"typescript.js", "tsc.js", "VERSION", "lib/lib.es2022.d.ts"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return "", fmt.Sprintf("typescript image not found (%s missing in %s); build it with "+
				"`guest-images/typescript/build.sh build/images/typescript` or set WASMEXEC_IMAGES_DIR", f, dir)
		}
	}
	return dir, ""
}

func setupWorkerCommand() {
	setup := workertest.Choose(raceEnabled, envTestWorker+"=1",
		"github.com/wasmexec/wasmexec/languages/ts/tscheck/internal/testworker", "tscheck-worker")
	testWorkerCmd, testWorkerEnv = setup.Command, setup.Env
	testWorkerNote, testRLimitOK = setup.Note, setup.MemoryCapApplies
}

// requireImage skips tb when the TypeScript image is absent.
func requireImage(tb testing.TB) {
	tb.Helper()
	if testImageDir == "" {
		tb.Skip(testImageWhy)
	}
}

func testLogger(tb testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.DiscardHandler)
}

// MustStartPool starts a pool on the test image; it is closed at cleanup.
func MustStartPool(tb testing.TB, cfg PoolConfig) *Pool {
	tb.Helper()
	requireImage(tb)
	p := mustNewStartedPool(tb, cfg)
	tb.Cleanup(func() { p.Close() })
	return p
}

func mustNewStartedPool(tb testing.TB, cfg PoolConfig) *Pool {
	tb.Helper()
	cfg.WorkerCommand = testWorkerCmd
	cfg.Env = append(cfg.Env, testWorkerEnv...)
	cfg.ImageDir = testImageDir
	if cfg.BackgroundLibs == nil {
		cfg.BackgroundLibs = [][]string{} // tests that want a warm-up ask for it
	}
	if cfg.Logger == nil {
		cfg.Logger = testLogger(tb)
	}
	p, err := NewPool(cfg)
	if err != nil {
		tb.Fatalf("NewPool: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := p.Start(ctx); err != nil {
		p.Close()
		tb.Fatalf("Start (%s): %v", testWorkerNote, err)
	}
	return p
}

var shared struct {
	once sync.Once
	pool *Pool
	err  string
}

// SharedPool is one worker shared by the tests that need no special config,
// so the hostile-input tests also prove the next check on it is right.
func SharedPool(tb testing.TB) *Pool {
	tb.Helper()
	requireImage(tb)
	shared.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				shared.err = fmt.Sprint(r)
			}
		}()
		shared.pool = mustNewStartedPool(&panicTB{tb}, PoolConfig{Size: 1, PrewarmLibs: [][]string{{"es2022"}}})
	})
	if shared.pool == nil {
		tb.Fatalf("shared pool failed to start: %s", shared.err)
	}
	return shared.pool
}

func closeSharedPool() {
	if shared.pool != nil {
		shared.pool.Close()
	}
}

// panicTB turns Fatalf into a panic so a sync.Once can report it to every
// caller, not only the first.
type panicTB struct{ testing.TB }

func (p *panicTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// MustCheck runs a check that must not return a Go error.
func MustCheck(tb testing.TB, p *Pool, req Request) *Result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := p.Check(ctx, req)
	if err != nil {
		tb.Fatalf("Check: %v", err)
	}
	return res
}

// MustSucceed runs a check that must complete (type errors allowed).
func MustSucceed(tb testing.TB, p *Pool, req Request) *Result {
	tb.Helper()
	res := MustCheck(tb, p, req)
	if res.Outcome != "succeeded" {
		tb.Fatalf("outcome %s, error %+v", res.Outcome, res.Error)
	}
	return res
}

// RunTSC type-checks files with node running the image's tsc.js and the
// options a request with opts would use, and parses its --pretty false
// output. Paths in the result are rooted at "/" like the pool's.
func RunTSC(tb testing.TB, files map[string]string, opts CompilerOptions) []Diagnostic {
	tb.Helper()
	node, err := osexec.LookPath("node")
	if err != nil {
		tb.Skip("node not found; cannot compare with tsc")
	}
	dir := tb.TempDir()
	var names []string
	for name, text := range files {
		rel := strings.TrimPrefix(name, "/")
		full := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
		if isTSFile(rel) {
			names = append(names, rel)
		}
	}
	o, domLibs := opts.tsOptions()
	texts := sandboxTexts()
	for _, f := range sandboxFiles(opts.sandboxOn(), domLibs, files) {
		// The declarations the worker adds, under names outside the user's.
		name := "__" + strings.TrimPrefix(f, "/lib/")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(texts[f]), 0o644); err != nil {
			tb.Fatal(err)
		}
		names = append(names, name)
	}
	o["noEmit"] = true
	o["types"] = []string{}
	o["libReplacement"] = false
	cfg := map[string]any{"compilerOptions": o, "files": names}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), b, 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := osexec.Command(node, filepath.Join(testImageDir, "tsc.js"), "-p", "tsconfig.json", "--pretty", "false")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*osexec.ExitError); !ok || ee.ExitCode() > 2 {
			tb.Fatalf("tsc: %v\n%s", err, out)
		}
	}
	return ParseTSCOutput(tb, string(out))
}

// ParseTSCOutput parses `tsc --pretty false` output: one
// "file(line,col): category TScode: message" line per diagnostic, chained
// messages continuing on lines that start with spaces.
func ParseTSCOutput(tb testing.TB, out string) []Diagnostic {
	tb.Helper()
	diags := []Diagnostic{}
	for _, line := range strings.Split(strings.TrimRight(strings.ReplaceAll(out, "\r\n", "\n"), "\n"), "\n") {
		if line == "" {
			continue
		}
		if m := tscLine.FindStringSubmatch(line); m != nil {
			d := Diagnostic{Category: m[4], Message: m[6]}
			if m[1] != "" {
				d.FilePath = "/" + filepath.ToSlash(m[1])
				fmt.Sscan(m[2], &d.Line)
				fmt.Sscan(m[3], &d.Column)
			}
			fmt.Sscan(m[5], &d.Code)
			diags = append(diags, d)
			continue
		}
		if len(diags) == 0 || !strings.HasPrefix(line, " ") {
			tb.Fatalf("unexpected tsc output line %q in:\n%s", line, out)
		}
		diags[len(diags)-1].Message += "\n" + line
	}
	return diags
}

var tscLine = regexp.MustCompile(`^(?:(.+)\((\d+),(\d+)\): )?(error|warning|suggestion|message) TS(\d+): (.*)$`)
