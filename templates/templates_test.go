package templates_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/vfs"
)

// A run from a template sees the template's globals and files, and never
// the globals or files of another run from it.
func TestIsolation(t *testing.T) {
	e := newEnv(t, setup{})
	ctx := context.Background()
	type tc struct {
		name              string
		lang              wasmexec.Language
		setup             string
		write, read, seen string // write: run 1 changes state; read: run 2 reports what it sees
		want              string
	}
	cases := []tc{{
		name:  "javascript",
		lang:  wasmexec.JavaScript,
		setup: "globalThis.base = 41; require('fs').writeFileSync('base.txt', 'from the template')",
		write: "globalThis.base = 99; globalThis.leak = 1; require('fs').writeFileSync('leak.txt', 'x'); require('fs').writeFileSync('base.txt', 'changed'); base",
		read:  "[base, typeof leak, require('fs').existsSync('leak.txt'), require('fs').readFileSync('base.txt', 'utf8')]",
		seen:  "99",
		want:  `[41,"undefined",false,"from the template"]`,
	}}
	if hasPython() {
		cases = append(cases, tc{
			name:  "python",
			lang:  wasmexec.Python,
			setup: "import json\nbase = 41\nopen('base.txt', 'w').write('from the template')",
			write: "base = 99\nleak = 1\nopen('leak.txt', 'w').write('x')\nopen('base.txt', 'w').write('changed')\nbase",
			read:  "import os\n[base, 'leak' in globals(), os.path.exists('leak.txt'), open('base.txt').read()]",
			seen:  "99",
			want:  `[41,false,false,"from the template"]`,
		})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := e.build(t, ctx, wasmexec.TemplateSpec{Language: c.lang, SetupCode: c.setup})
			if d.State != wasmexec.TemplateReady {
				t.Fatalf("build: %+v", d)
			}
			if d.StateBytes <= 0 || d.BuildExecutionID == "" {
				t.Fatalf("descriptor: %+v", d)
			}
			wantValue(t, e.run(t, ctx, wasmexec.Request{Language: c.lang, Template: d.TemplateID, Code: c.write}), c.seen)
			for range 2 {
				wantValue(t, e.run(t, ctx, wasmexec.Request{Language: c.lang, Template: d.TemplateID, Code: c.read}), c.want)
			}
		})
	}
}

// Runs from one template draw fresh entropy: the random generators the
// guest seeded before the capture are seeded again in each run.
func TestEntropy(t *testing.T) {
	e := newEnv(t, setup{})
	ctx := context.Background()
	type tc struct {
		name, setup, probe string
		lang               wasmexec.Language
	}
	cases := []tc{{
		name:  "javascript",
		lang:  wasmexec.JavaScript,
		setup: "globalThis.warm = Math.random()",
		probe: "[Math.random(), Array.from(crypto.getRandomValues(new Uint8Array(8))).join(','), require('crypto').randomBytes(8).toString('hex')]",
	}}
	if hasPython() {
		cases = append(cases, tc{
			name:  "python",
			lang:  wasmexec.Python,
			setup: "import random, os\nwarm = random.random()",
			probe: "import random, os, uuid\n[random.random(), os.urandom(8).hex(), str(uuid.uuid4())]",
		})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := e.build(t, ctx, wasmexec.TemplateSpec{Language: c.lang, SetupCode: c.setup})
			if d.State != wasmexec.TemplateReady {
				t.Fatalf("build: %+v", d)
			}
			var a, b []any
			ra := e.run(t, ctx, wasmexec.Request{Language: c.lang, Template: d.TemplateID, Code: c.probe})
			rb := e.run(t, ctx, wasmexec.Request{Language: c.lang, Template: d.TemplateID, Code: c.probe})
			if json.Unmarshal(ra.Value, &a) != nil || json.Unmarshal(rb.Value, &b) != nil || len(a) != 3 || len(b) != 3 {
				t.Fatalf("values %s and %s (%+v %+v)", ra.Value, rb.Value, ra.Error, rb.Error)
			}
			for i := range a {
				if a[i] == b[i] {
					t.Errorf("probe %d is the same in two runs from one template: %v", i, a[i])
				}
			}
		})
	}
}

