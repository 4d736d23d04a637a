// Command wasmexec-bench is the load run behind `make bench`: it starts the
// real server binary on a loopback port, drives it over HTTP and prints a
// table of medians, tails, throughput, ratios and memory. Numbers from a
// shared 2-core machine are noisy: read ratios and medians, not single runs.
//
// Size: each section of `make bench` is one file; they share the server runner
// and the table.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	binPath   = flag.String("bin", "bin/wasmexec", "server binary")
	imagesDir = flag.String("images-dir", "build/images", "guest images")
	duration  = flag.Duration("duration", 3*time.Second, "length of each throughput run")
	samples   = flag.Int("samples", 300, "sequential requests per latency measurement")
	only      = flag.String("only", "", "comma-separated sections to run (js, and those registered by the other files: python, ts (the checker), tsrun (TypeScript one-shot runs vs JavaScript), store, pool, frontdoor, authcost, postgres, events, cluster, ...); empty: all")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func want(section string) bool {
	if *only == "" {
		return true
	}
	for _, s := range strings.Split(*only, ",") {
		if s == section {
			return true
		}
	}
	return false
}

type table struct{ rows [][3]string }

func (t *table) add(metric, value, target string) {
	t.rows = append(t.rows, [3]string{metric, value, target})
	fmt.Fprintf(os.Stderr, "  %-58s %s\n", metric, value)
}

func (t *table) print() {
	w := [3]int{}
	for _, r := range t.rows {
		for i := range r {
			w[i] = max(w[i], len(r[i]))
		}
	}
	line := func(r [3]string) { fmt.Printf("| %-*s | %-*s | %-*s |\n", w[0], r[0], w[1], r[1], w[2], r[2]) }
	line([3]string{"metric", "value", "target"})
	fmt.Printf("|%s|%s|%s|\n", strings.Repeat("-", w[0]+2), strings.Repeat("-", w[1]+2), strings.Repeat("-", w[2]+2))
	for _, r := range t.rows {
		line(r)
	}
}

