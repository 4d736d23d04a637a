package engine

import (
	"encoding/json"

	"github.com/wasmexec/wasmexec"

	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

// GuestOptions are fixed for a guest's whole life.
type GuestOptions struct {
	// Env is added to the image's env and the safe defaults. The host's own
	// environment never reaches a guest.
	Env map[string]string
	// Workspace, when set, is a host directory mounted at /workspace, which
	// is also the guest's working directory (PWD).
	Workspace string
	// MemoryBytes caps the guest's linear memory for its whole life.
	MemoryBytes int64
	// StartTimeout bounds the driver's start-up (default 10s).
	StartTimeout time.Duration
	// DebugStderrFile, when set, receives what the guest writes to WASI fd 2
	// outside the control channel (runtime fatal errors, GODEBUG traces).
	// For debugging only: the file is not size-limited.
	DebugStderrFile string
	// StateChecked (RestoreFile) says the state's file was checked whole
	// by an earlier restore in this process and has not changed since (a
	// template's: written once, never in place): its raw pages are mapped
	// without reading each byte again for its checksum. Its head and its
	// compressed frames are still checked.
	StateChecked bool
	// Template says the state (RestoreFile) is a template's, restored by
	// one guest per run: the engine learns which of its mapped pages runs
	// write (learn.go). Ahead says the guest is made ahead of the run
	// that will take it: those pages are copied in now, off that run's
	// path.
	Template, Ahead bool

	restore *decodedState // Image.Restore: written over the fresh instance
}

// initFuel is the fuel a driver may burn starting up, before its first
// request (goja ~11M units, CPython ~100M).
const initFuel = 2_000_000_000

// Guest is one instantiated guest image: a wasmtime Store, its instance and
// the goroutine running the driver's _start. Between requests the driver
// waits inside the host's recv; Call hands it one request at a time.
//
// States: starting → ready (parked in recv) ⇄ running (a Call) → dead.
// A guest is dead once _start returned: after a trap, an exit, or Close.
type Guest struct {
	img   *Image
	store *wasmtime.Store
	mem   *wasmtime.Memory
	inst  *wasmtime.Instance
	start *wasmtime.Func   // the entry: _start, or a reactor's serve function
	hib   *hibernation     // the suspend handshake (hibernate.go)
	inits []*wasmtime.Func // reactor init functions, unless snapshotted
	opts  GuestOptions

	calls   chan *call
	quit    chan struct{} // closed by Close: recv returns -1, blocked host calls trap
	quitted atomic.Bool
	ready   chan struct{}
	done    chan struct{} // closed when _start returned
	exitErr error

	cur        atomic.Pointer[call]
	pending    *call                  // delivered by recv but too large for its buffer
	violation  atomic.Pointer[string] // why the host stopped a driver that broke the protocol
	watch      *watch                 // what the epoch callback checks
	startTimer *time.Timer
	unregister func() // from guests, once no host call can come

	mu            sync.Mutex // one Call at a time; guards store release
	started       bool       // the driver was started (run), under mu
	storeFreed    bool
	mapped        int        // ranges of memory a restore mapped from a file (mappedRanges)
	busSlots      []int      // their SIGBUS guards (watch.guardRange)
	mappedFrom    []memRange // those ranges (ResidentBytes counts their resident pages)
	ownsWorkspace bool       // removed with the guest (one-shot and pool guests)
	// learn is the template state whose written pages this guest reports
	// when its store is freed after a call (learn.go); nil: none.
	learn     *learnedWrites
	called    atomic.Bool // a Call was made
	readyOnce sync.Once

	// shim forwards checked WASI calls to wasmtime (wasishim.go).
	shim *wasiShim
	// workspaceFD is the WASI descriptor of the /workspace preopen (after
	// stdio and the image's preopens).
	workspaceFD int32
}

// call is one request in flight: from the driver's recv that takes it to
// the driver's next recv. Whatever the guest does after its send (it should
// do nothing but call recv) still belongs to the call: its deadline, fuel
// and output.
type call struct {
	id       int64 // for the epoch callback (watch.setRun)
	ctx      context.Context
	payload  []byte
	fuel     uint64
	stdin    *wasmexec.Stdin
	out      *wasmexec.Output
	replied  chan struct{} // closed by the driver's send
	parked   chan struct{} // closed by the driver's next recv
	response []byte
	answered time.Time // when the driver sent (guest goroutine only)
	fuelLeft uint64
	reason   atomic.Value // string: a guest-error code the host decided (output_limit)
	maxReply int64
}

// Start instantiates the image and runs its driver until it waits for the
// first request. A guest that dies while starting is an error.
func (img *Image) Start(ctx context.Context, opts GuestOptions) (*Guest, error) {
	g, err := img.instantiate(opts)
	if err != nil {
		return nil, err
	}
	g.launch()

	select {
	case <-g.ready:
		return g, nil
	case <-g.done:
		err := g.exitErr
		g.Close()
		return nil, fmt.Errorf("guest %s died while starting: %v", img.Spec.Name, err)
	case <-ctx.Done():
		g.Close()
		return nil, ctx.Err()
	}
}

// instantiate creates the guest's store and instance without running any
// of its code: RunOnce then runs it for one request on the caller's
// goroutine (Call and Close also accept such a guest).
func (img *Image) instantiate(opts GuestOptions) (*Guest, error) {
	e := img.engine
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = wasmexec.DefaultLimits().MemoryBytes
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 10 * time.Second
	}
	g := &Guest{
		img:   img,
		opts:  opts,
		calls: make(chan *call),
		quit:  make(chan struct{}),
		ready: make(chan struct{}),
		done:  make(chan struct{}),
		hib:   newHibernation(),
	}
	store := wasmtime.NewStore(e.wt)
	g.store = store
	store.Limiter(opts.MemoryBytes, -1, -1, -1, -1)
	wasi := wasmtime.NewWasiConfig()
	wasi.SetArgv(img.Spec.Argv)
	keys, vals := guestEnv(img.Spec.Env, opts)
	wasi.SetEnv(keys, vals)
	// Preopens in a fixed order: runtimes record the fd layout at init, and
	// a snapshotted guest must find the layout its snapshot was taken with.
	for _, rel := range sortedKeys(img.Spec.Preopens) {
		guestPath := img.Spec.Preopens[rel]
		if err := wasi.PreopenDir(img.preopenDir(rel), guestPath); err != nil {
			store.Close()
			return nil, fmt.Errorf("preopen %s: %w", guestPath, err)
		}
	}
	if opts.Workspace != "" {
		if err := makeWorkspaceDirs(img.Spec, opts.Workspace); err != nil {
			store.Close()
			return nil, err
		}
		g.workspaceFD = int32(3 + len(img.Spec.Preopens))
		if err := wasi.PreopenDir(opts.Workspace, "/workspace"); err != nil {
			store.Close()
			return nil, fmt.Errorf("preopen workspace: %w", err)
		}
	}
	if opts.DebugStderrFile != "" {
		if err := wasi.SetStderrFile(opts.DebugStderrFile); err != nil {
			store.Close()
			return nil, fmt.Errorf("guest stderr file: %w", err)
		}
	}
	store.SetWasi(wasi)
	if !setFuel(store, initFuel) {
		store.Close()
		return nil, fmt.Errorf("set fuel: fuel is not enabled")
	}
	store.SetEpochDeadline(epochCheckTicks)
	if g.watch = installWatch(store); g.watch == nil {
		store.Close()
		return nil, fmt.Errorf("install the epoch callback: out of memory")
	}
	g.unregister = registerGuest(store, g)

	linker, err := img.linker()
	if err != nil {
		g.unregister()
		g.watch.free()
		store.Close()
		return nil, err
	}
	inst, err := linker.Instantiate(store, img.module)
	if err != nil {
		g.unregister()
		g.watch.free()
		store.Close()
		if isMemoryLimitError(err) {
			return nil, wasmexec.Errorf(wasmexec.EInvalid, "limits.memoryBytes %d is too small to start the %s guest", opts.MemoryBytes, img.Spec.Name)
		}
		return nil, fmt.Errorf("instantiate %s: %w", img.Spec.Name, err)
	}
	g.inst = inst
	if ext := inst.GetExport(store, "memory"); ext != nil {
		g.mem = ext.Memory()
		if opts.restore == nil { // a restore populates them before it writes its state (below)
			prefault(g.mem.UnsafeData(store), img.hot)
		}
	}
	entry := img.Spec.Entry
	if entry == "" {
		entry = "_start"
	}
	g.start = inst.GetFunc(store, entry)
	if !img.Snapshotted {
		for _, name := range img.Spec.Init {
			fn := inst.GetFunc(store, name)
			if fn == nil {
				g.unregister()
				g.watch.free()
				store.Close()
				return nil, fmt.Errorf("guest %s exports no init function %s", img.Spec.Name, name)
			}
			g.inits = append(g.inits, fn)
		}
	}
	if g.start == nil || g.mem == nil {
		g.unregister()
		g.watch.free()
		store.Close()
		return nil, fmt.Errorf("guest %s exports no _start or memory", img.Spec.Name)
	}
	if opts.restore != nil {
		err := g.applyState(opts.restore) // populates the hot pages too
		g.opts.restore = nil              // the guest must not keep the state (its caller may reuse it)
		if err != nil {
			g.unregister()
			g.freeStore()
			return nil, err
		}
	}
	if err := g.startShim(); err != nil {
		g.unregister()
		g.freeStore()
		return nil, err
	}
	e.live.Add(1)
	return g, nil
}

