package templates_test

import (
	"context"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

// BenchmarkRunFromTemplate measures a one-shot run from a template against
// the same run in a live context (its later runs), wall time and this
// process's CPU per run.
func BenchmarkRunFromTemplate(b *testing.B) {
	e := newEnv(b, setup{})
	ctx := context.Background()
	for _, tc := range []struct {
		name, setup, code string
		lang              wasmexec.Language
		files             map[string]string
	}{
		{"js-1+1", "", "1+1", wasmexec.JavaScript, nil},
		{"js-200-files", "for (let i = 0; i < 200; i++) require('./m/f' + i + '.js')", "require('./m/f7.js')", wasmexec.JavaScript, manyFiles(200)},
		{"py-sympy", "import sympy", "import sympy\nx = sympy.Symbol('x')\nstr(sympy.solve(x**2 - 4, x))", wasmexec.Python, nil},
	} {
		if tc.lang == wasmexec.Python && !hasPython() {
			continue
		}
		d := e.build(b, ctx, wasmexec.TemplateSpec{Language: tc.lang, SetupCode: tc.setup, Files: tc.files, TimeoutMs: 30000})
		if d.State != wasmexec.TemplateReady {
			b.Fatalf("build: %+v", d.Error)
		}
		b.Run(tc.name, func(b *testing.B) {
			cpu0, t0 := testenv.CPUTime(), time.Now()
			for i := 0; i < b.N; i++ {
				res := e.run(b, ctx, wasmexec.Request{Language: tc.lang, Template: d.TemplateID, Code: tc.code})
				if res.Outcome != wasmexec.Succeeded {
					b.Fatalf("%+v", res.Error)
				}
			}
			b.ReportMetric(float64(time.Since(t0).Microseconds())/1000/float64(b.N), "ms/run")
			b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/run")
		})
	}
}

func manyFiles(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m["m/f"+itoa(i)+".js"] = "module.exports = " + itoa(i) + ";\n// " + string(make([]byte, 0)) + "padding padding padding padding padding padding padding padding\n"
	}
	return m
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

// BenchmarkRunInContext is the baseline: the same runs, later runs in a
// live kept guest (as in a context).
func BenchmarkRunInContext(b *testing.B) {
	e := newEnv(b, setup{})
	ctx := context.Background()
	for _, tc := range []struct {
		name, code string
		lang       wasmexec.Language
	}{
		{"js-1+1", "1+1", wasmexec.JavaScript},
		{"py-sympy", "import sympy\nx = sympy.Symbol('x')\nstr(sympy.solve(x**2 - 4, x))", wasmexec.Python},
	} {
		if tc.lang == wasmexec.Python && !hasPython() {
			continue
		}
		b.Run(tc.name, func(b *testing.B) {
			g, err := e.runner.StartGuest(ctx, wasmexec.GuestSpec{Language: tc.lang, Workspace: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			run := func() {
				res, err := e.runner.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: tc.lang, Code: tc.code}, wasmexec.RunOptions{Guest: g})
				if err != nil || res.Outcome != wasmexec.Succeeded {
					b.Fatalf("%v %+v", err, res)
				}
			}
			run()
			cpu0, t0 := testenv.CPUTime(), time.Now()
			for i := 0; i < b.N; i++ {
				run()
			}
			b.ReportMetric(float64(time.Since(t0).Microseconds())/1000/float64(b.N), "ms/run")
			b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/run")
		})
	}
}
