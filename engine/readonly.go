package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Read-only image directories.
//
// An image's preopens (the CPython stdlib) live in the image cache that
// every clone, test run and server on the host shares, and wasmtime-go
// v25's preopens are read-write (its C API takes no directory or file
// permissions). The CPython guest guards them from inside (its fsguard and
// audit hook), but that guard lives in guest memory: a memory-safety bug in
// the interpreter would let a program rewrite the driver and backdoor every
// later run. So guests never see the cache itself: each engine gives them a
// view of every image preopen that the kernel keeps read-only.
//
//  1. A read-only bind mount of the image directory (needs CAP_SYS_ADMIN,
//     as the root servers here have). Writes fail with EROFS whoever the
//     server runs as, and nothing a guest can call through WASI undoes it.
//  2. Otherwise a copy whose files are 0444 and directories 0555. The
//     kernel enforces the modes against a non-root server (WASI has no
//     chmod); a root server ignores them (CAP_DAC_OVERRIDE), which is
//     logged as a warning: then only the in-guest guard stands between a
//     compromised interpreter and this server's copy, and the shared cache
//     stays out of reach.
//
// Views live in CACHE_DIR/ro/PID-*, one directory per engine, and are
// removed by Engine.Close. A server killed with SIGKILL leaves its own; the
// next engine using the same cache directory unmounts and removes those of
// processes that are gone.

const (
	viewMount = "read-only bind mount"
	viewCopy  = "read-only copy"
)

type imageViews struct {
	base string // CACHE_DIR/ro/PID-xxxx, symlinks resolved
	made []imageView
}

type imageView struct {
	dir, how string
}

// preopenDir is the host directory a guest gets for the image preopen rel.
func (img *Image) preopenDir(rel string) string {
	if d, ok := img.views[rel]; ok {
		return d
	}
	return filepath.Join(img.Dir, rel)
}

// viewKind says how the preopen rel is kept read-only ("" when it isn't).
func (img *Image) viewKind(rel string) string {
	d, ok := img.views[rel]
	if !ok {
		return ""
	}
	img.engine.hard.viewsMu.Lock()
	defer img.engine.hard.viewsMu.Unlock()
	for _, v := range img.engine.hard.views.made {
		if v.dir == d {
			return v.how
		}
	}
	return ""
}

// readOnlyPreopens gives img a read-only view of each of its preopens. A
// preopen without one stays the image's own directory, guarded only from
// inside the guest; that is logged as an error.
func (e *Engine) readOnlyPreopens(img *Image) {
	for _, rel := range sortedKeys(img.Spec.Preopens) {
		src := filepath.Join(img.Dir, rel)
		v, mountErr, err := e.makeView(src)
		if err != nil {
			e.log.Error("guests can write this image directory: no read-only view could be made (only the guest's own guard protects it)", "image", img.Spec.Name, "dir", src, "mountErr", mountErr, "err", err)
			continue
		}
		if img.views == nil {
			img.views = map[string]string{}
		}
		img.views[rel] = v.dir
		switch {
		case v.how == viewMount:
			e.log.Info("image directory shared with guests read-only", "image", img.Spec.Name, "dir", src, "view", v.dir, "how", v.how)
		case os.Geteuid() == 0:
			e.log.Warn("image directory copied read-only, but the server runs as root, which ignores file modes: allow mounts (CAP_SYS_ADMIN) or run as a non-root user", "image", img.Spec.Name, "dir", src, "view", v.dir, "mountErr", mountErr)
		default:
			e.log.Info("image directory shared with guests as a read-only copy", "image", img.Spec.Name, "dir", src, "view", v.dir, "mountErr", mountErr)
		}
	}
}

// makeView makes one read-only view of src: a mount if the kernel lets us,
// else a copy.
func (e *Engine) makeView(src string) (v imageView, mountErr, err error) {
	h := &e.hard
	h.viewsMu.Lock()
	defer h.viewsMu.Unlock()
	if src, err = filepath.EvalSymlinks(src); err != nil {
		return v, nil, err
	}
	if h.views == nil {
		root := filepath.Join(e.cfg.CacheDir, "ro")
		if err := os.MkdirAll(root, 0o755); err != nil {
			return v, nil, err
		}
		sweepStaleViews(root, e)
		base, err := os.MkdirTemp(root, strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			return v, nil, err
		}
		if base, err = filepath.EvalSymlinks(base); err != nil {
			return v, nil, err
		}
		h.views = &imageViews{base: base}
	}
	v.dir = filepath.Join(h.views.base, fmt.Sprintf("view-%d", len(h.views.made)))
	if err := os.Mkdir(v.dir, 0o755); err != nil {
		return v, nil, err
	}
	if mountErr = mountReadOnly(src, v.dir); mountErr == nil {
		v.how = viewMount
	} else if err = copyReadOnly(src, v.dir); err == nil {
		v.how = viewCopy
	} else {
		removeView(v.dir)
		return v, mountErr, err
	}
	h.views.made = append(h.views.made, v)
	return v, mountErr, nil
}

// releaseViews removes the engine's views; guests must be closed first.
func (e *Engine) releaseViews() error {
	h := &e.hard
	h.viewsMu.Lock()
	defer h.viewsMu.Unlock()
	if h.views == nil {
		return nil
	}
	var errs []error
	for _, v := range h.views.made {
		if err := removeView(v.dir); err != nil {
			errs = append(errs, err)
		}
	}
	if err := os.Remove(h.views.base); err != nil {
		errs = append(errs, err)
	}
	h.views = nil
	return errors.Join(errs...)
}

// removeView unmounts dir if it is a mount point and removes it. It never
// removes anything below a directory that is still mounted: that would be
// the image itself.
func removeView(dir string) error {
	unmount(dir)
	if isMounted(dir) {
		return fmt.Errorf("remove read-only view %s: still mounted", dir)
	}
	makeWritable(dir)
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove read-only view: %w", err)
	}
	return nil
}

// sweepStaleViews removes the views of servers that died without closing
// their engine (SIGKILL, a crash). Views of live processes are left alone,
// including other engines of this one.
func sweepStaleViews(root string, e *Engine) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, ent := range entries {
		pidText, _, ok := strings.Cut(ent.Name(), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		base := filepath.Join(root, ent.Name())
		views, _ := os.ReadDir(base)
		failed := false
		for _, v := range views {
			if err := removeView(filepath.Join(base, v.Name())); err != nil {
				e.log.Warn("could not remove a stale read-only image view", "dir", filepath.Join(base, v.Name()), "err", err)
				failed = true
			}
		}
		if !failed {
			os.Remove(base)
		}
	}
}

// copyReadOnly copies the tree src to dst (which exists), making files 0444
// and directories 0555. Images hold only directories and regular files;
// anything else is refused.
func copyReadOnly(src, dst string) error {
	var dirs []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			dirs = append(dirs, target)
			if rel == "." {
				return nil
			}
			return os.Mkdir(target, 0o755)
		case d.Type().IsRegular():
			return copyFileReadOnly(p, target)
		default:
			return fmt.Errorf("%s is neither a directory nor a regular file", p)
		}
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := os.Chmod(dirs[i], 0o555); err != nil {
			return err
		}
	}
	return nil
}

func copyFileReadOnly(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// makeWritable gives the owner write access to every directory below dir,
// so that a read-only copy can be removed by a non-root server.
func makeWritable(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}
