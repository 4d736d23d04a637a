package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/client"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/events"
	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/pipeline"
	"github.com/wasmexec/wasmexec/processes"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/store"
	"github.com/wasmexec/wasmexec/templates"
	"github.com/wasmexec/wasmexec/vfs"
)

// serverURL is a real server (JavaScript, contexts, processes, the
// store, events) the examples talk to.
var serverURL string

func TestMain(m *testing.M) {
	dir := filepath.Join(testenv.ImagesDir(), js.ImageName)
	if _, err := os.Stat(filepath.Join(dir, "guest.json")); err != nil {
		msg := "guest image js is not built (run make guest-images): " + dir
		if os.Getenv("WASMEXEC_REQUIRE_IMAGES") == "1" {
			fmt.Fprintln(os.Stderr, msg)
			os.Exit(1)
		}
		fmt.Println("skipping the client examples:", msg)
		os.Exit(0)
	}
	code, err := run(m, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M, imageDir string) (int, error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "wasmexec-client-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	e, err := engine.NewEngine(engine.EngineConfig{CacheDir: testenv.CacheDir()})
	if err != nil {
		return 0, err
	}
	defer e.Close()
	img, err := e.LoadImage(ctx, imageDir)
	if err != nil {
		return 0, err
	}
	st, err := store.Open(ctx, store.Config{Path: filepath.Join(tmp, "db")})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	ws, err := vfs.NewManager(filepath.Join(tmp, "scratch"), 0)
	if err != nil {
		return 0, err
	}
	d := engine.NewDriver(engine.DriverConfig{Images: map[string]*engine.Image{js.ImageName: img}, Workspaces: ws, PoolSize: -1})
	defer d.Close()
	hub := events.New(0)
	r, err := pipeline.New(pipeline.Config{
		Driver: d, Languages: map[exec.Language]exec.LanguageDriver{exec.JavaScript: js.Driver{}},
		Policy: exec.DefaultPolicy(), Workspaces: ws, Recorder: pipeline.NewRecorder(st, nil), Events: hub,
	})
	if err != nil {
		return 0, err
	}
	cws, err := vfs.NewManager(filepath.Join(tmp, "contexts"), 0)
	if err != nil {
		return 0, err
	}
	tpl, err := templates.Open(templates.Config{Runner: r, Dir: filepath.Join(tmp, "templates")})
	if err != nil {
		return 0, err
	}
	defer tpl.Close()
	r.SetTemplates(tpl)
	ctxs, err := contexts.Open(contexts.Config{Runner: r, Workspaces: cws, Templates: tpl})
	if err != nil {
		return 0, err
	}
	defer ctxs.Close()
	procs, err := processes.New(processes.Config{Runner: r, MaxProcesses: 4, Workspace: ctxs.WorkspaceDir, Quota: ctxs.ProcessQuota})
	if err != nil {
		return 0, err
	}
	defer procs.Close()
	srv := httptest.NewServer(server.New(server.Config{Runner: r, Contexts: ctxs, Processes: procs, History: st, Events: hub, Templates: tpl}).Handler())
	defer srv.Close()
	serverURL = srv.URL
	return m.Run(), nil
}

func Example() {
	c := client.New(serverURL) // client.WithAPIKey(key) on a server with keys
	res, err := c.Evaluate(context.Background(), &exec.Request{Language: exec.JavaScript, Code: "console.log('hi'); 6 * 7"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Outcome, string(res.Value), *res.Stdout)
	// Output: succeeded 42 hi
}

// A guest failure is a result; an API error is an *Error carrying its code.
func Example_errors() {
	c := client.New(serverURL)
	ctx := context.Background()
	res, _ := c.Evaluate(ctx, &exec.Request{Language: exec.JavaScript, Code: "throw new Error('boom')"})
	fmt.Println(res.Outcome, res.Error.Code)

	_, err := c.Evaluate(ctx, &exec.Request{Language: "cobol", Code: "1"})
	var e *client.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Code)
	}
	_, err = c.Context(ctx, "nope")
	fmt.Println(client.Code(err))
	// Output:
	// failed exception
	// 400 invalid_argument
	// context_not_found
}

