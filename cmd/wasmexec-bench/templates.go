package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"
)

func init() {
	register("templates", benchTemplates)
}

// templateTask is one cell of the twelve-task workload agents send. Its
// code declares no top-level binding: it runs again and again in one
// context (and after the template's setup, which runs it once).
type templateTask struct {
	name     string
	lang     string
	packages []string
	imports  string // what a template of it holds: its imports
	code     string
}

var templateTasks = []templateTask{
	{"python 1+1", "python", nil, "", "1+1"},
	{"import sympy + solve", "python", nil, "import sympy", "import sympy\nx = sympy.Symbol('x')\nstr(sympy.solve(x**2 - 4, x))"},
	{"openpyxl workbook", "python", nil, "import openpyxl", "import openpyxl\nwb = openpyxl.Workbook()\nwb.active['A1'] = 42\nwb.active['A1'].value"},
	{"BeautifulSoup parse", "python", nil, "import bs4", "from bs4 import BeautifulSoup\nBeautifulSoup('<p>hi <b>there</b></p>', 'html.parser').b.text"},
	{"csv + statistics", "python", nil, "import csv, io, statistics", "import csv, io, statistics\nrows = list(csv.reader(io.StringIO('a,b\\n1,2\\n3,4\\n5,6')))\nstatistics.mean(float(r[0]) for r in rows[1:])"},
	{"json + re + datetime", "python", nil, "import json, re, datetime", "import json, re, datetime\nd = json.loads('{\"at\": \"2024-01-02\"}')\n(datetime.date.fromisoformat(d['at']) + datetime.timedelta(days=1)).isoformat()"},
	{"pandas groupby", "python", nil, "import pandas as pd", "import pandas as pd\npd.DataFrame({'k': [1, 1, 2], 'v': [1, 2, 3]}).groupby('k').v.sum().to_dict()"},
	{"matplotlib chart", "python", nil, "import matplotlib.pyplot as plt", "import io, matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nb = io.BytesIO()\nplt.savefig(b, format='png')\nplt.close('all')\nlen(b.getvalue()) > 1000"},
	{"javascript 1+1", "javascript", nil, "", "1+1"},
	{"require('zod')", "javascript", []string{"zod@3.23.8"}, "require('zod')", "require('zod').z.object({ a: require('zod').z.number() }).parse({ a: 1 }).a"},
	{"require('lodash')", "javascript", []string{"lodash@4.17.21"}, "require('lodash')", "require('lodash').sum([1, 2, 3])"},
	{"require('dayjs')", "javascript", []string{"dayjs@1.11.13"}, "require('dayjs')", "require('dayjs')('2024-01-02').add(1, 'day').format('YYYY-MM-DD')"},
	{"JSON + Date", "javascript", nil, "", "JSON.stringify({ at: new Date(Date.UTC(2024, 0, 2)).toISOString(), n: JSON.parse('[1234567.5]')[0] })"},
	{"TypeScript generics", "typescript", nil, "", "(() => { function first<T>(xs: Array<T>): T | undefined { return xs[0] }\nconst n: number = first([42, 1]) ?? 0\nreturn n })()"},
}

