package vfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Snapshot records what a workspace held at one moment: for each entry its
// inode, type and size (no contents). Taking one costs a directory walk.
// Rollback uses it to undo the bytes a run added.
type Snapshot struct {
	entries map[string]snapEntry
	usage   int64
}

type snapEntry struct {
	ino  uint64
	mode uint32 // file type bits
	size int64
}

// Usage returns the bytes the workspace held when the snapshot was taken,
// as its quota counts them (Limits.Quota).
func (s *Snapshot) Usage() int64 { return s.usage }

// Files returns the number of entries when the snapshot was taken.
func (s *Snapshot) Files() int { return len(s.entries) }

// Snapshot walks the workspace (never following symlinks).
func (w *Workspace) Snapshot() (*Snapshot, error) {
	s := &Snapshot{entries: map[string]snapEntry{}}
	err := walk(context.Background(), w.Root, func(e walkEntry) error {
		s.entries[e.rel] = snapEntry{ino: e.ino, mode: e.mode, size: e.size}
		s.usage += w.charge(e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot workspace: %w", err)
	}
	return s, nil
}

// RollbackReport lists what Rollback undid.
type RollbackReport struct {
	// Removed are entries that did not exist in the snapshot (or were
	// replaced by a different file).
	Removed []string `json:"removed,omitempty"`
	// Truncated are files that existed and grew: cut back to their size in
	// the snapshot.
	Truncated []string `json:"truncated,omitempty"`
	// UsedBytes is the usage after the rollback.
	UsedBytes int64 `json:"usedBytes"`
}

// Rollback removes the bytes added since s: entries created since (files,
// symlinks, directories) are removed and files that grew are truncated back
// to their earlier size. It can't restore contents changed in place (no
// copies are kept): a file rewritten with more bytes keeps the first bytes
// of its new content. keep, when set, exempts paths (e.g. files a client
// uploaded meanwhile).
func (w *Workspace) Rollback(s *Snapshot, keep func(rel string) bool) (*RollbackReport, error) {
	type item struct {
		walkEntry
		prev snapEntry
		seen bool
	}
	var items []item
	if err := walk(context.Background(), w.Root, func(e walkEntry) error {
		prev, seen := s.entries[e.rel]
		items = append(items, item{e, prev, seen})
		return nil
	}); err != nil {
		return nil, fmt.Errorf("roll back workspace: %w", err)
	}
	root, err := os.OpenRoot(w.Root)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	defer root.Close()
	rep := &RollbackReport{}
	var errs []error
	var newDirs []string
	for _, it := range items {
		if keep != nil && keep(it.rel) {
			continue
		}
		replaced := !it.seen || it.prev.ino != it.ino || it.prev.mode != it.mode
		switch {
		case replaced && it.isDir():
			newDirs = append(newDirs, it.rel)
		case replaced:
			if err := root.Remove(it.rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			rep.Removed = append(rep.Removed, it.rel)
		case it.isRegular() && it.size > it.prev.size:
			f, err := root.OpenFile(it.rel, os.O_WRONLY, 0)
			if err == nil {
				err = f.Truncate(it.prev.size)
				f.Close()
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			rep.Truncated = append(rep.Truncated, it.rel)
		}
	}
	// Deepest directories first; one still holding kept files stays.
	slices.SortFunc(newDirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, d := range newDirs {
		if err := root.Remove(d); err == nil {
			rep.Removed = append(rep.Removed, d+"/")
		}
	}
	slices.Sort(rep.Removed)
	rep.UsedBytes, err = w.Usage()
	errs = append(errs, err)
	return rep, errors.Join(errs...)
}