// State and files persist in a context.
func ExampleClient_CreateContext() {
	c := client.New(serverURL)
	ctx := context.Background()
	if _, err := c.CreateContext(ctx, &exec.ContextSpec{ContextID: "example", Language: exec.JavaScript}); err != nil {
		panic(err)
	}
	defer c.DeleteContext(ctx, "example")
	c.WriteFile(ctx, "example", "data/n.txt", []byte("20"))
	c.Evaluate(ctx, &exec.Request{Language: exec.JavaScript, ContextID: "example", Code: "globalThis.n = Number(fs.readFileSync('data/n.txt', 'utf8')); 0"})
	res, _ := c.Evaluate(ctx, &exec.Request{Language: exec.JavaScript, ContextID: "example", Code: "n * 2 + 2"})
	fmt.Println(string(res.Value))
	rec, _ := c.Execution(ctx, res.ExecutionID)
	fmt.Println(rec.ContextID, rec.Outcome)
	// Output:
	// 42
	// example succeeded
}

// Build a template once, then start runs from it: its setup's globals and
// its files are there, and what a run changes is its own.
func ExampleClient_CreateTemplate() {
	c := client.New(serverURL)
	ctx := context.Background()
	if _, err := c.CreateTemplate(ctx, &exec.TemplateSpec{TemplateID: "example", Language: exec.JavaScript,
		SetupCode: "globalThis.base = 40", Files: map[string]string{"two.txt": "2"}}); err != nil {
		panic(err)
	}
	defer c.DeleteTemplate(ctx, "example")
	d, err := c.WaitTemplate(ctx, "example", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.State)
	for range 2 {
		res, _ := c.Evaluate(ctx, &exec.Request{Language: exec.JavaScript, Template: "example", Code: "base += Number(fs.readFileSync('two.txt', 'utf8')); base"})
		fmt.Println(string(res.Value))
	}
	// Output:
	// ready
	// 42
	// 42
}

// Follow a process's output live; the stream ends with its exit.
func ExampleClient_FollowOutput() {
	c := client.New(serverURL)
	ctx := context.Background()
	p, err := c.Spawn(ctx, &exec.SpawnRequest{Language: exec.JavaScript, Code: "for (const l of stdin.read().split('\\n')) if (l) console.log(l.toUpperCase())"})
	if err != nil {
		panic(err)
	}
	c.WriteStdin(ctx, p.PID, []byte("one\ntwo\n"))
	c.CloseStdin(ctx, p.PID)
	s, err := c.FollowOutput(ctx, p.PID, "")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	var out strings.Builder
	for {
		e, err := s.Next()
		if err != nil {
			break
		}
		fmt.Println(e.Event)
		if e.Event == "exit" {
			break
		}
		out.WriteString(string(e.Data))
	}
	w, _ := c.Wait(ctx, p.PID, 0)
	fmt.Println(w.State, *w.ExitCode)
	// Output:
	// output
	// output
	// exit
	// exited 0
}

// Follow lifecycle events; resume after the last one read with LastID.
func ExampleClient_Events() {
	c := client.New(serverURL)
	ctx := context.Background()
	s, err := c.Events(ctx, client.EventsOptions{ContextID: "evented"})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	c.CreateContext(ctx, &exec.ContextSpec{ContextID: "evented", Language: exec.JavaScript})
	c.Evaluate(ctx, &exec.Request{Language: exec.JavaScript, ContextID: "evented", Code: "1"})
	c.DeleteContext(ctx, "evented")
	for i := 0; i < 4; i++ {
		e, err := s.Next()
		if err != nil {
			panic(err)
		}
		ev, _ := client.DecodeEvent(e)
		fmt.Println(strings.TrimSpace(ev.Type + " " + ev.Outcome))
	}
	// Output:
	// context.created
	// execution.started
	// execution.completed succeeded
	// context.deleted
}
