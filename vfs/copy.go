package vfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/wasmexec/wasmexec/internal/copytree"
)

// CopyTo copies the workspace's files into dst, an empty workspace (a
// fork's, or a context's made from a template): regular files,
// directories and symlinks (copied as links, never followed); anything
// else is skipped. Modes and modification times are kept: a guest's
// caches keyed by them (the JS guest's modules, Python's directory
// listings) take the copy for the original.
func (w *Workspace) CopyTo(dst *Workspace) error {
	type dirTime struct {
		path string
		t    time.Time
	}
	var dirs []dirTime
	err := filepath.WalkDir(w.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(w.Root, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		to := filepath.Join(dst.Root, rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.IsDir():
			dirs = append(dirs, dirTime{to, fi.ModTime()})
			return os.Mkdir(to, fi.Mode().Perm()|0o700)
		case fi.Mode().IsRegular():
			if _, err := copytree.File(p, to, os.O_EXCL, fi.Mode().Perm()); err != nil {
				return fmt.Errorf("copy %s: %w", filepath.Base(p), err)
			}
			return os.Chtimes(to, fi.ModTime(), fi.ModTime())
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- { // deepest first, after the writes into them
		if err := os.Chtimes(dirs[i].path, dirs[i].t, dirs[i].t); err != nil {
			return err
		}
	}
	return nil
}
