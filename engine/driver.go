package engine

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/pipeline"
)

// Defaults of DriverConfig; cmd/wasmexec's flags default to the same values.
const (
	DefaultPoolSize = 2
	// poolStartTimeout bounds starting (and warming up) a pre-started guest.
	poolStartTimeout = 30 * time.Second
	// poolRetryEvery is how often an idle pool looks again after a failed
	// start or while nothing was taken.
	poolRetryEvery = time.Second
)

// DriverConfig wires a Driver. Zero fields take the Default* values.
type DriverConfig struct {
	Images     map[string]*Image
	Workspaces wasmexec.WorkspaceFactory
	// PoolSize is the number of pre-started guests kept per image; 0 takes
	// the default, negative turns pools off.
	PoolSize int
	// PoolMemoryBytes is the memory limit of pre-started guests: a run
	// with another limit (or an environment, or a workspace of its own)
	// gets a guest of its own.
	PoolMemoryBytes int64
	// Missing is the error for an image that is not loaded (yet: see
	// AddImage), e.g. one still being built (nil: unavailable, "not
	// loaded").
	Missing func(name string) error
	Logger  *slog.Logger
}

// Driver is the pipeline's driver (pipeline.Driver): it starts guests of
// its images, fresh, pre-started (a pool per image), kept or restored.
type Driver struct {
	cfg DriverConfig
	log *slog.Logger
	// mu guards images and pools, which AddImage extends.
	mu      sync.RWMutex
	images  map[string]*Image
	pools   map[string]*pool
	closing chan struct{}
	closed  bool
	wg      sync.WaitGroup
}

var _ pipeline.Driver = (*Driver)(nil)

// NewDriver starts the guest pools.
func NewDriver(cfg DriverConfig) *Driver {
	if cfg.PoolSize == 0 {
		cfg.PoolSize = DefaultPoolSize
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.PoolMemoryBytes == 0 {
		cfg.PoolMemoryBytes = wasmexec.DefaultPolicy().Default.MemoryBytes
	}
	d := &Driver{cfg: cfg, log: cfg.Logger, images: map[string]*Image{}, pools: map[string]*pool{}, closing: make(chan struct{})}
	for name, img := range cfg.Images {
		d.add(name, img)
	}
	return d
}

// AddImage adds an image loaded after the driver started (a server
// serves the languages whose images are ready while others are still
// being built); its pool starts filling. An image of that name already
// there stays: AddImage reports false.
func (d *Driver) AddImage(name string, img *Image) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.images[name] != nil || d.closed {
		return false
	}
	d.add(name, img)
	return true
}

// add adds an image and starts its pool (d.mu held, or not yet shared).
func (d *Driver) add(name string, img *Image) {
	d.images[name] = img
	if d.cfg.PoolSize > 0 {
		p := newPool(d, img, d.cfg.PoolSize)
		d.pools[name] = p
		d.wg.Add(1)
		go p.fill()
	}
}

// Close stops the pools and closes their guests.
func (d *Driver) Close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	close(d.closing)
	d.wg.Wait()
	for _, p := range d.pools {
		p.drain()
	}
}

// Image describes image name (unavailable when it isn't loaded).
func (d *Driver) Image(name string) (wasmexec.Family, error) {
	img, err := d.image(name)
	if err != nil {
		return wasmexec.Family{}, err
	}
	return wasmexec.Family{Name: name, MinMemoryBytes: img.Spec.MinMemoryBytes}, nil
}

func (d *Driver) image(name string) (*Image, error) {
	d.mu.RLock()
	img := d.images[name]
	d.mu.RUnlock()
	if img == nil {
		if d.cfg.Missing != nil {
			if err := d.cfg.Missing(name); err != nil {
				return nil, err
			}
		}
		return nil, wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is not loaded", name)
	}
	return img, nil
}

