package vfs

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// Defaults of Limits.
const (
	// DefaultQuotaBytes is the byte quota of a workspace
	// (--workspace-quota-bytes): room for a real project's node_modules
	// (npm installs count against it).
	DefaultQuotaBytes = 256 << 20
	// DefaultMaxFiles caps the entries (files, directories, symlinks) of a
	// workspace (--workspace-max-files): each costs an inode whatever its
	// size.
	DefaultMaxFiles = 10_000
	// DefaultEntryBytes is what a directory, an empty file or a symlink
	// counts against the quota: one block of the usual file system, so
	// usage follows the disk (20,000 empty directories took 78 MiB of ext4).
	DefaultEntryBytes = 4096
	// DefaultMaxReadBytes caps one read of a file through the file API or a
	// process's "file": a larger file is payload_too_large (the request
	// body limit's default, so what can be uploaded in one request can be
	// read back in one).
	DefaultMaxReadBytes = 16 << 20
	// DefaultMaxSeedFiles caps the files one run may seed (a request's
	// "files").
	DefaultMaxSeedFiles = 1000
)

// Limits bound a workspace. The zero value of a field means "none" for
// Quota and MaxFiles and "the default" for the others.
type Limits struct {
	// Quota is the bytes a workspace may hold: the sizes of its non-empty
	// regular files (apparent size: a sparse file counts in full) plus
	// EntryBytes for every directory, empty file, symlink or other entry.
	Quota int64
	// MaxFiles caps the number of entries below the workspace root.
	MaxFiles int
	// EntryBytes is the charge of an entry that holds no bytes of its own.
	EntryBytes int64
	// MaxReadBytes caps one ReadFile.
	MaxReadBytes int64
	// MaxSeedFiles caps the files of one Seed.
	MaxSeedFiles int
}

// DefaultLimits returns the limits a server uses unless configured.
func DefaultLimits() Limits {
	return Limits{
		Quota: DefaultQuotaBytes, MaxFiles: DefaultMaxFiles, EntryBytes: DefaultEntryBytes,
		MaxReadBytes: DefaultMaxReadBytes, MaxSeedFiles: DefaultMaxSeedFiles,
	}
}

// Validate reports a negative limit (invalid_argument).
func (l Limits) Validate() error {
	switch {
	case l.Quota < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "workspace quota must not be negative, got %d", l.Quota)
	case l.MaxFiles < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "workspace max files must not be negative, got %d", l.MaxFiles)
	case l.EntryBytes < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "workspace entry bytes must not be negative, got %d", l.EntryBytes)
	case l.MaxReadBytes < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "workspace max read bytes must not be negative, got %d", l.MaxReadBytes)
	case l.MaxSeedFiles < 0:
		return wasmexec.Errorf(wasmexec.EInvalid, "workspace max seed files must not be negative, got %d", l.MaxSeedFiles)
	}
	return nil
}

func (l Limits) entryBytes() int64 {
	if l.EntryBytes > 0 {
		return l.EntryBytes
	}
	return DefaultEntryBytes
}

func (l Limits) maxSeedFiles() int {
	if l.MaxSeedFiles > 0 {
		return l.MaxSeedFiles
	}
	return DefaultMaxSeedFiles
}

// readLimit is the most one ReadFile returns: MaxReadBytes (or its
// default), and never more than the quota.
func (l Limits) readLimit() int64 {
	n := l.MaxReadBytes
	if n <= 0 {
		n = DefaultMaxReadBytes
	}
	if l.Quota > 0 && l.Quota < n {
		n = l.Quota
	}
	return n
}

// charge is what an entry counts against the quota.
func (l Limits) charge(e walkEntry) int64 {
	if e.isRegular() && e.size > 0 {
		return e.size
	}
	return l.entryBytes()
}

func (l Limits) limited() bool { return l.Quota > 0 || l.MaxFiles > 0 }

// Usage is what a workspace holds, counted the way its limits count.
type Usage struct {
	UsedBytes  int64 `json:"usedBytes"`
	QuotaBytes int64 `json:"quotaBytes"` // 0: no quota
	Files      int   `json:"files"`      // entries below the root
	MaxFiles   int   `json:"maxFiles"`   // 0: no limit
	// Partial says the count stopped at the first limit it passed:
	// UsedBytes and Files are then lower bounds.
	Partial bool `json:"partial,omitempty"`
}

