package contexts_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/vfs"
)

// State persists between runs of one context: sloppy globals, top-level
// let/const and functions.
func TestStatefulJavaScript(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	d := MustCreate(t, m, wasmexec.ContextSpec{ContextID: "js-1"})
	if d.State != wasmexec.ContextIdle || d.Language != wasmexec.JavaScript || d.CreatedAtMs == 0 || d.LastStartedAtMs != 0 {
		t.Fatalf("descriptor after create: %+v", d)
	}
	wantValue(t, MustRun(t, m, "js-1", wasmexec.Request{Code: "x = 1"}), "1")
	res := MustRun(t, m, "js-1", wasmexec.Request{Code: "x += 1; x"})
	wantValue(t, res, "2")
	if res.ContextID != "js-1" || res.ContextReset {
		t.Fatalf("result contextId %q contextReset %v", res.ContextID, res.ContextReset)
	}
	MustRun(t, m, "js-1", wasmexec.Request{Code: "let y = 5; const z = 2; function add(a, b) { return a + b }"})
	wantValue(t, MustRun(t, m, "js-1", wasmexec.Request{Code: "add(y, z)"}), "7")
	// execute shares the state too.
	res = MustRun(t, m, "js-1", wasmexec.Request{Kind: wasmexec.KindExecute, Code: "console.log(x + y)"})
	if res.Outcome != wasmexec.Succeeded || *res.Stdout != "7\n" {
		t.Fatalf("execute: %s %q", res.Outcome, *res.Stdout)
	}
	d = mustGet(t, m, "js-1")
	if d.Runs != 5 || d.LastStartedAtMs == 0 || d.LastCompletedAtMs < d.LastStartedAtMs || d.State != wasmexec.ContextIdle {
		t.Fatalf("descriptor after runs: %+v", d)
	}
}

func TestStatefulPython(t *testing.T) {
	testenv.ImageDir(t, pythonImage) // skips (or fails under make test) without the image
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "py", Language: wasmexec.Python})
	MustRun(t, m, "py", wasmexec.Request{Language: wasmexec.Python, Code: "x = 1"})
	wantValue(t, MustRun(t, m, "py", wasmexec.Request{Language: wasmexec.Python, Code: "x += 1\nx"}), "2")
	if _, err := m.Reset(context.Background(), "py"); err != nil {
		t.Fatal(err)
	}
	res := MustRun(t, m, "py", wasmexec.Request{Language: wasmexec.Python, Code: "x"})
	if res.Outcome != wasmexec.Failed || res.Error == nil || res.Error.Name != "NameError" {
		t.Fatalf("after reset: %s %+v", res.Outcome, res.Error)
	}
	if _, err := m.WriteFile(context.Background(), "py", "a.txt", []byte("from the host")); err != nil {
		t.Fatal(err)
	}
	wantValue(t, MustRun(t, m, "py", wasmexec.Request{Language: wasmexec.Python, Code: "open('/workspace/a.txt').read() + '|' + open('a.txt').read()"}), `"from the host|from the host"`)
}

// A reset clears the state (ReferenceError afterwards) and keeps the files.
func TestResetClearsState(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "r"})
	MustRun(t, m, "r", wasmexec.Request{Code: "x = 1; fs.writeFileSync('keep.txt', 'kept')"})
	d, err := m.Reset(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	if d.State != wasmexec.ContextIdle || d.Resets != 1 {
		t.Fatalf("after reset: %+v", d)
	}
	res := MustRun(t, m, "r", wasmexec.Request{Code: "x"})
	if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeException || res.Error.Name != "ReferenceError" {
		t.Fatalf("x after reset: %s %+v", res.Outcome, res.Error)
	}
	wantValue(t, MustRun(t, m, "r", wasmexec.Request{Code: "fs.readFileSync('keep.txt', 'utf8')"}), `"kept"`)
	_, err = m.Reset(context.Background(), "nope")
	wantCode(t, err, wasmexec.EContextNotFound)
}

