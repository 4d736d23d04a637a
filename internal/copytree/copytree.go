// Package copytree copies a cached package tree (npm's and pip's content-
// addressed caches) into a workspace.
// Its File copies one file, also for a fork's workspace (vfs.CopyTo).
package copytree

import (
	"io"
	"os"
	"path/filepath"
)

// Marker is the file a cache writes last into a complete tree; it is not
// copied.
const Marker = ".complete"

// Copy copies the directories and regular files of src into dst (merging
// with what is there; files 0644, directories 0755) and returns the bytes
// copied. Links and special files are skipped, never followed: a cache
// holds none, and a workspace must not receive one.
func Copy(src, dst string) (int64, error) {
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
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		c, err := File(p, target, os.O_TRUNC, 0o644)
		n += c
		return err
	})
	return n, err
}

// File copies the file from into to, created with perm (and flag: O_TRUNC
// to replace one, O_EXCL to refuse one), and returns the bytes copied.
func File(from, to string, flag int, perm os.FileMode) (int64, error) {
	in, err := os.Open(from)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|flag, perm)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if err != nil {
		out.Close()
		return n, err
	}
	return n, out.Close()
}