func isMemoryLimitError(err error) bool {
	return err != nil && (containsAny(err.Error(), "memory minimum size", "exceeds memory limits", "resource limit exceeded"))
}

func (g *Guest) run() {
	var err error
	for _, fn := range g.inits {
		if err = g.callEntry(fn); err != nil {
			break
		}
	}
	if err == nil {
		err = g.callEntry(g.start)
		for err == nil && g.afterEntry() { // suspended, then resumed
			err = g.callEntry(g.start)
		}
	}
	g.exitErr = err
	g.unregister()
	if g.startTimer != nil {
		g.startTimer.Stop()
	}
	g.img.engine.live.Add(-1)
	close(g.done)
}

// launch starts the driver on its own goroutine (Start, and Call on a
// guest never started); its start-up, until the first recv, may take
// opts.StartTimeout. g.mu is held or the guest not yet shared.
func (g *Guest) launch() {
	g.started = true
	g.startTimer = time.AfterFunc(g.opts.StartTimeout, func() { g.watch.cancel(-1) })
	go g.run()
}

// guestEnv builds the guest environment: safe defaults, then the image's,
// then the caller's. Sorted for determinism.
func guestEnv(image map[string]string, opts GuestOptions) ([]string, []string) {
	env := map[string]string{"LANG": "C.UTF-8", "TZ": "UTC", "HOME": "/", "PWD": "/"}
	if opts.Workspace != "" {
		env["HOME"], env["PWD"] = "/workspace", "/workspace"
	}
	for k, v := range image {
		env[k] = v
	}
	for k, v := range opts.Env {
		env[k] = v
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = env[k]
	}
	return keys, vals
}