// A context is pinned to its guest family: JS and TS share one; a language
// of another family is a 409.
func TestLanguageFamilies(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "js"})
	_, err := tryRun(m, "js", wasmexec.Request{Language: otherJS, Code: "1"})
	wantCode(t, err, wasmexec.ELanguageMismatch)
	if hasPython() {
		_, err = tryRun(m, "js", wasmexec.Request{Language: wasmexec.Python, Code: "1"})
		wantCode(t, err, wasmexec.ELanguageMismatch)
	}
	_, err = tryRun(m, "js", wasmexec.Request{Language: "cobol", Code: "1"})
	wantCode(t, err, wasmexec.EInvalid)

	// TypeScript in a JavaScript context, and JavaScript in a TypeScript one.
	MustRun(t, m, "js", wasmexec.Request{Language: wasmexec.TypeScript, Code: "shared = 40"})
	wantValue(t, MustRun(t, m, "js", wasmexec.Request{Code: "shared + 2"}), "42")
	d := MustCreate(t, m, wasmexec.ContextSpec{ContextID: "ts", Language: wasmexec.TypeScript})
	if d.Language != wasmexec.TypeScript {
		t.Fatalf("language %s", d.Language)
	}
	MustRun(t, m, "ts", wasmexec.Request{Code: "fromJS = 1"})
	wantValue(t, MustRun(t, m, "ts", wasmexec.Request{Language: wasmexec.TypeScript, Code: "fromJS + 1"}), "2")
	_, err = tryRun(m, "ts", wasmexec.Request{Language: otherJS, Code: "1"})
	wantCode(t, err, wasmexec.ELanguageMismatch)
}

// A run its language driver fails before the guest (a TypeScript syntax
// error) is a failed result; the context and its state are untouched.
func TestFailureBeforeTheGuest(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "s"})
	MustRun(t, m, "s", wasmexec.Request{Code: "x = 7"})
	res := MustRun(t, m, "s", wasmexec.Request{Language: wasmexec.TypeScript, Code: "@@fail x = 8"})
	if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeSyntaxError || res.ContextReset || res.ContextID != "s" || res.ExecutionID == "" {
		t.Fatalf("got %+v", res)
	}
	wantValue(t, MustRun(t, m, "s", wasmexec.Request{Code: "x"}), "7")
	if d := mustGet(t, m, "s"); d.Runs != 3 || d.State != wasmexec.ContextIdle {
		t.Fatalf("descriptor %+v", d)
	}
}

func TestCreateValidation(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "dup"})
	for _, tc := range []struct {
		name string
		spec wasmexec.ContextSpec
		code string
	}{
		{"duplicate id", wasmexec.ContextSpec{ContextID: "dup"}, wasmexec.EContextConflict},
		{"id with a slash", wasmexec.ContextSpec{ContextID: "a/b"}, wasmexec.EInvalid},
		{"id with a dot", wasmexec.ContextSpec{ContextID: ".."}, wasmexec.EInvalid},
		{"id with a space", wasmexec.ContextSpec{ContextID: "a b"}, wasmexec.EInvalid},
		{"id too long", wasmexec.ContextSpec{ContextID: strings.Repeat("a", 65)}, wasmexec.EInvalid},
		{"id with NUL", wasmexec.ContextSpec{ContextID: "a\x00"}, wasmexec.EInvalid},
		{"unknown language", wasmexec.ContextSpec{Language: "cobol"}, wasmexec.EInvalid},
		{"fuel at creation", wasmexec.ContextSpec{Limits: wasmexec.Limits{Fuel: 1000}}, wasmexec.EInvalid},
		{"memory above max", wasmexec.ContextSpec{Limits: wasmexec.Limits{MemoryBytes: 1 << 40}}, wasmexec.EInvalid},
		{"memory below the guest minimum", wasmexec.ContextSpec{Limits: wasmexec.Limits{MemoryBytes: 1 << 20}}, wasmexec.EInvalid},
		{"bad env name", wasmexec.ContextSpec{Env: map[string]string{"A=B": "x"}}, wasmexec.EInvalid},
		{"NUL in env", wasmexec.ContextSpec{Env: map[string]string{"A": "x\x00"}}, wasmexec.EInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec
			if spec.Language == "" {
				spec.Language = wasmexec.JavaScript
			}
			_, err := m.Create(context.Background(), &spec)
			wantCode(t, err, tc.code)
		})
	}
	// No language: created unpinned (TestPinnedByFirstRun).
	if _, err := m.Create(context.Background(), &wasmexec.ContextSpec{}); err != nil {
		t.Fatal(err)
	}
	// Generated ids; the full 64 characters are fine.
	d := MustCreate(t, m, wasmexec.ContextSpec{})
	if !strings.HasPrefix(d.ContextID, "ctx_") {
		t.Fatalf("generated id %q", d.ContextID)
	}
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: strings.Repeat("A_-9", 16)})
	list, _ := m.List(context.Background())
	if len(list) != 4 {
		t.Fatalf("list has %d contexts after the failed creates", len(list))
	}
}