func run() error {
	var t table
	dataDir, err := os.MkdirTemp("", "wasmexec-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dataDir)

	index, err := benchIndex()
	if err != nil {
		return err
	}
	srv, err := startServer(dataDir, []string{"--python-index-url", index})
	if err != nil {
		return err
	}
	defer srv.stop()
	t.add("server RSS idle (MiB)", fmt.Sprintf("%.1f", srv.rssMiB()), "report")

	if want("js") {
		benchLanguage(&t, srv, "javascript", "1+1", "≤ 5 ms p50", "≥ 1000/s at c=4")
		guestRatio(&t, srv)
	}
	for _, s := range extraSections {
		if want(s.name) {
			if err := s.run(&t, srv, dataDir); err != nil {
				t.add(s.name+" section", "error: "+err.Error(), "")
			}
		}
	}
	fmt.Println()
	t.print()
	return nil
}

// extraSections are added by other files (python, typescript, store,
// pool, …) with register, in their init functions.
var extraSections []struct {
	name string
	run  func(t *table, srv *server, dataDir string) error
}

// register adds a section run by -only name (and by default).
func register(name string, run func(t *table, srv *server, dataDir string) error) {
	extraSections = append(extraSections, struct {
		name string
		run  func(t *table, srv *server, dataDir string) error
	}{name, run})
}

func benchLanguage(t *table, srv *server, lang, code, p50Target, tputTarget string) {
	body := fmt.Sprintf(`{"language":%q,"code":%q}`, lang, code)
	for i := 0; i < 20; i++ {
		srv.post("/v1/evaluate", body)
	}
	lat := srv.latencies("/v1/evaluate", body, *samples)
	t.add(fmt.Sprintf("%s one-shot %q over HTTP p50 / p95 (ms, c=1)", lang, code), fmt.Sprintf("%.2f / %.2f", pct(lat, 50), pct(lat, 95)), p50Target)
	var peak float64
	for _, c := range []int{1, 4, 16} {
		l := srv.throughput("/v1/evaluate", body, c, *duration)
		peak = max(peak, l.peakRSS)
		target := ""
		if c == 4 {
			target = tputTarget
		}
		t.add(fmt.Sprintf("%s throughput at concurrency %d (req/s)", lang, c), fmt.Sprintf("%.0f", l.rate), target)
		if c == 4 {
			t.add(fmt.Sprintf("%s server CPU per request at c=4, user + sys (ms)", lang), fmt.Sprintf("%.2f + %.2f = %.2f", l.userMs, l.sysMs, l.userMs+l.sysMs), "report")
		}
	}
	t.add(fmt.Sprintf("server RSS peak under %s load (MiB)", lang), fmt.Sprintf("%.1f", peak), "report")
}

func guestRatio(t *table, srv *server) {
	const fib = "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(27)"
	var guest []float64
	for i := 0; i < 3; i++ {
		res, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":"javascript","code":%q}`, fib))
		if err != nil {
			t.add("guest fib(27)", "error: "+err.Error(), "")
			return
		}
		guest = append(guest, res.DurationMs)
	}
	native := nativeGojaFib27()
	g := pct(guest, 50)
	t.add("JS fib(27): guest (fuel on) / native goja (ms)", fmt.Sprintf("%.0f / %.0f", g, native), "report")
	t.add("JS guest CPU ratio vs native goja", fmt.Sprintf("%.2fx", g/native), "report")
}

type result struct {
	Outcome      string          `json:"outcome"`
	Value        json.RawMessage `json:"value"`
	DurationMs   float64         `json:"durationMs"`
	FuelConsumed uint64          `json:"fuelConsumed"`
	Error        *struct {
		Code, Message string
	} `json:"error"`
}

type server struct {
	cmd  *exec.Cmd
	base string
	hc   *http.Client
	log  *bytes.Buffer
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func startServer(dataDir string, extra []string) (*server, error) {
	return startServerBin(*binPath, dataDir, extra)
}

// startServerBin is startServer with the server binary bin.
func startServerBin(bin, dataDir string, extra []string) (*server, error) {
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	for i, a := range extra { // an --addr of the caller's wins (cluster: it is advertised)
		if a == "--addr" && i+1 < len(extra) {
			addr = extra[i+1]
		}
	}
	args := append([]string{"serve", "--addr", addr, "--data-dir", dataDir, "--images-dir", *imagesDir, "--log-level", "warn"}, extra...)
	cmd := exec.Command(bin, args...)
	var log bytes.Buffer
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, base: "http://" + addr, log: &log, hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 2 * time.Minute}}
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		resp, err := s.hc.Get(s.base + "/readyz")
		if err == nil {
			// Runs are served (200) before the TypeScript checker is
			// warm; the bench measures both, so it waits for the checker.
			var body struct {
				Parts map[string]struct{ State string } `json:"parts"`
			}
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode == 200 && body.Parts["typescriptCheck"].State != "warming up" {
				// After ready, the checker's workers go on warming the dom
				// lib (5-10 s of CPU each, --tscheck-warm-dom) and the
				// pools fill: measured then, a fresh server looked ~40%
				// slower than the same one a minute later.
				waitQuiet(time.Minute)
				return s, nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("server not ready: %s", log.String())
}

// waitQuiet waits until the machine's CPUs are at least 85% idle over
// half a second (/proc/stat), or for at most max.
func waitQuiet(max time.Duration) {
	idle := func() (idle, total uint64) {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0
		}
		line, _, _ := strings.Cut(string(b), "\n")
		for i, f := range strings.Fields(line)[1:] {
			v, _ := strconv.ParseUint(f, 10, 64)
			total += v
			if i == 3 || i == 4 { // idle, iowait
				idle += v
			}
		}
		return idle, total
	}
	for end := time.Now().Add(max); time.Now().Before(end); {
		i0, t0 := idle()
		time.Sleep(500 * time.Millisecond)
		i1, t1 := idle()
		if t1 <= t0 || float64(i1-i0)/float64(t1-t0) >= 0.85 {
			return
		}
	}
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
	}
}

