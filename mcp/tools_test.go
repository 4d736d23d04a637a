package mcp_test

import (
	"context"
	"encoding/base64"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// Output that is not UTF-8 comes as base64 with its encoding, never as
// U+FFFD; a timeout in a context tells the model its variables are gone.
func TestRunCodeBinaryOutputAndContextReset(t *testing.T) {
	s := MustSession(t, MustMCPServer(t), nil)
	res, m := call(t, s, "run_code", map[string]any{"language": "python", "mode": "execute", "code": "import sys\nsys.stdout.buffer.write(bytes([0xff, 0xfe, 0x41]))\nsys.stderr.write('ok')"})
	want := base64.StdEncoding.EncodeToString([]byte{0xff, 0xfe, 0x41})
	if res.IsError || m["stdout"] != want || m["stdoutEncoding"] != "base64" || m["stderr"] != "ok" || m["stderrEncoding"] != nil {
		t.Fatalf("%v %s", m, textOf(res))
	}
	if !strings.Contains(textOf(res), "stdout (base64: not UTF-8 text):\n"+want) {
		t.Fatalf("text: %s", textOf(res))
	}

	call(t, s, "create_context", map[string]any{"language": "javascript", "contextId": "r1"})
	call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "r1", "code": "globalThis.kept = 1"})
	res, m = call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "r1", "code": "for(;;){}", "timeoutMs": 200})
	if m["outcome"] != "timed_out" || m["contextReset"] != true || !strings.Contains(textOf(res), "contextReset: true") || !strings.Contains(textOf(res), "variables") {
		t.Fatalf("%v %s", m, textOf(res))
	}
	if _, m := call(t, s, "run_code", map[string]any{"language": "javascript", "contextId": "r1", "code": "typeof kept"}); m["value"] != "undefined" {
		t.Fatalf("the reset kept globals: %v", m)
	}
}

// run_code takes limits, env and packages like the HTTP API.
func TestRunCodeOptions(t *testing.T) {
	s := MustSession(t, MustMCPServer(t), nil)
	for _, tc := range []struct {
		name    string
		args    map[string]any
		outcome string
		check   func(m map[string]any) bool
	}{
		{"env", map[string]any{"language": "javascript", "code": "process.env.GREETING", "env": map[string]any{"GREETING": "hi"}}, "succeeded", func(m map[string]any) bool { return m["value"] == "hi" }},
		{"output limit", map[string]any{"language": "javascript", "code": "console.log('x'.repeat(1000))", "limits": map[string]any{"outputBytes": 100}}, "failed", func(m map[string]any) bool {
			e, _ := m["error"].(map[string]any)
			return e["code"] == "output_limit"
		}},
		{"fuel", map[string]any{"language": "javascript", "code": "for(;;){}", "limits": map[string]any{"fuel": 10_000_000}}, "failed", func(m map[string]any) bool {
			e, _ := m["error"].(map[string]any)
			return e["code"] == "cpu_limit"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, m := call(t, s, "run_code", tc.args)
			if m["outcome"] != tc.outcome || !tc.check(m) {
				t.Fatalf("%v %s", m, textOf(res))
			}
		})
	}
	// packages reach the pipeline: without a stager they are refused by it.
	if res, _ := call(t, s, "run_code", map[string]any{"language": "javascript", "code": "1", "packages": []any{"left-pad"}}); !res.IsError {
		t.Fatalf("packages without an npm service: %s", textOf(res))
	}
}

// slowNPM reports progress lines over ~600 ms, as a long install would.
type slowNPM struct{}