// Env and memory are fixed at creation: runs may repeat them, not change them.
func TestEnvAndMemoryFixed(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	d := MustCreate(t, m, wasmexec.ContextSpec{ContextID: "e", Env: map[string]string{"GREETING": "hi"}, Limits: wasmexec.Limits{MemoryBytes: 64 << 20}})
	if d.MemoryBytes != 64<<20 {
		t.Fatalf("memoryBytes %d", d.MemoryBytes)
	}
	wantValue(t, MustRun(t, m, "e", wasmexec.Request{Code: "process.env.GREETING"}), `"hi"`)
	wantValue(t, MustRun(t, m, "e", wasmexec.Request{Code: "1", Env: map[string]string{"GREETING": "hi"}, Limits: wasmexec.Limits{MemoryBytes: 64 << 20}}), "1")
	_, err := tryRun(m, "e", wasmexec.Request{Code: "1", Env: map[string]string{"GREETING": "bye"}})
	wantCode(t, err, wasmexec.EInvalid)
	_, err = tryRun(m, "e", wasmexec.Request{Code: "1", Limits: wasmexec.Limits{MemoryBytes: 128 << 20}})
	wantCode(t, err, wasmexec.EInvalid)
	// Per-run limits still apply: fuel, output, timeout.
	res := MustRun(t, m, "e", wasmexec.Request{Code: "while (true) {}", Limits: wasmexec.Limits{Fuel: 200_000_000}})
	if res.Outcome != wasmexec.Failed || res.Error.Code != wasmexec.CodeCPULimit || !res.ContextReset {
		t.Fatalf("fuel: %s %+v reset=%v", res.Outcome, res.Error, res.ContextReset)
	}
	// The fresh guest has the same env.
	wantValue(t, MustRun(t, m, "e", wasmexec.Request{Code: "process.env.GREETING"}), `"hi"`)
}