// Guest returns a guest for one run: a pre-started one when the run fits
// one (the pool's memory, no env, its own throwaway workspace), else a
// fresh instance. Its Call runs the driver on the caller's goroutine
// (RunOnce), and its Close discards it.
func (d *Driver) Guest(ctx context.Context, spec pipeline.GuestSpec) (wasmexec.Guest, error) {
	img, err := d.image(spec.Image)
	if err != nil {
		return nil, err
	}
	throwaway := spec.Workspace == ""
	d.mu.RLock()
	p := d.pools[spec.Image]
	d.mu.RUnlock()
	if p != nil && throwaway && len(spec.Env) == 0 && spec.MemoryBytes == d.cfg.PoolMemoryBytes {
		if g := p.take(); g != nil {
			return runGuest{g, d, true}, nil
		}
	}
	g, err := d.newGuest(ctx, img, spec.Env, spec.MemoryBytes, spec.Workspace, false)
	if err != nil {
		return nil, err
	}
	return runGuest{g, d, throwaway}, nil
}

// runGuest is a guest that serves one run.
type runGuest struct {
	*Guest
	d *Driver
	// background: its workspace is its own, so it is closed (and the
	// workspace removed) off the request's path; a guest in someone
	// else's workspace (a process in a context) is gone before Close
	// returns, so that its owner may remove the workspace.
	background bool
}

func (g runGuest) Call(ctx context.Context, in wasmexec.CallInput) wasmexec.CallResult {
	return g.Guest.RunOnce(ctx, in)
}

func (g runGuest) Close() {
	if g.background {
		go g.d.close(g.Guest)
		return
	}
	g.d.close(g.Guest)
}

// StartGuest starts a guest kept across runs (a context's) in spec's
// workspace; its owner closes it.
func (d *Driver) StartGuest(ctx context.Context, spec pipeline.GuestSpec) (wasmexec.Guest, error) {
	img, err := d.image(spec.Image)
	if err != nil {
		return nil, err
	}
	if spec.Workspace == "" {
		return nil, wasmexec.Errorf(wasmexec.EInternal, "a kept guest needs a workspace")
	}
	return guestOrNil(d.newGuest(ctx, img, spec.Env, spec.MemoryBytes, spec.Workspace, true))
}

// RestoreGuest starts a kept guest from a state Capture returned. A state
// that doesn't fit is a *StateRefusedError.
func (d *Driver) RestoreGuest(ctx context.Context, spec pipeline.GuestSpec, state []byte) (wasmexec.Guest, error) {
	img, err := d.image(spec.Image)
	if err != nil {
		return nil, err
	}
	return guestOrNil(img.Restore(ctx, state, GuestOptions{Env: spec.Env, MemoryBytes: spec.MemoryBytes, Workspace: spec.Workspace}))
}

// RestoreGuestFile is RestoreGuest of the state stored in f from offset
// off to its end (see Image.RestoreFile: f must not be written in place
// afterwards).
func (d *Driver) RestoreGuestFile(ctx context.Context, spec pipeline.GuestSpec, f *os.File, off int64) (wasmexec.Guest, error) {
	img, err := d.image(spec.Image)
	if err != nil {
		return nil, err
	}
	return guestOrNil(img.RestoreFile(ctx, f, off, GuestOptions{Env: spec.Env, MemoryBytes: spec.MemoryBytes, Workspace: spec.Workspace, StateChecked: spec.StateChecked, Template: spec.Template, Ahead: spec.Ahead}))
}

// guestOrNil is g as an wasmexec.Guest: a nil interface when g is nil, never
// an interface holding a nil *Guest (which callers would take for a guest).
func guestOrNil(g *Guest, err error) (wasmexec.Guest, error) {
	if g == nil {
		return nil, err
	}
	return g, err
}

// StateRefused reports whether err is a *StateRefusedError.
func (d *Driver) StateRefused(err error) bool { return IsStateRefused(err) }

// newGuest instantiates a guest with a workspace (a fresh one, owned by the
// guest, when workspace is ""), and starts its driver when start is set;
// otherwise the guest's first use runs it (RunOnce, Call).
func (d *Driver) newGuest(ctx context.Context, img *Image, env map[string]string, memory int64, workspace string, start bool) (*Guest, error) {
	owned := false
	if workspace == "" && d.cfg.Workspaces != nil {
		dir, err := d.cfg.Workspaces.NewWorkspace()
		if err != nil {
			return nil, err
		}
		workspace, owned = dir, true
	}
	opts := GuestOptions{Env: env, MemoryBytes: memory, Workspace: workspace}
	var g *Guest
	var err error
	if start {
		g, err = img.Start(ctx, opts)
	} else {
		g, err = img.instantiate(opts)
	}
	if err != nil {
		if owned {
			d.cfg.Workspaces.RemoveWorkspace(workspace)
		}
		return nil, err
	}
	g.ownsWorkspace = owned
	return g, nil
}

