package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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
	mode fs.FileMode // type bits
	size int64
}

// Usage returns the bytes of regular files when the snapshot was taken.
func (s *Snapshot) Usage() int64 { return s.usage }

// Snapshot walks the workspace (never following symlinks).
func (w *Workspace) Snapshot() (*Snapshot, error) {
	s := &Snapshot{entries: map[string]snapEntry{}}
	err := w.walk(func(rel string, fi fs.FileInfo) {
		e := snapEntry{mode: fi.Mode().Type(), size: fi.Size()}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			e.ino = st.Ino
		}
		s.entries[rel] = e
		if fi.Mode().IsRegular() {
			s.usage += fi.Size()
		}
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// walk calls fn for every entry below the root with its slash path.
func (w *Workspace) walk(fn func(rel string, fi fs.FileInfo)) error {
	return filepath.WalkDir(w.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if p == w.Root {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // removed while we walked
		}
		r, _ := filepath.Rel(w.Root, p)
		fn(filepath.ToSlash(r), fi)
		return nil
	})
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
		rel  string
		fi   fs.FileInfo
		prev snapEntry
		seen bool
	}
	var items []item
	if err := w.walk(func(rel string, fi fs.FileInfo) {
		prev, seen := s.entries[rel]
		items = append(items, item{rel, fi, prev, seen})
	}); err != nil {
		return nil, err
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
		var ino uint64
		if st, ok := it.fi.Sys().(*syscall.Stat_t); ok {
			ino = st.Ino
		}
		replaced := !it.seen || it.prev.ino != ino || it.prev.mode != it.fi.Mode().Type()
		switch {
		case replaced && it.fi.IsDir():
			newDirs = append(newDirs, it.rel)
		case replaced:
			if err := root.Remove(it.rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			rep.Removed = append(rep.Removed, it.rel)
		case it.fi.Mode().IsRegular() && it.fi.Size() > it.prev.size:
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