// A run stopped by a guard resets the context: the result says so, the
// next run works in a fresh guest, workspace files stay.
func TestGuardsResetTheContext(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "g", Limits: wasmexec.Limits{MemoryBytes: 64 << 20}})
	MustRun(t, m, "g", wasmexec.Request{Code: "fs.writeFileSync('f.txt', 'still here')"})
	for i, tc := range []struct {
		name    string
		req     wasmexec.Request
		outcome wasmexec.Outcome
		code    string
	}{
		{"timeout", wasmexec.Request{Code: "while (true) {}", TimeoutMs: 200}, wasmexec.TimedOut, ""},
		{"sleeping past the timeout", wasmexec.Request{Code: "await new Promise(r => setTimeout(r, 60000))", TimeoutMs: 200}, wasmexec.TimedOut, ""},
		{"fuel", wasmexec.Request{Code: "while (true) {}", Limits: wasmexec.Limits{Fuel: 300_000_000}}, wasmexec.Failed, wasmexec.CodeCPULimit},
		{"memory", wasmexec.Request{Code: "const a = []; while (true) a.push(new Array(1e6).fill(1.5))"}, wasmexec.Failed, wasmexec.CodeMemoryLimit},
		{"output", wasmexec.Request{Code: "while (true) console.log('x'.repeat(1000))", Limits: wasmexec.Limits{OutputBytes: 10000}}, wasmexec.Failed, wasmexec.CodeOutputLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			MustRun(t, m, "g", wasmexec.Request{Code: "x = 1"})
			res := MustRun(t, m, "g", tc.req)
			if res.Outcome != tc.outcome || (tc.code != "" && res.Error.Code != tc.code) || !res.ContextReset {
				t.Fatalf("got %s %+v contextReset=%v", res.Outcome, res.Error, res.ContextReset)
			}
			wantValue(t, MustRun(t, m, "g", wasmexec.Request{Code: "[typeof x, fs.readFileSync('f.txt', 'utf8')]"}), `["undefined","still here"]`)
			d := mustGet(t, m, "g")
			if d.State != wasmexec.ContextIdle || d.Resets != int64(i+1) {
				t.Fatalf("descriptor: %+v", d)
			}
		})
	}
	// An exception or a stack overflow the driver catches is not a reset.
	MustRun(t, m, "g", wasmexec.Request{Code: "x = 1"})
	res := MustRun(t, m, "g", wasmexec.Request{Code: "function f() { return f() } f()"})
	if res.Outcome != wasmexec.Failed || res.ContextReset {
		t.Fatalf("stack overflow: %s reset=%v", res.Outcome, res.ContextReset)
	}
	res = MustRun(t, m, "g", wasmexec.Request{Code: "throw new Error('boom')"})
	if res.Outcome != wasmexec.Failed || res.ContextReset {
		t.Fatalf("exception: %s reset=%v", res.Outcome, res.ContextReset)
	}
	wantValue(t, MustRun(t, m, "g", wasmexec.Request{Code: "x"}), "1")
}

// A client cancel mid-run resets the context like a timeout.
func TestCancelResets(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "c"})
	MustRun(t, m, "c", wasmexec.Request{Code: "x = 1"})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(150*time.Millisecond, cancel)
	res, err := m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, ContextID: "c", Code: "while (true) {}"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != wasmexec.Cancelled || !res.ContextReset {
		t.Fatalf("got %s reset=%v", res.Outcome, res.ContextReset)
	}
	wantValue(t, MustRun(t, m, "c", wasmexec.Request{Code: "typeof x"}), `"undefined"`)
}

// A guest that died by itself puts the context in failed until a reset.
func TestFailedUntilReset(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "f"})
	MustRun(t, m, "f", wasmexec.Request{Code: "fs.writeFileSync('a.txt', 'a')"})
	contexts.KillGuest(m, "f")
	_, err := tryRun(m, "f", wasmexec.Request{Code: "1"})
	wantCode(t, err, wasmexec.EConflict)
	d := mustGet(t, m, "f")
	if d.State != wasmexec.ContextFailed || d.Error == nil || d.Error.Code != wasmexec.CodeInternal {
		t.Fatalf("descriptor: %+v", d)
	}
	_, err = tryRun(m, "f", wasmexec.Request{Code: "1"})
	wantCode(t, err, wasmexec.EConflict)
	// The workspace is still there.
	if b, err := m.ReadFile(context.Background(), "f", "a.txt"); err != nil || string(b) != "a" {
		t.Fatalf("read in a failed context: %q %v", b, err)
	}
	d, err = m.Reset(context.Background(), "f")
	if err != nil || d.State != wasmexec.ContextIdle || d.Error != nil {
		t.Fatalf("reset: %+v %v", d, err)
	}
	wantValue(t, MustRun(t, m, "f", wasmexec.Request{Code: "fs.readFileSync('a.txt', 'utf8')"}), `"a"`)
}

