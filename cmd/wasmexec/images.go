package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/languages/python"
)

// A server serves what is ready: the guest images present when it starts
// are loaded before it is ready; an image still being built (make run
// builds the Python image in the background, guest-images/build-cached.sh
// writing its progress to IMAGES_DIR/.status/NAME.json) is loaded when
// its build completes, and until then a run in its languages is a 503
// whose Retry-After is the build's estimate.

// imageWatchEvery is how often the images directory is looked at while an
// image is missing.
const imageWatchEvery = time.Second

// imageLayers are the images an image is loaded with when they are built:
// Python's bundled libraries. While a layer is being built its image
// waits, so that the language is ready with them.
var imageLayers = map[string][]string{python.ImageName: {python.LayerImage}}

// buildStatus is a build's progress as build-cached.sh writes it.
type buildStatus struct {
	Image string `json:"image"`
	// State is building (waiting for another build's lock included) or
	// failed; a finished build removes the file.
	State string `json:"state"`
	Step  int    `json:"step"`
	Steps int    `json:"steps"`
	Label string `json:"label"`
	// ElapsedSeconds since the build started; LeftSeconds is the
	// estimate of what is left (-1: none), from the last build of the
	// image here (Estimate "record"), else from the pace of this one's
	// steps (Estimate "pace").
	ElapsedSeconds int64  `json:"elapsedSeconds"`
	LeftSeconds    int64  `json:"leftSeconds"`
	Estimate       string `json:"estimate"`
	// Log is the file the build's output goes to ("" when not known).
	Log string `json:"log"`
	// PID is the build's process: a build that is gone without finishing
	// (killed) is failed.
	PID int `json:"pid"`
	// UpdatedAt is when the file was written (Unix seconds).
	UpdatedAt int64 `json:"updatedAt"`
}

