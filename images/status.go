package images

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// BuildStatus is a build's progress as guest-images/build-cached.sh writes
// it, to DIR/.status/NAME.json.
type BuildStatus struct {
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

// ReadBuildStatus reads the status of image name's build in the images
// directory dir; ok is false when no build of it is under way or failed.
func ReadBuildStatus(dir, name string) (st BuildStatus, ok bool) {
	return readBuildStatusAt(dir, name, time.Now())
}

// readBuildStatusAt is ReadBuildStatus as read at now.
func readBuildStatusAt(dir, name string, now time.Time) (st BuildStatus, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, ".status", name+".json"))
	if err != nil || json.Unmarshal(b, &st) != nil {
		return BuildStatus{}, false
	}
	if st.State != "building" && st.State != "failed" {
		return BuildStatus{}, false
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
		since := max(0, now.Unix()-st.UpdatedAt)
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