// Image returns the image the guest runs.
func (g *Guest) Image() *Image { return g.img }

// Alive reports whether the guest's driver is still running.
func (g *Guest) Alive() bool {
	select {
	case <-g.done:
		return false
	default:
		return !g.quitted.Load()
	}
}

// Done is closed when the guest has died.
func (g *Guest) Done() <-chan struct{} { return g.done }

// Close stops the guest: a driver waiting for a request exits, a running
// one is interrupted at its next epoch check or blocking host call. It
// waits briefly for the driver to finish, then frees the store.
func (g *Guest) Close() {
	g.stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.started { // instantiated, never run: nothing to wait for
		g.started = true
		g.unregister()
		g.img.engine.live.Add(-1)
		close(g.done)
	}
	select {
	case <-g.done:
		g.freeStore()
	case <-time.After(closeWait):
		// The guest thread is stuck in a host call we can't interrupt; free
		// the store when it comes back.
		go func() {
			<-g.done
			g.mu.Lock()
			g.freeStore()
			g.mu.Unlock()
		}()
	}
}

func (g *Guest) freeStore() {
	if !g.storeFreed {
		g.storeFreed = true
		g.learnWrites()
		g.watch.free()
		unguard(g.busSlots)
		g.store.Close() // unmaps the memory, and with it what a restore mapped
		mappedRanges.Add(-int64(g.mapped))
		g.mapped, g.busSlots, g.mappedFrom = 0, nil, nil
	}
}

// stop tells the driver to stop: a blocked host call returns or traps, and
// running guest code traps at its next epoch check (after the grace a
// driver that has answered has to get back to recv, see parkGrace).
func (g *Guest) stop() {
	if g.quitted.CompareAndSwap(false, true) {
		close(g.quit)
		g.watch.stop()
	}
}

// closeWait is how long Close waits for a driver to finish before it
// leaves the store to be freed whenever the guest thread comes back.
const closeWait = 2 * time.Second

// oomHeavyDivisor: a guest that died holding at least 1/oomHeavyDivisor of
// its memory limit is classified as out of memory (see classify).
const oomHeavyDivisor = 2

// abandonAfter is how long a call whose ctx ended waits for the guest to
// notice before it is reported and the guest abandoned.
const abandonAfter = 500 * time.Millisecond

// Between its send and its next recv a driver has nothing to do but get
// back to recv. It may take parkGrace and parkFuel (on top of what the run
// left) to do so, and is not interrupted meanwhile, so a deadline or cancel
// that lands in that window doesn't lose a finished run. A driver that
// takes longer (it ran on or slept after answering) is stopped: a protocol
// violation.
const (
	parkGrace = 250 * time.Millisecond
	parkFuel  = 50_000_000
)

// Call runs one request in the guest. The ctx's deadline is the run's
// wall-clock deadline; cancelling ctx cancels the run. A guest failure is a
// result; Call never returns an error.
func (g *Guest) Call(ctx context.Context, in wasmexec.CallInput) wasmexec.CallResult {
	g.mu.Lock()
	defer g.mu.Unlock()
	start := time.Now()
	g.called.Store(true)
	c := newCall(ctx, in)
	if !g.started {
		g.launch()
	}
	stop := context.AfterFunc(ctx, func() { g.watch.cancel(c.id) })
	defer stop()
	select {
	case g.calls <- c:
	case <-g.done:
		ed := &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Message: "guest is not running"}
		if v := g.violation.Load(); v != nil {
			ed = violationError(*v)
		}
		return wasmexec.CallResult{Outcome: wasmexec.Failed, Died: true, Error: ed, Duration: time.Since(start)}
	case <-ctx.Done():
		o, ed := wasmexec.ContextOutcome(ctx)
		return wasmexec.CallResult{Outcome: o, Error: ed, Duration: time.Since(start)}
	}
	// The call is complete when the driver has answered and is back in
	// recv for the next request.
	abandoned := !g.await(ctx, c.replied)
	if !abandoned && closed(c.replied) {
		abandoned = !g.await(ctx, c.parked)
	}
	return g.result(ctx, c, start, abandoned)
}

