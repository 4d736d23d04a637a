package templates_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/cluster"
	"github.com/wasmexec/wasmexec/engine"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/js"
	"github.com/wasmexec/wasmexec/templates"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// flakyFetch is a cluster whose next fails fetches of a capture fail
// with err.
type flakyFetch struct {
	templates.Shared
	err     error
	fails   atomic.Int64
	fetches atomic.Int64
}

func (f *flakyFetch) FetchTemplate(ctx context.Context, id, sum, dir string) (string, error) {
	f.fetches.Add(1)
	if f.fails.Add(-1) >= 0 {
		return "", f.err
	}
	return f.Shared.FetchTemplate(ctx, id, sum, dir)
}

// clusterNode is a server of the cluster at url, its templates' clock
// now.
func clusterNode(t *testing.T, url, name string, shared func(*cluster.Cluster) templates.Shared, now func() time.Time) *env {
	t.Helper()
	c, err := cluster.Open(context.Background(), cluster.Config{URL: url, NodeID: name, AdvertURL: "http://" + name + ".invalid", Lease: time.Minute,
		Adopt: func(context.Context, string, []byte, func(string) error) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return newEnv(t, setup{
		images:     map[string]*engine.Image{js.ImageName: testenv.Image(t, js.ImageName)},
		languages:  map[wasmexec.Language]wasmexec.LanguageDriver{wasmexec.JavaScript: js.Driver{Packages: &stager{}}},
		maxImplied: templates.DefaultMaxImplicitBytes,
		shared:     shared(c),
		now:        now,
	})
}

// A node whose fetch of an implicit template failed runs without it, and
// looks it up again at a later run once its retry is due: after a wait
// doubled at each failure in a row, not by every run, and not never.
func TestImplicitFetchRetried(t *testing.T) {
	pgtest.Shared(t)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{name: "peer unavailable", err: wasmexec.Errorf(wasmexec.EUnavailable, "node n1 can't be reached")},
		{name: "capture changed", err: errors.New("the capture changed as it was read")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			url := pgtest.NewDatabase(t)
			const mem = 64 << 20
			pkgs := []string{"x"}
			req := func(code string) wasmexec.Request {
				return wasmexec.Request{Language: wasmexec.JavaScript, Packages: pkgs, Code: code, Limits: wasmexec.Limits{MemoryBytes: mem}}
			}
			n1 := clusterNode(t, url, "n1", func(c *cluster.Cluster) templates.Shared { return c }, nil)
			n1.run(t, ctx, req("1"))
			poll.Until(t, 60*time.Second, "the implicit template built by n1", func() bool {
				imp := implicitOf(t, n1)
				return len(imp) == 1 && imp[0].State == wasmexec.TemplateReady
			})

			var offset atomic.Int64 // n2's clock, ahead of the wall clock
			now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
			fl := &flakyFetch{err: tc.err}
			fl.fails.Store(2)
			n2 := clusterNode(t, url, "n2", func(c *cluster.Cluster) templates.Shared { fl.Shared = c; return fl }, now)
			lookup := func() (bool, int, time.Time) { return n2.tpl.ImplicitLookup(ctx, wasmexec.JavaScript, pkgs, mem) }
			implicit := func() *wasmexec.TemplateImage { return n2.tpl.Implicit(ctx, wasmexec.JavaScript, pkgs, mem) }

			// n2's first run asks for it; the fetch fails; the run went on
			// without it.
			wantValue(t, n2.run(t, ctx, req("typeof loads")), `"undefined"`)
			// Each failure's retry is due after its wait, and not before.
			waits := []time.Duration{time.Second, 2 * time.Second}
			var failures []int
			var dueIn []time.Duration
			for i, wait := range waits {
				poll.Until(t, 60*time.Second, fmt.Sprintf("fetch %d, failed", i+1), func() bool {
					syncing, _, _ := lookup()
					return !syncing && fl.fetches.Load() == int64(i+1)
				})
				_, n, at := lookup()
				failures, dueIn = append(failures, n), append(dueIn, at.Sub(now()))
				if implicit() != nil {
					t.Fatal("a template image from a failed fetch")
				}
				if syncing, _, _ := lookup(); syncing {
					t.Fatalf("after failure %d: looked up again before its retry was due", i+1)
				}
				offset.Add(int64(wait))
				if implicit() != nil {
					t.Fatal("a template image before its fetch")
				}
			}
			// The third fetch succeeds: runs start from it.
			var ti *wasmexec.TemplateImage
			poll.Until(t, 60*time.Second, "the implicit template fetched by n2", func() bool {
				ti = implicit()
				return ti != nil
			})
			ti.Release()
			if _, n, _ := lookup(); n != 0 || fl.fetches.Load() != 3 {
				t.Fatalf("after the fetch: %d failures remembered, %d fetches, want 0 and 3", n, fl.fetches.Load())
			}
			wantValue(t, n2.run(t, ctx, req("typeof loads")), `"number"`)
			for i, wait := range waits {
				if failures[i] != i+1 || dueIn[i] <= 0 || dueIn[i] > wait {
					t.Errorf("failure %d: counted %d, its retry due in %s, want %d and (0, %s]", i+1, failures[i], dueIn[i], i+1, wait)
				}
			}
		})
	}
}