// Over reports whether u passes the quota or the file limit.
func (u Usage) Over() bool {
	return (u.QuotaBytes > 0 && u.UsedBytes > u.QuotaBytes) || (u.MaxFiles > 0 && u.Files > u.MaxFiles)
}

// String describes u for messages: "70000000 bytes of a 67108864-byte
// quota, 12 of 10000 files".
func (u Usage) String() string {
	at := ""
	if u.Partial {
		at = "at least "
	}
	s := fmt.Sprintf("%s%d bytes", at, u.UsedBytes)
	if u.QuotaBytes > 0 {
		s += fmt.Sprintf(" of a %d-byte quota", u.QuotaBytes)
	}
	s += fmt.Sprintf(", %s%d", at, u.Files)
	if u.MaxFiles > 0 {
		s += fmt.Sprintf(" of %d", u.MaxFiles)
	}
	return s + " files"
}

// Err is nil within the limits, else a payload_too_large error naming the
// limit passed.
func (u Usage) Err() error {
	if !u.Over() {
		return nil
	}
	return wasmexec.Errorf(wasmexec.ETooLarge, "the workspace is over its limits: %s", u)
}

// Details returns u as the details of a quota_exceeded failure.
func (u Usage) Details() map[string]any {
	d := map[string]any{"usedBytes": u.UsedBytes, "quotaBytes": u.QuotaBytes, "files": u.Files, "maxFiles": u.MaxFiles}
	if u.Partial {
		d["partial"] = true
	}
	return d
}

// Failure is the guest failure of a run or process that took the
// workspace over its limits: code quota_exceeded, u as details, who ("the
// run", "the process") in the message.
func (u Usage) Failure(who string) *wasmexec.ErrorData {
	return &wasmexec.ErrorData{
		Code: wasmexec.CodeQuotaExceeded, Name: "QuotaExceededError", Details: u.Details(),
		Message: who + " took the workspace over its limits (" + u.String() + ") and was stopped",
	}
}

// Watch returns a check of w against its limits for a running guest (see
// wasmexec.QuotaCheck): nil while within them, else who's quota_exceeded. A
// check that fails to count (the workspace is going away) passes.
func (w *Workspace) Watch(who string) wasmexec.QuotaCheck {
	return func() *wasmexec.ErrorData {
		u, err := w.Check(context.Background())
		if err != nil || !u.Over() {
			return nil
		}
		return u.Failure(who)
	}
}

// Check counts the workspace against its limits, fast enough to poll while
// a guest writes (every 100 ms): it walks without following symlinks
// (one lstat per entry, read in bounded batches) and stops at the first
// limit passed (Partial), so one check costs at most MaxFiles+1 entries or
// the entries up to the quota, however many a guest made. Without limits it
// counts everything. Errors: ctx's, or the file system's.
func (w *Workspace) Check(ctx context.Context) (Usage, error) {
	return w.count(ctx, true)
}

// count walks the workspace; stopEarly stops at the first limit passed.
func (w *Workspace) count(ctx context.Context, stopEarly bool) (Usage, error) {
	u := Usage{QuotaBytes: w.Quota, MaxFiles: w.MaxFiles}
	err := walk(ctx, w.Root, func(e walkEntry) error {
		u.UsedBytes += w.charge(e)
		u.Files++
		if stopEarly && u.Over() {
			u.Partial = true
			return errStopWalk
		}
		return nil
	})
	if err != nil {
		return Usage{}, fmt.Errorf("measure workspace: %w", err)
	}
	return u, nil
}

// Usage returns the bytes the workspace holds as its quota counts them
// (see Limits.Quota), counting every entry.
func (w *Workspace) Usage() (int64, error) {
	u, err := w.count(context.Background(), false)
	return u.UsedBytes, err
}

// MeasureReplacing counts the workspace as it would be with its top-level
// entries names replaced by the entries of the same names in stage (a
// directory directly below the root, left out of the count itself): what
// an install that swaps node_modules, package.json and package-lock.json
// in would leave. Like Check it stops at the first limit passed.
// Errors: ctx's, or the file system's.
func (w *Workspace) MeasureReplacing(ctx context.Context, stage string, names []string) (Usage, error) {
	replaced := map[string]bool{stage: true}
	for _, n := range names {
		replaced[n] = true
	}
	u := Usage{QuotaBytes: w.Quota, MaxFiles: w.MaxFiles}
	add := func(e walkEntry) error {
		u.UsedBytes += w.charge(e)
		u.Files++
		if u.Over() {
			u.Partial = true
			return errStopWalk
		}
		return nil
	}
	err := w.walkApart(ctx, replaced, add)
	if err == nil && !u.Partial {
		err = walk(ctx, filepath.Join(w.Root, stage), func(e walkEntry) error {
			if !replaced[topName(e.rel)] || topName(e.rel) == stage {
				return nil
			}
			return add(e)
		})
	}
	if err != nil {
		return Usage{}, fmt.Errorf("measure workspace: %w", err)
	}
	return u, nil
}