// RunOnce runs one request in a guest that was instantiated and never
// started, on the calling goroutine: the driver starts, takes the request
// from recv, replies, learns from its next recv that no request follows
// and returns; the guest is dead afterwards. This is the one-shot path:
// Start and Call hand every request and reply between the caller's thread
// and the guest's (a goroutine locked to its thread while parked in recv),
// and those hand-offs and the scheduling around them cost more CPU than
// a small run itself. The deadline and cancellation reach the guest as in
// Call (epoch checks, and every blocking host call a guest can make is
// ours and watches them); what RunOnce can't do is abandon a guest stuck
// elsewhere, since the caller is the guest's thread. On a guest already
// started, RunOnce is Call.
func (g *Guest) RunOnce(ctx context.Context, in wasmexec.CallInput) wasmexec.CallResult {
	g.mu.Lock()
	if g.started {
		g.mu.Unlock()
		return g.Call(ctx, in)
	}
	defer g.mu.Unlock()
	start := time.Now()
	if ctx.Err() != nil {
		o, ed := wasmexec.ContextOutcome(ctx)
		return wasmexec.CallResult{Outcome: o, Error: ed, Duration: time.Since(start)}
	}
	g.started = true
	c := newCall(ctx, in)
	g.calls = make(chan *call, 2)
	g.calls <- c
	g.calls <- nil // then recv returns -1
	// The driver's start-up is part of the run, and the guest serves only
	// this request: the run's end stops it, whatever it runs (but a driver
	// that has answered still gets parkGrace to return).
	stop := context.AfterFunc(ctx, g.stop)
	defer stop()
	g.run()
	return g.result(ctx, c, start, false)
}

// callIDs numbers calls for the epoch callback.
var callIDs atomic.Int64

func newCall(ctx context.Context, in wasmexec.CallInput) *call {
	if in.Stdin == nil {
		in.Stdin = wasmexec.StdinFrom(nil)
	}
	if in.MaxReply <= 0 {
		in.MaxReply = wasmexec.ReplyEnvelopeBytes
		if in.Output != nil {
			in.MaxReply += in.Output.Limit()
		}
	}
	return &call{id: callIDs.Add(1), ctx: ctx, payload: in.Payload, fuel: in.Fuel, stdin: in.Stdin, out: in.Output,
		replied: make(chan struct{}), parked: make(chan struct{}), maxReply: in.MaxReply}
}

// result reports how call c ended: its reply, or why the guest died.
func (g *Guest) result(ctx context.Context, c *call, start time.Time, abandoned bool) wasmexec.CallResult {
	res := wasmexec.CallResult{Duration: time.Since(start)}
	if g.watch.lost() {
		// It read zero pages in place of lost ones: whatever it answered
		// can't be trusted, and the guest is replaced.
		g.violate(lostMemory)
		g.stop()
		res.Died = true
		res.Outcome, res.Error = wasmexec.Failed, violationError(lostMemory)
		return res
	}
	if closed(c.parked) {
		res.Response = c.response
		res.FuelConsumed = c.fuel - min(c.fuel, c.fuelLeft)
		res.Outcome = wasmexec.Succeeded
		return res
	}
	// The guest died (or is stuck): classify.
	res.Died = true
	if abandoned {
		g.stop()
	}
	if closed(c.replied) {
		// It answered, then did not come back for the next request (it
		// ran on, slept, or died): the answer can't be trusted either.
		g.violate("the driver did not come back for the next request after answering")
		res.Outcome, res.Error = wasmexec.Failed, violationError(g.ProtocolViolation())
		if left, ok := getFuel(g.store); ok && !abandoned {
			res.FuelConsumed = c.fuel - min(c.fuel, left)
		}
		return res
	}
	if abandoned {
		res.Outcome, res.Error = wasmexec.ContextOutcome(ctx)
		return res
	}
	if left, ok := getFuel(g.store); ok {
		res.FuelConsumed = c.fuel - min(c.fuel, left)
	}
	res.Outcome, res.Error, res.ExitCode = g.classify(ctx, c)
	return res
}

// await waits for ch to close or the guest to die. When ctx ends first it
// gives the guest abandonAfter more, then reports false (abandon it).
func (g *Guest) await(ctx context.Context, ch <-chan struct{}) bool {
	select {
	case <-ch:
	case <-g.done:
	case <-ctx.Done():
		select {
		case <-ch:
		case <-g.done:
		case <-time.After(abandonAfter):
			return false
		}
	}
	return true
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// ProtocolViolation says how the guest's driver broke the control protocol
// (docs/PROTOCOL.md), or "" when it didn't. The host stops such a guest at
// once; the run that finds it stopped fails with code internal, and an
// execution context replaces the guest (contextReset) rather than fail.
func (g *Guest) ProtocolViolation() string {
	if v := g.violation.Load(); v != nil {
		return *v
	}
	return ""
}

// violate records a protocol violation and returns the trap that stops the
// guest.
func (g *Guest) violate(what string) *wasmtime.Trap {
	g.violation.CompareAndSwap(nil, &what)
	return wasmtime.NewTrap("wasmexec: protocol violation: " + what)
}

func violationError(what string) *wasmexec.ErrorData {
	if what == lostMemory {
		return &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Name: "GuestStateLost", Message: "the guest was stopped: " + lostMemory}
	}
	return &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Name: "ProtocolError", Message: "the guest's driver broke the control protocol (" + what + "); the guest was stopped"}
}

// lostMemory is the "violation" of a guest that read pages of its memory
// mapped from a state file that could not be read back (statemap.go): it
// is stopped and replaced like a driver that broke the protocol.
const lostMemory = "pages of its memory restored from its state file could not be read (the file was cut short, or the disk failed)"

// stackFaultFloor: a guest whose stack lives at the bottom of linear memory
// (wasm-ld --stack-first, as CPython's C stack does) and overflows it moves
// its stack pointer below 0, so the faulting access is at an address just
// under 4 GiB (or, with the instruction's offset, just over). Heap bugs
// fault just past the end of memory instead.
const stackFaultFloor = 0xFF00_0000