func (slowNPM) Install(ctx context.Context, id string, req *wasmexec.NPMInstallRequest) (*wasmexec.NPMInstallResult, error) {
	var out strings.Builder
	progress := wasmexec.ProgressLog(ctx, &out)
	for _, line := range []string{"resolving left-pad", "fetching left-pad@1.3.0", "installed 1 package"} {
		progress(line)
		select { // the install's own pace, not a wait for a state
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s := out.String()
	return &wasmexec.NPMInstallResult{
		Result:    &wasmexec.Result{ExecutionID: wasmexec.NewID("exe"), Kind: wasmexec.KindNPMInstall, Language: wasmexec.JavaScript, ContextID: id, Outcome: wasmexec.Succeeded, Stdout: &s},
		Installed: []wasmexec.NPMPackage{{Name: "left-pad", Version: "1.3.0", Integrity: "sha512-x", Path: "node_modules/left-pad"}},
	}, nil
}

// progressSession connects a client that records progress notifications.
func progressSession(t *testing.T, url string) (*sdk.ClientSession, func() []progressNote) {
	t.Helper()
	var (
		mu    sync.Mutex
		notes []progressNote
	)
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			notes = append(notes, progressNote{req.Params.ProgressToken, req.Params.Progress, req.Params.Message, time.Now()})
		},
	})
	s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, func() []progressNote {
		mu.Lock()
		defer mu.Unlock()
		return append([]progressNote(nil), notes...)
	}
}

type progressNote struct {
	Token    any
	Progress float64
	Message  string
	At       time.Time
}

// A call with a progress token gets run_code's output and an install's
// progress lines as notifications while it runs, before its result.
func TestProgressNotifications(t *testing.T) {
	s, notes := progressSession(t, mustMCPServerWith(t, mcpServerOpts{NPM: slowNPM{}}))
	params := &sdk.CallToolParams{Name: "run_code", Arguments: map[string]any{"language": "python", "mode": "execute",
		"code": "import sys, time\nprint('first', flush=True)\ntime.sleep(0.5)\nsys.stderr.write('second\\n'); sys.stderr.flush()\nsys.stdout.buffer.write(bytes([0xff])); sys.stdout.flush()"}}
	params.SetProgressToken("run-1")
	res, err := s.CallTool(context.Background(), params)
	done := time.Now()
	if err != nil || res.IsError {
		t.Fatalf("%v %v", err, res)
	}
	got := notes()
	if len(got) != 3 || got[0].Token != "run-1" || got[0].Message != "first\n" || got[1].Message != "(stderr) second\n" || got[2].Message != "(stdout, base64) /w==" || got[0].Progress >= got[1].Progress {
		t.Fatalf("notifications: %+v", got)
	}
	if gap := done.Sub(got[0].At); gap < 300*time.Millisecond {
		t.Fatalf("the first output came %v before the result: not live", gap)
	}

	call(t, s, "create_context", map[string]any{"language": "javascript", "contextId": "npm1"})
	params = &sdk.CallToolParams{Name: "npm_install", Arguments: map[string]any{"contextId": "npm1", "packages": []any{"left-pad@1.3.0"}}}
	params.SetProgressToken(7)
	if res, err := s.CallTool(context.Background(), params); err != nil || res.IsError {
		t.Fatalf("%v %v", err, res)
	}
	got = notes()[3:]
	if len(got) != 3 || got[0].Message != "resolving left-pad" || got[2].Message != "installed 1 package" || got[2].At.Sub(got[0].At) < 300*time.Millisecond {
		t.Fatalf("install notifications: %+v", got)
	}
	// Without a token, no notifications (and a JSON answer).
	call(t, s, "run_code", map[string]any{"language": "javascript", "code": "console.log('quiet')"})
	if n := len(notes()); n != 6 {
		t.Fatalf("%d notifications", n)
	}
}

