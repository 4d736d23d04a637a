package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// PostgreSQL unreachable at start: the server refuses to start, naming the
// URL with its password redacted, and the error.
func TestServePostgresDownAtStart(t *testing.T) {
	testenv.ImageDir(t, "js")
	c := pgtest.Shared(t)
	const secret = "hunter2-pw"
	url := fmt.Sprintf("postgres://alice:%s@127.0.0.1:%d/db?sslmode=disable", secret, c.Port+1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--addr", freeAddr(t), "--data-dir", t.TempDir(),
		"--images-dir", testenv.ImagesDir(), "--cache-dir", testenv.CacheDir(), "--store", "postgres")
	cmd.Env = append(os.Environ(), "WASMEXEC_STORE_URL="+url)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil || err == nil {
		t.Fatalf("started without PostgreSQL (err %v); output:\n%s", err, out)
	}
	for _, want := range []string{fmt.Sprintf("postgres://alice:xxxxx@127.0.0.1:%d/db", c.Port+1), "cannot reach PostgreSQL", "connect"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("message does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), secret) {
		t.Fatalf("the output shows the password:\n%s", out)
	}
}

// post sends a JSON body and returns the status, the Retry-After header
// and the body.
func post(tb testing.TB, base, path, body string) (int, string, string) {
	tb.Helper()
	hc := &http.Client{Timeout: time.Minute}
	resp, err := hc.Post(base+path, "application/json", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

// Two servers on one PostgreSQL database: a run through one is in the
// history of the other. With the database stopped, runs get 503 with
// Retry-After and nothing is reported as stored; when it is back, runs
// succeed again without a restart, and the history holds exactly the runs
// that were reported.
func TestServePostgres(t *testing.T) {
	testenv.ImageDir(t, "js")
	c, url := pgtest.Own(t)
	n1 := MustServe(t, t.TempDir(), "--store", "postgres", "--store-url", url)
	n2 := MustServe(t, t.TempDir(), "--store", "postgres", "--store-url", url)

	status, res := n1.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"console.log('hi'); 6 * 7"}`)
	if status != 200 || res["value"] != float64(42) {
		t.Fatalf("evaluate on node 1: %d %v", status, res)
	}
	id := res["executionId"].(string)
	if status, got := n2.do(t, "GET", "/v1/executions/"+id, ""); status != 200 || got["value"] != float64(42) || got["stdout"] != "hi\n" {
		t.Fatalf("node 2 reads node 1's run: %d %v", status, got)
	}

	if err := c.StopServer(); err != nil {
		t.Fatal(err)
	}
	// The first run finds out (its record cannot be stored: not
	// reported), the next is refused before it runs.
	for i := range 3 {
		status, retry, body := post(t, n1.base, "/v1/evaluate", `{"language":"javascript","code":"1 + 1"}`)
		if status != 503 || retry == "" || !strings.Contains(body, `"unavailable"`) || !strings.Contains(body, "store") {
			t.Fatalf("run %d with the database down: %d Retry-After %q %s", i, status, retry, body)
		}
		if strings.Contains(body, `"outcome"`) {
			t.Fatalf("a result was reported while it could not be stored: %s", body)
		}
	}

	// A new process is refused too (it would end without a record).
	if status, retry, body := post(t, n1.base, "/v1/processes", `{"language":"javascript","code":"1"}`); status != 503 || retry == "" {
		t.Fatalf("process with the database down: %d Retry-After %q %s", status, retry, body)
	}

	if err := c.StartServer(); err != nil {
		t.Fatal(err)
	}
	var after string
	poll.Until(t, 30*time.Second, "runs to succeed once PostgreSQL is back", func() bool {
		status, res := n1.do(t, "POST", "/v1/evaluate", `{"language":"javascript","code":"'back'"}`)
		if status == 200 {
			after = res["executionId"].(string)
		}
		return status == 200
	})
	status, list := n2.do(t, "GET", "/v1/executions", "")
	if status != 200 {
		t.Fatalf("list on node 2: %d %v", status, list)
	}
	var ids []string
	for _, e := range list["executions"].([]any) {
		ids = append(ids, e.(map[string]any)["executionId"].(string))
	}
	if len(ids) != 2 || ids[0] != after || ids[1] != id {
		t.Fatalf("history %v, want [%s %s]: exactly the runs reported", ids, after, id)
	}
}