var faultAddressRE = regexp.MustCompile(`memory fault at wasm address 0x([0-9a-f]+)`)

// stackFault reports whether err is an out-of-bounds access of an
// overflowed linear-memory stack.
func stackFault(err error) bool {
	m := faultAddressRE.FindStringSubmatch(err.Error())
	if m == nil {
		return false
	}
	addr, perr := strconv.ParseUint(m[1], 16, 64)
	return perr == nil && addr >= stackFaultFloor
}

// classify explains why the guest died during call c.
func (g *Guest) classify(ctx context.Context, c *call) (wasmexec.Outcome, *wasmexec.ErrorData, int) {
	err := g.exitErr
	if v := g.violation.Load(); v != nil {
		return wasmexec.Failed, violationError(*v), 0
	}
	if r, _ := c.reason.Load().(string); r == wasmexec.CodeOutputLimit {
		return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeOutputLimit, Name: "OutputLimitError", Message: fmt.Sprintf("output exceeded limits.outputBytes (%d bytes per stream)", c.out.Limit())}, 0
	}
	if r, _ := c.reason.Load().(string); r == wasmexec.CodeInternal && err != nil { // a host function panicked (hostabi.go)
		return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Name: "GuestError", Message: "the guest was stopped: " + trapCause(err)}, 0
	}
	var trap *wasmtime.Trap
	if errors.As(err, &trap) {
		if code := trap.Code(); code != nil {
			switch *code {
			case wasmtime.OutOfFuel:
				return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeCPULimit, Name: "CPULimitError", Message: fmt.Sprintf("the run used up its fuel (%d units)", c.fuel)}, 0
			case wasmtime.StackOverflow:
				return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeStackOverflow, Name: "StackOverflowError", Message: "wasm call stack exhausted"}, 0
			case wasmtime.MemoryOutOfBounds:
				if stackFault(err) {
					return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeStackOverflow, Name: "StackOverflowError", Message: "the guest's stack (in linear memory) overflowed"}, 0
				}
			}
		}
	}
	if ctx.Err() != nil || g.quitted.Load() {
		if ctx.Err() == nil {
			return wasmexec.Cancelled, &wasmexec.ErrorData{Code: "cancelled", Name: "CancelledError", Message: "the guest was stopped"}, 0
		}
		o, ed := wasmexec.ContextOutcome(ctx)
		return o, ed, 0
	}
	exitCode, exited := 0, false
	var werr *wasmtime.Error
	if errors.As(err, &werr) {
		if n, ok := werr.ExitStatus(); ok {
			exitCode, exited = int(n), true
		}
	}
	// A runtime that can't grow its heap dies (Go: "fatal error: out of
	// memory", an exit or an unreachable trap). We can't see the limiter
	// refuse, so a guest that died holding at least half of its limit, or
	// with its runtime's OOM exit status, is classified as out of memory.
	memBytes := int64(g.mem.DataSize(g.store))
	heavy := memBytes*oomHeavyDivisor >= g.opts.MemoryBytes
	oomExit := exited && g.img.Spec.OOMExitCode != 0 && exitCode == g.img.Spec.OOMExitCode
	if oomExit || (heavy && (!exited || exitCode != 0)) {
		return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeMemoryLimit, Name: "MemoryLimitError", Message: fmt.Sprintf("the guest ran out of memory (limit %d bytes, %d in use)", g.opts.MemoryBytes, memBytes)}, 0
	}
	if exited {
		if exitCode == 0 {
			return wasmexec.Succeeded, nil, 0
		}
		return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeExit, Name: "ExitError", Message: fmt.Sprintf("the guest exited with status %d", exitCode)}, exitCode
	}
	msg := "the guest died"
	if err != nil {
		msg = "the guest trapped: " + trapCause(err)
	}
	return wasmexec.Failed, &wasmexec.ErrorData{Code: wasmexec.CodeInternal, Name: "GuestError", Message: msg, Details: map[string]any{"memoryBytes": memBytes}}, 0
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		for i := 0; i+len(sub) <= len(s); i++ {
			if s[i:i+len(sub)] == sub {
				return true
			}
		}
	}
	return false
}

// --- host functions -------------------------------------------------------

var errno = struct{ success, inval, fault, notsup int32 }{0, 28, 21, 58}

// memory is the guest's linear memory as seen from one of its host calls,
// through the Memory looked up once at instantiation: a lookup through the
// caller makes an Extern with a finalizer at every call.
func (g *Guest) memory(caller *wasmtime.Caller) []byte {
	return g.mem.UnsafeData(caller)
}

// guestMemory is the memory of a caller without a Guest (the snapshot's
// throwaway instance).
func guestMemory(caller *wasmtime.Caller) []byte {
	ext := caller.GetExport("memory")
	if ext == nil || ext.Memory() == nil {
		return nil
	}
	return ext.Memory().UnsafeData(caller)
}

// span returns mem[ptr:ptr+n] or nil when out of bounds. ptr and n are
// guest i32s, read as unsigned (see guestSpan).
func span(mem []byte, ptr, n int32) []byte {
	return guestSpan(mem, uint32(ptr), uint32(n))
}

func interrupted() *wasmtime.Trap { return wasmtime.NewTrap("wasmexec: run interrupted") }

