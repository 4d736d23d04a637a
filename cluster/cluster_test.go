package cluster

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/pgtest"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// lostLog collects the contexts a node was told to drop.
type lostLog struct {
	mu  sync.Mutex
	ids []string
}

func (l *lostLog) add(id string) { l.mu.Lock(); l.ids = append(l.ids, id); l.mu.Unlock() }
func (l *lostLog) has(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, x := range l.ids {
		if x == id {
			return true
		}
	}
	return false
}

func mustOpen(t *testing.T, url, node string, lease time.Duration, lost *lostLog) *Cluster {
	t.Helper()
	c, err := Open(context.Background(), Config{URL: url, NodeID: node, AdvertURL: "http://" + node + ".invalid", Lease: lease, Lost: lost.add,
		Adopt: func(context.Context, string, []byte, func(string) error) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A node that can't renew (PostgreSQL stopped) stops serving its contexts
// when its own deadline passes, before the lease in the database ends.
func TestLeaseRunsOutWithoutDatabase(t *testing.T) {
	db, url := pgtest.Own(t)
	lost := &lostLog{}
	c := mustOpen(t, url, "n1", 600*time.Millisecond, lost)
	if err := c.Register(context.Background(), "a", "t1"); err != nil {
		t.Fatal(err)
	}
	if !c.Owns("a") {
		t.Fatal("a registered context is not owned")
	}
	if err := db.StopServer(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	poll.Until(t, 5*time.Second, "the node to stop serving its context", func() bool { return !c.Owns("a") })
	if time.Since(start) >= 600*time.Millisecond {
		t.Fatalf("served for %s after the database went away, past the lease", time.Since(start))
	}
	poll.Until(t, 5*time.Second, "the contexts manager to be told", func() bool { return lost.has("a") })
}

// Two nodes: ids are unique across them, another tenant's id is not
// found, a context with a live owner is forwarded, a forwarded request is
// never sent on, and a release lets the other node claim it (the old
// owner's writes are then fenced).
func TestOwnershipAndFencing(t *testing.T) {
	url := pgtest.NewDatabase(t)
	l1, l2 := &lostLog{}, &lostLog{}
	n1 := mustOpen(t, url, "n1", 10*time.Second, l1)
	n2 := mustOpen(t, url, "n2", 10*time.Second, l2)
	ctx := context.Background()
	if err := n1.Register(ctx, "c", "t1"); err != nil {
		t.Fatal(err)
	}
	if err := n2.Register(ctx, "c", "t1"); wasmexec.ErrorCode(err) != wasmexec.EContextConflict {
		t.Fatalf("the same id on n2: %v", err)
	}
	if _, _, err := n2.ContextOwner(ctx, "c", "t2", false); wasmexec.ErrorCode(err) != wasmexec.EContextNotFound {
		t.Fatalf("another tenant: %v", err)
	}
	owner, lease, err := n2.ContextOwner(ctx, "c", "t1", false)
	if err != nil || owner != "http://n1.invalid" || lease <= 0 {
		t.Fatalf("owner through n2: %q %s %v", owner, lease, err)
	}
	var re *RetryError
	if _, _, err := n2.ContextOwner(ctx, "c", "t1", true); !errors.As(err, &re) || re.RetrySeconds() != 1 {
		t.Fatalf("a forwarded request on n2: %v", err)
	}
	if owner, _, err := n2.ContextOwner(ctx, "nobody-knows", "t1", false); owner != "" || err != nil {
		t.Fatalf("an unknown id is served here (a 404): %q %v", owner, err)
	}
	// n1's snapshot is stored; n2 takes the context over after n1 hands
	// it back.
	if err := n1.Save(ctx, "c", recordOf("REC"), t.TempDir(), 12345); err != nil {
		t.Fatal(err)
	}
	// Its workspace's bytes count for its tenant on the other node, not on
	// its owner (which counts its own live).
	for _, tc := range []struct {
		n      *Cluster
		tenant string
		want   int64
	}{{n2, "t1", 12345}, {n1, "t1", 0}, {n2, "t2", 0}} {
		if got, err := tc.n.TenantWorkspaceBytes(ctx, tc.tenant); err != nil || got != tc.want {
			t.Fatalf("%s's count of %s's workspaces elsewhere: %d %v, want %d", tc.n.NodeID(), tc.tenant, got, err, tc.want)
		}
	}
	if _, err := n1.db.Exec(`UPDATE cluster_contexts SET lease_expires_at_ms = 0 WHERE context_id = 'c'`); err != nil {
		t.Fatal(err)
	}
	// n2 remembers n1 as the owner (a forward there would fail: Moved)...
	if owner, _, err := n2.ContextOwner(ctx, "c", "t1", false); owner != "http://n1.invalid" || err != nil {
		t.Fatalf("cached owner on n2: %q %v", owner, err)
	}
	// ...then reads the row again and claims it.
	n2.Moved("c")
	if owner, _, err := n2.ContextOwner(ctx, "c", "t1", false); owner != "" || err != nil || !n2.Owns("c") {
		t.Fatalf("claim on n2: %q %v", owner, err)
	}
	// Its owner changed: now n1 counts it, and n2 counts its own live.
	if got, err := n1.TenantWorkspaceBytes(ctx, "t1"); err != nil || got != 12345 {
		t.Fatalf("n1's count after the claim: %d %v", got, err)
	}
	if got, err := n2.TenantWorkspaceBytes(ctx, "t1"); err != nil || got != 0 {
		t.Fatalf("n2's count after the claim: %d %v", got, err)
	}
	// n1 still thinks it holds c: its next write is fenced and it drops c.
	if err := n1.Save(ctx, "c", recordOf("REC"), t.TempDir(), 0); !errors.Is(err, ErrFenced) {
		t.Fatalf("a write by the old owner: %v", err)
	}
	poll.Until(t, 5*time.Second, "n1 to drop c", func() bool { return l1.has("c") && !n1.Owns("c") })
	// Deleting through the old owner does nothing; through the new one
	// removes the row.
	n1.Forget("c")
	if owner, _, _ := n1.ContextOwner(ctx, "c", "t1", false); owner != "http://n2.invalid" {
		t.Fatalf("after a fenced forget the owner is %q", owner)
	}
	n2.Forget("c")
	// n1 remembers n2 for a moment (n2 would answer the 404 itself).
	n1.Moved("c")
	if owner, _, err := n1.ContextOwner(ctx, "c", "t1", false); owner != "" || err != nil {
		t.Fatalf("after the owner's forget: %q %v", owner, err)
	}
}

// A request that finds its context past the local deadline (the renewal
// loop fell behind on a busy machine) renews that lease itself and is
// served here: nothing is dropped while the database agrees. When another
// node has taken it meanwhile, it is dropped instead.
func TestLateContextRenewedByRequest(t *testing.T) {
	url := pgtest.NewDatabase(t)
	lost := &lostLog{}
	n1 := mustOpen(t, url, "n1", time.Minute, lost)
	ctx := context.Background()
	for _, id := range []string{"late", "taken"} {
		if err := n1.Register(ctx, id, ""); err != nil {
			t.Fatal(err)
		}
	}
	behind := func(id string) {
		n1.mu.Lock()
		h := n1.held[id]
		h.deadline = time.Now().Add(-time.Second)
		n1.held[id] = h
		n1.mu.Unlock()
	}
	behind("late")
	if n1.Owns("late") {
		t.Fatal("a context past its deadline is served without a renewal")
	}
	if owner, _, err := n1.ContextOwner(ctx, "late", "", false); owner != "" || err != nil || !n1.Owns("late") || lost.has("late") {
		t.Fatalf("late context: owner %q, %v, owned %v, lost %v", owner, err, n1.Owns("late"), lost.has("late"))
	}
	behind("taken")
	if _, err := n1.db.Exec(`UPDATE cluster_contexts SET owner_node = 'n2', owner_url = 'http://n2.invalid', generation = generation + 1 WHERE context_id = 'taken'`); err != nil {
		t.Fatal(err)
	}
	if owner, _, err := n1.ContextOwner(ctx, "taken", "", false); owner != "http://n2.invalid" || err != nil {
		t.Fatalf("a context another node took: %q %v", owner, err)
	}
	poll.Until(t, 5*time.Second, "n1 to drop the context n2 took", func() bool { return lost.has("taken") })
}

// recordOf is a record to Save.
func recordOf(s string) *io.SectionReader {
	return io.NewSectionReader(strings.NewReader(s), 0, int64(len(s)))
}

// TenantContexts counts a tenant's contexts on every node but those it is
// told to leave out (the asking server's reservations, which it counts
// itself whether they are registered yet or not); none left out (nil or
// empty) leaves none out.
func TestTenantContexts(t *testing.T) {
	url := pgtest.NewDatabase(t)
	n1 := mustOpen(t, url, "n1", 10*time.Second, &lostLog{})
	n2 := mustOpen(t, url, "n2", 10*time.Second, &lostLog{})
	ctx := context.Background()
	for id, reg := range map[string]*Cluster{"a": n1, "b": n1, "c": n2, "other": n2} {
		tenant := "t1"
		if id == "other" {
			tenant = "t2"
		}
		if err := reg.Register(ctx, id, tenant); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		tenant string
		except []string
		want   int64
	}{
		{"every node", "t1", nil, 3},
		{"none left out", "t1", []string{}, 3},
		{"one left out", "t1", []string{"a"}, 2},
		{"one not registered left out", "t1", []string{"being-made"}, 3},
		{"another tenant's left out", "t1", []string{"other"}, 3},
		{"all left out", "t1", []string{"a", "b", "c"}, 0},
		{"another tenant", "t2", nil, 1},
		{"no contexts", "t3", []string{"a"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []*Cluster{n1, n2} {
				if got, err := n.TenantContexts(ctx, tc.tenant, tc.except); err != nil || got != tc.want {
					t.Fatalf("%s: %d %v, want %d", n.NodeID(), got, err, tc.want)
				}
			}
		})
	}
}
