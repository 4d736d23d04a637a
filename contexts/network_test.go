package contexts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/egress"
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
	MustCreate(t, m, wasmexec.ContextSpec{ContextID: "n", Network: &wasmexec.Network{Allow: []string{srv.URL}},
		Secrets: map[string]wasmexec.Secret{"KEY": {Value: "v4lue", Hosts: []string{"http://" + strings.TrimPrefix(srv.URL, "http://")}}}})
	res := MustRun(t, m, "n", wasmexec.Request{Code: fmt.Sprintf(`const r = await fetch(%q, {headers: {"X-Key": process.env.KEY}}); [await r.text(), process.env.KEY]`, srv.URL)})
	wantValue(t, res, `["ok wasmexec-secret-KEY","wasmexec-secret-KEY"]`)
	if len(res.Network) != 1 || res.Network[0].Secrets[0] != "KEY" {
		t.Fatalf("record %+v", res.Network)
	}
	// A run may narrow the context's network (here: to nothing it reaches).
	res = MustRun(t, m, "n", wasmexec.Request{Code: fmt.Sprintf(`let e; try { await fetch(%q) } catch (x) { e = x.message } e`, srv.URL), Network: &wasmexec.Network{Allow: []string{"127.0.0.1:1"}}})
	if !strings.Contains(string(res.Value), "allow-list") {
		t.Fatalf("narrowed: %s", res.Value)
	}
	if _, err := tryRun(m, "n", wasmexec.Request{Code: "1", Secrets: map[string]wasmexec.Secret{"KEY": {Value: "other", Hosts: []string{"x.test"}}}}); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
		t.Fatalf("changed secrets: %v", err)
	}
	_, err := m.Create(context.Background(), &wasmexec.ContextSpec{Language: wasmexec.JavaScript, Network: &wasmexec.Network{Allow: []string{"example.com"}}})
	if wasmexec.ErrorCode(err) != wasmexec.EInvalid || !strings.Contains(err.Error(), "example.com") {
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
			MustCreate(t, m, wasmexec.ContextSpec{ContextID: id, Network: &wasmexec.Network{Allow: []string{srv.URL}}})
			go func() {
				<-arrived
				if op == "reset" {
					m.Reset(context.Background(), id)
				} else {
					m.Delete(context.Background(), id)
				}
			}()
			res, err := tryRun(m, id, wasmexec.Request{Code: fmt.Sprintf(`await fetch(%q)`, srv.URL), TimeoutMs: 20000})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != wasmexec.Cancelled || len(res.Network) != 1 || !strings.Contains(res.Network[0].Error, "interrupted") {
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
	network := &wasmexec.Network{Allow: []string{"http://127.0.0.1:9"}}
	secrets := map[string]wasmexec.Secret{"KEY": {Value: "v4lue", Hosts: []string{"http://127.0.0.1:9"}}}
	for _, tc := range []struct {
		name      string
		lang      wasmexec.Language
		set, read string
		hibernate bool
	}{
		{"javascript live", wasmexec.JavaScript, "var x = 1; 0", "[x, process.env.KEY]", false},
		{"javascript hibernated", wasmexec.JavaScript, "var x = 1; 0", "[x, process.env.KEY]", true},
		{"python live", wasmexec.Python, "import os\nx = 1", "[x, os.environ['KEY']]", false},
		{"python hibernated", wasmexec.Python, "import os\nx = 1", "[x, os.environ['KEY']]", true},
	} {
		for where, m := range managers {
			t.Run(tc.name+" "+where, func(t *testing.T) {
				if tc.lang == wasmexec.Python && !hasPython() {
					t.Skip("the Python guest image is not built")
				}
				src := strings.ReplaceAll(tc.name, " ", "-")
				MustCreate(t, m, wasmexec.ContextSpec{ContextID: src, Language: tc.lang, Network: network, Secrets: secrets})
				MustRun(t, m, src, wasmexec.Request{Language: tc.lang, Code: tc.set})
				if tc.hibernate {
					mustHibernate(t, m, src)
				}
				d, err := m.Fork(context.Background(), src, &wasmexec.ForkSpec{ContextID: src + "-fork"})
				if err != nil {
					t.Fatalf("fork: %v", err)
				}
				if len(d.Secrets) != 1 || d.Secrets[0] != "KEY" || d.Network == nil || d.Network.Allow[0] != network.Allow[0] {
					t.Fatalf("the fork's secrets %v, network %+v", d.Secrets, d.Network)
				}
				for _, id := range []string{src, src + "-fork"} {
					wantValue(t, MustRun(t, m, id, wasmexec.Request{Language: tc.lang, Code: tc.read}), `[1,"wasmexec-secret-KEY"]`)
					if n := mustGet(t, m, id).Notice; n != "" {
						t.Fatalf("%s came back fresh: %s", id, n)
					}
				}
			})
		}
	}
}