// Many contexts in parallel, each with its own consistent state.
func TestManyContextsInParallel(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	const contextsN, runs = 8, 15
	var wg sync.WaitGroup
	for i := range contextsN {
		wg.Go(func() {
			id := fmt.Sprintf("p%d", i)
			MustCreate(t, m, wasmexec.ContextSpec{ContextID: id})
			MustRun(t, m, id, wasmexec.Request{Code: fmt.Sprintf("n = 0; me = %d", i)})
			for range runs {
				MustRun(t, m, id, wasmexec.Request{Code: "n += 1"})
			}
			res := MustRun(t, m, id, wasmexec.Request{Code: "[me, n]"})
			if want := fmt.Sprintf("[%d,%d]", i, runs); string(res.Value) != want {
				t.Errorf("context %s: %s, want %s", id, res.Value, want)
			}
		})
	}
	wg.Wait()
}

// Requests to one context run one at a time in arrival order.
func TestOneContextSerializedFIFO(t *testing.T) {
	m := MustManager(t, contexts.Config{QueueDepth: 32}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "q"})
	MustRun(t, m, "q", wasmexec.Request{Code: "order = []; active = 0; maxActive = 0"})
	var wg sync.WaitGroup
	wg.Go(func() {
		MustRun(t, m, "q", wasmexec.Request{Code: "await new Promise(r => setTimeout(r, 300)); order.push(0)"})
	})
	waitFor(t, 5*time.Second, "the first run", func() bool { return mustGet(t, m, "q").State == wasmexec.ContextRunning })
	const n = 12
	for i := 1; i <= n; i++ {
		wg.Go(func() {
			// Async work inside each run: a second run starting before the
			// first finished would show as active > 1.
			MustRun(t, m, "q", wasmexec.Request{Code: fmt.Sprintf("active++; maxActive = Math.max(maxActive, active); await new Promise(r => setTimeout(r, 2)); order.push(%d); active--", i)})
		})
		waitFor(t, 5*time.Second, "queued", func() bool { return mustGet(t, m, "q").Queued == i })
	}
	wg.Wait()
	res := MustRun(t, m, "q", wasmexec.Request{Code: "[order.join(','), maxActive]"})
	want := "0"
	for i := 1; i <= n; i++ {
		want += fmt.Sprintf(",%d", i)
	}
	wantValue(t, res, fmt.Sprintf(`[%q,1]`, want))
}

// Past QueueDepth waiting requests, a context answers overloaded.
func TestQueueBound(t *testing.T) {
	m := MustManager(t, contexts.Config{QueueDepth: 2}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "b"})
	var wg sync.WaitGroup
	wg.Go(func() { MustRun(t, m, "b", wasmexec.Request{Code: "await new Promise(r => setTimeout(r, 400))"}) })
	waitFor(t, 5*time.Second, "running", func() bool { return mustGet(t, m, "b").State == wasmexec.ContextRunning })
	for range 2 {
		wg.Go(func() { MustRun(t, m, "b", wasmexec.Request{Code: "1"}) })
	}
	waitFor(t, 5*time.Second, "two queued", func() bool { return mustGet(t, m, "b").Queued == 2 })
	_, err := tryRun(m, "b", wasmexec.Request{Code: "1"})
	wantCode(t, err, wasmexec.EOverloaded)
	wg.Wait()
	wantValue(t, MustRun(t, m, "b", wasmexec.Request{Code: "2"}), "2")
}

