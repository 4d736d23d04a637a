package contexts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/egress"
	"github.com/wasmexec/wasmexec/exec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
)

func MustNetManager(tb testing.TB) *contexts.Manager {
	tb.Helper()
	e, err := egress.New(egress.Config{Allow: []string{"127.0.0.1:*"}})
	if err != nil {
		tb.Fatal(err)
	}
	return MustManager(tb, contexts.Config{Runner: MustRunner(tb, testenv.RunnerConfig{Network: e, PoolSize: -1})}, 0)
}

// A context's network is the default of its runs; its secrets are fixed
// (their placeholders are in the guest's env) and beyond the ceiling it is
// not created.
func TestContextNetwork(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "ok ", r.Header.Get("X-Key"))
	}))
	defer srv.Close()
	m := MustNetManager(t)
	MustCreate(t, m, exec.ContextSpec{ContextID: "n", Network: &exec.Network{Allow: []string{srv.URL}},
		Secrets: map[string]exec.Secret{"KEY": {Value: "v4lue", Hosts: []string{"http://" + strings.TrimPrefix(srv.URL, "http://")}}}})
	res := MustRun(t, m, "n", exec.Request{Code: fmt.Sprintf(`const r = await fetch(%q, {headers: {"X-Key": process.env.KEY}}); [await r.text(), process.env.KEY]`, srv.URL)})
	wantValue(t, res, `["ok wasmexec-secret-KEY","wasmexec-secret-KEY"]`)
	if len(res.Network) != 1 || res.Network[0].Secrets[0] != "KEY" {
		t.Fatalf("record %+v", res.Network)
	}
	// A run may narrow the context's network (here: to nothing it reaches).
	res = MustRun(t, m, "n", exec.Request{Code: fmt.Sprintf(`let e; try { await fetch(%q) } catch (x) { e = x.message } e`, srv.URL), Network: &exec.Network{Allow: []string{"127.0.0.1:1"}}})
	if !strings.Contains(string(res.Value), "allow-list") {
		t.Fatalf("narrowed: %s", res.Value)
	}
	if _, err := tryRun(m, "n", exec.Request{Code: "1", Secrets: map[string]exec.Secret{"KEY": {Value: "other", Hosts: []string{"x.test"}}}}); exec.ErrorCode(err) != exec.EInvalid {
		t.Fatalf("changed secrets: %v", err)
	}
	_, err := m.Create(context.Background(), &exec.ContextSpec{Language: exec.JavaScript, Network: &exec.Network{Allow: []string{"example.com"}}})
	if exec.ErrorCode(err) != exec.EInvalid || !strings.Contains(err.Error(), "example.com") {
		t.Fatalf("beyond the ceiling: %v", err)
	}
}

// A reset or delete of a context aborts its run's request in flight.
func TestContextResetAbortsFetch(t *testing.T) {
	arrived := make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done() // never answers
	}))
	defer srv.Close()
	m := MustNetManager(t)
	for _, op := range []string{"reset", "delete"} {
		t.Run(op, func(t *testing.T) {
			id := "f" + op
			MustCreate(t, m, exec.ContextSpec{ContextID: id, Network: &exec.Network{Allow: []string{srv.URL}}})
			go func() {
				<-arrived
				if op == "reset" {
					m.Reset(context.Background(), id)
				} else {
					m.Delete(context.Background(), id)
				}
			}()
			res, err := tryRun(m, id, exec.Request{Code: fmt.Sprintf(`await fetch(%q)`, srv.URL), TimeoutMs: 20000})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != exec.Cancelled || len(res.Network) != 1 || !strings.Contains(res.Network[0].Error, "interrupted") {
				t.Fatalf("%s: %+v %+v", res.Outcome, res.Error, res.Network)
			}
		})
	}
}

// A fork of a context created with secrets used to fail (internal: "guest
// state refused: captured with another environment"): the source's guest
// was started with the secrets' placeholders in its env, the fork's was
// restored without them. A hibernated source woke fresh for the same
// reason, losing its state. The fork keeps the source's state, secrets
// and network, in both guests, live or hibernated, in memory or through a
// file.
func TestForkKeepsSecrets(t *testing.T) {
	e, err := egress.New(egress.Config{Allow: []string{"127.0.0.1:*"}})
	if err != nil {
		t.Fatal(err)
	}
	r := MustRunner(t, testenv.RunnerConfig{Network: e, PoolSize: -1})
	managers := map[string]*contexts.Manager{"in memory": MustManager(t, contexts.Config{Runner: r}, 0)}
	durable := openDurable(t, r, newDurableDirs(t), contexts.Config{})
	t.Cleanup(durable.Close)
	managers["through a file"] = durable
	network := &exec.Network{Allow: []string{"http://127.0.0.1:9"}}
	secrets := map[string]exec.Secret{"KEY": {Value: "v4lue", Hosts: []string{"http://127.0.0.1:9"}}}
	for _, tc := range []struct {
		name      string
		lang      exec.Language
		set, read string
		hibernate bool
	}{
		{"javascript live", exec.JavaScript, "var x = 1; 0", "[x, process.env.KEY]", false},
		{"javascript hibernated", exec.JavaScript, "var x = 1; 0", "[x, process.env.KEY]", true},
		{"python live", exec.Python, "import os\nx = 1", "[x, os.environ['KEY']]", false},
		{"python hibernated", exec.Python, "import os\nx = 1", "[x, os.environ['KEY']]", true},
	} {
		for where, m := range managers {
			t.Run(tc.name+" "+where, func(t *testing.T) {
				if tc.lang == exec.Python && !hasPython() {
					t.Skip("the Python guest image is not built")
				}
				src := strings.ReplaceAll(tc.name, " ", "-")
				MustCreate(t, m, exec.ContextSpec{ContextID: src, Language: tc.lang, Network: network, Secrets: secrets})
				MustRun(t, m, src, exec.Request{Language: tc.lang, Code: tc.set})
				if tc.hibernate {
					mustHibernate(t, m, src)
				}
				d, err := m.Fork(context.Background(), src, &exec.ForkSpec{ContextID: src + "-fork"})
				if err != nil {
					t.Fatalf("fork: %v", err)
				}
				if len(d.Secrets) != 1 || d.Secrets[0] != "KEY" || d.Network == nil || d.Network.Allow[0] != network.Allow[0] {
					t.Fatalf("the fork's secrets %v, network %+v", d.Secrets, d.Network)
				}
				for _, id := range []string{src, src + "-fork"} {
					wantValue(t, MustRun(t, m, id, exec.Request{Language: tc.lang, Code: tc.read}), `[1,"wasmexec-secret-KEY"]`)
					if n := mustGet(t, m, id).Notice; n != "" {
						t.Fatalf("%s came back fresh: %s", id, n)
					}
				}
			})
		}
	}
}
