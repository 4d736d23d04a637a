package tscheck

import (
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// nativeDir is the image's TypeScript 7 directory ("" when absent).
func nativeDir(tb testing.TB) string {
	tb.Helper()
	requireImage(tb)
	dir := filepath.Join(testImageDir, "ts7")
	if _, err := os.Stat(filepath.Join(dir, "tsc")); err != nil {
		tb.Skipf("TypeScript 7 not in the image (%v); rebuild it with guest-images/build-cached.sh typescript", err)
	}
	return dir
}

// MustStartNativePool starts a TypeScript 7 pool on the test image; it is
// closed at cleanup. Warm-up is es2022 only unless cfg says otherwise.
func MustStartNativePool(tb testing.TB, cfg NativeConfig) *NativePool {
	tb.Helper()
	p := mustNewStartedNativePool(tb, cfg)
	tb.Cleanup(func() { p.Close() })
	return p
}

func mustNewStartedNativePool(tb testing.TB, cfg NativeConfig) *NativePool {
	tb.Helper()
	cfg.Dir = nativeDir(tb)
	// The test binary is the launcher (TestMain); the variable reaches it
	// through the launcher's environment.
	cfg.LaunchCommand = []string{"/usr/bin/env", envTestLaunch + "=1", os.Args[0]}
	if cfg.WarmLibs == nil {
		cfg.WarmLibs = [][]string{{"es2022"}}
	}
	if cfg.Logger == nil {
		cfg.Logger = testLogger(tb)
	}
	p, err := NewNativePool(cfg)
	if err != nil {
		tb.Fatalf("NewNativePool: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Start(ctx); err != nil {
		p.Close()
		tb.Fatalf("Start: %v", err)
	}
	return p
}

var sharedNative struct {
	once sync.Once
	pool *NativePool
	err  string
}

// SharedNativePool is one TypeScript 7 worker shared by the tests that need
// no special config, so the hostile-input tests also prove the next check
// on it is right.
func SharedNativePool(tb testing.TB) *NativePool {
	tb.Helper()
	nativeDir(tb)
	sharedNative.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				sharedNative.err = r.(string)
			}
		}()
		sharedNative.pool = mustNewStartedNativePool(&panicTB{tb}, NativeConfig{Size: 1})
	})
	if sharedNative.pool == nil {
		tb.Fatalf("shared TypeScript 7 pool failed to start: %s", sharedNative.err)
	}
	return sharedNative.pool
}

// MustNativeCheck runs a check that must not return a Go error.
func MustNativeCheck(tb testing.TB, p *NativePool, req Request) *Result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := p.Check(ctx, req)
	if err != nil {
		tb.Fatalf("Check: %v", err)
	}
	return res
}

// opts7 builds TypeScript 7 compilerOptions from JSON.
func opts7(tb testing.TB, js string) map[string]json.RawMessage {
	tb.Helper()
	if js == "" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		tb.Fatalf("options %s: %v", js, err)
	}
	return m
}

// RunTSC7 runs the image's TypeScript 7 CLI (`tsc -p` on the very tsconfig
// the pool generates for req, with the same files written to a temporary
// directory) and parses its --pretty false output. Paths in the result are
// the request's.
func RunTSC7(tb testing.TB, p *NativePool, req Request) []Diagnostic {
	tb.Helper()
	prep, err := p.prepare(req)
	if err != nil {
		tb.Fatalf("prepare: %v", err)
	}
	dir := tb.TempDir()
	for name, text := range prep.files {
		if name == prep.configPath {
			continue
		}
		full := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	// The same config, its absolute paths moved under dir.
	var cfg map[string]any
	if err := json.Unmarshal([]byte(prep.files[prep.configPath]), &cfg); err != nil {
		tb.Fatal(err)
	}
	var files []string
	for _, f := range cfg["files"].([]any) {
		files = append(files, filepath.Join(dir, f.(string)))
	}
	cfg["files"] = files
	if ext, ok := cfg["extends"].(string); ok {
		cfg["extends"] = filepath.Join(dir, ext)
	}
	b, _ := json.Marshal(cfg)
	cfgFile := filepath.Join(dir, prep.configPath)
	if err := os.WriteFile(cfgFile, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := osexec.Command(filepath.Join(nativeDir(tb), "tsc"), "-p", cfgFile, "--pretty", "false")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir}
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*osexec.ExitError); !ok || ee.ExitCode() > 2 {
			tb.Fatalf("tsc: %v\n%s", err, out)
		}
	}
	diags := ParseTSCOutput(tb, string(out))
	var want []Diagnostic
	for _, d := range diags {
		if d.FilePath != "" {
			if u, ok := prep.toUser[path.Clean(d.FilePath)]; ok {
				d.FilePath = u
			}
		}
		// With filePath, the pool reports that file (and the project's
		// tsconfig); tsc reports every file.
		if req.FilePath != "" && d.FilePath != "" && d.FilePath != req.TsconfigPath && !containsUser(prep, d.FilePath) {
			continue
		}
		want = append(want, d)
	}
	return want
}

func containsUser(prep *nativePrepared, user string) bool {
	for _, t := range prep.targets {
		if prep.toUser[t] == user || t == user {
			return true
		}
	}
	return strings.HasPrefix(user, "/lib/")
}