// topName is the top-level entry a slash path below the root is in.
func topName(rel string) string {
	first, _, _ := strings.Cut(rel, "/")
	return first
}

// walkApart walks the workspace but for the top-level entries in skip.
func (w *Workspace) walkApart(ctx context.Context, skip map[string]bool, fn func(walkEntry) error) error {
	return walk(ctx, w.Root, func(e walkEntry) error {
		if skip[topName(e.rel)] {
			return nil
		}
		return fn(e)
	})
}

// Room is what an install may still write into a workspace, counted the
// way its limits count (Limits.Quota): Bytes for a non-empty file's size
// and EntryBytes for every directory or empty file, Files for every
// entry. A bound the workspace does not have is math.MaxInt64 (Bytes) or
// math.MaxInt (Files); one it has no room left in is 0.
type Room struct {
	Bytes      int64
	Files      int
	EntryBytes int64
}

// RoomReplacing is the room left for the top-level entries names (and
// stage's, as in MeasureReplacing) once the rest of the workspace is
// counted: what an install that stages them may write before it is sure
// to pass the limits, so it can stop there instead of finding out after
// writing all of it. Like Check it stops counting at the first limit
// passed (no room). Errors: ctx's, or the file system's.
func (w *Workspace) RoomReplacing(ctx context.Context, stage string, names []string) (Room, error) {
	r := Room{Bytes: math.MaxInt64, Files: math.MaxInt, EntryBytes: w.entryBytes()}
	if !w.limited() {
		return r, nil
	}
	skip := map[string]bool{stage: true}
	for _, n := range names {
		skip[n] = true
	}
	u := Usage{QuotaBytes: w.Quota, MaxFiles: w.MaxFiles}
	err := w.walkApart(ctx, skip, func(e walkEntry) error {
		u.UsedBytes += w.charge(e)
		u.Files++
		if u.Over() {
			return errStopWalk
		}
		return nil
	})
	if err != nil {
		return Room{}, fmt.Errorf("measure workspace: %w", err)
	}
	if w.Quota > 0 {
		r.Bytes = max(w.Quota-u.UsedBytes, 0)
	}
	if w.MaxFiles > 0 {
		r.Files = max(w.MaxFiles-u.Files, 0)
	}
	return r, nil
}

// WouldExceed is MeasureReplacing as an install asks it (npm's
// Options.Measure): whether the workspace would pass its limits, the count
// described, and the count as a quota_exceeded failure's details.
func (w *Workspace) WouldExceed(ctx context.Context, stage string, names []string) (over bool, desc string, details map[string]any, err error) {
	u, err := w.MeasureReplacing(ctx, stage, names)
	if err != nil {
		return false, "", nil, err
	}
	return u.Over(), u.String(), u.Details(), nil
}

// FitsReplacing reports whether the workspace is within its limits once
// the directory rel is replaced by the staged one (a host-side install
// that built its new tree inside the workspace, under stage, and will
// rename it over rel): what rel holds now and stage's own directories are
// not counted. Errors: payload_too_large with the numbers, or the file
// system's.
func (w *Workspace) FitsReplacing(rel, stage string) error {
	if w.Quota <= 0 && w.MaxFiles <= 0 {
		return nil
	}
	u, err := w.count(context.Background(), false)
	if err != nil {
		return err
	}
	var freed int64
	freedFiles := 0
	if err := walk(context.Background(), filepath.Join(w.Root, rel), func(e walkEntry) error {
		freed += w.charge(e)
		freedFiles++
		return nil
	}); err != nil {
		return fmt.Errorf("measure %s: %w", rel, err)
	}
	if stage != "" {
		// The staging directory and the new tree's root go away.
		freed += 2 * w.entryBytes()
		freedFiles += 2
	}
	return w.fits(u, freed, -freedFiles, 0)
}
