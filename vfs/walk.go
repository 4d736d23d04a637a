package vfs

import (
	"context"
	"errors"
	"io"
	"os"
	"path"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// walks counts walk calls (tests check that seeding walks once).
var walks atomic.Int64

// walkEntry is one entry found by walk: its slash path below the root and
// its lstat.
type walkEntry struct {
	rel  string
	mode uint32 // file type bits (st_mode & S_IFMT)
	size int64
	ino  uint64
}

func (e walkEntry) isDir() bool     { return e.mode == unix.S_IFDIR }
func (e walkEntry) isRegular() bool { return e.mode == unix.S_IFREG }

// errStopWalk, returned by a walk callback, ends the walk without an error.
var errStopWalk = errors.New("stop the walk")

// walkBatch is how many directory entries walk reads at a time, so that
// one huge directory costs bounded memory before fn can stop the walk.
const walkBatch = 256

// walk calls fn for every entry below dir (not dir itself), depth first,
// without ever following a symlink: each directory is opened relative to
// its parent's descriptor with O_NOFOLLOW and each entry is stat'ed with
// AT_SYMLINK_NOFOLLOW, so a guest swapping a directory for a symlink while
// the walk runs can't lead it outside the workspace. Entries removed while
// it walks are skipped; a missing dir is an empty walk. fn returning
// errStopWalk ends the walk early (nil error); ctx is checked between
// batches. Open descriptors: one per level of the current path.
func walk(ctx context.Context, dir string, fn func(walkEntry) error) error {
	walks.Add(1)
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil
		}
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	type frame struct {
		f    *os.File
		fd   int
		rel  string
		dirs []string // subdirectories found and not yet visited
		eof  bool
	}
	stack := []*frame{{f: os.NewFile(uintptr(fd), dir), fd: fd}}
	defer func() {
		for _, fr := range stack {
			fr.f.Close()
		}
	}()
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if n := len(top.dirs); n > 0 {
			name := top.dirs[n-1]
			top.dirs = top.dirs[:n-1]
			cfd, err := unix.Openat(top.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			switch {
			case err == nil:
				rel := path.Join(top.rel, name)
				stack = append(stack, &frame{f: os.NewFile(uintptr(cfd), rel), fd: cfd, rel: rel})
			case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.ELOOP):
				// removed or replaced since it was listed
			default:
				return &os.PathError{Op: "open", Path: path.Join(top.rel, name), Err: err}
			}
			continue
		}
		if top.eof {
			top.f.Close()
			stack = stack[:len(stack)-1]
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		des, err := top.f.ReadDir(walkBatch)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return err
			}
			top.eof = true
		}
		for _, de := range des {
			var st unix.Stat_t
			if err := unix.Fstatat(top.fd, de.Name(), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				if errors.Is(err, unix.ENOENT) {
					continue
				}
				return &os.PathError{Op: "lstat", Path: path.Join(top.rel, de.Name()), Err: err}
			}
			e := walkEntry{rel: path.Join(top.rel, de.Name()), mode: uint32(st.Mode) & unix.S_IFMT, size: st.Size, ino: st.Ino}
			if err := fn(e); err != nil {
				if errors.Is(err, errStopWalk) {
					return nil
				}
				return err
			}
			if e.isDir() {
				top.dirs = append(top.dirs, de.Name())
			}
		}
	}
	return nil
}
