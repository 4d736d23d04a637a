package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"
)

func init() {
	register("network", benchNetwork)
}

// benchNetwork measures a guest's fetch of a local 1 KiB
// response against the same request made by Go directly: the p50 a fetch
// adds to a one-shot run (each run has its own connection, so a new TCP
// connection each time, like Go's with keep-alives off), and 100
// sequential fetches in one run (one kept-alive connection) against 100 by
// Go on one connection.
func benchNetwork(t *table, _ *server, dataDir string) error {
	payload := strings.Repeat("x", 1024)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, payload) })}
	go hs.Serve(l)
	defer hs.Close()
	url := "http://" + l.Addr().String() + "/"

	srv, err := startServer(filepath.Join(dataDir, "network"), []string{"--network-allow", "127.0.0.1:*", "--network-max-requests", "1000"})
	if err != nil {
		return err
	}
	defer srv.stop()
	network := fmt.Sprintf(`"network":{"allow":[%q]}`, url)
	body := func(code string) string {
		c, _ := json.Marshal(code)
		return fmt.Sprintf(`{"language":"javascript","code":%s,%s}`, c, network)
	}
	one := body(fmt.Sprintf(`(await (await fetch(%q)).text()).length`, url))
	none := body(`1024`)
	if r, err := srv.post("/v1/evaluate", one); err != nil || string(r.Value) != "1024" {
		return fmt.Errorf("guest fetch: %v %+v", err, r)
	}
	n := *samples / 2
	for i := 0; i < 10; i++ {
		srv.post("/v1/evaluate", one)
		srv.post("/v1/evaluate", none)
	}
	var with, without []float64
	for i := 0; i < n; i++ { // interleaved: both share the noise
		with = append(with, srv.latencies("/v1/evaluate", one, 1)...)
		without = append(without, srv.latencies("/v1/evaluate", none, 1)...)
	}
	guest := pct(with, 50) - pct(without, 50)

	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	var direct []float64
	for i := 0; i < n; i++ {
		t0 := time.Now()
		resp, err := fresh.Get(url)
		if err != nil {
			return err
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
		direct = append(direct, float64(time.Since(t0).Microseconds())/1000)
	}
	goP50 := pct(direct, 50)
	t.add("network: guest fetch of 1 KiB, p50 added to a run / Go directly (ms)", fmt.Sprintf("%.2f / %.2f", guest, goP50), "report")
	t.add("network: guest fetch p50 overhead vs Go directly (ms, ratio)", fmt.Sprintf("%.2f (%.1fx)", guest-goP50, guest/goP50), "report")

	// 100 sequential fetches in one run.
	const k = 100
	loop := body(fmt.Sprintf(`let n = 0; for (let i = 0; i < %d; i++) n += (await (await fetch(%q)).arrayBuffer()).byteLength; n`, k, url))
	var runs []float64
	for i := 0; i < 7; i++ {
		r, err := srv.post("/v1/evaluate", loop)
		if err != nil || string(r.Value) != fmt.Sprint(k*1024) {
			return fmt.Errorf("100 fetches: %v %+v", err, r)
		}
		runs = append(runs, r.DurationMs)
	}
	kept := &http.Client{Transport: &http.Transport{}}
	var goRuns []float64
	for i := 0; i < 7; i++ {
		t0 := time.Now()
		for j := 0; j < k; j++ {
			resp, err := kept.Get(url)
			if err != nil {
				return err
			}
			io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		goRuns = append(goRuns, float64(time.Since(t0).Microseconds())/1000)
	}
	g, d := pct(runs, 50), pct(goRuns, 50)
	t.add("network: 100 sequential fetches in one run, median run / Go (ms)", fmt.Sprintf("%.1f / %.1f", g, d), "report")
	t.add("network: fetches per second in one run / Go on one connection", fmt.Sprintf("%.0f / %.0f", k/g*1000, k/d*1000), "report")

	// Python: 100 sequential urlopen calls in one run.
	pc, _ := json.Marshal(fmt.Sprintf("import urllib.request\nn = 0\nfor i in range(%d):\n    n += len(urllib.request.urlopen(%q).read())\nn", k, url))
	py := fmt.Sprintf(`{"language":"python","code":%s,%s}`, pc, network)
	var pyRuns []float64
	for i := 0; i < 7; i++ {
		r, err := srv.post("/v1/evaluate", py)
		if err != nil || string(r.Value) != fmt.Sprint(k*1024) {
			return fmt.Errorf("python: 100 urlopen: %v %+v", err, r)
		}
		pyRuns = append(pyRuns, r.DurationMs)
	}
	p := pct(pyRuns, 50)
	t.add("network: Python, 100 sequential urlopen in one run, median run (ms)", fmt.Sprintf("%.1f (%.0f/s)", p, k/p*1000), "report")
	return nil
}