func (s *server) rssMiB() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

func (s *server) post(path, body string) (*result, error) {
	resp, err := s.hc.Post(s.base+path, "application/json", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	if r.Outcome != "succeeded" && r.Outcome != "" {
		return &r, fmt.Errorf("outcome %s: %+v", r.Outcome, r.Error)
	}
	return &r, nil
}

// latencies measures n sequential requests, in ms.
func (s *server) latencies(path, body string, n int) []float64 {
	out := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if _, err := s.post(path, body); err != nil {
			fmt.Fprintln(os.Stderr, "request failed:", err)
			continue
		}
		out = append(out, float64(time.Since(t0).Microseconds())/1000)
	}
	return out
}

// alternating measures n rounds of sequential requests, one of each body
// in turn, in ms by body.
func (s *server) alternating(path string, bodies []string, n int) [][]float64 {
	out := make([][]float64, len(bodies))
	for i := 0; i < n; i++ {
		for k, body := range bodies {
			t0 := time.Now()
			if _, err := s.post(path, body); err != nil {
				fmt.Fprintln(os.Stderr, "request failed:", err)
				continue
			}
			out[k] = append(out[k], float64(time.Since(t0).Microseconds())/1000)
		}
	}
	return out
}

// load is the outcome of a throughput run.
type load struct {
	rate    float64 // completed requests per second
	peakRSS float64 // MiB
	// userMs and sysMs are the server process's CPU time per completed
	// request, from /proc/PID/stat before and after the run (all threads).
	userMs, sysMs float64
}

// throughput runs c clients for d and returns completed requests per
// second, the peak RSS seen and the server's CPU per request.
func (s *server) throughput(path, body string, c int, d time.Duration) load {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var n atomic.Int64
	var wg sync.WaitGroup
	u0, s0 := s.cpuTicks()
	start := time.Now()
	for i := 0; i < c; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := s.post(path, body); err == nil {
					n.Add(1)
				}
			}
		}()
	}
	var peak float64
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		select {
		case <-tick.C:
			peak = max(peak, s.rssMiB())
		case <-ctx.Done():
		}
	}
	wg.Wait()
	elapsed := time.Since(start)
	u1, s1 := s.cpuTicks()
	l := load{rate: float64(n.Load()) / elapsed.Seconds(), peakRSS: peak}
	if done := n.Load(); done > 0 {
		l.userMs = float64(u1-u0) * tickMs / float64(done)
		l.sysMs = float64(s1-s0) * tickMs / float64(done)
	}
	return l
}

// tickMs is the length of a clock tick of /proc/PID/stat (USER_HZ, 100 on
// Linux), in ms.
const tickMs = 10.0

// cpuTicks returns the server process's user and system CPU time in clock
// ticks (fields 14 and 15 of /proc/PID/stat).
func (s *server) cpuTicks() (user, sys int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	// The command name (field 2) may hold spaces: count after its ')'.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, 0
	}
	user, _ = strconv.ParseInt(f[11], 10, 64)
	sys, _ = strconv.ParseInt(f[12], 10, 64)
	return user, sys
}

func pct(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(float64(len(s)-1) * p / 100)
	return s[i]
}

// postStatus posts body and fails on a non-2xx status.
func (s *server) postStatus(path, body string) ([]byte, error) {
	resp, err := s.hc.Post(s.base+path, "application/json", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return b, fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	return b, nil
}

func (s *server) delete(path string) {
	req, _ := http.NewRequest(http.MethodDelete, s.base+path, nil)
	if resp, err := s.hc.Do(req); err == nil {
		resp.Body.Close()
	}
}

// pacedLatencies measures n requests with a pause between them, in ms.
func (s *server) pacedLatencies(path, body string, n int, pause time.Duration) []float64 {
	out := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		time.Sleep(pause)
		t0 := time.Now()
		if _, err := s.post(path, body); err != nil {
			continue
		}
		out = append(out, float64(time.Since(t0).Microseconds())/1000)
	}
	return out
}