// readBuildStatus reads the status of image name's build; ok is false
// when no build of it is under way or failed.
func readBuildStatus(imagesDir, name string) (st buildStatus, ok bool) {
	b, err := os.ReadFile(filepath.Join(imagesDir, ".status", name+".json"))
	if err != nil || json.Unmarshal(b, &st) != nil {
		return buildStatus{}, false
	}
	if st.State != "building" && st.State != "failed" {
		return buildStatus{}, false
	}
	if st.State == "building" && st.PID > 0 && !alive(st.PID) {
		st.State = "failed"
		st.Label = fmt.Sprintf("the build stopped without finishing (process %d is gone)", st.PID)
	}
	if st.State == "building" && st.UpdatedAt > 0 {
		// Between the script's updates (one per step) the time runs on:
		// a record's estimate counts down (none once overrun), the pace
		// is that of the steps so far, the current one as long as it
		// has taken.
		since := max(0, time.Now().Unix()-st.UpdatedAt)
		st.ElapsedSeconds += since
		switch {
		case st.LeftSeconds < 0:
		case st.Estimate == "pace" && st.Step > 1:
			st.LeftSeconds = max(st.LeftSeconds, st.ElapsedSeconds*int64(st.Steps-st.Step+1)/int64(st.Step-1)) - since
		default:
			st.LeftSeconds -= since
		}
		if st.LeftSeconds <= 0 && st.Estimate != "" {
			st.LeftSeconds = -1 // overrun: no estimate
		}
	}
	return st, true
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// imageBuilt reports whether the images directory holds image name,
// complete (build-cached.sh links it only once complete).
func (a *app) imageBuilt(name string) bool {
	return exists(filepath.Join(a.opts.imagesDir, name, "guest.json"))
}

// layersBuilding returns the first layer of image name still being built.
func (a *app) layersBuilding(name string) (string, bool) {
	for _, l := range imageLayers[name] {
		if st, ok := readBuildStatus(a.opts.imagesDir, l); ok && st.State == "building" && !a.imageBuilt(l) {
			return l, true
		}
	}
	return "", false
}

// loadable reports whether image name can be loaded now: built, with no
// layer of it still being built.
func (a *app) loadable(name string) bool {
	if !a.imageBuilt(name) {
		return false
	}
	_, waiting := a.layersBuilding(name)
	return !waiting
}

// pendingBuilds reports whether a build of some missing image is under
// way: the server then starts without it and waits.
func (a *app) pendingBuilds() bool {
	for _, name := range guestImages {
		if st, ok := readBuildStatus(a.opts.imagesDir, name); ok && st.State == "building" {
			return true
		}
	}
	return false
}

// imageState says where image name stands for /readyz and a 503:
// "building" (with its status), "failed" (with its status: the log),
// "waiting" (built, its layer still building), "loading" (built, being
// loaded) or "not built".
func (a *app) imageState(name string) (string, buildStatus) {
	if layer, waiting := a.layersBuilding(name); waiting && a.imageBuilt(name) {
		st, _ := readBuildStatus(a.opts.imagesDir, layer)
		return "building", st
	}
	if st, ok := readBuildStatus(a.opts.imagesDir, name); ok && !a.imageBuilt(name) {
		return st.State, st
	}
	if a.imageBuilt(name) {
		a.mu.Lock()
		failed := a.imageErrs[name]
		a.mu.Unlock()
		if failed != nil {
			return "failed", buildStatus{Image: name, Label: failed.Error()}
		}
		return "loading", buildStatus{}
	}
	return "not built", buildStatus{}
}

// unavailableError is a 503 with a Retry-After.
type unavailableError struct {
	err     *wasmexec.Error
	seconds int
}

func (e *unavailableError) Error() string     { return e.err.Error() }
func (e *unavailableError) Unwrap() error     { return e.err }
func (e *unavailableError) RetrySeconds() int { return e.seconds }

// missingImage is the error of a run (or context) whose image is not
// loaded (engine.DriverConfig.Missing): 503 with the build's estimate as
// Retry-After while it is being built or loaded, 503 naming the log when
// its build failed, and the same when it is not built at all.
func (a *app) missingImage(name string) error {
	state, st := a.imageState(name)
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
		return &unavailableError{wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is still being built: step %d/%d, %s; see /readyz", what, st.Step, st.Steps, left), retry}
	case "loading":
		return &unavailableError{wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is being loaded; see /readyz", name), 5}
	case "failed":
		msg := fmt.Sprintf("the %s guest image failed to build", name)
		if st.Label != "" {
			msg += ": " + st.Label
		}
		if st.Log != "" {
			msg += "; its log is " + st.Log
		}
		return &unavailableError{wasmexec.Errorf(wasmexec.EUnavailable, "%s", msg), 60}
	}
	return wasmexec.Errorf(wasmexec.EUnavailable, "the %s guest image is not built (run make guest-images, or guest-images/build-cached.sh %s)", name, name)
}

// watchImages loads the images that were missing at start once their
// builds complete, until every image is loaded or ctx ends.
func (a *app) watchImages(ctx context.Context) {
	t := time.NewTicker(imageWatchEvery)
	defer t.Stop()
	for {
		missing := 0
		for _, name := range guestImages {
			a.mu.Lock()
			loaded, failed := a.images[name] != nil, a.imageErrs[name] != nil
			a.mu.Unlock()
			if loaded || failed {
				continue
			}
			missing++
			if !a.loadable(name) {
				continue
			}
			a.loadLate(ctx, name)
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

// loadLate loads image name and hands it to the driver.
func (a *app) loadLate(ctx context.Context, name string) {
	start := time.Now()
	a.log.Info("guest image built; loading it", "image", name)
	img, err := a.engine.LoadImage(ctx, filepath.Join(a.opts.imagesDir, name))
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		a.log.Error("load a guest image built after start; its languages stay unavailable", "image", name, "err", err)
		a.mu.Lock()
		a.imageErrs[name] = err
		a.mu.Unlock()
		return
	}
	if m := img.Spec.MinMemoryBytes; m > a.opts.memoryBytes || m > a.opts.maxMemoryBytes {
		// What options.validate checks at start for the images present.
		err = fmt.Errorf("the image needs %d bytes of guest memory, more than --memory-bytes or --max-memory-bytes allows", m)
	}
	if err != nil {
		a.log.Error("a guest image built after start can't be served; its languages stay unavailable", "image", name, "err", err)
		a.mu.Lock()
		a.imageErrs[name] = err
		a.mu.Unlock()
		return
	}
	a.mu.Lock()
	d := a.driver
	a.mu.Unlock()
	if d == nil || !d.AddImage(name, img) {
		return
	}
	a.mu.Lock()
	a.images[name] = img
	a.mu.Unlock()
	a.log.Info("guest image ready", "image", name, "took", time.Since(start).Round(time.Millisecond).String())
}
