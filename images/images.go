// Package images serves guest images as they are built. A server loads the
// images present when it starts before it is ready; an image still being
// built (make run builds the Python image in the background,
// guest-images/build-cached.sh writing its progress to DIR/.status/NAME.json)
// is loaded when its build completes, and until then a run in its languages
// is a 503 whose Retry-After is the build's estimate, and its part of
// /readyz says where the build stands.
//
// The package reads the images directory and keeps what is loaded; the
// loading itself is the caller's (a LoadFunc over the engine), so it
// needs neither cgo nor the engine.
package images

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wasmexec/wasmexec"
)

// DefaultWatchEvery is how often Watch looks at the images directory
// while an image is missing.
const DefaultWatchEvery = time.Second

// Config says which images a server serves and where they are built.
type Config struct {
	// Dir is the images directory (build/images): NAME/guest.json once
	// an image is complete, .status/NAME.json while it is built.
	Dir string
	// Names are the images a server loads, in order.
	Names []string
	// Layers are the images an image is loaded with when they are built
	// (Python's bundled libraries): while a layer is being built its image
	// waits, so that the language is ready with them.
	Layers map[string][]string
	// Languages are the languages served and the image each runs in, in
	// the order /readyz lists them.
	Languages []Language
	// WatchEvery is how often Watch looks (default DefaultWatchEvery).
	WatchEvery time.Duration
	Logger     *slog.Logger
}

// Language is a language and the image it runs in.
type Language struct {
	Name  wasmexec.Language
	Image string
}

// LoadFunc loads the image name from its directory dir and hands it to
// what runs it, returning its hash. An error while ctx is done is not a
// failure of the image.
type LoadFunc func(ctx context.Context, name, dir string) (hash string, err error)

// Set is a server's guest images: those loaded, those whose late load
// failed, and whether the server's start-up load is done.
type Set struct {
	cfg Config
	log *slog.Logger

	mu sync.Mutex
	// loaded are the images loaded, by name: their hashes.
	loaded map[string]string
	// failed are the images built after start that failed to load.
	failed map[string]error
	// done: the start-up load ended; err: it failed, the server stays
	// unready.
	done bool
	err  error
}

