package main

import (
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

var hibernateContexts = flag.Int("hibernate-contexts", 10000, "JS contexts created, run once and hibernated for the memory figure")

func init() {
	register("hibernate", benchHibernate)
}

// benchHibernate measures the first run on a hibernated context against a
// run on a live one (the restore's cost as a client sees it), then the
// server's memory and data dir with many hibernated JS contexts. The
// snapshot and restore times of the guests themselves come from
// BenchmarkHibernate (make bench runs it).
func benchHibernate(t *table, srv *server, dataDir string) error {
	for _, lang := range []struct{ name, setup, check string }{
		{"javascript", "var kept = Array.from({length: 1000}, (_, i) => 'item ' + i); kept.length", "kept.length"},
		{"python", "kept = ['item %d' % i for i in range(1000)]\nlen(kept)", "len(kept)"},
	} {
		id := "hib-" + lang.name
		if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, id, lang.name)); err != nil {
			t.add(lang.name+" hibernation", "skipped: "+firstLine(err.Error()), "")
			continue
		}
		if _, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, lang.name, id, lang.setup)); err != nil {
			return err
		}
		body := fmt.Sprintf(`{"language":%q,"contextId":%q,"code":%q}`, lang.name, id, lang.check)
		n := max(*samples/6, 20)
		var live, woken []float64
		for i := 0; i < n; i++ { // interleaved, to share the noise
			t0 := time.Now()
			if _, err := srv.post("/v1/evaluate", body); err != nil {
				return err
			}
			live = append(live, float64(time.Since(t0).Microseconds())/1000)
			if _, err := srv.postStatus("/v1/contexts/"+id+"/hibernate", ""); err != nil {
				return err
			}
			t0 = time.Now()
			if _, err := srv.post("/v1/evaluate", body); err != nil {
				return err
			}
			woken = append(woken, float64(time.Since(t0).Microseconds())/1000)
		}
		t.add(fmt.Sprintf("%s first run on a hibernated / a live context p50 (ms)", lang.name), fmt.Sprintf("%.2f / %.2f (+%.2f)", pct(woken, 50), pct(live, 50), pct(woken, 50)-pct(live, 50)), "≤ +3 ms")
		srv.delete("/v1/contexts/" + id)
	}
	if err := benchLargeHibernated(t, srv); err != nil {
		return err
	}
	return benchManyHibernated(t, dataDir)
}

// benchLargeHibernated hibernates and wakes a JS context holding 20 MiB of
// random bytes over HTTP: the hibernation writes the state straight into
// its record, the wake maps its raw pages from it (engine/statemap.go).
func benchLargeHibernated(t *table, srv *server) error {
	const id = "hib-20mib"
	if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":"javascript","limits":{"memoryBytes":268435456}}`, id)); err != nil {
		return err
	}
	defer srv.delete("/v1/contexts/" + id)
	setup := `globalThis.data = new Uint8Array(20 << 20); const c = require("crypto");
		for (let i = 0; i < 320; i++) c.getRandomValues(data.subarray(i << 16, (i + 1) << 16)); data.length`
	if _, err := srv.post("/v1/evaluate", fmt.Sprintf(`{"language":"javascript","contextId":%q,"code":%q}`, id, setup)); err != nil {
		return err
	}
	body := fmt.Sprintf(`{"language":"javascript","contextId":%q,"code":"data[12345] + data.length"}`, id)
	var hib, woken, live []float64
	for range max(*samples/20, 10) {
		t0 := time.Now()
		if _, err := srv.post("/v1/evaluate", body); err != nil {
			return err
		}
		live = append(live, float64(time.Since(t0).Microseconds())/1000)
		t0 = time.Now()
		if _, err := srv.postStatus("/v1/contexts/"+id+"/hibernate", ""); err != nil {
			return err
		}
		hib = append(hib, float64(time.Since(t0).Microseconds())/1000)
		t0 = time.Now()
		if _, err := srv.post("/v1/evaluate", body); err != nil {
			return err
		}
		woken = append(woken, float64(time.Since(t0).Microseconds())/1000)
	}
	t.add("javascript 20 MiB context: hibernate p50 (ms)", fmt.Sprintf("%.2f", pct(hib, 50)), "report (snapshot ≤ 10 ms)")
	t.add("javascript 20 MiB context: first run after / a live run p50 (ms)", fmt.Sprintf("%.2f / %.2f (+%.2f)", pct(woken, 50), pct(live, 50), pct(woken, 50)-pct(live, 50)), "report (restore ≤ 5 ms)")
	return nil
}

// benchManyHibernated creates *hibernateContexts JS contexts on a server
// of its own, runs each once and hibernates it, then reports the server's
// RSS and the bytes of its data dir (records and workspaces).
func benchManyHibernated(t *table, dataDir string) error {
	n := *hibernateContexts
	dir := filepath.Join(dataDir, "many-hibernated")
	srv, err := startServer(dir, []string{"--max-contexts", fmt.Sprint(n + 1), "--tscheck-workers", "0", "--store=false", "--context-snapshot-after-ms", "0"})
	if err != nil {
		return err
	}
	defer srv.stop()
	before := srv.rssMiB()
	var next, failed atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(n) {
					return
				}
				id := fmt.Sprintf("many-%d", i)
				_, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":"javascript"}`, id))
				if err == nil {
					_, err = srv.post("/v1/evaluate", fmt.Sprintf(`{"language":"javascript","contextId":%q,"code":"var mine = %d; mine"}`, id, i))
				}
				if err == nil {
					_, err = srv.postStatus("/v1/contexts/"+id+"/hibernate", "")
				}
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	time.Sleep(time.Second)
	var bytes int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (filepath.Base(filepath.Dir(p)) == "context-state" || filepath.Base(filepath.Dir(filepath.Dir(p))) == "contexts") {
			if fi, err := d.Info(); err == nil {
				bytes += fi.Size()
			}
		}
		return nil
	})
	label := fmt.Sprintf("%d JS contexts run once and hibernated", n)
	if f := failed.Load(); f > 0 {
		t.add(label, fmt.Sprintf("%d failed (first: %v)", f, firstErr.Load()), "")
	}
	t.add(label+": server RSS (MiB)", fmt.Sprintf("%.0f (before: %.0f)", srv.rssMiB(), before), "≤ 500 MiB")
	t.add(label+": data dir (MiB; per context KiB)", fmt.Sprintf("%.1f (%.1f)", float64(bytes)/(1<<20), float64(bytes)/1024/float64(n)), "report")
	t.add(label+": time to create, run and hibernate each (ms)", fmt.Sprintf("%.2f", float64(took.Microseconds())/1000/float64(n)), "report")
	return nil
}
