package vfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wasmexec/wasmexec/internal/copytree"
)

// CopyTo copies the workspace's files into dst, an empty workspace (a
// fork's): regular files, directories and symlinks (copied as links, never
// followed); anything else is skipped. Modes are kept, times are not.
func (w *Workspace) CopyTo(dst *Workspace) error {
	return filepath.WalkDir(w.Root, func(p string, d fs.DirEntry, err error) error {
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
			return os.Mkdir(to, fi.Mode().Perm()|0o700)
		case fi.Mode().IsRegular():
			if _, err := copytree.File(p, to, os.O_EXCL, fi.Mode().Perm()); err != nil {
				return fmt.Errorf("copy %s: %w", filepath.Base(p), err)
			}
			return nil
		}
		return nil
	})
}