// guests finds the Guest a host function call belongs to: the host
// functions are defined once per image (linker), so they look their guest
// up by the caller's store context, registered from the guest's
// instantiation to the return of its entry (no host call can come after
// that).
var guests sync.Map // uintptr (*C.wasmtime_context_t) → *Guest

func registerGuest(s *wasmtime.Store, g *Guest) (unregister func()) {
	key := storeKey(s)
	guests.Store(key, g)
	var once sync.Once
	return func() { once.Do(func() { guests.CompareAndDelete(key, g) }) }
}

// guestOf returns the guest whose host function caller is calling.
func guestOf(caller *wasmtime.Caller) *Guest {
	g, _ := guests.Load(storeKey(caller))
	return g.(*Guest)
}

// syncRun tells the epoch callback which request the guest serves now,
// and whether it is on its way back to recv after answering (parkGrace).
func (g *Guest) syncRun() {
	var id int64
	parking := false
	if c := g.cur.Load(); c != nil {
		id = c.id
		parking = closed(c.replied)
	}
	g.watch.setRun(id, parking, parkGrace)
}

// linker returns the image's linker, built once and shared by its guests:
// a Linker per guest cost ~0.1 ms of CPU per start (WASI and the host
// functions defined by reflection each time).
func (img *Image) linker() (*wasmtime.Linker, error) {
	img.linkOnce.Do(func() { img.link, img.linkErr = newLinker(img.engine.wt) })
	return img.link, img.linkErr
}

// newLinker defines WASI and the host functions. Each host function finds
// its guest by the caller (guestOf) and runs guarded (hostabi.go).
func newLinker(e *wasmtime.Engine) (*wasmtime.Linker, error) {
	l := wasmtime.NewLinker(e)
	if err := l.DefineWasi(); err != nil {
		return nil, fmt.Errorf("define wasi: %w", err)
	}
	l.AllowShadowing(true)
	// After recv and send the epoch callback learns which request (if any)
	// the guest now serves.
	recv := guardRecv("recv", func(g *Guest, c *wasmtime.Caller, ptr, capacity int32) (int32, *wasmtime.Trap) {
		defer g.syncRun()
		return g.hostRecv(c, ptr, capacity)
	})
	send := guardSend("send", func(g *Guest, c *wasmtime.Caller, ptr, n int32) *wasmtime.Trap {
		defer g.syncRun()
		return g.hostSend(c, ptr, n)
	})
	write := guardWrite("write", (*Guest).hostWrite)
	read := guardRecv("read", (*Guest).hostRead)
	poll := guardPoll("poll_oneoff", (*Guest).pollOneoff)
	fetch := guardPoll("fetch", (*Guest).hostFetch)
	defs := []struct {
		module, name string
		fn           any
	}{
		{"wasmexec", "recv", func(c *wasmtime.Caller, ptr, capacity int32) (int32, *wasmtime.Trap) {
			return recv(guestOf(c), c, ptr, capacity)
		}},
		{"wasmexec", "send", func(c *wasmtime.Caller, ptr, n int32) *wasmtime.Trap {
			return send(guestOf(c), c, ptr, n)
		}},
		{"wasmexec", "write", func(c *wasmtime.Caller, fd, ptr, n int32) (int32, *wasmtime.Trap) {
			return write(guestOf(c), c, fd, ptr, n)
		}},
		{"wasmexec", "read", func(c *wasmtime.Caller, ptr, capacity int32) (int32, *wasmtime.Trap) {
			return read(guestOf(c), c, ptr, capacity)
		}},
		{"wasmexec", "fetch", func(c *wasmtime.Caller, req, reqLen, resp, respCap int32) (int32, *wasmtime.Trap) {
			return fetch(guestOf(c), c, req, reqLen, resp, respCap) // fetch.go
		}},
		// poll_oneoff is the only WASI call that sleeps; ours sleeps
		// interruptibly so deadlines and cancellation reach a sleeping guest.
		{"wasi_snapshot_preview1", "poll_oneoff", func(c *wasmtime.Caller, in, out, nsubs, nevents int32) (int32, *wasmtime.Trap) {
			return poll(guestOf(c), c, in, out, nsubs, nevents)
		}},
		// Replaced to keep guests away from wasmtime 25 bugs (wasmhardening.go).
		{"wasi_snapshot_preview1", "fd_renumber", func(c *wasmtime.Caller, from, to int32) int32 {
			return guestOf(c).fdRenumber(c, from, to)
		}},
		{"wasi_snapshot_preview1", "path_symlink", func(c *wasmtime.Caller, oldPath, oldLen, fd, newPath, newLen int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathSymlink(c, oldPath, oldLen, fd, newPath, newLen) // wasipaths.go
		}},
		{"wasi_snapshot_preview1", "path_create_directory", func(c *wasmtime.Caller, fd, p, n int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathDirectory(c, shimPathCreateDirectory, fd, p, n)
		}},
		{"wasi_snapshot_preview1", "path_remove_directory", func(c *wasmtime.Caller, fd, p, n int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathDirectory(c, shimPathRemoveDirectory, fd, p, n)
		}},
		{"wasi_snapshot_preview1", "path_unlink_file", func(c *wasmtime.Caller, fd, p, n int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathUnlinkFile(c, fd, p, n)
		}},
		{"wasi_snapshot_preview1", "path_filestat_get", func(c *wasmtime.Caller, fd, flags, p, n, buf int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathFilestatGet(c, fd, flags, p, n, buf)
		}},
		{"wasi_snapshot_preview1", "path_filestat_set_times", func(c *wasmtime.Caller, fd, flags, p, n int32, atim, mtim int64, fst int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathFilestatSetTimes(c, fd, flags, p, n, atim, mtim, fst)
		}},
		{"wasi_snapshot_preview1", "path_link", func(c *wasmtime.Caller, oldFD, oldFlags, oldPath, oldLen, newFD, newPath, newLen int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathLink(c, oldFD, oldFlags, oldPath, oldLen, newFD, newPath, newLen)
		}},
		{"wasi_snapshot_preview1", "path_readlink", func(c *wasmtime.Caller, fd, p, n, buf, bufLen, used int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathReadlink(c, fd, p, n, buf, bufLen, used)
		}},
		{"wasi_snapshot_preview1", "path_rename", func(c *wasmtime.Caller, fd, oldPath, oldLen, newFD, newPath, newLen int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathRename(c, fd, oldPath, oldLen, newFD, newPath, newLen)
		}},
		{"wasi_snapshot_preview1", "path_open", func(c *wasmtime.Caller, dirfd, lookup, path, pathLen, oflags int32, rightsBase, rightsInheriting int64, fdflags, out int32) (int32, *wasmtime.Trap) {
			return guestOf(c).pathOpen(c, dirfd, lookup, path, pathLen, oflags, rightsBase, rightsInheriting, fdflags, out)
		}},
		{"wasi_snapshot_preview1", "fd_close", func(c *wasmtime.Caller, fd int32) (int32, *wasmtime.Trap) {
			return guestOf(c).fdClose(c, fd)
		}},
		{"wasi_snapshot_preview1", "fd_readdir", func(c *wasmtime.Caller, fd, buf, bufLen int32, cookie int64, used int32) (int32, *wasmtime.Trap) {
			return guestOf(c).fdReaddir(c, fd, buf, bufLen, cookie, used)
		}},
	}
	for _, d := range defs {
		if err := l.FuncWrap(d.module, d.name, d.fn); err != nil {
			return nil, fmt.Errorf("define %s.%s: %w", d.module, d.name, err)
		}
	}
	// clock_time_get is C (wasmexec_clock_time_get): no call into Go.
	if err := defineClock(l); err != nil {
		return nil, err
	}
	return l, nil
}

