package client_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/client"
	"github.com/wasmexec/wasmexec/client/clienttest"
)

// serverURL is the real binary (clienttest), which the examples and tests
// talk to.
var serverURL string

func TestMain(m *testing.M) {
	srv, err := clienttest.Start()
	if errors.Is(err, clienttest.ErrSkip) {
		fmt.Println("skipping the client tests:", err)
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serverURL = srv.URL
	code := m.Run()
	srv.Close()
	os.Exit(code)
}

func Example() {
	c := client.New(serverURL) // client.WithAPIKey(key) on a server with keys
	res, err := c.Evaluate(context.Background(), &wasmexec.Request{Language: wasmexec.JavaScript, Code: "console.log('hi'); 6 * 7"})
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
	res, _ := c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, Code: "throw new Error('boom')"})
	fmt.Println(res.Outcome, res.Error.Code)

	_, err := c.Evaluate(ctx, &wasmexec.Request{Language: "cobol", Code: "1"})
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
	if _, err := c.CreateContext(ctx, &wasmexec.ContextSpec{ContextID: "example", Language: wasmexec.JavaScript}); err != nil {
		panic(err)
	}
	defer c.DeleteContext(ctx, "example")
	c.WriteFile(ctx, "example", "data/n.txt", []byte("20"))
	c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, ContextID: "example", Code: "globalThis.n = Number(fs.readFileSync('data/n.txt', 'utf8')); 0"})
	res, _ := c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, ContextID: "example", Code: "n * 2 + 2"})
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
	if _, err := c.CreateTemplate(ctx, &wasmexec.TemplateSpec{TemplateID: "example", Language: wasmexec.JavaScript,
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
		res, _ := c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, Template: "example", Code: "base += Number(fs.readFileSync('two.txt', 'utf8')); base"})
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
	p, err := c.Spawn(ctx, &wasmexec.SpawnRequest{Language: wasmexec.JavaScript, Code: "for (const l of stdin.read().split('\\n')) if (l) console.log(l.toUpperCase())"})
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
	c.CreateContext(ctx, &wasmexec.ContextSpec{ContextID: "evented", Language: wasmexec.JavaScript})
	c.Evaluate(ctx, &wasmexec.Request{Language: wasmexec.JavaScript, ContextID: "evented", Code: "1"})
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
