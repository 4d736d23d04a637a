package images_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/images"
	"github.com/wasmexec/wasmexec/internal/testkit/poll"
)

// The status a build writes once per step is read with the time since:
// the elapsed time runs on, a record's estimate counts down (and is
// dropped once overrun), the pace follows the steps so far, and a build
// whose process is gone is failed.
func TestReadBuildStatus(t *testing.T) {
	at := time.Now()
	now := at.Unix()
	for _, tc := range []struct {
		name                     string
		st                       images.BuildStatus
		wantState                string
		wantElapsed              int64
		wantLeftMin, wantLeftMax int64
	}{
		{"record counts down", images.BuildStatus{State: "building", Step: 2, Steps: 5, ElapsedSeconds: 10, LeftSeconds: 100, Estimate: "record", UpdatedAt: now - 30}, "building", 40, 70, 70},
		{"record overrun", images.BuildStatus{State: "building", Step: 2, Steps: 5, ElapsedSeconds: 10, LeftSeconds: 20, Estimate: "record", UpdatedAt: now - 30}, "building", 40, -1, -1},
		{"pace follows the steps so far", images.BuildStatus{State: "building", Step: 3, Steps: 6, ElapsedSeconds: 20, LeftSeconds: 40, Estimate: "pace", UpdatedAt: now - 60}, "building", 80, 100, 100},
		{"no estimate", images.BuildStatus{State: "building", Step: 1, Steps: 5, ElapsedSeconds: 0, LeftSeconds: -1, UpdatedAt: now - 5}, "building", 5, -1, -1},
		{"its process is gone", images.BuildStatus{State: "building", Step: 1, Steps: 5, LeftSeconds: -1, PID: deadPID(t), UpdatedAt: now}, "failed", 0, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeStatus(t, dir, "python", tc.st)
			got, ok := images.ReadBuildStatusAt(dir, "python", at)
			if !ok || got.State != tc.wantState {
				t.Fatalf("got %+v %v, want state %s", got, ok, tc.wantState)
			}
			if got.State == "building" && (got.ElapsedSeconds != tc.wantElapsed || got.LeftSeconds < tc.wantLeftMin || got.LeftSeconds > tc.wantLeftMax) {
				t.Fatalf("elapsed %d left %d, want elapsed %d left %d..%d", got.ElapsedSeconds, got.LeftSeconds, tc.wantElapsed, tc.wantLeftMin, tc.wantLeftMax)
			}
		})
	}
}

// A missing image's run is told where its build stands: a 503 whose
// Retry-After is the estimate while it builds (or while a layer of it
// does), one naming the log once the build failed, a short one while it
// loads, and how to build it when nobody is building it.
func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		name      string
		setup     func(t *testing.T, dir string)
		wantState string
		wantIn    string
		wantRetry int // 0: no Retry-After
	}{
		{"not built", func(*testing.T, string) {}, "not built", "is not built (run make guest-images", 0},
		{"building", func(t *testing.T, dir string) {
			writeStatus(t, dir, "python", images.BuildStatus{Image: "python", State: "building", Step: 2, Steps: 5, LeftSeconds: 90, Estimate: "record"})
		}, "building", "still being built: step 2/5, about 1m30s left", 90},
		{"building, no estimate", func(t *testing.T, dir string) {
			writeStatus(t, dir, "python", images.BuildStatus{Image: "python", State: "building", Step: 1, Steps: 5, LeftSeconds: -1})
		}, "building", "no estimate yet", 30},
		{"its layer building", func(t *testing.T, dir string) {
			writeImage(t, dir, "python")
			writeStatus(t, dir, "pylibs", images.BuildStatus{Image: "pylibs", State: "building", Step: 3, Steps: 4, LeftSeconds: 10, Estimate: "pace"})
		}, "building", "python (its layer pylibs) guest image is still being built: step 3/4", 10},
		{"failed", func(t *testing.T, dir string) {
			writeStatus(t, dir, "python", images.BuildStatus{Image: "python", State: "failed", Label: "compiler exploded", Log: "/logs/python.log"})
		}, "failed", "failed to build: compiler exploded; its log is /logs/python.log", 60},
		{"loading", func(t *testing.T, dir string) { writeImage(t, dir, "python") }, "loading", "is being loaded", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			s := images.New(images.Config{Dir: dir, Names: []string{"js", "python"}, Layers: map[string][]string{"python": {"pylibs"}}})
			if state, _ := s.State("python"); state != tc.wantState {
				t.Fatalf("state %q, want %q", state, tc.wantState)
			}
			err := s.Missing("python")
			if wasmexec.ErrorCode(err) != wasmexec.EUnavailable || !strings.Contains(err.Error(), tc.wantIn) {
				t.Fatalf("got %v, want unavailable with %q", err, tc.wantIn)
			}
			var rs interface{ RetrySeconds() int }
			if got := 0; errors.As(err, &rs) {
				got = rs.RetrySeconds()
				if got != tc.wantRetry {
					t.Fatalf("Retry-After %d, want %d", got, tc.wantRetry)
				}
			} else if tc.wantRetry != 0 {
				t.Fatalf("no Retry-After, want %d", tc.wantRetry)
			}
		})
	}
}