func (g *Guest) hostRecv(caller *wasmtime.Caller, ptr, capacity int32) (int32, *wasmtime.Trap) {
	c := g.pending
	if c == nil {
		if prev := g.cur.Load(); prev != nil {
			if !closed(prev.replied) {
				return 0, g.violate("recv before the current request was answered")
			}
			g.cur.Store(nil)
			close(prev.parked) // the call is complete
		}
		g.readyOnce.Do(func() { close(g.ready) })
		select {
		case c = <-g.calls:
		case <-g.quit:
			return -1, nil
		case <-g.hib.req:
			return g.suspendRecv(caller), nil
		}
		if c == nil { // RunOnce's one request was served
			return -1, nil
		}
		if !setFuel(caller, c.fuel) {
			return 0, wasmtime.NewTrap("wasmexec: set fuel failed")
		}
		g.cur.Store(c)
		g.pending = c
	}
	n := int32(len(c.payload))
	if uint32(n) > uint32(capacity) {
		return n, nil
	}
	dst := span(g.memory(caller), ptr, n)
	if dst == nil {
		return 0, wasmtime.NewTrap("wasmexec: recv buffer out of bounds")
	}
	copy(dst, c.payload)
	g.pending = nil
	return n, nil
}

func (g *Guest) hostSend(caller *wasmtime.Caller, ptr, n int32) *wasmtime.Trap {
	c := g.cur.Load()
	if c == nil {
		return g.violate("send before the first request")
	}
	if closed(c.replied) {
		return g.violate("a second send for one request")
	}
	src := span(g.memory(caller), ptr, n)
	if src == nil {
		return wasmtime.NewTrap("wasmexec: send buffer out of bounds")
	}
	if int64(len(src)) > c.maxReply {
		// Not copied: a reply is bounded by the value limit and a small
		// envelope, whatever the guest claims.
		c.response = replyTooLarge(len(src), c.maxReply)
	} else {
		c.response = append([]byte(nil), src...)
	}
	c.fuelLeft, _ = getFuel(caller)
	c.answered = time.Now()
	setFuel(caller, c.fuelLeft+parkFuel)
	g.pending = nil // a driver may answer a request it could not take in (too large)
	close(c.replied)
	return nil
}

// replyTooLarge is the reply the host puts in place of one over its cap.
func replyTooLarge(n int, limit int64) []byte {
	b, _ := json.Marshal(map[string]any{"status": "error", "error": wasmexec.ErrorData{
		Code: wasmexec.CodeOutputLimit, Name: "OutputLimitError",
		Message: fmt.Sprintf("the driver's reply is %d bytes; replies are bounded by limits.outputBytes plus %d bytes (%d here)", n, wasmexec.ReplyEnvelopeBytes, limit),
	}})
	return b
}