// The process tools: spawn, talk through stdin, read the output, wait,
// signal; and the history tools and delete_file.
func TestProcessHistoryAndFileTools(t *testing.T) {
	s := MustSession(t, MustMCPServer(t), nil)
	res, p := call(t, s, "spawn_process", map[string]any{"language": "javascript", "code": "let l; while ((l = stdin.readLine()) !== null) console.log('echo ' + l)"})
	if res.IsError || p["state"] != "running" {
		t.Fatalf("spawn: %v %s", p, textOf(res))
	}
	pid := p["pid"]
	if res, m := call(t, s, "write_stdin", map[string]any{"pid": pid, "data": "aGkK", "encoding": "base64"}); res.IsError || m["written"] != float64(3) {
		t.Fatalf("write: %v %s", m, textOf(res))
	}
	var out map[string]any
	poll.Until(t, time.Minute, "the echo", func() bool {
		_, out = call(t, s, "read_process_output", map[string]any{"pid": pid})
		return len(out["events"].([]any)) == 1
	})
	if ev := out["events"].([]any)[0].(map[string]any); ev["chunk"] != "echo hi\n" || ev["channel"] != "stdout" || out["nextCursor"] == "" {
		t.Fatalf("output: %v", out)
	}
	if _, m := call(t, s, "read_process_output", map[string]any{"pid": pid, "after": out["nextCursor"]}); len(m["events"].([]any)) != 0 {
		t.Fatalf("after the cursor: %v", m)
	}
	if _, m := call(t, s, "wait_process", map[string]any{"pid": pid, "timeoutMs": 0}); m["state"] != "running" {
		t.Fatalf("wait 0: %v", m)
	}
	if res, m := call(t, s, "write_stdin", map[string]any{"pid": pid, "close": true}); res.IsError || m["stdinClosed"] != true {
		t.Fatalf("close: %v %s", m, textOf(res))
	}
	res, w := call(t, s, "wait_process", map[string]any{"pid": pid})
	if x, _ := w["exit"].(map[string]any); w["state"] != "exited" || x["outcome"] != "exited" || x["exitCode"] != float64(0) || !strings.Contains(textOf(res), "exited") {
		t.Fatalf("wait: %v %s", w, textOf(res))
	}
	_, p2 := call(t, s, "spawn_process", map[string]any{"language": "javascript", "code": "stdin.read()"})
	if res, m := call(t, s, "signal_process", map[string]any{"pid": p2["pid"], "signal": "SIGKILL"}); res.IsError || m["pid"] != p2["pid"] {
		t.Fatalf("signal: %v %s", m, textOf(res))
	}
	if _, w := call(t, s, "wait_process", map[string]any{"pid": p2["pid"]}); w["exit"].(map[string]any)["outcome"] != "signalled" {
		t.Fatalf("signalled: %v", w)
	}
	if _, m := call(t, s, "list_processes", nil); len(m["processes"].([]any)) != 2 {
		t.Fatalf("list: %v", m)
	}

	_, run := call(t, s, "run_code", map[string]any{"language": "javascript", "code": "console.log('kept'); 5"})
	res, rec := call(t, s, "get_execution", map[string]any{"executionId": run["executionId"]})
	if res.IsError || rec["value"] != float64(5) || rec["stdout"] != "kept\n" || rec["kind"] != "evaluate" {
		t.Fatalf("get: %v %s", rec, textOf(res))
	}
	_, page := call(t, s, "list_executions", map[string]any{"kind": "process", "limit": 1})
	if list := page["executions"].([]any); len(list) != 1 || list[0].(map[string]any)["kind"] != "process" || page["hasMore"] != true {
		t.Fatalf("list: %v", page)
	}
	if res, _ := call(t, s, "list_executions", map[string]any{"kind": "compile"}); !res.IsError {
		t.Fatal("an unknown kind was taken")
	}

	call(t, s, "create_context", map[string]any{"language": "javascript", "contextId": "f1"})
	call(t, s, "write_file", map[string]any{"contextId": "f1", "path": "d/a.txt", "content": "x"})
	if res, m := call(t, s, "delete_file", map[string]any{"contextId": "f1", "path": "d"}); res.IsError || m["deleted"] != true {
		t.Fatalf("delete: %v %s", m, textOf(res))
	}
	if res, _ := call(t, s, "read_file", map[string]any{"contextId": "f1", "path": "d/a.txt"}); !res.IsError || !strings.Contains(textOf(res), "not_found") {
		t.Fatalf("read after delete: %s", textOf(res))
	}
}
