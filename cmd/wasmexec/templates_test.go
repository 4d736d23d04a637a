package main

import (
	"syscall"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// A template survives kill -9 of the real binary: after a restart it is
// listed ready, and runs and contexts start from it as before.
func TestServeTemplatesSurviveKill9(t *testing.T) {
	data := t.TempDir()
	args := []string{"--tscheck-workers", "0"}
	p := MustServe(t, data, args...)
	mustDo := func(p *proc, method, path, body string, want int) map[string]any {
		t.Helper()
		status, d := p.do(t, method, path, body)
		if status != want {
			t.Fatalf("%s %s: %d %v", method, path, status, d)
		}
		return d
	}
	mustDo(p, "POST", "/v1/templates", `{"templateId":"warm","language":"javascript","setupCode":"globalThis.base = 40","files":{"two.txt":"2"}}`, 202)
	poll.Until(t, time.Minute, "the template's build", func() bool {
		return mustDo(p, "GET", "/v1/templates/warm", "", 200)["state"] == "ready"
	})
	run := `{"language":"javascript","template":"warm","code":"base + Number(fs.readFileSync('two.txt', 'utf8'))"}`
	if d := mustDo(p, "POST", "/v1/evaluate", run, 200); d["value"] != float64(42) {
		t.Fatalf("before kill -9: %v", d)
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()

	p = MustServe(t, data, args...)
	if d := mustDo(p, "GET", "/v1/templates/warm", "", 200); d["state"] != "ready" || d["stateBytes"] == float64(0) {
		t.Fatalf("after kill -9: %v", d)
	}
	if d := mustDo(p, "POST", "/v1/evaluate", run, 200); d["value"] != float64(42) {
		t.Fatalf("a run after kill -9: %v", d)
	}
	mustDo(p, "POST", "/v1/contexts", `{"contextId":"c","template":"warm"}`, 201)
	if d := mustDo(p, "POST", "/v1/evaluate", `{"language":"javascript","contextId":"c","code":"base"}`, 200); d["value"] != float64(40) {
		t.Fatalf("a context after kill -9: %v", d)
	}
}