// A queued request whose client goes away leaves the queue.
func TestQueuedRequestCancelled(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "w"})
	var wg sync.WaitGroup
	wg.Go(func() { MustRun(t, m, "w", wasmexec.Request{Code: "await new Promise(r => setTimeout(r, 300)); 1"}) })
	waitFor(t, 5*time.Second, "running", func() bool { return mustGet(t, m, "w").State == wasmexec.ContextRunning })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := m.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, ContextID: "w", Code: "1"})
		done <- err
	}()
	waitFor(t, 5*time.Second, "queued", func() bool { return mustGet(t, m, "w").Queued == 1 })
	cancel()
	wantCode(t, <-done, wasmexec.EOverloaded)
	if q := mustGet(t, m, "w").Queued; q != 0 {
		t.Fatalf("queued = %d after cancel", q)
	}
	wg.Wait()
	wantValue(t, MustRun(t, m, "w", wasmexec.Request{Code: "3"}), "3")
}

func TestMaxContexts(t *testing.T) {
	m := MustManager(t, contexts.Config{MaxContexts: 2}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "a"})
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "b"})
	_, err := m.Create(context.Background(), &wasmexec.ContextSpec{ContextID: "c", Language: wasmexec.JavaScript})
	wantCode(t, err, wasmexec.EOverloaded)
	if err := m.Delete(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "c"})
}

// Delete cancels the running run, waits for it, rejects the queued ones
// and removes guest and workspace.
func TestDeleteCancelsRunning(t *testing.T) {
	var deleted []string
	var mu sync.Mutex
	m := MustManager(t, contexts.Config{OnDelete: func(id string) { mu.Lock(); deleted = append(deleted, id); mu.Unlock() }}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "d"})
	dir, err := m.WorkspaceDir("d")
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan *wasmexec.Result)
	go func() { running <- MustRun(t, m, "d", wasmexec.Request{Code: "while (true) {}", TimeoutMs: 20000}) }()
	waitFor(t, 5*time.Second, "running", func() bool { return mustGet(t, m, "d").State == wasmexec.ContextRunning })
	queued := make(chan error)
	go func() { _, err := tryRun(m, "d", wasmexec.Request{Code: "1"}); queued <- err }()
	waitFor(t, 5*time.Second, "queued", func() bool { return mustGet(t, m, "d").Queued == 1 })
	start := time.Now()
	if err := m.Delete(context.Background(), "d"); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("delete took %v", took)
	}
	res := <-running
	if res.Outcome != wasmexec.Cancelled {
		t.Fatalf("running run: %s", res.Outcome)
	}
	wantCode(t, <-queued, wasmexec.EContextNotFound)
	_, err = m.Get(context.Background(), "d")
	wantCode(t, err, wasmexec.EContextNotFound)
	wantCode(t, m.Delete(context.Background(), "d"), wasmexec.EContextNotFound)
	_, err = tryRun(m, "d", wasmexec.Request{Code: "1"})
	wantCode(t, err, wasmexec.EContextNotFound)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("workspace still there: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deleted) != 1 || deleted[0] != "d" {
		t.Fatalf("OnDelete calls: %v", deleted)
	}
	// The id is free again.
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "d"})
}

// Reset cancels a running run; queued runs then use the fresh guest.
func TestResetCancelsRunning(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "rr"})
	MustRun(t, m, "rr", wasmexec.Request{Code: "x = 1"})
	running := make(chan *wasmexec.Result)
	go func() { running <- MustRun(t, m, "rr", wasmexec.Request{Code: "while (true) {}", TimeoutMs: 20000}) }()
	waitFor(t, 5*time.Second, "running", func() bool { return mustGet(t, m, "rr").State == wasmexec.ContextRunning })
	queued := make(chan *wasmexec.Result)
	go func() { queued <- MustRun(t, m, "rr", wasmexec.Request{Code: "typeof x"}) }()
	waitFor(t, 5*time.Second, "queued", func() bool { return mustGet(t, m, "rr").Queued == 1 })
	d, err := m.Reset(context.Background(), "rr")
	if err != nil {
		t.Fatal(err)
	}
	res := <-running
	if res.Outcome != wasmexec.Cancelled || !res.ContextReset {
		t.Fatalf("running run: %s reset=%v", res.Outcome, res.ContextReset)
	}
	wantValue(t, <-queued, `"undefined"`)
	if d.Resets < 1 {
		t.Fatalf("descriptor: %+v", d)
	}
}

