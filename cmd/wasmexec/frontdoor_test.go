package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	wexec "github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/client"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// Without keys the server refuses a non-loopback address, saying why.
func TestServeRefusesOpenNonLoopback(t *testing.T) {
	out, err := exec.Command(binary, "serve", "--addr", "0.0.0.0:0", "--data-dir", t.TempDir(), "--images-dir", testenv.ImagesDir()).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "without API keys") || !strings.Contains(string(out), "--insecure-open") {
		t.Fatalf("err %v, output:\n%s", err, out)
	}
	// A keys file that doesn't parse refuses to start.
	bad := filepath.Join(t.TempDir(), "keys.json")
	os.WriteFile(bad, []byte(`{"keys": [`), 0o600)
	out, err = exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--images-dir", testenv.ImagesDir(), "--auth-keys-file", bad).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "keys file") {
		t.Fatalf("a bad keys file: err %v, output:\n%s", err, out)
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:1": true, "[::1]:80": true, "0.0.0.0:80": false, ":8080": false, "10.0.0.1:80": false, "nonsense": false} {
		if got := isLoopback(addr); got != want {
			t.Errorf("isLoopback(%q) = %v", addr, got)
		}
	}
}

func statusWithKey(tb testing.TB, base, key string) int {
	tb.Helper()
	req, _ := http.NewRequest("GET", base+"/v1/contexts", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// SIGHUP reloads the keys file; a bad file keeps the keys loaded before.
func TestServeKeysReloadOnSIGHUP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	write := func(s string) {
		if err := os.WriteFile(path+".tmp", []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Rename(path+".tmp", path)
	}
	write(`{"tenants":{"a":{}},"keys":[{"tenant":"a","key":"first-key-0123456789"}]}`)
	p := MustServe(t, t.TempDir(), "--auth-keys-file", path)
	if s := statusWithKey(t, p.base, "first-key-0123456789"); s != 200 {
		t.Fatalf("first key: %d", s)
	}
	if s := statusWithKey(t, p.base, "nope"); s != 401 {
		t.Fatalf("no key: %d", s)
	}
	// The client package against the real binary: the request id is
	// echoed, logged and kept in the execution record; a bad key is an
	// *client.Error with code unauthorized.
	c := client.New(p.base, client.WithAPIKey("first-key-0123456789"))
	ctx := client.WithRequestID(context.Background(), "trace-42.a")
	res, err := c.Evaluate(ctx, &wexec.Request{Language: wexec.JavaScript, Code: "1"})
	if err != nil || res.RequestID != "trace-42.a" {
		t.Fatalf("request id: %v %+v", err, res)
	}
	if rec, err := c.Execution(ctx, res.ExecutionID); err != nil || rec.RequestID != "trace-42.a" {
		t.Fatalf("the stored record: %v %+v", err, rec)
	}
	if _, err := client.New(p.base, client.WithAPIKey("wrong-key-0123456789")).Contexts(ctx); client.Code(err) != "unauthorized" {
		t.Fatalf("a wrong key: %v", err)
	}
	// The CLI's --server mode uses the client, with WASMEXEC_API_KEY.
	cmd := exec.Command(binary, "eval", "--lang", "javascript", "--server", p.base, "6*7")
	cmd.Env = append(os.Environ(), "WASMEXEC_API_KEY=first-key-0123456789")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "42") {
		t.Fatalf("eval --server: %v %s", err, out)
	}
	poll.Until(t, 30*time.Second, "the access log line", func() bool { return strings.Contains(p.logs.String(), "requestId=trace-42.a") })
	write(`{"tenants":{"a":{}},"keys":[{"tenant":"a","key":"second-key-0123456789"}]}`)
	p.cmd.Process.Signal(syscall.SIGHUP)
	poll.Until(t, 30*time.Second, "the second key to work", func() bool { return statusWithKey(t, p.base, "second-key-0123456789") == 200 })
	if s := statusWithKey(t, p.base, "first-key-0123456789"); s != 401 {
		t.Fatalf("the first key still works after the reload: %d", s)
	}
	// An open lifecycle stream ends at shutdown instead of holding it (this
	// runs last: see the end of the test).
	stream, err := client.New(p.base, client.WithAPIKey("second-key-0123456789")).Events(context.Background(), client.EventsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	write(`{"tenants": nonsense`)
	p.cmd.Process.Signal(syscall.SIGHUP)
	poll.Until(t, 30*time.Second, "the failed reload to be logged", func() bool { return strings.Contains(p.logs.String(), "reload API keys failed") })
	if s := statusWithKey(t, p.base, "second-key-0123456789"); s != 200 {
		t.Fatalf("a bad file dropped the keys: %d", s)
	}
	start := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Fatalf("shutdown took %s with a lifecycle stream open", d)
	}
	if _, err := stream.Next(); err == nil {
		t.Fatal("the stream goes on after shutdown")
	}
}

// lockedLog is a server's log, written by its reader goroutine while a
// test reads it.
type lockedLog struct {
	mu   sync.Mutex
	b    strings.Builder
	done chan struct{} // closed when the server's stderr ends (MustServe)
}

func (l *lockedLog) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// wait returns the whole log once the server closed its stderr.
func (l *lockedLog) wait(tb testing.TB) string {
	tb.Helper()
	select {
	case <-l.done:
	case <-time.After(time.Minute):
		tb.Fatal("the server's stderr is still open")
	}
	return l.String()
}
