package main

import (
	"fmt"
	"strings"
	"time"
)

func init() {
	register("contexts", benchContexts)
}

// benchContexts measures evaluate in a context over HTTP and the server's
// memory per idle context.
func benchContexts(t *table, srv *server, _ string) error {
	for _, lang := range []struct{ name, target, mem string }{{"javascript", "≤ 1 ms", "≤ 16 MiB"}, {"python", "≤ 2 ms", "≤ 32 MiB"}} {
		id := "bench-" + lang.name
		if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, id, lang.name)); err != nil {
			t.add(lang.name+" context", "skipped: "+firstLine(err.Error()), "")
			continue
		}
		body := fmt.Sprintf(`{"language":%q,"contextId":%q,"code":"1+1"}`, lang.name, id)
		for i := 0; i < 20; i++ {
			srv.post("/v1/evaluate", body)
		}
		lat := srv.latencies("/v1/evaluate", body, *samples)
		t.add(fmt.Sprintf("%s context evaluate \"1+1\" over HTTP p50 / p95 (ms)", lang.name), fmt.Sprintf("%.2f / %.2f", pct(lat, 50), pct(lat, 95)), lang.target)

		const n = 16
		time.Sleep(300 * time.Millisecond)
		before := srv.rssMiB()
		for i := 0; i < n; i++ {
			cid := fmt.Sprintf("%s-idle-%d", id, i)
			if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, cid, lang.name)); err != nil {
				return err
			}
			srv.post("/v1/evaluate", fmt.Sprintf(`{"language":%q,"contextId":%q,"code":"1"}`, lang.name, cid))
		}
		time.Sleep(300 * time.Millisecond)
		after := srv.rssMiB()
		t.add(fmt.Sprintf("%s memory per idle context (server RSS delta / %d, MiB)", lang.name, n), fmt.Sprintf("%.1f", (after-before)/n), lang.mem)
		for i := 0; i < n; i++ {
			srv.delete(fmt.Sprintf("/v1/contexts/%s-idle-%d", id, i))
		}
		srv.delete("/v1/contexts/" + id)
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