// Idle contexts are deleted after IdleTTL by the background loop, on an
// injected clock; use (runs, file calls) keeps them alive, running ones
// are never evicted.
func TestIdleExpiry(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	advance := func(d time.Duration) { now.Add(int64(d)) }
	m := MustManager(t, contexts.Config{IdleTTL: time.Minute, SweepInterval: 5 * time.Millisecond, Now: clock}, 0)
	d := MustCreate(t, m, wasmexec.ContextSpec{ContextID: "old"})
	if want := clock().Add(time.Minute).UnixMilli(); d.IdleExpiresAtMs != want {
		t.Fatalf("idleExpiresAtMs %d, want %d", d.IdleExpiresAtMs, want)
	}
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "used"})
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "busy"})
	dir, _ := m.WorkspaceDir("old")

	advance(40 * time.Second)
	if n := m.Sweep(); n != 0 {
		t.Fatalf("swept %d before the TTL", n)
	}
	MustRun(t, m, "used", wasmexec.Request{Code: "1"})
	running := make(chan *wasmexec.Result)
	go func() {
		running <- MustRun(t, m, "busy", wasmexec.Request{Code: "await new Promise(r => setTimeout(r, 500)); 'done'"})
	}()
	waitFor(t, 5*time.Second, "busy running", func() bool { return mustGet(t, m, "busy").State == wasmexec.ContextRunning })

	advance(30 * time.Second) // old: 70s idle; used: 30s; busy: running
	waitFor(t, 5*time.Second, "the idle loop to evict old", func() bool {
		_, err := m.Get(context.Background(), "old")
		return wasmexec.ErrorCode(err) == wasmexec.EContextNotFound
	})
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("workspace of an expired context still there: %v", err)
	}
	mustGet(t, m, "used")
	if mustGet(t, m, "busy").IdleExpiresAtMs != 0 {
		t.Fatalf("a running context has an expiry")
	}
	wantValue(t, <-running, `"done"`)
	mustGet(t, m, "busy") // its run just ended: not idle for a minute yet

	// A file call counts as use.
	advance(50 * time.Second)
	if _, err := m.ListFiles(context.Background(), "used", ""); err != nil {
		t.Fatal(err)
	}
	advance(50 * time.Second)
	m.Sweep()
	mustGet(t, m, "used")
	advance(61 * time.Second)
	m.Sweep()
	list, _ := m.List(context.Background())
	if len(list) != 0 {
		t.Fatalf("after the TTL: %d contexts left", len(list))
	}
}

// Close deletes every context and their workspaces; later calls fail.
func TestClose(t *testing.T) {
	m := MustManager(t, contexts.Config{}, 0)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "a"})
	dir, _ := m.WorkspaceDir("a")
	go tryRun(m, "a", wasmexec.Request{Code: "while (true) {}"})
	waitFor(t, 5*time.Second, "running", func() bool { return mustGet(t, m, "a").State == wasmexec.ContextRunning })
	m.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("workspace still there: %v", err)
	}
	_, err := m.Create(context.Background(), &wasmexec.ContextSpec{Language: wasmexec.JavaScript})
	wantCode(t, err, wasmexec.EUnavailable)
}

