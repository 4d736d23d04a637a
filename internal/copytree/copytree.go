// Package copytree copies a cached package tree (npm's and pip's content-
// addressed caches) into a workspace.
// Its File copies one file, also for a fork's workspace (vfs.CopyTo).
package copytree

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Marker is the file a cache writes last into a complete tree; it is not
// copied.
const Marker = ".complete"

// Copy copies the directories and regular files of src into dst (merging
// with what is there; files 0644, directories 0755) and returns the bytes
// copied. Links and special files are skipped, never followed: a cache
// holds none, and a workspace must not receive one.
func Copy(src, dst string) (int64, error) {
	return CopyCharged(src, dst, nil)
}

// CopyCharged is Copy that calls charge (when not nil) before it creates
// each directory (dir true, size 0) or file (its size in src) and stops
// at the first error charge returns, before writing that entry: what a
// quota that counts as it copies needs, so that a tree too big for it
// costs at most the part that fits. A file is copied up to the size it
// was charged for; one that grew meanwhile is an error.
func CopyCharged(src, dst string, charge func(dir bool, size int64) error) (int64, error) {
	var n int64
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || rel == Marker {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if charge != nil {
				if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
					if err := charge(true, 0); err != nil {
						return err
					}
				}
			}
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		size := int64(-1)
		if charge != nil {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			size = fi.Size()
			if err := charge(false, size); err != nil {
				return err
			}
		}
		c, err := copyFile(p, target, os.O_TRUNC, 0o644, size)
		n += c
		return err
	})
	return n, err
}

// CopyTimes is Copy that also gives every file and directory it makes the
// modification time of its source: a copy a guest's caches must take for
// the original (a template's workspace: the JS guest keeps a module while
// its file's size and mtime are unchanged, Python its directory listings
// while the directory's mtime is).
func CopyTimes(src, dst string) (int64, error) {
	var n int64
	type dirTime struct {
		path string
		t    time.Time
	}
	var dirs []dirTime
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || rel == Marker {
			return err
		}
		target := filepath.Join(dst, rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, dirTime{target, fi.ModTime()})
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		c, err := copyFile(p, target, os.O_TRUNC, 0o644, -1)
		n += c
		if err != nil {
			return err
		}
		return os.Chtimes(target, fi.ModTime(), fi.ModTime())
	})
	if err != nil {
		return n, err
	}
	// Deepest first: setting a directory's time must follow the writes
	// into it, its subdirectories' included.
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := os.Chtimes(dirs[i].path, dirs[i].t, dirs[i].t); err != nil {
			return n, err
		}
	}
	return n, nil
}

// File copies the file from into to, created with perm (and flag: O_TRUNC
// to replace one, O_EXCL to refuse one), and returns the bytes copied.
func File(from, to string, flag int, perm os.FileMode) (int64, error) {
	return copyFile(from, to, flag, perm, -1)
}

// copyFile is File copying at most max bytes (negative: all), an error
// when from holds more.
func copyFile(from, to string, flag int, perm os.FileMode, max int64) (int64, error) {
	in, err := os.Open(from)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|flag, perm)
	if err != nil {
		return 0, err
	}
	var r io.Reader = in
	if max >= 0 {
		r = io.LimitReader(in, max)
	}
	n, err := io.Copy(out, r)
	if err == nil && max >= 0 {
		if k, _ := in.Read(make([]byte, 1)); k > 0 {
			err = fmt.Errorf("copy %s: it grew past the %d bytes it had", from, max)
		}
	}
	if err != nil {
		out.Close()
		return n, err
	}
	return n, out.Close()
}