// benchTemplates runs the twelve-task workload three ways: one-shot without
// a template, one-shot from a template holding its imports (and having
// run the task once, as a context's first run has), and the later runs of
// a context that ran it once. Its server has no implicit templates
// (--templates-max-bytes 0), so the first way is what it always was.
func benchTemplates(t *table, _ *server, dataDir string) error {
	srv, err := startServer(filepath.Join(dataDir, "templates"), []string{"--templates-max-bytes", "0", "--pool-size", "2"})
	if err != nil {
		return err
	}
	defer srv.stop()
	if _, err := srv.post("/v1/evaluate", `{"language":"python","code":"1"}`); err != nil {
		t.add("templates", "skipped: "+firstLine(err.Error()), "")
		return nil
	}
	n := min(*samples, 30)
	worst := 0.0
	for i, task := range templateTasks {
		tid, cid := fmt.Sprintf("bench-tpl-%d", i), fmt.Sprintf("bench-tplctx-%d", i)
		// The template: the task's imports, and the task once (warming
		// what its first run would: lazy imports, caches).
		setup := task.imports + "\n" + task.code
		if task.lang == "javascript" || task.lang == "typescript" {
			setup = task.imports + ";\n" + task.code
		}
		spec, _ := json.Marshal(map[string]any{"templateId": tid, "language": task.lang, "packages": task.packages, "setupCode": setup, "timeoutMs": 30000})
		if _, err := srv.postStatus("/v1/templates", string(spec)); err != nil {
			return err
		}
		var d struct {
			State      string
			StateBytes int64
			Error      *struct{ Code, Message string }
		}
		for end := time.Now().Add(5 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			resp, err := srv.hc.Get(srv.base + "/v1/templates/" + tid)
			if err != nil {
				return err
			}
			json.NewDecoder(resp.Body).Decode(&d)
			resp.Body.Close()
			if d.State != "building" {
				break
			}
		}
		if d.State != "ready" {
			t.add("template of "+task.name, fmt.Sprintf("failed: %+v", d.Error), "")
			continue
		}
		// A context that ran it once (its packages installed first).
		if _, err := srv.postStatus("/v1/contexts", fmt.Sprintf(`{"contextId":%q,"language":%q}`, cid, task.lang)); err != nil {
			return err
		}
		if len(task.packages) > 0 {
			b, _ := json.Marshal(map[string]any{"packages": task.packages})
			if _, err := srv.postStatus("/v1/contexts/"+cid+"/npm/install", string(b)); err != nil {
				return err
			}
		}
		body := func(extra map[string]any) string {
			m := map[string]any{"language": task.lang, "code": task.code}
			for k, v := range extra {
				m[k] = v
			}
			b, _ := json.Marshal(m)
			return string(b)
		}
		oneShot := body(map[string]any{"packages": task.packages})
		fromTemplate := body(map[string]any{"template": tid})
		inContext := body(map[string]any{"contextId": cid})
		if _, err := srv.post("/v1/evaluate", inContext); err != nil {
			return fmt.Errorf("%s in a context: %w", task.name, err)
		}
		srv.post("/v1/evaluate", oneShot) // packages staged into the cache
		cold := srv.latencies("/v1/evaluate", oneShot, min(n, 5))
		lat := srv.alternating("/v1/evaluate", []string{fromTemplate, inContext}, n)
		tp, cp := pct(lat[0], 50), pct(lat[1], 50)
		worst = max(worst, tp-cp)
		t.add(fmt.Sprintf("%-22s one-shot / from template / context 2nd+ run p50 (ms)", task.name),
			fmt.Sprintf("%.1f / %.1f / %.1f (%+.1f; state %.1f MB)", pct(cold, 50), tp, cp, tp-cp, float64(d.StateBytes)/1e6), "template ≤ context +5 ms")
		if task.name == "import sympy + solve" {
			t.add("import sympy + solve from a template p50 (ms)", fmt.Sprintf("%.1f", tp), "≤ 80 ms")
		}
		srv.delete("/v1/contexts/" + cid)
	}
	t.add("templates: worst p50 gap, from template − context 2nd+ run (ms)", fmt.Sprintf("%+.1f", worst), "≤ +5 ms")
	return benchTemplateRSS(t, srv)
}

// benchTemplateRSS starts 1,000 one-shot runs from one template of ~60 MB
// and reports the server's RSS growth once they are done.
func benchTemplateRSS(t *table, srv *server) error {
	spec := `{"templateId":"bench-60mb","language":"javascript","setupCode":"globalThis.data = new Uint8Array(60 << 20); for (let i = 0; i < 960; i++) crypto.getRandomValues(data.subarray(i << 16, (i + 1) << 16)); 0"}`
	if _, err := srv.postStatus("/v1/templates", spec); err != nil {
		return err
	}
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		resp, err := srv.hc.Get(srv.base + "/v1/templates/bench-60mb")
		if err != nil {
			return err
		}
		var d struct{ State string }
		json.NewDecoder(resp.Body).Decode(&d)
		resp.Body.Close()
		if d.State == "ready" {
			break
		}
	}
	body := `{"language":"javascript","template":"bench-60mb","code":"data[12345] ^= 1; data.length"}`
	srv.post("/v1/evaluate", body)
	before := srv.rssMiB()
	t0 := time.Now()
	done := 0
	for range 1000 {
		if _, err := srv.post("/v1/evaluate", body); err == nil {
			done++
		}
	}
	el := time.Since(t0)
	time.Sleep(2 * time.Second) // guests close in the background
	after := srv.rssMiB()
	t.add("1,000 one-shot runs from a 60 MB template: RSS before → after (MiB)", fmt.Sprintf("%.0f → %.0f (%+.0f; %d runs in %.1f s)", before, after, after-before, done, el.Seconds()), "≤ +100 MB")
	return nil
}
