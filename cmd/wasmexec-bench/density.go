package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	densityJS      = flag.Int("density-js", 10000, "JavaScript contexts the density section creates on each of its servers")
	densityPython  = flag.Int("density-python", 2000, "Python contexts the density section creates on each of its servers")
	densityBudget  = flag.Int64("density-budget", 512<<20, "the --contexts-memory-bytes of the density section's second server")
	densityThrash  = flag.Duration("density-thrash", 10*time.Second, "length of the density section's round-robin thrash")
	densityParts   = flag.String("density-parts", "costs,default,set", "parts of the density section to run (costs, default, set: the set budget and the thrash)")
	densityAgainst = flag.String("density-against", "", "another server binary (an earlier build) measured beside -bin in the set part: its own mass creation, and the thrash alternately with -bin's")
)

func densityPart(p string) bool { return strings.Contains(","+*densityParts+",", ","+p+",") }

func init() {
	register("density", benchDensity)
}

// benchDensity measures how many contexts a server holds within its
// memory budget (docs/CONTEXTS.md "Memory budget"): what an idle live
// context costs, create + 1+1, the first run on a hibernated context
// against a live one, then many contexts created quickly from four
// clients, each run once and a random 5% again, on a server with the
// default budget and one with --density-budget (RSS sampled throughout),
// and a round robin over twice the contexts the set budget keeps live.
func benchDensity(t *table, _ *server, dataDir string) error {
	if densityPart("costs") {
		if err := densityCosts(t, filepath.Join(dataDir, "density-costs")); err != nil {
			return err
		}
	}
	if densityPart("default") {
		if _, err := densityMass(t, filepath.Join(dataDir, "density-default"), *binPath, 0, false); err != nil {
			return err
		}
	}
	if !densityPart("set") {
		return nil
	}
	// The other build's server first: the set of the thrash is sized on
	// -bin's, just made (the contexts of one left idle for a minute, as
	// the other is made, are hibernated for being idle).
	var against *server
	if *densityAgainst != "" {
		var err error
		if against, err = densityMass(t, filepath.Join(dataDir, "density-set-against"), *densityAgainst, *densityBudget, true); err != nil {
			return err
		}
		defer against.stop()
	}
	srv, err := densityMass(t, filepath.Join(dataDir, "density-set"), *binPath, *densityBudget, true)
	if err != nil {
		return err
	}
	defer srv.stop()
	return densityThrashRun(t, srv, against)
}

// densityLangs are the languages of the section, with code that sets a
// context's own value and code that reads it.
var densityLangs = []struct{ name, set, get string }{
	{"javascript", "var mine = %d; mine", "mine"},
	{"python", "mine = %d\nmine", "mine"},
}

func densityServer(bin, dir string, budget int64) (*server, error) {
	args := []string{"--tscheck-workers", "0", "--store=false", "--max-contexts", "100000"}
	if budget > 0 {
		args = append(args, "--contexts-memory-bytes", fmt.Sprint(budget))
	}
	return startServerBin(bin, dir, args)
}

// binLabel names server binary bin in the table when it is not -bin.
func binLabel(bin string) string {
	if bin == *binPath {
		return ""
	}
	return " [" + bin + "]"
}