func (g *Guest) hostWrite(caller *wasmtime.Caller, fd, ptr, n int32) (int32, *wasmtime.Trap) {
	if fd == outputTickFD {
		// Not output: the driver names its output tick byte
		// (docs/PROTOCOL.md), which the epoch callback sets.
		if n != 1 || span(g.memory(caller), ptr, 1) == nil || g.mem == nil {
			return -1, nil
		}
		g.watch.setOutputTick(g.mem, uint32(ptr))
		return 1, nil
	}
	c := g.cur.Load()
	if c == nil {
		return n, nil // output outside a request (driver start-up) is dropped
	}
	ch := wasmexec.Stdout
	switch fd {
	case 1:
	case 2:
		ch = wasmexec.Stderr
	default:
		return -1, nil
	}
	src := span(g.memory(caller), ptr, n)
	if src == nil {
		return 0, wasmtime.NewTrap("wasmexec: write buffer out of bounds")
	}
	if !c.out.Write(ch, src) {
		c.reason.Store(wasmexec.CodeOutputLimit)
		return 0, wasmtime.NewTrap("wasmexec: output limit exceeded")
	}
	return n, nil
}

// blockingContext is parent, also cancelled when the guest is told to
// quit: what a host call that blocks (stdin, a fetch) waits under.
func (g *Guest) blockingContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-g.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// outputTickFD is the write "descriptor" with which a driver registers
// its output tick byte.
const outputTickFD = 3

func (g *Guest) hostRead(caller *wasmtime.Caller, ptr, capacity int32) (int32, *wasmtime.Trap) {
	c := g.cur.Load()
	if c == nil {
		return 0, nil
	}
	if capacity == 0 {
		// read(ptr, 0): the signal that closed stdin, 0 if none
		// (docs/PROTOCOL.md).
		if c.stdin == nil {
			return 0, nil
		}
		return int32(c.stdin.TakeSignal()), nil
	}
	buf := make([]byte, min(uint32(capacity), 64<<10))
	ctx, cancel := g.blockingContext(c.ctx)
	defer cancel()
	n, err := c.stdin.Read(ctx, buf)
	if err != nil {
		return 0, interrupted()
	}
	dst := span(g.memory(caller), ptr, int32(n)) // memory may have moved: fetch after blocking
	if dst == nil {
		return 0, wasmtime.NewTrap("wasmexec: read buffer out of bounds")
	}
	copy(dst, buf[:n])
	return int32(n), nil
}

// pollOneoff implements WASI poll_oneoff for clock subscriptions (sleeps)
// by waiting on the run's ctx as well, and reports fd subscriptions ready at
// once (guests use the control channel, not fds, for stdio).
func (g *Guest) pollOneoff(caller *wasmtime.Caller, in, out, nsubs, nevents int32) (int32, *wasmtime.Trap) {
	const subSize, evSize = 48, 32
	// Runtimes poll a handful of subscriptions; a bound keeps a crafted
	// call from making the host allocate in proportion to guest memory.
	const maxSubs = 1024
	if nsubs <= 0 || nsubs > maxSubs {
		return errno.inval, nil
	}
	mem := g.memory(caller)
	subs := span(mem, in, nsubs*subSize)
	if subs == nil || span(mem, out, nsubs*evSize) == nil || span(mem, nevents, 4) == nil {
		return errno.fault, nil
	}
	type sub struct {
		userdata uint64
		tag      uint8
		deadline uint64 // monotonic ns, clocks only
	}
	now := monotonicNow()
	list := make([]sub, nsubs)
	var earliest uint64 = ^uint64(0)
	hasFD := false
	for i := range list {
		s := subs[i*subSize:]
		list[i] = sub{userdata: binary.LittleEndian.Uint64(s), tag: s[8]}
		switch s[8] {
		case 0: // clock
			clockID := binary.LittleEndian.Uint32(s[16:])
			timeout := binary.LittleEndian.Uint64(s[24:])
			flags := binary.LittleEndian.Uint16(s[40:])
			d := now + timeout
			if flags&1 != 0 { // absolute
				if clockID == 0 {
					rel := int64(timeout) - time.Now().UnixNano()
					d = now + uint64(max(rel, 0))
				} else {
					d = timeout
				}
			}
			list[i].deadline = d
			earliest = min(earliest, d)
		default:
			hasFD = true
		}
	}
	if !hasFD && earliest > now {
		wait := time.Duration(earliest - now)
		var ctxDone <-chan struct{}
		if c := g.cur.Load(); c != nil {
			if closed(c.replied) {
				return 0, g.violate("the driver slept after answering its request")
			}
			ctxDone = c.ctx.Done()
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctxDone:
			t.Stop()
			return 0, interrupted()
		case <-g.quit:
			t.Stop()
			return 0, interrupted()
		}
		now = monotonicNow()
	}
	mem = g.memory(caller)
	evs := span(mem, out, nsubs*evSize)
	n := int32(0)
	for _, s := range list {
		if s.tag == 0 && s.deadline > now && hasFD {
			continue
		}
		if s.tag == 0 && s.deadline > now {
			continue
		}
		e := evs[n*evSize : (n+1)*evSize]
		clear(e)
		binary.LittleEndian.PutUint64(e, s.userdata)
		e[10] = s.tag
		if s.tag != 0 {
			binary.LittleEndian.PutUint64(e[16:], 1) // readable/writable bytes
		}
		n++
	}
	binary.LittleEndian.PutUint32(mem[uint32(nevents):], uint32(n))
	return errno.success, nil
}

// Workspace is the host directory mounted at /workspace ("" when none).
func (g *Guest) Workspace() string { return g.opts.Workspace }