// The start-up load loads what is built and leaves the rest to Watch,
// which loads an image once its build completes and records a late load
// that fails; /readyz follows each step.
func TestLoadPresentThenWatch(t *testing.T) {
	dir := t.TempDir()
	writeImage(t, dir, "js")
	writeStatus(t, dir, "python", images.BuildStatus{Image: "python", State: "building", Step: 1, Steps: 3, LeftSeconds: -1})
	s := images.New(images.Config{
		Dir: dir, Names: []string{"js", "python"}, WatchEvery: 10 * time.Millisecond,
		Languages: []images.Language{{Name: wasmexec.JavaScript, Image: "js"}, {Name: wasmexec.Python, Image: "python"}},
	})
	var loads atomic.Int32
	load := func(_ context.Context, name, d string) (string, error) {
		loads.Add(1)
		if d != filepath.Join(dir, name) {
			t.Errorf("load %s from %s", name, d)
		}
		return name + "-0123456789abcdef", nil
	}
	missing, err := s.LoadPresent(context.Background(), load)
	if err != nil || !missing || loads.Load() != 1 {
		t.Fatalf("LoadPresent: missing %v, err %v, %d loads; want js loaded, python missing", missing, err, loads.Load())
	}
	if ready, _ := s.Readiness(nil); ready {
		t.Fatal("ready before Done")
	}
	s.Done(nil)
	ready, d := s.Readiness(map[string]any{"history": "its part"})
	parts := d["parts"].(map[string]any)
	if parts["history"] != "its part" {
		t.Fatalf("the server's other parts: %v", parts)
	}
	js, py := parts["javascript"].(map[string]any), parts["python"].(map[string]any)
	if !ready || js["ready"] != true || py["ready"] != false || py["state"] != "building" || py["step"] != 1 {
		t.Fatalf("while python builds: ready %v, %v", ready, d)
	}
	if imgs := d["images"].(map[string]string); imgs["js"] != "js-012345678" || imgs["python"] != "" {
		t.Fatalf("images %v", imgs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); s.Watch(ctx, load) }()
	os.Remove(filepath.Join(dir, ".status", "python.json"))
	writeImage(t, dir, "python")
	poll.Until(t, 10*time.Second, "python loaded late", func() bool {
		_, d := s.Readiness(nil)
		py := d["parts"].(map[string]any)["python"].(map[string]any)
		return py["ready"] == true && py["state"] == "ready"
	})
	<-done // every image loaded: Watch returns
	if loads.Load() != 2 {
		t.Fatalf("%d loads, want 2", loads.Load())
	}
}

// A late load that fails leaves the image failed, saying why, and Watch
// does not try it again.
func TestWatchRecordsAFailedLoad(t *testing.T) {
	dir := t.TempDir()
	writeImage(t, dir, "python")
	s := images.New(images.Config{Dir: dir, Names: []string{"python"}, WatchEvery: 10 * time.Millisecond,
		Languages: []images.Language{{Name: wasmexec.Python, Image: "python"}}})
	s.Done(nil)
	var loads atomic.Int32
	s.Watch(context.Background(), func(context.Context, string, string) (string, error) {
		loads.Add(1)
		return "", errors.New("the image needs more memory than --max-memory-bytes allows")
	})
	if loads.Load() != 1 {
		t.Fatalf("%d loads, want 1", loads.Load())
	}
	if err := s.Missing("python"); !strings.Contains(err.Error(), "failed to build: the image needs more memory") {
		t.Fatalf("Missing: %v", err)
	}
	_, d := s.Readiness(nil)
	py := d["parts"].(map[string]any)["python"].(map[string]any)
	if py["state"] != "failed" || !strings.Contains(py["error"].(string), "more memory") {
		t.Fatalf("python part %v", py)
	}
}

// A server with no image at all, and none being built, does not start;
// a failed start-up load keeps it unready, saying why.
func TestNothingToServe(t *testing.T) {
	s := images.New(images.Config{Dir: t.TempDir(), Names: []string{"js"},
		Languages: []images.Language{{Name: wasmexec.JavaScript, Image: "js"}}})
	if _, err := s.LoadPresent(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "no guest images found") {
		t.Fatalf("LoadPresent: %v", err)
	}
	s.Done(errors.New("boom"))
	ready, d := s.Readiness(nil)
	js := d["parts"].(map[string]any)["javascript"].(map[string]any)
	if ready || s.Ready() || d["error"] != "boom" || js["state"] != "failed" {
		t.Fatalf("ready %v, %v", ready, d)
	}
}

// writeStatus writes a build's status as build-cached.sh does, by this
// (live) process unless it names one.
func writeStatus(t *testing.T, dir, name string, st images.BuildStatus) {
	t.Helper()
	if st.PID == 0 {
		st.PID = os.Getpid()
	}
	b, _ := json.Marshal(st)
	if err := os.MkdirAll(filepath.Join(dir, ".status"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".status", name+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeImage makes image name complete in dir, as far as the set sees.
func writeImage(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name, "guest.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}