// A context made from a template starts with its state and a copy of its
// workspace, as a fork does; its runs change neither the template nor
// the next context made from it.
func TestContextFromTemplate(t *testing.T) {
	e := newEnv(t, setup{})
	ctx := context.Background()
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := contexts.Open(contexts.Config{Runner: e.runner, Workspaces: ws, Templates: e.tpl})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cm.Close)
	d := e.build(t, ctx, wasmexec.TemplateSpec{Language: wasmexec.JavaScript, SetupCode: "globalThis.n = 1", Files: map[string]string{"f.txt": "t"}})
	run := func(id, code string) *wasmexec.Result {
		res, err := cm.Run(ctx, &wasmexec.Request{Kind: wasmexec.KindEvaluate, Language: wasmexec.JavaScript, ContextID: id, Code: code})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, id := range []string{"one", "two"} {
		c, err := cm.Create(ctx, &wasmexec.ContextSpec{ContextID: id, Template: d.TemplateID})
		if err != nil {
			t.Fatal(err)
		}
		if c.Language != wasmexec.JavaScript || c.MemoryBytes != d.MemoryBytes {
			t.Fatalf("descriptor %+v", c)
		}
		wantValue(t, run(id, "n += 1; fs.writeFileSync('f.txt', 'c'); n"), "2")
		wantValue(t, run(id, "[n, fs.readFileSync('f.txt', 'utf8')]"), `[2,"c"]`)
	}
	for _, tc := range []struct {
		name string
		spec wasmexec.ContextSpec
		code string
	}{
		{"unknown template", wasmexec.ContextSpec{Template: "nope"}, wasmexec.ETemplateNotFound},
		{"another env", wasmexec.ContextSpec{Template: d.TemplateID, Env: map[string]string{"A": "b"}}, wasmexec.EInvalid},
		{"another memory", wasmexec.ContextSpec{Template: d.TemplateID, Limits: wasmexec.Limits{MemoryBytes: 64 << 20}}, wasmexec.EInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := cm.Create(ctx, &tc.spec); wasmexec.ErrorCode(err) != tc.code {
				t.Fatalf("err %v, want %s", err, tc.code)
			}
		})
	}
}

// A Python template's objects are frozen before its capture: a
// collection in a run from it walks only what the run made, and garbage
// the run makes is still collected.
func TestPythonTemplateFrozen(t *testing.T) {
	if !hasPython() {
		t.Skip("no python image")
	}
	e := newEnv(t, setup{})
	ctx := context.Background()
	d := e.build(t, ctx, wasmexec.TemplateSpec{Language: wasmexec.Python, SetupCode: "import gc\nbase = [[i] for i in range(10000)]"})
	if d.State != wasmexec.TemplateReady {
		t.Fatalf("build: %+v", d)
	}
	const probe = "import gc, weakref\nclass C: pass\nc = C(); c.me = c; w = weakref.ref(c); del c\ngc.collect()\n[gc.get_freeze_count(), w() is None, len(base)]"
	fresh := e.run(t, ctx, wasmexec.Request{Language: wasmexec.Python, Code: "import gc\ngc.get_freeze_count()"}) // the image's
	res := e.run(t, ctx, wasmexec.Request{Language: wasmexec.Python, Template: d.TemplateID, Code: probe})
	var v []any
	if res.Outcome != wasmexec.Succeeded || json.Unmarshal(res.Value, &v) != nil || len(v) != 3 {
		t.Fatalf("probe: %s %s %+v", res.Outcome, res.Value, res.Error)
	}
	var image float64
	if json.Unmarshal(fresh.Value, &image) != nil {
		t.Fatalf("image's freeze count: %s %+v", fresh.Value, fresh.Error)
	}
	if n, _ := v[0].(float64); n < image+10000 {
		t.Errorf("freeze count %v in a run from the template, want the image's %v and the setup's 10,000 lists more", v[0], image)
	}
	if v[1] != true || v[2] != float64(10000) {
		t.Errorf("a run from a frozen template: cycle collected %v, base of %v lists", v[1], v[2])
	}
}
