package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// streamedEvent is one event of a streamed run and when it arrived.
type streamedEvent struct {
	sseEvent
	At time.Time
}

// openRunStream POSTs body to url with Accept: text/event-stream. It
// returns the response; the caller reads it with readRunStream.
func openRunStream(tb testing.TB, ctx context.Context, url, body string) *http.Response {
	tb.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readRunStream reads a streamed run to its end, stamping each event.
func readRunStream(tb testing.TB, resp *http.Response) []streamedEvent {
	tb.Helper()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		tb.Fatalf("stream: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	var (
		out []streamedEvent
		e   streamedEvent
	)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if e.Type != "" {
				e.At = time.Now()
				out = append(out, e)
			}
			e = streamedEvent{}
		case strings.HasPrefix(line, "id: "):
			e.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			e.Type = line[7:]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &e.Data); err != nil {
				tb.Fatalf("data %q: %v", line, err)
			}
		}
	}
	return out
}

// A streamed run delivers its output as it happens: the first line comes
// while the run still sleeps, well before the result.
func TestStreamedRunDeliversOutputLive(t *testing.T) {
	ts := MustServer(t, testenv.RunnerConfig{}, 0)
	for _, tc := range []struct{ name, path, body string }{
		{"execute", "/v1/execute", `{"language":"javascript","code":"console.log('first'); setTimeout(() => console.log('second'), 500)"}`},
		{"evaluate", "/v1/evaluate", `{"language":"javascript","code":"console.log('first'); const t0 = Date.now(); while (Date.now() - t0 < 500) {} console.log('second'); 42"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := readRunStream(t, openRunStream(t, context.Background(), ts.URL+tc.path, tc.body))
			if len(evs) != 3 || evs[0].Type != "output" || evs[1].Type != "output" || evs[2].Type != "result" {
				t.Fatalf("events: %+v", evs)
			}
			first, second, result := evs[0], evs[1], evs[2]
			if first.Data["chunk"] != "first\n" || first.Data["channel"] != "stdout" || first.Data["sequence"] != float64(1) || first.ID == "" || second.Data["chunk"] != "second\n" {
				t.Fatalf("output events: %v %v", first.Data, second.Data)
			}
			if gap := result.At.Sub(first.At); gap < 300*time.Millisecond {
				t.Fatalf("the first output came %v before the result: it was not live", gap)
			}
			if result.Data["outcome"] != "succeeded" || result.Data["stdout"] != "first\nsecond\n" || !strings.HasPrefix(result.Data["executionId"].(string), "exe_") {
				t.Fatalf("result: %v", result.Data)
			}
		})
	}
}

// The stream answers only when asked for by Accept; a request refused
// before its run starts is the usual JSON error with its status.
func TestStreamedRunNegotiationAndErrors(t *testing.T) {
	ts := MustServer(t, testenv.RunnerConfig{}, 0)
	for _, tc := range []struct {
		name, accept, body string
		status             int
		contentType        string
	}{
		{"json by default", "", `{"language":"javascript","code":"1"}`, 200, "application/json"},
		{"json preferred", "application/json, text/event-stream", `{"language":"javascript","code":"1"}`, 200, "application/json"},
		{"sse preferred by q", "application/json;q=0.5, text/event-stream", `{"language":"javascript","code":"1"}`, 200, "text/event-stream"},
		{"wildcard is json", "*/*", `{"language":"javascript","code":"1"}`, 200, "application/json"},
		{"unknown language", "text/event-stream", `{"language":"cobol","code":"1"}`, 400, "application/json"},
		{"timeout over max", "text/event-stream", `{"language":"javascript","code":"1","timeoutMs":99999999}`, 400, "application/json"},
		{"malformed", "text/event-stream", `{"language":`, 400, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL+"/v1/evaluate", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.contentType) {
				t.Fatalf("%d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
			}
		})
	}
}

// A client that closes the stream cancels the run (the runner has no
// live run left long before the run's timeout).
func TestStreamedRunDisconnectCancels(t *testing.T) {
	ts, p := MustServerRunner(t, testenv.RunnerConfig{}, 0)
	ctx, cancel := context.WithCancel(context.Background())
	resp := openRunStream(t, ctx, ts.URL+"/v1/execute", `{"language":"javascript","code":"console.log('spinning'); for(;;){}","timeoutMs":30000}`)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), "spinning") {
	}
	if p.Live() != 1 {
		t.Fatalf("%d live runs while the stream is open", p.Live())
	}
	start := time.Now()
	cancel()
	waitUntil(t, "the run to end", func() bool { return p.Live() == 0 })
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the run ended %v after the disconnect", took)
	}
}

// A run in a context streams too; its result says so, and a stream cut
// by the context's timeout reports the reset.
func TestStreamedContextRun(t *testing.T) {
	s := mustContextServer(t, contexts.Config{}, 0, 0)
	wantStatus(t, do(t, "POST", s.URL+"/v1/contexts", `{"contextId":"s1","language":"javascript"}`), 201, "")
	evs := readRunStream(t, openRunStream(t, context.Background(), s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"s1","code":"globalThis.n = 1; console.error('to stderr'); n"}`))
	if len(evs) != 2 || evs[0].Data["channel"] != "stderr" || evs[1].Type != "result" || evs[1].Data["contextId"] != "s1" || evs[1].Data["value"] != float64(1) {
		t.Fatalf("events: %+v", evs)
	}
	evs = readRunStream(t, openRunStream(t, context.Background(), s.URL+"/v1/evaluate", `{"language":"javascript","contextId":"s1","code":"for(;;){}","timeoutMs":200}`))
	if last := evs[len(evs)-1]; last.Type != "result" || last.Data["outcome"] != "timed_out" || last.Data["contextReset"] != true {
		t.Fatalf("events: %+v", evs)
	}
}