// densityCosts: idle private memory per live context (RssAnon of the
// server per context once they are idle and trimmed, and the guests' own
// private bytes from /metrics), create + 1+1, and the first run on a
// hibernated context against a live one.
func densityCosts(t *table, dir string) error {
	srv, err := densityServer(*binPath, dir, 0)
	if err != nil {
		return err
	}
	defer srv.stop()
	const n = 40
	for _, lang := range densityLangs {
		anon0 := srv.status("RssAnon:")
		live0, priv0 := srv.metric("wasmexec_contexts_live"), srv.metric("wasmexec_contexts_live_private_bytes")
		for i := range n {
			id := fmt.Sprintf("idle-%s-%d", lang.name, i)
			if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, id, lang.name)); err != nil {
				return err
			}
			if _, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, lang.name, id, fmt.Sprintf(lang.set, i))); err != nil {
				return err
			}
		}
		time.Sleep(3 * time.Second) // idle: measured and trimmed by the governor
		anon := (srv.status("RssAnon:") - anon0) / n
		live := srv.metric("wasmexec_contexts_live") - live0
		priv := (srv.metric("wasmexec_contexts_live_private_bytes") - priv0) / max(live, 1)
		t.add(fmt.Sprintf("density: %s idle live context, private memory (MiB: server RssAnon per context; guest's own pages)", lang.name),
			fmt.Sprintf("%.2f; %.2f", anon/(1<<20), priv/(1<<20)), "≤ 3 MiB")
		for i := range n {
			srv.delete(fmt.Sprintf("/v1/contexts/idle-%s-%d", lang.name, i))
		}

		var create []float64
		for i := range max(*samples/6, 20) {
			id := fmt.Sprintf("new-%s-%d", lang.name, i)
			t0 := time.Now()
			if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, id, lang.name)); err != nil {
				return err
			}
			if _, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":%q,"code":"1+1"}`, lang.name, id)); err != nil {
				return err
			}
			create = append(create, float64(time.Since(t0).Microseconds())/1000)
			srv.delete("/v1/contexts/" + id)
		}
		t.add(fmt.Sprintf("density: %s create + 1+1 p50 / p90 (ms)", lang.name), fmt.Sprintf("%.2f / %.2f", pct(create, 50), pct(create, 90)), "≤ 3 ms p50")

		id := "wake-" + lang.name
		if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, id, lang.name)); err != nil {
			return err
		}
		if _, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, lang.name, id, fmt.Sprintf(lang.set, 7))); err != nil {
			return err
		}
		body := fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, lang.name, id, lang.get)
		var onLive, woken []float64
		for range max(*samples/6, 20) { // interleaved, to share the noise
			t0 := time.Now()
			if _, err := srv.post("/v1/evaluate", body); err != nil {
				return err
			}
			onLive = append(onLive, float64(time.Since(t0).Microseconds())/1000)
			if _, err := srv.postStatus("/v1/contexts/"+id+"/hibernate", ""); err != nil {
				return err
			}
			t0 = time.Now()
			if _, err := srv.post("/v1/evaluate", body); err != nil {
				return err
			}
			woken = append(woken, float64(time.Since(t0).Microseconds())/1000)
		}
		t.add(fmt.Sprintf("density: %s first run on a hibernated / a live context p50 (ms)", lang.name),
			fmt.Sprintf("%.2f / %.2f (+%.2f)", pct(woken, 50), pct(onLive, 50), pct(woken, 50)-pct(onLive, 50)), "≤ +3 ms")
		srv.delete("/v1/contexts/" + id)
	}
	return nil
}

// rssWatch samples a server's RSS every 20 ms until stopped.
type rssWatch struct {
	stop     chan struct{}
	done     chan struct{}
	peak     float64 // MiB
	over     int     // samples over the budget
	samples  int
	budgetMB float64
}

func watchRSS(srv *server, budgetMiB float64) *rssWatch {
	w := &rssWatch{stop: make(chan struct{}), done: make(chan struct{}), budgetMB: budgetMiB}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-tick.C:
				r := srv.rssMiB()
				w.samples++
				w.peak = max(w.peak, r)
				if r > w.budgetMB {
					w.over++
				}
			}
		}
	}()
	return w
}

func (w *rssWatch) end() { close(w.stop); <-w.done }

