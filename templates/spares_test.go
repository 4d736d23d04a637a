package templates_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/templates"
)

// waitSpares waits until template id has n spare guests ready.
func waitSpares(t *testing.T, m *templates.Manager, id string, n int) {
	t.Helper()
	poll.Until(t, 30*time.Second, fmt.Sprintf("%d spare guests of %s", n, id), func() bool {
		ready, _ := m.SpareGuests(id)
		return ready == n
	})
}

// Runs that take spare guests (restored ahead, after a template's first
// run) are as isolated as any: one run's globals and files never reach
// the next, and each draws its own entropy. Deleting the template closes
// its spares.
func TestSpareGuestsIsolated(t *testing.T) {
	e := newEnv(t, setup{})
	ctx := context.Background()
	d := e.build(t, ctx, wasmexec.TemplateSpec{Language: wasmexec.JavaScript, SetupCode: "globalThis.base = 41; require('fs').writeFileSync('base.txt', 'from the template')"})
	if d.State != wasmexec.TemplateReady {
		t.Fatalf("build: %+v", d)
	}
	if ready, _ := e.tpl.SpareGuests(d.TemplateID); ready != 0 {
		t.Fatalf("%d spare guests before any run, want none", ready)
	}
	run := func(code string) *wasmexec.Result {
		return e.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Template: d.TemplateID, Code: code})
	}
	wantValue(t, run("base"), "41")
	waitSpares(t, e.tpl, d.TemplateID, 2)
	wantValue(t, run("globalThis.base = 99; globalThis.leak = 1; require('fs').writeFileSync('leak.txt', 'x'); require('fs').writeFileSync('base.txt', 'changed'); base"), "99")
	const probe = "[base, typeof leak, require('fs').existsSync('leak.txt'), require('fs').readFileSync('base.txt', 'utf8'), Math.random(), Array.from(crypto.getRandomValues(new Uint8Array(8))).join(',')]"
	var seen [][]any
	for range 3 {
		waitSpares(t, e.tpl, d.TemplateID, 2)
		res := run(probe)
		var v []any
		if res.Outcome != wasmexec.Succeeded || json.Unmarshal(res.Value, &v) != nil || len(v) != 6 {
			t.Fatalf("probe: %s %s %+v", res.Outcome, res.Value, res.Error)
		}
		if got, _ := json.Marshal(v[:4]); string(got) != `[41,"undefined",false,"from the template"]` {
			t.Fatalf("a run from a spare guest sees %s", got)
		}
		for _, o := range seen {
			if o[4] == v[4] || o[5] == v[5] {
				t.Fatalf("two runs from spare guests drew the same entropy: %v and %v", o[4:], v[4:])
			}
		}
		seen = append(seen, v)
	}
	if err := e.tpl.Delete(ctx, d.TemplateID); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "the deleted template's spare guests closed", func() bool {
		_, all := e.tpl.SpareGuests("")
		return all == 0
	})
}

// All templates together keep at most MaxSpareGuests spare guests: the
// template run from most recently gets them, taken from the one run from
// least recently.
func TestSpareGuestsBounded(t *testing.T) {
	e := newEnv(t, setup{})
	ctx := context.Background()
	n := templates.MaxSpareGuests/2 + 1
	ids := make([]string, n)
	for i := range ids {
		d := e.build(t, ctx, wasmexec.TemplateSpec{Language: wasmexec.JavaScript, SetupCode: fmt.Sprintf("globalThis.n = %d", i)})
		if d.State != wasmexec.TemplateReady {
			t.Fatalf("build: %+v", d)
		}
		ids[i] = d.TemplateID
	}
	for i, id := range ids {
		wantValue(t, e.run(t, ctx, wasmexec.Request{Language: wasmexec.JavaScript, Template: id, Code: "n"}), fmt.Sprint(i))
		waitSpares(t, e.tpl, id, 2)
		if _, all := e.tpl.SpareGuests(""); all > templates.MaxSpareGuests {
			t.Fatalf("%d spare guests, more than %d", all, templates.MaxSpareGuests)
		}
	}
	if ready, _ := e.tpl.SpareGuests(ids[0]); ready != 0 {
		t.Fatalf("the template run from least recently still has %d spare guests", ready)
	}
}