// New returns the set of cfg's images, none loaded yet.
func New(cfg Config) *Set {
	if cfg.WatchEvery <= 0 {
		cfg.WatchEvery = DefaultWatchEvery
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Set{cfg: cfg, log: log, loaded: map[string]string{}, failed: map[string]error{}}
}

// dir is image name's directory.
func (s *Set) dir(name string) string { return filepath.Join(s.cfg.Dir, name) }

// built reports whether the images directory holds image name, complete
// (build-cached.sh links it only once complete).
func (s *Set) built(name string) bool {
	_, err := os.Stat(filepath.Join(s.dir(name), "guest.json"))
	return err == nil
}

// layerBuilding returns the first layer of image name still being built.
func (s *Set) layerBuilding(name string) (string, bool) {
	for _, l := range s.cfg.Layers[name] {
		if st, ok := ReadBuildStatus(s.cfg.Dir, l); ok && st.State == "building" && !s.built(l) {
			return l, true
		}
	}
	return "", false
}

// Loadable reports whether image name can be loaded now: built, with no
// layer of it still being built.
func (s *Set) Loadable(name string) bool {
	if !s.built(name) {
		return false
	}
	_, waiting := s.layerBuilding(name)
	return !waiting
}

// PendingBuilds reports whether a build of some image is under way: a
// server then starts without it and waits.
func (s *Set) PendingBuilds() bool {
	for _, name := range s.cfg.Names {
		if st, ok := ReadBuildStatus(s.cfg.Dir, name); ok && st.State == "building" {
			return true
		}
	}
	return false
}

// State says where a missing image name stands, for /readyz and a 503:
// "building" (with its status), "failed" (with its status: the log),
// "loading" (built, being loaded) or "not built".
func (s *Set) State(name string) (string, BuildStatus) {
	if layer, waiting := s.layerBuilding(name); waiting && s.built(name) {
		st, _ := ReadBuildStatus(s.cfg.Dir, layer)
		return "building", st
	}
	if st, ok := ReadBuildStatus(s.cfg.Dir, name); ok && !s.built(name) {
		return st.State, st
	}
	if s.built(name) {
		s.mu.Lock()
		failed := s.failed[name]
		s.mu.Unlock()
		if failed != nil {
			return "failed", BuildStatus{Image: name, Label: failed.Error()}
		}
		return "loading", BuildStatus{}
	}
	return "not built", BuildStatus{}
}

// UnavailableError is a 503 with a Retry-After.
type UnavailableError struct {
	err     *wasmexec.Error
	seconds int
}

func (e *UnavailableError) Error() string { return e.err.Error() }
func (e *UnavailableError) Unwrap() error { return e.err }

// RetrySeconds is the Retry-After of the 503.
func (e *UnavailableError) RetrySeconds() int { return e.seconds }

// Missing is the error of a run (or context) whose image name is not
// loaded (engine.DriverConfig.Missing): 503 with the build's estimate as
// Retry-After while it is being built or loaded, 503 naming the log when
// its build failed, and the same when it is not built at all.
func (s *Set) Missing(name string) error {
	state, st := s.State(name)
	switch state {
	case "building":
		left, retry := "no estimate yet", 30
		if st.LeftSeconds >= 0 {
			left = fmt.Sprintf("about %s left", time.Duration(st.LeftSeconds)*time.Second)
			retry = int(min(max(st.LeftSeconds, 1), 600))
		}
		what := name
		if st.Image != "" && st.Image != name {
			what = fmt.Sprintf("%s (its layer %s)", name, st.Image)
		}
		return &UnavailableError{wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is still being built: step %d/%d, %s; see /readyz", what, st.Step, st.Steps, left), retry}
	case "loading":
		return &UnavailableError{wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is being loaded; see /readyz", name), 5}
	case "failed":
		msg := fmt.Sprintf("the %s guest image failed to build", name)
		if st.Label != "" {
			msg += ": " + st.Label
		}
		if st.Log != "" {
			msg += "; its log is " + st.Log
		}
		return &UnavailableError{wasmexec.Errorf(wasmexec.EUnavailable, "%s", msg), 60}
	}
	return wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is not built (run make guest-images, or guest-images/build-cached.sh %s)", name, name)
}

// LoadPresent loads, with load, every image that can be loaded now, and
// says whether some are missing (Watch loads them once built). It fails
// when an image fails to load, or when there is none at all and none is
// being built.
func (s *Set) LoadPresent(ctx context.Context, load LoadFunc) (missing bool, err error) {
	n := 0
	for _, name := range s.cfg.Names {
		if !s.Loadable(name) {
			missing = true
			if state, st := s.State(name); state == "building" {
				s.log.Info("guest image still being built; it is loaded when its build completes, and its languages answer 503 until then", "image", name, "build", st.Image, "step", fmt.Sprintf("%d/%d", st.Step, st.Steps), "log", st.Log)
			} else {
				s.log.Warn("guest image not built; its languages are unavailable (run make guest-images)", "image", name, "dir", s.dir(name), "state", state)
			}
			continue
		}
		hash, err := load(ctx, name, s.dir(name))
		if err != nil {
			return missing, fmt.Errorf("load guest image %s: %w", name, err)
		}
		s.mu.Lock()
		s.loaded[name] = hash
		s.mu.Unlock()
		n++
	}
	if n == 0 && !s.PendingBuilds() {
		return missing, errors.New("no guest images found in " + s.cfg.Dir + "; run make guest-images")
	}
	return missing, nil
}

// Watch loads, with load, the images that were missing at start once
// their builds complete, until every image is loaded (or failed to) or
// ctx ends.
func (s *Set) Watch(ctx context.Context, load LoadFunc) {
	t := time.NewTicker(s.cfg.WatchEvery)
	defer t.Stop()
	for {
		missing := 0
		for _, name := range s.cfg.Names {
			s.mu.Lock()
			_, loaded := s.loaded[name]
			failed := s.failed[name] != nil
			s.mu.Unlock()
			if loaded || failed {
				continue
			}
			missing++
			if s.Loadable(name) {
				s.loadLate(ctx, name, load)
			}
		}
		if missing == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// loadLate loads image name, built after start: a failure leaves its
// languages unavailable, saying why.
func (s *Set) loadLate(ctx context.Context, name string, load LoadFunc) {
	start := time.Now()
	s.log.Info("guest image built; loading it", "image", name)
	hash, err := load(ctx, name, s.dir(name))
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		s.log.Error("a guest image built after start can't be served; its languages stay unavailable", "image", name, "err", err)
		s.mu.Lock()
		s.failed[name] = err
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	s.loaded[name] = hash
	s.mu.Unlock()
	s.log.Info("guest image ready", "image", name, "took", time.Since(start).Round(time.Millisecond).String())
}

// Done records the end of the server's start-up load: ready when err is
// nil, else unready for good, with err in /readyz.
func (s *Set) Done(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done, s.err = true, err
}

// Ready reports whether the start-up load ended well.
func (s *Set) Ready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done && s.err == nil
}

// Readiness is /readyz: whether the server is ready, and a body with the
// images loaded (name: the start of its hash), each language's part in
// "parts" (ready, image, state; a missing image's build as Part says)
// beside the server's other parts (more: the checker, the history), and
// the start-up load's "error" if it failed.
func (s *Set) Readiness(more map[string]any) (bool, map[string]any) {
	// Where the missing images stand, read before the lock: State reads
	// files and takes the lock itself.
	s.mu.Lock()
	var missing []string
	for _, name := range s.cfg.Names {
		if _, ok := s.loaded[name]; !ok {
			missing = append(missing, name)
		}
	}
	s.mu.Unlock()
	building := map[string]map[string]any{}
	for _, name := range missing {
		building[name] = Part(s.State(name))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ready := s.done && s.err == nil
	imgs := map[string]string{}
	for name, hash := range s.loaded {
		imgs[name] = hash[:min(12, len(hash))]
	}
	parts := map[string]any{}
	for name, p := range more {
		parts[name] = p
	}
	for _, l := range s.cfg.Languages {
		_, loaded := s.loaded[l.Image]
		p := map[string]any{"ready": ready && loaded, "image": l.Image, "state": "ready"}
		switch {
		case s.err != nil:
			p["state"] = "failed"
		case !ready:
			p["state"] = "loading"
		case !loaded:
			for k, v := range building[l.Image] {
				p[k] = v
			}
		}
		parts[string(l.Name)] = p
	}
	d := map[string]any{"images": imgs, "parts": parts}
	if s.err != nil {
		d["error"] = s.err.Error()
	}
	return ready, d
}

// Part is a missing image's part of /readyz: its state and, while it is
// being built, the step, the time elapsed and the estimate left
// (leftSeconds, absent when there is none yet); once failed, the log.
func Part(state string, st BuildStatus) map[string]any {
	p := map[string]any{"state": state}
	switch state {
	case "building":
		p["step"], p["steps"], p["stepLabel"], p["elapsedSeconds"] = st.Step, st.Steps, st.Label, st.ElapsedSeconds
		if st.LeftSeconds >= 0 {
			p["leftSeconds"], p["estimate"] = st.LeftSeconds, st.Estimate
		}
		if st.Image != "" {
			p["build"] = st.Image
		}
		if st.Log != "" {
			p["log"] = st.Log
		}
	case "failed":
		if st.Label != "" {
			p["error"] = st.Label
		}
		if st.Log != "" {
			p["log"] = st.Log
		}
	}
	return p
}
