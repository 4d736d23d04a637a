// Package procbench measures processes over HTTP for `make bench` and the
// Go benchmarks of package processes. It drives a running server (baseURL,
// e.g. "http://127.0.0.1:8080") and reads output from the live SSE stream,
// never by polling. It imports no engine code (no cgo), so the bench tool
// can use it against the real server binary.
package procbench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// event is the part of an output event the measurements need.
type event struct {
	Sequence uint64 `json:"sequence"`
	Chunk    string `json:"chunk"`
	Encoding string `json:"encoding"`
}

func (e event) bytes() ([]byte, error) {
	if e.Encoding == "base64" {
		return base64.StdEncoding.DecodeString(e.Chunk)
	}
	return []byte(e.Chunk), nil
}

// RoundTrip is the stdin → stdout latency of a live process: from sending
// POST /stdin with one line to receiving the echoed line on the stream.
type RoundTrip struct {
	Samples       int
	P50, P90, P99 time.Duration
}

// MeasureRoundTrip spawns a JavaScript echo process, sends samples lines
// one at a time and times each until its reply arrives on the SSE stream.
func MeasureRoundTrip(ctx context.Context, client *http.Client, baseURL string, samples int) (RoundTrip, error) {
	if client == nil {
		client = http.DefaultClient
	}
	pid, err := benchSpawn(ctx, client, baseURL, `let l; while ((l = stdin.readLine()) !== null) console.log(l)`)
	if err != nil {
		return RoundTrip{}, err
	}
	defer benchKill(client, baseURL, pid)
	s, err := openSSE(ctx, client, fmt.Sprintf("%s/v1/processes/%d/output/stream", baseURL, pid))
	if err != nil {
		return RoundTrip{}, err
	}
	defer s.Close()
	url := fmt.Sprintf("%s/v1/processes/%d/stdin", baseURL, pid)
	lat := make([]time.Duration, 0, samples)
	for i := 0; i < samples+10; i++ { // the first 10 warm up
		line := "ping " + strconv.Itoa(i)
		t0 := time.Now()
		resp, err := client.Post(url, "application/octet-stream", strings.NewReader(line+"\n"))
		if err != nil {
			return RoundTrip{}, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return RoundTrip{}, fmt.Errorf("stdin: HTTP %d", resp.StatusCode)
		}
		ev, err := s.nextOutput()
		if err != nil {
			return RoundTrip{}, err
		}
		if ev.Chunk != line+"\n" {
			return RoundTrip{}, fmt.Errorf("echo: got %q, want %q", ev.Chunk, line)
		}
		if i >= 10 {
			lat = append(lat, time.Since(t0))
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	return RoundTrip{Samples: len(lat), P50: q(0.50), P90: q(0.90), P99: q(0.99)}, nil
}

// Throughput is what a live SSE reader received from a process writing
// 4 KiB chunks in a loop.
type Throughput struct {
	Bytes   int64         // chunk bytes received
	Events  int           // output events received
	Dropped uint64        // events the reader missed (fell behind the retained window)
	Elapsed time.Duration // from spawn to the exit event
	MBps    float64       // Bytes / Elapsed, in 10^6 bytes per second
}

// MeasureThroughput spawns a JavaScript process writing totalBytes in
// 4 KiB chunks and reads its stream to the exit event.
func MeasureThroughput(ctx context.Context, client *http.Client, baseURL string, totalBytes int64) (Throughput, error) {
	if client == nil {
		client = http.DefaultClient
	}
	chunks := max(1, totalBytes/4096)
	t0 := time.Now()
	pid, err := benchSpawn(ctx, client, baseURL, fmt.Sprintf(`const s = 'x'.repeat(4096); for (let i = 0; i < %d; i++) process.stdout.write(s)`, chunks))
	if err != nil {
		return Throughput{}, err
	}
	defer benchKill(client, baseURL, pid)
	s, err := openSSE(ctx, client, fmt.Sprintf("%s/v1/processes/%d/output/stream", baseURL, pid))
	if err != nil {
		return Throughput{}, err
	}
	defer s.Close()
	var t Throughput
	var last uint64
	for {
		ev, err := s.next()
		if err != nil {
			return t, err
		}
		switch ev.event {
		case "output":
			seq, n, err := chunkInfo(ev.data)
			if err != nil {
				return t, err
			}
			t.Bytes += int64(n)
			t.Events++
			t.Dropped += seq - last - 1
			last = seq
		case "exit":
			t.Elapsed = time.Since(t0)
			t.MBps = float64(t.Bytes) / t.Elapsed.Seconds() / 1e6
			var x struct {
				Outcome string          `json:"outcome"`
				Error   json.RawMessage `json:"error"`
			}
			if json.Unmarshal(ev.data, &x) == nil && x.Outcome != "exited" {
				return t, fmt.Errorf("the writer ended %s: %s", x.Outcome, x.Error)
			}
			return t, nil
		}
	}
}

func benchSpawn(ctx context.Context, client *http.Client, baseURL, code string) (int64, error) {
	body, _ := json.Marshal(map[string]string{"language": "javascript", "code": code})
	req, err := http.NewRequestWithContext(ctx, "POST", baseURL+"/v1/processes", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var p struct {
		PID int64 `json:"pid"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil || resp.StatusCode != http.StatusCreated {
		return 0, fmt.Errorf("spawn: HTTP %d (%v)", resp.StatusCode, err)
	}
	return p.PID, nil
}

func benchKill(client *http.Client, baseURL string, pid int64) {
	resp, err := client.Post(fmt.Sprintf("%s/v1/processes/%d/signal", baseURL, pid), "application/json", strings.NewReader(`{"signal":"SIGKILL"}`))
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// sseReader reads Server-Sent Events.
type sseReader struct {
	body   io.ReadCloser
	r      *bufio.Reader
	cancel context.CancelFunc
}

type sseEvent struct {
	id, event string
	data      []byte
}

func openSSE(ctx context.Context, client *http.Client, url string) (*sseReader, error) {
	ctx, cancel := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("stream: HTTP %d", resp.StatusCode)
	}
	return &sseReader{body: resp.Body, r: bufio.NewReaderSize(resp.Body, 256<<10), cancel: cancel}, nil
}

func (s *sseReader) Close() {
	s.cancel()
	s.body.Close()
}

func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	for {
		line, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A long data line: collect it whole.
			rest, err2 := s.r.ReadBytes('\n')
			line, err = append(append([]byte(nil), line...), rest...), err2
		}
		if err != nil {
			return ev, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch {
		case len(line) == 0:
			if ev.event != "" {
				return ev, nil
			}
		case line[0] == ':':
		case bytes.HasPrefix(line, []byte("id: ")):
			ev.id = string(line[4:])
		case bytes.HasPrefix(line, []byte("event: ")):
			ev.event = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")):
			ev.data = append(ev.data, line[6:]...)
		}
	}
}

func (s *sseReader) nextOutput() (event, error) {
	for {
		ev, err := s.next()
		if err != nil {
			return event{}, err
		}
		switch ev.event {
		case "output":
			var e event
			err := json.Unmarshal(ev.data, &e)
			return e, err
		case "exit":
			return event{}, fmt.Errorf("the process exited: %s", ev.data)
		}
	}
}

// chunkInfo returns an output event's sequence and chunk length. It is
// what a lean consumer does: find the fields, unescape only when the chunk
// has escapes, fall back to a full decode for base64 chunks.
func chunkInfo(data []byte) (seq uint64, n int, err error) {
	const seqKey, chunkKey = `"sequence":`, `"chunk":"`
	i := bytes.Index(data, []byte(seqKey))
	j := bytes.Index(data, []byte(chunkKey))
	if i < 0 || j < 0 || bytes.Contains(data, []byte(`"encoding":`)) {
		return fullDecode(data)
	}
	rest := data[i+len(seqKey):]
	k := bytes.IndexByte(rest, ',')
	if k < 0 {
		return 0, 0, fmt.Errorf("malformed event %.80s", data)
	}
	if seq, err = strconv.ParseUint(string(rest[:k]), 10, 64); err != nil {
		return 0, 0, err
	}
	str := data[j+len(chunkKey):]
	end := bytes.IndexByte(str, '"')
	if end >= 0 && bytes.IndexByte(str[:end], '\\') < 0 {
		return seq, end, nil
	}
	return fullDecode(data)
}

func fullDecode(data []byte) (uint64, int, error) {
	var e event
	if err := json.Unmarshal(data, &e); err != nil {
		return 0, 0, err
	}
	b, err := e.bytes()
	return e.Sequence, len(b), err
}