// densityMass creates --density-js JavaScript and --density-python Python
// contexts from four clients, runs each once with its own value, then a
// random 5% of them again, and reports the server's RSS against its
// budget (budget 0: the default), on server binary bin. The server is
// returned running when keep.
func densityMass(t *table, dir, bin string, budget int64, keep bool) (*server, error) {
	srv, err := densityServer(bin, dir, budget)
	if err != nil {
		return nil, err
	}
	budgetMiB := srv.metric("wasmexec_contexts_memory_budget_bytes") / (1 << 20)
	which := "set"
	if budget == 0 {
		which = "default"
	}
	label := fmt.Sprintf("density: %d JS + %d Python contexts, %s budget %.0f MiB%s", *densityJS, *densityPython, which, budgetMiB, binLabel(bin))
	total := *densityJS + *densityPython
	lang := densityLang
	watch := watchRSS(srv, budgetMiB)
	rss0 := srv.rssMiB()
	var next, failed, wrong atomic.Int64
	var firstErr atomic.Value
	fail := func(err error) {
		failed.Add(1)
		firstErr.CompareAndSwap(nil, firstLine(err.Error()))
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				i := int(next.Add(1))
				if i > total {
					return
				}
				l := densityLangs[lang(i)]
				id := fmt.Sprintf("d-%d", i)
				if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, id, l.name)); err != nil {
					fail(err)
					continue
				}
				r, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, l.name, id, fmt.Sprintf(l.set, i)))
				if err != nil {
					fail(err)
				} else if string(r.Value) != strconv.Itoa(i) {
					wrong.Add(1)
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	peakCreate := watch.peak
	time.Sleep(3 * time.Second)
	steady := srv.rssMiB()

	// A random 5% again: most of them wake.
	pick := rand.Perm(total)[:max(total/20, 1)]
	var again []float64
	var mu sync.Mutex
	var k atomic.Int64
	for range 4 {
		wg.Go(func() {
			for {
				j := int(k.Add(1)) - 1
				if j >= len(pick) {
					return
				}
				i := pick[j] + 1
				l := densityLangs[lang(i)]
				t0 := time.Now()
				r, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":"d-%d","code":%q}`, l.name, i, l.get))
				ms := float64(time.Since(t0).Microseconds()) / 1000
				if err != nil {
					fail(err)
				} else if string(r.Value) != strconv.Itoa(i) {
					wrong.Add(1)
				}
				mu.Lock()
				again = append(again, ms)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	watch.end()

	t.add(label+": RSS peak / steady (MiB)", fmt.Sprintf("%.0f / %.0f (before: %.0f)", watch.peak, steady, rss0), fmt.Sprintf("< %.0f", budgetMiB))
	t.add(label+": RSS samples over the budget", fmt.Sprintf("%d of %d (peak while creating %.0f)", watch.over, watch.samples, peakCreate), "0")
	ans := "every context its own value"
	if w, f := wrong.Load(), failed.Load(); w > 0 || f > 0 {
		ans = fmt.Sprintf("%d wrong values, %d failed (first: %v)", w, f, firstErr.Load())
	}
	t.add(label+": answers", ans, "all")
	t.add(label+": create + run rate (/s)", fmt.Sprintf("%.0f", float64(total)/took.Seconds()), "report")
	t.add(label+": live / hibernated at the end, evictions",
		fmt.Sprintf("%.0f / %.0f, %.0f (failed %.0f)", srv.metric("wasmexec_contexts_live"), srv.metric("wasmexec_contexts_hibernated"), srv.metric("wasmexec_contexts_evictions_total"), srv.metric("wasmexec_contexts_eviction_failures_total")), "report")
	t.add(label+": a random 5% again p50 / p90 (ms)", fmt.Sprintf("%.2f / %.2f", pct(again, 50), pct(again, 90)), "report")
	if !keep {
		srv.stop()
		return nil, nil
	}
	return srv, nil
}

// densityLang is the language of context i (an index of densityLangs):
// the Python ones spread evenly among the JavaScript ones.
func densityLang(i int) int {
	if *densityPython > 0 && i%((*densityJS+*densityPython) / *densityPython) == 0 {
		return 1
	}
	return 0
}

// densityThrashRun runs four clients round robin over twice as many
// JavaScript contexts as srv keeps live, for --density-thrash. What fits
// moves with what the server's other memory takes, so the set grows
// until most runs pay a wake (an eviction each) before it is measured.
// With against (another build's server, the same contexts created on
// it), the same set is run on both, alternately, half the time each in
// two turns, so that both see the machine's load as it moves.
func densityThrashRun(t *table, srv, against *server) error {
	live := srv.metric("wasmexec_contexts_live")
	liveBytes, used, budget := srv.metric("wasmexec_contexts_live_bytes"), srv.metric("wasmexec_contexts_memory_used_bytes"), srv.metric("wasmexec_contexts_memory_budget_bytes")
	fit := int((0.85*budget - (used - liveBytes)) / max(liveBytes/max(live, 1), 1))
	n := max(2*fit, 8)
	var js []int
	for i := 1; i <= *densityJS+*densityPython; i++ {
		if densityLang(i) == 0 {
			js = append(js, i)
		}
	}
	var st thrashStats
	for {
		n = min(n, len(js))
		st = thrash(srv, js[:n], 3*time.Second)
		if st.evictionsPerRun() >= 0.8 || n == len(js) {
			break
		}
		n *= 2
	}
	if against == nil {
		load0 := loadAvg()
		st = thrash(srv, js[:n], *densityThrash)
		thrashRows(t, st, n, int(live), "", load0)
		return nil
	}
	thrash(against, js[:n], 3*time.Second) // to the state srv's probes left srv in
	liveAgainst := int(against.metric("wasmexec_contexts_live"))
	load0 := loadAvg()
	var sa thrashStats
	st = thrashStats{}
	for range 2 {
		st.add(thrash(srv, js[:n], *densityThrash/2))
		sa.add(thrash(against, js[:n], *densityThrash/2))
	}
	thrashRows(t, st, n, int(live), "", load0)
	thrashRows(t, sa, n, liveAgainst, binLabel(*densityAgainst), load0)
	return nil
}

// thrashRows adds the figures of a thrash over n contexts to t; load0 is
// the machine's load average when it began.
func thrashRows(t *table, st thrashStats, n, live int, which, load0 string) {
	t.add(fmt.Sprintf("density: round robin over %d contexts (%d live before), 4 clients%s: runs/s (slowest second), p50 / p90 / p99 ms (load %s → %s)", n, live, which, load0, loadAvg()),
		fmt.Sprintf("%.0f (%d), %.2f / %.2f / %.2f", st.rate(), st.slowest, pct(st.lat, 50), pct(st.lat, 90), pct(st.lat, 99)), "steady, no errors")
	t.add("density: round robin"+which+": evictions per run (of them on a request's path), failed / wrong", fmt.Sprintf("%.2f (%.2f), %d / %d", st.evictionsPerRun(), st.onPath/float64(max(st.runs, 1)), st.failed, st.wrong), "≈ 1, 0 / 0")
}

// loadAvg is the machine's load average over the last minute.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

type thrashStats struct {
	runs, failed, wrong int64
	evictions, secs     float64
	onPath              float64 // evictions on a request's path
	slowest             int64   // runs in the slowest second
	lat                 []float64
}

func (s thrashStats) evictionsPerRun() float64 { return s.evictions / float64(max(s.runs, 1)) }

func (s thrashStats) rate() float64 { return float64(s.runs) / max(s.secs, 1e-9) }

// add adds the figures of another thrash of the same set.
func (s *thrashStats) add(o thrashStats) {
	if s.secs == 0 || o.slowest < s.slowest {
		s.slowest = o.slowest
	}
	s.runs, s.failed, s.wrong = s.runs+o.runs, s.failed+o.failed, s.wrong+o.wrong
	s.evictions, s.secs, s.onPath = s.evictions+o.evictions, s.secs+o.secs, s.onPath+o.onPath
	s.lat = append(s.lat, o.lat...)
}

// thrash runs four clients round robin over the contexts d-ID of ids for d.
func thrash(srv *server, ids []int, d time.Duration) thrashStats {
	ev0, path0 := srv.metric("wasmexec_contexts_evictions_total"), srv.metric("wasmexec_contexts_evictions_on_request_path_total")
	var next, done, failed, wrong atomic.Int64
	var st thrashStats
	var mu sync.Mutex
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for range 4 {
		wg.Go(func() {
			for time.Now().Before(end) {
				i := ids[int(next.Add(1)-1)%len(ids)]
				t0 := time.Now()
				r, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":"javascript","contextId":"d-%d","code":"mine"}`, i))
				ms := float64(time.Since(t0).Microseconds()) / 1000
				switch {
				case err != nil:
					failed.Add(1)
				case string(r.Value) != strconv.Itoa(i):
					wrong.Add(1)
				default:
					done.Add(1)
				}
				mu.Lock()
				st.lat = append(st.lat, ms)
				mu.Unlock()
			}
		})
	}
	start := time.Now()
	var perSecond []int64
	for last := int64(0); time.Now().Before(end); {
		time.Sleep(time.Second)
		d := done.Load()
		perSecond = append(perSecond, d-last)
		last = d
	}
	wg.Wait()
	sort.Slice(perSecond, func(a, b int) bool { return perSecond[a] < perSecond[b] })
	st.runs, st.failed, st.wrong = done.Load(), failed.Load(), wrong.Load()
	st.secs = time.Since(start).Seconds()
	// An eviction is counted once its record is committed, up to a
	// second or two later on a busy disk: the count settles first.
	ev := srv.metric("wasmexec_contexts_evictions_total")
	for range 25 {
		time.Sleep(200 * time.Millisecond)
		if e := srv.metric("wasmexec_contexts_evictions_total"); e != ev {
			ev = e
			continue
		}
		break
	}
	st.evictions = ev - ev0
	st.onPath = srv.metric("wasmexec_contexts_evictions_on_request_path_total") - path0
	if len(perSecond) > 0 {
		st.slowest = perSecond[0]
	}
	return st
}

// metric reads one unlabelled value of the server's /metrics (0 when
// absent).
func (s *server) metric(name string) float64 {
	resp, err := s.hc.Get(s.base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			v, _ := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return v
		}
	}
	return 0
}

// status reads a field of the server's /proc/PID/status, in bytes.
func (s *server) status(field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseFloat(strings.Fields(rest)[0], 64)
			return kb * 1024
		}
	}
	return 0
}
