package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// fakePythonBuild is guest-images/python/build.sh of a repository made
// for the test: it reports three steps, fails at the second when
// FAKE_FAIL is set, else waits at the second until the file $GATE exists,
// then copies the real Python image ($REAL).
const fakePythonBuild = `#!/usr/bin/env bash
set -euo pipefail
echo "==> [python] fetching sources"
sleep 1
echo "==> [python] building the interpreter"
if [ -n "${FAKE_FAIL:-}" ]; then echo "compiler exploded" >&2; exit 1; fi
while [ ! -e "$GATE" ]; do sleep 0.05; done
echo "==> [python] copying the image"
cp -r "$REAL"/. "$1"/
`

// A server serves what is ready: started while the Python image is
// being built (by guest-images/build-cached.sh, over a fake build.sh in a
// repository of the test's), it serves JavaScript at once; Python is a
// 503 naming the log while its build has failed, a 503 with Retry-After
// and the step while the next build runs, and is served once the image
// appears; /readyz says each state.
func TestServeLoadsAnImageBuiltAfterStart(t *testing.T) {
	jsDir := testenv.ImageDir(t, "js")
	pyDir := testenv.ImageDir(t, "python")
	repo := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	script, err := os.ReadFile(filepath.Join("..", "..", "guest-images", "build-cached.sh"))
	must(err)
	must(os.MkdirAll(filepath.Join(repo, "guest-images", "python"), 0o755))
	must(os.WriteFile(filepath.Join(repo, "guest-images", "build-cached.sh"), script, 0o755))
	must(os.WriteFile(filepath.Join(repo, "guest-images", "python", "build.sh"), []byte(fakePythonBuild), 0o755))
	images := filepath.Join(repo, "build", "images")
	must(os.MkdirAll(images, 0o755))
	must(os.Symlink(jsDir, filepath.Join(images, "js")))
	gate := filepath.Join(repo, "gate")
	buildLog := filepath.Join(repo, "python.log")
	build := func(fail bool) *exec.Cmd {
		t.Helper()
		log, err := os.Create(buildLog)
		must(err)
		cmd := exec.Command(filepath.Join(repo, "guest-images", "build-cached.sh"), "python")
		cmd.Env = append(os.Environ(), "WASMEXEC_CACHE_DIR="+filepath.Join(repo, "cache"), "WASMEXEC_BUILD_LOG="+buildLog, "GATE="+gate, "REAL="+pyDir)
		if fail {
			cmd.Env = append(cmd.Env, "FAKE_FAIL=1")
		}
		cmd.Stdout, cmd.Stderr = log, log
		must(cmd.Start())
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); log.Close() })
		return cmd
	}
	if err := build(true).Wait(); err == nil {
		t.Fatal("the failing fake build succeeded")
	}

	p := MustServe(t, t.TempDir(), "--images-dir", images)
	type answer struct {
		status int
		retry  string
		body   map[string]any
	}
	run := func(lang, code string) answer {
		t.Helper()
		resp, err := http.Post(p.base+"/v1/evaluate", "application/json", strings.NewReader(`{"language":"`+lang+`","code":"`+code+`"}`))
		must(err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var m map[string]any
		json.Unmarshal(b, &m)
		return answer{resp.StatusCode, resp.Header.Get("Retry-After"), m}
	}
	python := func() map[string]any {
		t.Helper()
		_, r := p.do(t, "GET", "/readyz", "")
		parts, _ := r["parts"].(map[string]any)
		py, _ := parts["python"].(map[string]any)
		return py
	}
	if a := run("javascript", "6 * 7"); a.status != 200 || a.body["value"] != float64(42) {
		t.Fatalf("javascript while python is not built: %+v", a)
	}

	for _, tc := range []struct {
		name  string
		start func()
		// check sees the answer to a Python run and the python part of
		// /readyz, and says whether they are what the state gives.
		check func(a answer, py map[string]any) bool
	}{
		{"failed", func() {}, func(a answer, py map[string]any) bool {
			return a.status == 503 && strings.Contains(a.body["message"].(string), buildLog) &&
				py["state"] == "failed" && py["log"] == buildLog && py["ready"] == false
		}},
		{"building", func() { build(false) }, func(a answer, py map[string]any) bool {
			msg, _ := a.body["message"].(string)
			retry, _ := strconv.Atoi(a.retry)
			return a.status == 503 && retry >= 1 && strings.Contains(msg, "still being built: step 2/3") &&
				py["state"] == "building" && py["step"] == float64(2) && py["steps"] == float64(3) && py["leftSeconds"] != nil && py["log"] == buildLog
		}},
		{"built", func() { must(os.WriteFile(gate, nil, 0o644)) }, func(a answer, py map[string]any) bool {
			return a.status == 200 && a.body["value"] == float64(42) && py["state"] == "ready" && py["ready"] == true
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.start()
			var last answer
			var lastPy map[string]any
			defer func() {
				if t.Failed() {
					b, _ := os.ReadFile(buildLog)
					t.Logf("last python answer %+v\n/readyz python %v\nbuild log:\n%s\nserver log:\n%s", last, lastPy, b, p.logs.String())
				}
			}()
			poll.Until(t, 2*time.Minute, "python "+tc.name, func() bool {
				last, lastPy = run("python", "6 * 7"), python()
				return tc.check(last, lastPy)
			})
			if a := run("javascript", "6 * 7"); a.status != 200 {
				t.Fatalf("javascript: %+v", a)
			}
		})
	}
}