// Workspaces left behind by a crashed server are removed at start-up.
func TestStaleWorkspacesRemoved(t *testing.T) {
	root := filepath.Join(testenv.ScratchDir(t), "ctxs")
	for _, d := range []string{"ctx-a-1234", "ctx-b-5678/sub", "other"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ws := mustVFS(t, root)
	m, err := contexts.Open(contexts.Config{Runner: MustRunner(t, testenv.RunnerConfig{}), Workspaces: ws})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	des, _ := os.ReadDir(root)
	if len(des) != 1 || des[0].Name() != "other" {
		t.Fatalf("left: %v", des)
	}
}

// MaxContexts under a burst: creates and forks released at once by a
// start barrier make exactly MaxContexts contexts (the slot is taken
// under the manager's lock with the check); the others are overloaded.
// The forks wait in the queue of a source that is running.
func TestMaxContextsConcurrent(t *testing.T) {
	const limit, n = 3, 16
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, m *contexts.Manager) // before the burst
		try   func(m *contexts.Manager, i int) error
		want  int // made by the burst
	}{
		{"creates named", nil, func(m *contexts.Manager, i int) error {
			_, err := m.Create(context.Background(), &wasmexec.ContextSpec{ContextID: fmt.Sprintf("c%d", i), Language: wasmexec.JavaScript})
			return err
		}, limit},
		{"creates with generated ids", nil, func(m *contexts.Manager, i int) error {
			_, err := m.Create(context.Background(), &wasmexec.ContextSpec{Language: wasmexec.JavaScript})
			return err
		}, limit},
		{"forks queued behind a run", func(t *testing.T, m *contexts.Manager) {
			MustCreate(t, m, wasmexec.ContextSpec{ContextID: "src"})
			done := make(chan *wasmexec.Result, 1)
			go func() {
				res, _ := tryRun(m, "src", wasmexec.Request{Code: "const t = Date.now(); while (Date.now() - t < 1000) {}", TimeoutMs: 20000})
				done <- res
			}()
			t.Cleanup(func() { <-done })
			waitFor(t, 20*time.Second, "the source's run to start", func() bool { return mustGet(t, m, "src").State == wasmexec.ContextRunning })
		}, func(m *contexts.Manager, i int) error {
			_, err := m.Fork(context.Background(), "src", &wasmexec.ForkSpec{ContextID: fmt.Sprintf("f%d", i)})
			return err
		}, limit - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := MustManager(t, contexts.Config{MaxContexts: limit}, 0)
			if tc.setup != nil {
				tc.setup(t, m)
			}
			start := make(chan struct{})
			var wg sync.WaitGroup
			var mu sync.Mutex
			made, refused := 0, 0
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					err := tc.try(m, i)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						made++
					case wasmexec.ErrorCode(err) == wasmexec.EOverloaded:
						refused++
					default:
						t.Errorf("attempt %d: %v", i, err)
					}
				}()
			}
			close(start)
			wg.Wait()
			all, err := m.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if made != tc.want || refused != n-tc.want || len(all) != limit {
				t.Fatalf("%d made, %d refused, %d contexts; want %d made, %d contexts", made, refused, len(all), tc.want, limit)
			}
		})
	}
}

// The idle loops wait for Start: a manager made before what its callbacks
// call (the processes, whose manager takes the contexts' workspaces) never
// calls OnDelete until it is started, however long its contexts are idle.
func TestIdleLoopsWaitForStart(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	var deleted atomic.Int64
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.New(contexts.Config{
		Runner: MustRunner(t, testenv.RunnerConfig{}), Workspaces: ws,
		IdleTTL: time.Minute, SweepInterval: time.Millisecond,
		Now:      func() time.Time { return time.Unix(0, now.Load()) },
		OnDelete: func(string) { deleted.Add(1) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "idle"})
	now.Add(int64(time.Hour))
	// A sweep every millisecond would have deleted it many times over: the
	// context is still there after 50 of them.
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) {
		if deleted.Load() != 0 {
			t.Fatal("OnDelete was called before Start")
		}
		runtime.Gosched()
	}
	m.Start()
	waitFor(t, 5*time.Second, "the started loop to expire the context", func() bool { return deleted.Load() == 1 })
}