// close closes g and removes the workspace it owns.
func (d *Driver) close(g *Guest) {
	g.Close()
	if g.ownsWorkspace && d.cfg.Workspaces != nil {
		d.cfg.Workspaces.RemoveWorkspace(g.opts.Workspace)
	}
}

// pool keeps pre-started guests of one image, each used for exactly one
// request (isolation first), refilled in the background.
type pool struct {
	d    *Driver
	img  *Image
	ch   chan *Guest
	kick chan struct{}
	hits atomic.Int64
	miss atomic.Int64
}

func newPool(d *Driver, img *Image, size int) *pool {
	return &pool{d: d, img: img, ch: make(chan *Guest, size), kick: make(chan struct{}, 1)}
}

func (p *pool) take() *Guest {
	defer p.refill()
	for {
		select {
		case g := <-p.ch:
			if g.Alive() {
				p.hits.Add(1)
				return g
			}
			p.d.close(g)
		default:
			p.miss.Add(1)
			return nil
		}
	}
}

func (p *pool) refill() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

func (p *pool) fill() {
	defer p.d.wg.Done()
	for {
		for len(p.ch) < cap(p.ch) {
			ctx, cancel := context.WithTimeout(context.Background(), poolStartTimeout)
			// A guest of a warm snapshot starts in well under a
			// millisecond and warm, so the pool only instantiates it and
			// the run starts it on its own goroutine (RunOnce). Other
			// images' drivers have per-guest start-up and first-request
			// costs: the pool starts them and serves the warm-up request.
			start := !p.img.Warm
			g, err := p.d.newGuest(ctx, p.img, nil, p.d.cfg.PoolMemoryBytes, "", start)
			if err == nil && start {
				err = warmUp(ctx, g)
			}
			cancel()
			if err != nil {
				p.d.log.Error("pre-start guest", "image", p.img.Spec.Name, "err", err)
				if g != nil {
					p.d.close(g)
				}
				break
			}
			select {
			case p.ch <- g:
			case <-p.d.closing:
				p.d.close(g)
				return
			}
		}
		select {
		case <-p.kick:
		case <-time.After(poolRetryEvery):
		case <-p.d.closing:
			return
		}
	}
}

// warmUpRequest is the same trivial evaluation for every language. Running
// it once in a pre-started guest takes the driver's first-request costs
// (lazy imports, first touches of memory) off the client's request; it
// leaves no state behind, and every guest gets the identical one. A
// snapshotted image serves it once while its snapshot is taken
// (buildSnapshot), so its guests start warm and skip it: that saves about
// 0.5 ms of CPU per one-shot run of the JS guest.
var warmUpRequest = []byte(`{"op":"evaluate","code":"0","filename":"<warm-up>"}`)

func warmUp(ctx context.Context, g *Guest) error {
	res := g.Call(ctx, wasmexec.CallInput{Payload: warmUpRequest, Fuel: initFuel, Output: wasmexec.NewOutput(wasmexec.CaptureNone, 1<<10, nil)})
	if res.Response == nil {
		return fmt.Errorf("warm-up request failed: %s %+v", res.Outcome, res.Error)
	}
	return nil
}

func (p *pool) drain() {
	for {
		select {
		case g := <-p.ch:
			p.d.close(g)
		default:
			return
		}
	}
}

// Snapshotted reports whether guests of image name start from a snapshot
// of their initialized runtime (rather than running their init).
func (d *Driver) Snapshotted(name string) bool {
	d.mu.RLock()
	img := d.images[name]
	d.mu.RUnlock()
	return img != nil && img.Snapshotted
}

// PoolStats returns pre-started guest hits and misses per image.
func (d *Driver) PoolStats() map[string][2]int64 {
	out := map[string][2]int64{}
	d.mu.RLock()
	defer d.mu.RUnlock()
	for name, p := range d.pools {
		out[name] = [2]int64{p.hits.Load(), p.miss.Load()}
	}
	return out
}
