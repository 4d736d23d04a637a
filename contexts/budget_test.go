package contexts_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	wx "github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/vfs"
)

// budgetRig is a manager with a memory budget whose loops don't run (the
// test calls Balance), a clock the test moves, and the order of its
// hibernations.
type budgetRig struct {
	m      *contexts.Manager
	now    atomic.Int64
	mu     sync.Mutex
	events []string // "hibernated ID", "restored ID"
	logs   lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newBudgetRig makes the rig's manager: durable over d when d.state is
// set, else in memory. The server's RSS is taken as 0, so the budget
// counts the guests alone.
func newBudgetRig(t *testing.T, d durableDirs, cfg contexts.Config) *budgetRig {
	t.Helper()
	rig := &budgetRig{}
	rig.now.Store(time.Now().UnixNano())
	if cfg.Runner == nil {
		cfg.Runner = MustRunner(t, testenv.RunnerConfig{})
	}
	root := d.workspaces
	if root == "" {
		root = filepath.Join(testenv.ScratchDir(t), "contexts")
	}
	ws, err := vfs.NewManager(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workspaces, cfg.StateDir = ws, d.state
	cfg.Now = func() time.Time { return time.Unix(0, rig.now.Load()) }
	if cfg.MemoryBudget == 0 {
		cfg.MemoryBudget = 1 << 40
	}
	cfg.ProcessRSS = func() int64 { return 0 }
	cfg.Logger = slog.New(slog.NewTextHandler(&rig.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg.OnEvent = func(typ, id string) {
		rig.mu.Lock()
		defer rig.mu.Unlock()
		rig.events = append(rig.events, strings.TrimPrefix(typ, "context.")+" "+id)
	}
	m, err := contexts.New(cfg) // no loops: Balance is called by the test
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	rig.m = m
	return rig
}

func (r *budgetRig) advance(d time.Duration) { r.now.Add(int64(d)) }

// took returns the events since the last call.
func (r *budgetRig) took() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := r.events
	r.events = nil
	return ev
}

func hibernations(events []string) []string {
	var out []string
	for _, e := range events {
		if id, ok := strings.CutPrefix(e, "hibernated "); ok {
			out = append(out, id)
		}
	}
	return out
}

// The governor hibernates the least recently used idle contexts first, and
// never one with a run in flight, a held slot (an install) or a live
// process, however long ago it was used.
func TestBudgetEvictsLeastRecentlyUsedIdleContexts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		durable bool
	}{
		{name: "durable records", durable: true},
		{name: "in memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d durableDirs
			if tc.durable {
				d = newDurableDirs(t)
			}
			rig := newBudgetRig(t, d, contexts.Config{LiveProcesses: func(id string) int {
				if id == "proc" {
					return 1
				}
				return 0
			}})
			m := rig.m
			busy := []string{"held", "proc", "running"}
			var idle []string
			for i := range 8 {
				idle = append(idle, fmt.Sprintf("c%d", i))
			}
			// Used in this order, a second apart: the busy ones first.
			for i, id := range append(slices.Clone(busy), idle...) {
				MustCreate(t, m, wx.ContextSpec{ContextID: id})
				MustRun(t, m, id, wx.Request{Code: fmt.Sprintf("globalThis.v = %d; v", i)})
				rig.advance(time.Second)
			}
			m.Balance() // measures and trims; nothing to hibernate yet
			if ev := hibernations(rig.took()); len(ev) != 0 {
				t.Fatalf("hibernated %v with room to spare", ev)
			}
			_, release, err := m.Hold(context.Background(), "held")
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			runCtx, stop := context.WithCancel(context.Background())
			ran := make(chan struct{})
			go func() {
				defer close(ran)
				res, err := m.Run(runCtx, &wx.Request{Kind: wx.KindEvaluate, Language: wx.JavaScript, ContextID: "running", Code: "for (;;) {}", TimeoutMs: 30000})
				if err != nil || res.Outcome != wx.Cancelled {
					t.Errorf("the long run ended: %+v, %v; want cancelled", res, err)
				}
			}()
			defer func() { stop(); <-ran }()
			waitFor(t, 10*time.Second, "the run to start", func() bool { return mustGet(t, m, "running").State == wx.ContextRunning })

			used := m.Memory().Used
			// Room for about 60%: the governor brings used down to
			// BudgetLow of the budget.
			budget := int64(float64(used) * 0.6 / contexts.BudgetLow)
			contexts.SetMemoryBudget(m, budget)
			n := m.Balance()
			got := hibernations(rig.took())
			t.Logf("used %d bytes by %d live contexts; budget %d: hibernated %v", used, m.Memory().Live+n, budget, got)
			if n == 0 || n != len(got) || n >= len(idle) {
				t.Fatalf("Balance hibernated %d (%v); want some, not all, of the %d idle ones", n, got, len(idle))
			}
			// Hibernated side by side, they may finish out of order: the
			// least recently used ones are the ones hibernated.
			if !sameSet(got, idle[:n]) {
				t.Fatalf("hibernated %v, want the least recently used idle ones first: %v", got, idle[:n])
			}
			if mem := m.Memory(); float64(mem.Used) > float64(budget)*contexts.BudgetLow || mem.Evictions != int64(n) {
				t.Fatalf("after Balance: %+v; want used within the low mark and %d evictions", mem, n)
			}

			// However short memory is, the busy ones stay live.
			contexts.SetMemoryBudget(m, 1)
			m.Balance()
			got = append(got, hibernations(rig.took())...)
			if !sameSet(got, idle) {
				t.Fatalf("hibernated %v, want every idle one: %v", got, idle)
			}
			for _, id := range busy {
				if d := mustGet(t, m, id); d.Hibernated {
					t.Fatalf("%s was hibernated while busy: %+v", id, d)
				}
			}
			// Every context still answers its own value.
			for i, id := range idle {
				wantValue(t, MustRun(t, m, id, wx.Request{Code: "v"}), fmt.Sprint(len(busy)+i))
			}
		})
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// A start or wake past the budget's full mark, with room left within the
// budget, hibernates one context on its own path, and no more: the
// governor does the rest in the background. One that finds no room
// within the budget itself hibernates as many as it needs, least
// recently used first.
func TestBudgetAdmissionHibernatesAtMostOne(t *testing.T) {
	rig := newBudgetRig(t, newDurableDirs(t), contexts.Config{})
	m := rig.m
	for i := range 8 {
		id := fmt.Sprintf("c%d", i)
		MustCreate(t, m, wx.ContextSpec{ContextID: id})
		MustRun(t, m, id, wx.Request{Code: fmt.Sprintf("globalThis.v = %d", i)})
		rig.advance(time.Second)
	}
	m.Balance()
	rig.took()
	est := contexts.Estimate(m, mustFamily(t, m, "c0"))
	// room makes the budget hold used and more bytes at 95%: past its
	// full mark, within the budget.
	room := func(more int64) {
		contexts.SetMemoryBudget(m, (m.Memory().Used+more)*100/95)
	}
	room(est)
	MustCreate(t, m, wx.ContextSpec{ContextID: "new"})
	contexts.WaitCommits(m) // the victim's record is committed after the create returned
	if got := hibernations(rig.took()); !slices.Equal(got, []string{"c0"}) {
		t.Fatalf("creating a context with the budget full hibernated %v; want the least recently used one, c0", got)
	}
	if mem := m.Memory(); mem.OnPath != 1 || mem.Evictions != 1 {
		t.Fatalf("memory figures: %+v; want 1 eviction, on the create's path", mem)
	}
	mustHibernate(t, m, "c7")
	rig.took()
	contexts.TrimAll(m) // measured: nothing left to trim
	room(est + mustGet(t, m, "c7").SnapshotBytes)
	wantValue(t, MustRun(t, m, "c7", wx.Request{Code: "v"}), "7") // a wake
	contexts.WaitCommits(m)
	if got := hibernations(rig.took()); !slices.Equal(got, []string{"c1"}) {
		t.Fatalf("waking a context with the budget full hibernated %v; want one, c1", got)
	}

	contexts.TrimAll(m)
	mem := m.Memory()
	// Room for the new guest once three of the live ones are gone.
	budget := mem.Used + est - 3*mem.LiveBytes/int64(mem.Live)
	contexts.SetMemoryBudget(m, budget)
	contexts.PeakUsed(m)
	MustCreate(t, m, wx.ContextSpec{ContextID: "new2"})
	contexts.WaitCommits(m)
	got := hibernations(rig.took())
	if lru := []string{"c2", "c3", "c4", "c5", "c6", "new", "c7"}; len(got) < 2 || len(got) > 4 || !slices.Equal(got, lru[:len(got)]) {
		t.Fatalf("creating a context with no room in the budget hibernated %v; want the three or so least recently used ones", got)
	}
	if peak := contexts.PeakUsed(m); peak > budget {
		t.Fatalf("used reached %d, past the budget (%d)", peak, budget)
	}
}

// mustFamily is the name of the guest family of context id.
func mustFamily(t *testing.T, m *contexts.Manager, id string) string {
	t.Helper()
	f, err := contexts.FamilyOf(m, id)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A hibernation for the budget that fails (a full disk, a read-only or
// unwritable state dir) keeps the context live with its state: its
// notice, the log and the failure counter say so, and it is hibernated
// once the disk takes its record again.
func TestBudgetHibernationFailureKeepsContextLive(t *testing.T) {
	for _, tc := range []struct {
		name      string
		breakDisk func(t *testing.T, dir string) (repair func())
	}{
		{name: "disk full", breakDisk: func(t *testing.T, dir string) func() {
			// Fill the file system the records are on.
			f, err := os.Create(filepath.Join(dir, "filler"))
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64<<10)
			for {
				if _, err := f.Write(buf); err != nil {
					if !errors.Is(err, syscall.ENOSPC) {
						t.Fatalf("filling the disk: %v", err)
					}
					break
				}
			}
			f.Close()
			return func() { os.Remove(f.Name()) }
		}},
		{name: "read-only state dir", breakDisk: func(t *testing.T, dir string) func() {
			remount(t, dir, "ro")
			return func() { remount(t, dir, "rw") }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDurableDirs(t)
			mountTmpfs(t, d.state, 8<<20)
			rig := newBudgetRig(t, d, contexts.Config{})
			m := rig.m
			MustCreate(t, m, wx.ContextSpec{ContextID: "a"})
			MustRun(t, m, "a", wx.Request{Code: "globalThis.v = 'kept'; v"})
			rig.advance(time.Second)
			m.Balance()

			repair := tc.breakDisk(t, d.state)
			contexts.SetMemoryBudget(m, 1)
			if n := m.Balance(); n != 0 {
				t.Fatalf("Balance hibernated %d contexts with a broken disk", n)
			}
			desc := mustGet(t, m, "a")
			if desc.Hibernated || !strings.Contains(desc.Notice, "could not be hibernated") {
				t.Fatalf("descriptor: %+v; want live, with a notice saying it could not be hibernated", desc)
			}
			t.Logf("notice: %s", desc.Notice)
			if mem := m.Memory(); mem.Failures != 1 || mem.Evictions != 0 || mem.Live != 1 {
				t.Fatalf("memory figures: %+v; want 1 failure, no eviction, 1 live", mem)
			}
			if m.SnapshotErrors() == 0 {
				t.Fatal("the failed record write was not counted")
			}
			if log := rig.logs.String(); !strings.Contains(log, "could not be hibernated to stay within the memory budget") {
				t.Fatalf("the log doesn't say it:\n%s", log)
			}
			if m.Balance() != 0 {
				t.Fatal("a failed context was tried again before its retry time")
			}
			wantValue(t, MustRun(t, m, "a", wx.Request{Code: "v"}), `"kept"`)

			repair()
			rig.advance(time.Minute) // past the retry delay
			if n := m.Balance(); n != 1 {
				t.Fatalf("Balance hibernated %d once the disk was repaired, want 1", n)
			}
			if desc := mustGet(t, m, "a"); !desc.Hibernated {
				t.Fatalf("not hibernated after the repair: %+v", desc)
			}
			wantValue(t, MustRun(t, m, "a", wx.Request{Code: "v"}), `"kept"`)
		})
	}
}

// A hibernation for the budget whose record can't be put in place at its
// commit, after its guest was closed, brings the guest back from the
// state just written: the context stays live with its state and says
// so, as when the write itself fails; it is hibernated once its record
// can be put in place.
func TestBudgetCommitFailureKeepsContextLive(t *testing.T) {
	d := newDurableDirs(t)
	rig := newBudgetRig(t, d, contexts.Config{})
	m := rig.m
	MustCreate(t, m, wx.ContextSpec{ContextID: "a"})
	MustRun(t, m, "a", wx.Request{Code: "globalThis.v = 'kept'; v"})
	rig.advance(time.Second)
	m.Balance()

	// A directory where its record goes: the commit's rename fails (the
	// state was written and fsynced beside it first).
	rec := filepath.Join(d.state, "a.ctx")
	if err := os.Remove(rec); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(rec, "in-the-way"), 0o755); err != nil {
		t.Fatal(err)
	}
	contexts.SetMemoryBudget(m, 1)
	if n := m.Balance(); n != 0 {
		t.Fatalf("Balance hibernated %d contexts whose records can't be put in place", n)
	}
	desc := mustGet(t, m, "a")
	if desc.Hibernated || !strings.Contains(desc.Notice, "could not be hibernated") {
		t.Fatalf("descriptor: %+v; want live, with a notice saying it could not be hibernated", desc)
	}
	if mem := m.Memory(); mem.Failures != 1 || mem.Evictions != 0 || mem.Live != 1 {
		t.Fatalf("memory figures: %+v; want 1 failure, no eviction, 1 live", mem)
	}
	if m.SnapshotErrors() == 0 {
		t.Fatal("the failed commit was not counted as a failed record write")
	}
	wantValue(t, MustRun(t, m, "a", wx.Request{Code: "v"}), `"kept"`)

	if err := os.RemoveAll(rec); err != nil {
		t.Fatal(err)
	}
	rig.advance(time.Minute) // past the retry delay
	if n := m.Balance(); n != 1 {
		t.Fatalf("Balance hibernated %d once the record could be put in place, want 1", n)
	}
	if desc := mustGet(t, m, "a"); !desc.Hibernated {
		t.Fatalf("not hibernated after the repair: %+v", desc)
	}
	wantValue(t, MustRun(t, m, "a", wx.Request{Code: "v"}), `"kept"`)
}

// mountTmpfs mounts a tmpfs of size bytes at dir until the test ends, or
// skips the test where this process can't mount (not root).
func mountTmpfs(t *testing.T, dir string, size int64) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("can't mount a small file system to fill (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
}

func remount(t *testing.T, dir, mode string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+mode, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s %s: %v: %s", dir, mode, err, out)
	}
}

// Creating a context past the bound of the contexts' disk use is
// overloaded, naming the bound; deleting one makes room again.
func TestCreateRefusedPastDiskBound(t *testing.T) {
	d := newDurableDirs(t)
	rig := newBudgetRig(t, d, contexts.Config{MaxDiskBytes: 256 << 10})
	m := rig.m
	MustCreate(t, m, wx.ContextSpec{ContextID: "big"})
	if _, err := m.WriteFile(context.Background(), "big", "data.bin", make([]byte, 300<<10)); err != nil {
		t.Fatal(err)
	}
	contexts.MeasureDisk(m)
	_, err := m.Create(context.Background(), &wx.ContextSpec{ContextID: "more", Language: wx.JavaScript})
	wantCode(t, err, wx.EOverloaded)
	if !strings.Contains(err.Error(), "contexts-max-disk-bytes") {
		t.Fatalf("the error doesn't name the bound: %v", err)
	}
	if used, limit := m.DiskBytes(); used < 300<<10 || limit != 256<<10 {
		t.Fatalf("DiskBytes = %d, %d", used, limit)
	}
	if err := m.Delete(context.Background(), "big"); err != nil {
		t.Fatal(err)
	}
	MustCreate(t, m, wx.ContextSpec{ContextID: "more"})
}

// A workload that touches twice as many contexts as the budget keeps
// live, round robin from four clients, goes on being served steadily:
// every run answers its own context's value, none fails, and each pays
// about one wake and one hibernation (never many), however long it goes
// on. Its rate is in make bench (the "density" section).
func TestBudgetRoundRobinThrash(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	var restores atomic.Int64
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	d := newDurableDirs(t)
	m, err := contexts.Open(contexts.Config{
		Runner: r, Workspaces: ws, StateDir: d.state,
		MemoryBudget: 1 << 40, ProcessRSS: func() int64 { return 0 },
		OnEvent: func(typ, id string) {
			if typ == contexts.EventRestored {
				restores.Add(1)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	const n, clients, rounds = 16, 4, 20
	for i := range n {
		id := fmt.Sprintf("rr%d", i)
		MustCreate(t, m, wx.ContextSpec{ContextID: id})
		// 2 MiB of its own each, so that what a guest owns outweighs the
		// image pages a run maps in (the budget counts both).
		MustRun(t, m, id, wx.Request{Code: fmt.Sprintf("globalThis.v = %d; globalThis.pad = new Uint8Array(2 << 20).fill(%d); v", i, i)})
	}
	contexts.TrimAll(m) // measured as idle guests are
	perGuest := m.Memory().LiveBytes / n
	contexts.SetMemoryBudget(m, perGuest*n/2) // room for half of them
	m.Balance()
	contexts.WaitCommits(m)
	evictedBefore := m.Memory().Evictions

	// Round by round, the clients take the next context in turn.
	var next atomic.Int64
	for round := range rounds {
		woke0, evicted0 := restores.Load(), m.Memory().Evictions
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				for {
					k := int(next.Add(1)) - 1
					if k >= (round+1)*n {
						return
					}
					i := k % n
					res, err := tryRun(m, fmt.Sprintf("rr%d", i), wx.Request{Code: "pad[12345] === v ? v : -1"})
					if err != nil {
						t.Errorf("round %d, rr%d: %v", round, i, err)
						return
					}
					wantValue(t, res, fmt.Sprint(i))
				}
			})
		}
		wg.Wait()
		next.Store(int64((round + 1) * n))
		if t.Failed() {
			t.FailNow()
		}
		mem := m.Memory()
		woke, evicted := restores.Load()-woke0, mem.Evictions-evicted0
		t.Logf("round %d: %d runs, %d wakes, %d hibernations; %d live, used %d of %d", round, n, woke, evicted, mem.Live, mem.Used, mem.Budget)
		if round > 0 && woke < n/2 {
			t.Fatalf("round %d: %d wakes for %d runs over a budget for half of them: not thrashing as set up", round, woke, n)
		}
		if evicted > 3*n/2 {
			t.Fatalf("round %d: %d hibernations for %d runs: not steady", round, evicted, n)
		}
		if mem.Failures != 0 {
			t.Fatalf("%d hibernations failed", mem.Failures)
		}
	}
	contexts.WaitCommits(m)
	runs, woke, evicted := int64(n*rounds), restores.Load(), m.Memory().Evictions-evictedBefore
	perRun := float64(evicted) / float64(runs)
	t.Logf("%d runs: %d wakes, %d hibernations in all (%.2f per run)", runs, woke, evicted, perRun)
	if woke > runs {
		t.Fatalf("%d wakes for %d runs: a run paid more than one", woke, runs)
	}
	if perRun > 1.2 {
		t.Fatalf("%.2f hibernations per run; want about one (a wake each)", perRun)
	}
}

// Creates and wakes at once at the edge of the budget can't all pass its
// check before any of them is counted: what the budget counts as used
// never goes past it, though together they want more than the room
// left, and every context answers its own value.
func TestBudgetConcurrentAdmissionsStayWithinBudget(t *testing.T) {
	r := MustRunner(t, testenv.RunnerConfig{})
	ws, err := vfs.NewManager(filepath.Join(testenv.ScratchDir(t), "contexts"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := contexts.Open(contexts.Config{
		Runner: r, Workspaces: ws, StateDir: newDurableDirs(t).state,
		MemoryBudget: 1 << 40, ProcessRSS: func() int64 { return 0 },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	family, err := r.Family(wx.JavaScript)
	if err != nil {
		t.Fatal(err)
	}
	// idle: live and trimmed, the victims; asleep: hibernated, woken at
	// once with fresh ones created.
	const idle, asleep, fresh = 24, 4, 4
	for i := range idle + asleep {
		id := fmt.Sprintf("c%d", i)
		MustCreate(t, m, wx.ContextSpec{ContextID: id})
		MustRun(t, m, id, wx.Request{Code: fmt.Sprintf("globalThis.v = %d; globalThis.pad = new Uint8Array(4 << 20).fill(%d); v", i, i)})
	}
	for i := idle; i < idle+asleep; i++ {
		if _, err := m.Hibernate(context.Background(), fmt.Sprintf("c%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	contexts.TrimAll(m)
	used, est := m.Memory().Used, contexts.Estimate(m, family.Name)
	// Used just under the governor's high mark: room for one or two
	// more guests, not for all of them.
	budget := used * 100 / 81
	if want := int64(asleep+fresh) * est; budget-used >= want/2 {
		t.Fatalf("set-up: %d bytes left in the budget, %d wanted at once: not at its edge", budget-used, want)
	}
	contexts.SetMemoryBudget(m, budget)
	contexts.PeakUsed(m) // from here on

	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := idle; i < idle+asleep; i++ {
		wg.Go(func() {
			<-start
			id := fmt.Sprintf("c%d", i)
			res, err := tryRun(m, id, wx.Request{Code: "pad[12345] === v ? v : -1"})
			if err != nil {
				t.Errorf("waking %s: %v", id, err)
				return
			}
			wantValue(t, res, fmt.Sprint(i))
		})
	}
	for i := range fresh {
		wg.Go(func() {
			<-start
			id := fmt.Sprintf("new%d", i)
			if _, err := m.Create(context.Background(), &wx.ContextSpec{ContextID: id, Language: wx.JavaScript}); err != nil {
				t.Errorf("creating %s: %v", id, err)
			}
		})
	}
	close(start)
	wg.Wait()
	peak, mem := contexts.PeakUsed(m), m.Memory()
	t.Logf("budget %d, used %d before (a guest estimated at %d); peak %d; after: %d used by %d live, %d evictions", budget, used, est, peak, mem.Used, mem.Live, mem.Evictions)
	if peak > budget {
		t.Fatalf("used reached %d bytes, %d past the budget (%d)", peak, peak-budget, budget)
	}
}

// However roomy the budget, no more than MaxLive guests are live: each
// holds a thread.
func TestBudgetBoundsLiveGuests(t *testing.T) {
	rig := newBudgetRig(t, newDurableDirs(t), contexts.Config{MaxLive: 4})
	m := rig.m
	for i := range 8 {
		id := fmt.Sprintf("c%d", i)
		MustCreate(t, m, wx.ContextSpec{ContextID: id})
		MustRun(t, m, id, wx.Request{Code: fmt.Sprintf("globalThis.v = %d", i)})
		rig.advance(time.Second)
	}
	m.Balance()
	if live := m.Memory().Live; live > 4 {
		t.Fatalf("%d live guests, want at most MaxLive (4)", live)
	}
	for i := range 8 {
		wantValue(t, MustRun(t, m, fmt.Sprintf("c%d", i), wx.Request{Code: "v"}), fmt.Sprint(i))
	}
	m.Balance()
	if live := m.Memory().Live; live > 4 {
		t.Fatalf("%d live guests after the wakes, want at most 4", live)
	}
}
