package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/bytecodealliance/wasmtime-go/v25"
)

// Symlinks in the workspace, and the paths guests hand to WASI.
//
// wasmtime 25.0.0 resolves guest paths with cap-std, whose manual resolver
// re-appends a path's trailing slash to its last component before opening
// it with O_NOFOLLOW; a trailing slash makes the kernel follow that
// component anyway, natively and without cap-std's checks, so a symlink
// there whose target climbs with ".." leads out of the preopen
// (GHSA-vqjp-4c8c-hfgg, cap-std GHSA-hp8f-xmx4-4qrg, fixed upstream after
// 25.0.0). A trailing slash reaches that code from two places only: the end
// of a path a guest passes, and the end of a symlink target met on the way.
// So every path a guest passes to a WASI path call loses its trailing
// slashes here (their meaning, "a directory, following a final symlink", is
// kept with flags: see the shadows), and no symlink target ends in one
// (path_symlink strips them before the link is made; the file API and
// archives never make links; a cluster snapshot's links, copied from
// another node's workspace, are stripped the same way). With no trailing
// slash anywhere, the resolver never takes that path.
//
// Absolute targets: cap-std refuses to follow them, so a link made with one
// could never be used in the guest. A target inside /workspace made in the
// workspace is stored relative to the link ("/workspace/a/b" from
// /workspace/c/l is "../a/b"), which resolves to the same file in the guest
// and can't leave the workspace on the host; os.readlink then shows the
// relative form. Any other absolute target is kept as it is: a link that
// leads nowhere in the guest (cap-std won't follow it), as "/usr/lib" in an
// extracted tarball would on a machine without that directory. The host
// never follows a link in a workspace (vfs, archives, copies), so one
// naming a host path is no more than one whose ".."s climb out, which
// relative targets may already do.

// maxWasiPath bounds a path or target a guest passes (Linux's PATH_MAX).
const maxWasiPath = 4096

// Directory descriptors. cap-std confines a path relative to any directory
// descriptor to that directory's tree, where Linux only confines it to the
// preopen: os.stat("up", dir_fd=d) with "up" a link to "../x", or
// os.open("../x", dir_fd=d), fail with EPERM in WASI and work on Linux (and
// os.fwalk, which walks by descriptors, didn't follow such links). So the
// host remembers the path each descriptor was opened at, relative to
// /workspace (its own path joined to its base's, not cleaned: ".." and
// links in it are resolved again, physically, as Linux resolves them from
// the descriptor's directory), and a path_open or path_filestat_get
// relative to a directory descriptor that cap-std refuses with EPERM runs
// again relative to /workspace with the joined path. That still resolves
// inside /workspace, which cap-std confines; only a descriptor's directory
// renamed since it was opened makes the second resolution differ from
// Linux's.
const maxTrackedPath = 2 * maxWasiPath

// fdPath is the path a descriptor was opened at, relative to /workspace.
type fdPath struct {
	rel   string
	known bool
}

// pathString is the guest's path at p (n bytes), "" when out of bounds.
func (g *Guest) pathString(caller *wasmtime.Caller, p, n int32) string {
	return string(span(g.memory(caller), p, n))
}

// fdPathOf is the path of what name names relative to dirfd. It never
// ends in a slash (the joined path goes to wasmtime again: see the top)
// and is never absolute.
func (g *Guest) fdPathOf(dirfd int32, name string) fdPath {
	if name == "" || name[0] == '/' {
		return fdPath{}
	}
	var rel string
	if dirfd == g.workspaceFD && g.opts.Workspace != "" {
		rel = name
	} else if base, ok := g.shim.open[dirfd]; ok && base.known {
		rel = base.rel + "/" + name
	} else {
		return fdPath{}
	}
	rel = strings.TrimRight(rel, "/")
	if rel == "" || len(rel) > maxTrackedPath {
		return fdPath{}
	}
	return fdPath{rel: rel, known: true}
}

// workspacePath is name relative to the directory descriptor dirfd, as a
// path relative to /workspace, when dirfd is one whose path is known (not
// /workspace itself: leaving it is leaving the sandbox).
func (g *Guest) workspacePath(dirfd int32, name string) (string, bool) {
	if dirfd == g.workspaceFD {
		return "", false
	}
	p := g.fdPathOf(dirfd, name)
	return p.rel, p.known
}

// scratchLayout: the scratch shim's page holds a call's result (a
// descriptor or a filestat) at 0 and its path at scratchPathAt.
const (
	scratchPathAt = 64
	filestatSize  = 64
)

// scratchCall runs the scratch shim's f with full (relative to /workspace)
// as its path and copies the n-byte result to the guest at out.
func (g *Guest) scratchCall(caller *wasmtime.Caller, f shimFunc, full string, out int32, n int, args func(path, pathLen int32) []any) (int32, *wasmtime.Trap) {
	s := g.shim
	mem := s.scratchMem.UnsafeData(caller)
	if scratchPathAt+len(full) > len(mem) {
		return wasiErrnoNametoolong, nil
	}
	if span(g.memory(caller), out, int32(n)) == nil {
		return wasiErrnoFault, nil
	}
	copy(mem[scratchPathAt:], full)
	errno, trap := callShim(caller, s.scratch[f], f, args(scratchPathAt, int32(len(full)))...)
	if errno == 0 && trap == nil {
		copy(span(g.memory(caller), out, int32(n)), s.scratchMem.UnsafeData(caller)[:n])
	}
	return errno, trap
}

func (g *Guest) scratchPathOpen(caller *wasmtime.Caller, lookup int32, full string, oflags int32, rightsBase, rightsInheriting int64, fdflags, out int32) (int32, *wasmtime.Trap) {
	return g.scratchCall(caller, shimPathOpen, full, out, 4, func(p, n int32) []any {
		return []any{g.workspaceFD, lookup, p, n, oflags, rightsBase, rightsInheriting, fdflags, int32(0)}
	})
}

func (g *Guest) scratchPathFilestatGet(caller *wasmtime.Caller, flags int32, full string, buf int32) (int32, *wasmtime.Trap) {
	return g.scratchCall(caller, shimPathFilestatGet, full, buf, filestatSize, func(p, n int32) []any {
		return []any{g.workspaceFD, flags, p, n, int32(0)}
	})
}

const (
	wasiErrnoInval       = 28
	wasiErrnoNametoolong = 37
	wasiErrnoNoent       = 44
	wasiErrnoNotdir      = 54
	wasiErrnoExist       = 20
	wasiErrnoAcces       = 2
	wasiErrnoIo          = 29
	wasiErrnoLoop        = 32
	wasiErrnoIsdir       = 31
	wasiErrnoFault       = 21
)

// trimTrailingSlashes is n shortened so that the n bytes at p in mem no
// longer end in "/" (a path of slashes only keeps its first), and whether
// it was shortened. Out-of-bounds spans are left to wasmtime (EFAULT).
func trimTrailingSlashes(mem []byte, p, n int32) (int32, bool) {
	b := span(mem, p, n)
	if b == nil {
		return n, false
	}
	m := len(b)
	for m > 1 && b[m-1] == '/' {
		m--
	}
	return int32(m), m != len(b)
}

// pathSymlink replaces WASI path_symlink. Links are made in the workspace
// only (a descriptor other than its preopen is refused, EPERM): the target
// loses its trailing slashes, an absolute one inside /workspace becomes
// relative (see above), and the link is made through an os.Root on the
// workspace.
func (g *Guest) pathSymlink(caller *wasmtime.Caller, oldPath, oldLen, fd, newPath, newLen int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_symlink", &trap)
	if fd != g.workspaceFD || g.opts.Workspace == "" {
		return wasiErrnoPerm, nil
	}
	if oldLen < 0 || oldLen > maxWasiPath || newLen < 0 || newLen > maxWasiPath {
		return wasiErrnoNametoolong, nil
	}
	mem := g.memory(caller)
	oldLen, _ = trimTrailingSlashes(mem, oldPath, oldLen)
	newLen, _ = trimTrailingSlashes(mem, newPath, newLen)
	target, link := span(mem, oldPath, oldLen), span(mem, newPath, newLen)
	if target == nil || link == nil {
		return wasiErrnoFault, nil
	}
	if len(target) == 0 || len(link) == 0 || bytes.IndexByte(target, 0) >= 0 || bytes.IndexByte(link, 0) >= 0 {
		return wasiErrnoInval, nil
	}
	t := string(target)
	if rel, ok := workspaceRelative(t, string(link)); ok && t[0] == '/' {
		t = rel
	}
	root, err := os.OpenRoot(g.opts.Workspace)
	if err != nil {
		return wasiErrnoIo, nil
	}
	defer root.Close()
	return wasiErrno(root.Symlink(t, string(link))), nil
}

// The shadows of the other path calls: each trims its paths and keeps what
// the trailing slash meant where wasmtime's call can be told (a directory
// is required, a final symlink followed); where it can't, the call is
// refused as Linux would refuse it for a path to a file.

// shimCall forwards a shadowed call to wasmtime's implementation.
func (g *Guest) shimCall(caller *wasmtime.Caller, f shimFunc, args ...any) (int32, *wasmtime.Trap) {
	return callShim(caller, g.shim.funcs[f], f, args...)
}

const (
	wasiLookupSymlinkFollow = 1 << 0
	wasiOflagsCreat         = 1 << 0
	wasiOflagsDirectory     = 1 << 1
	wasiFiletypeDirectory   = 3
	filestatFiletypeOffset  = 16 // dev u64, ino u64, filetype u8
)

// pathDirectory is path_create_directory or path_remove_directory (f):
// "x/" and "x" name the same directory.
func (g *Guest) pathDirectory(c *wasmtime.Caller, f shimFunc, fd, p, n int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked(shimFuncs[f].name, &trap)
	if g.shim == nil {
		return wasiErrnoBadf, nil
	}
	n, _ = trimTrailingSlashes(g.memory(c), p, n)
	return g.shimCall(c, f, fd, p, n)
}

// pathUnlinkFile: "x/" names a directory, which unlink never removes.
func (g *Guest) pathUnlinkFile(c *wasmtime.Caller, fd, p, n int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_unlink_file", &trap)
	if g.shim == nil {
		return wasiErrnoBadf, nil
	}
	if _, trimmed := trimTrailingSlashes(g.memory(c), p, n); trimmed {
		return wasiErrnoNotdir, nil
	}
	return g.shimCall(c, shimPathUnlinkFile, fd, p, n)
}

// pathFilestatGet: "x/" follows x and must be a directory.
func (g *Guest) pathFilestatGet(c *wasmtime.Caller, fd, flags, p, n, buf int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_filestat_get", &trap)
	if g.shim == nil {
		return wasiErrnoBadf, nil
	}
	n, trimmed := trimTrailingSlashes(g.memory(c), p, n)
	if trimmed {
		flags |= wasiLookupSymlinkFollow
	}
	errno, trap = g.shimCall(c, shimPathFilestatGet, fd, flags, p, n, buf)
	if errno == wasiErrnoPerm && trap == nil {
		if full, ok := g.workspacePath(fd, g.pathString(c, p, n)); ok {
			errno, trap = g.scratchPathFilestatGet(c, flags, full, buf)
		}
	}
	if trimmed && errno == 0 && trap == nil {
		if ft := span(g.memory(c), buf+filestatFiletypeOffset, 1); ft == nil || ft[0] != wasiFiletypeDirectory {
			return wasiErrnoNotdir, nil
		}
	}
	return errno, trap
}

func (g *Guest) pathFilestatSetTimes(c *wasmtime.Caller, fd, flags, p, n int32, atim, mtim int64, fst int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_filestat_set_times", &trap)
	if g.shim == nil {
		return wasiErrnoBadf, nil
	}
	n, trimmed := trimTrailingSlashes(g.memory(c), p, n)
	if trimmed {
		flags |= wasiLookupSymlinkFollow
	}
	return g.shimCall(c, shimPathFilestatSetTimes, fd, flags, p, n, atim, mtim, fst)
}

// pathLink: a hard link is never made to or at a directory.
func (g *Guest) pathLink(c *wasmtime.Caller, oldFD, oldFlags, oldPath, oldLen, newFD, newPath, newLen int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_link", &trap)
	if g.shim == nil {
		return wasiErrnoBadf, nil
	}
	mem := g.memory(c)
	_, t1 := trimTrailingSlashes(mem, oldPath, oldLen)
	_, t2 := trimTrailingSlashes(mem, newPath, newLen)
	if t1 || t2 {
		return wasiErrnoNotdir, nil
	}
	return g.shimCall(c, shimPathLink, oldFD, oldFlags, oldPath, oldLen, newFD, newPath, newLen)
}

// pathReadlink: "x/" is what x leads to, never a link itself.
func (g *Guest) pathReadlink(c *wasmtime.Caller, fd, p, n, buf, bufLen, used int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_readlink", &trap)
	if g.shim == nil {
		return wasiErrnoBadf, nil
	}
	n, trimmed := trimTrailingSlashes(g.memory(c), p, n)
	errno, trap = g.shimCall(c, shimPathReadlink, fd, p, n, buf, bufLen, used)
	if errno == wasiErrnoPerm && trap == nil && !trimmed {
		errno = g.readAbsoluteLink(c, fd, g.pathString(c, p, n), buf, bufLen, used)
	}
	if trimmed && errno == 0 && trap == nil {
		return wasiErrnoInval, nil
	}
	return errno, trap
}

// readAbsoluteLink reads a link cap-std won't (its target is absolute) on
// the host, through an os.Root on the workspace, into the guest's buffer
// (cut at bufLen, as readlink does).
func (g *Guest) readAbsoluteLink(c *wasmtime.Caller, fd int32, name string, buf, bufLen, used int32) int32 {
	var rel string
	if fd == g.workspaceFD && g.opts.Workspace != "" {
		rel = name
	} else if p, ok := g.workspacePath(fd, name); ok {
		rel = p
	} else {
		return wasiErrnoPerm
	}
	root, err := os.OpenRoot(g.opts.Workspace)
	if err != nil {
		return wasiErrnoIo
	}
	defer root.Close()
	target, err := root.Readlink(rel)
	if err != nil {
		return wasiErrno(err)
	}
	if !strings.HasPrefix(target, "/") {
		return wasiErrnoPerm // not what cap-std refused: leave its answer
	}
	mem := g.memory(c)
	dst, n := span(mem, buf, bufLen), span(mem, used, 4)
	if dst == nil || n == nil {
		return wasiErrnoFault
	}
	k := copy(dst, target)
	binary.LittleEndian.PutUint32(n, uint32(k))
	return 0
}

func (g *Guest) pathRename(c *wasmtime.Caller, fd, oldPath, oldLen, newFD, newPath, newLen int32) (errno int32, trap *wasmtime.Trap) {
	defer g.hostPanicked("path_rename", &trap)
	if g.shim == nil {
		return wasiErrnoBadf, nil
	}
	mem := g.memory(c)
	oldLen, _ = trimTrailingSlashes(mem, oldPath, oldLen)
	newLen, _ = trimTrailingSlashes(mem, newPath, newLen)
	return g.shimCall(c, shimPathRename, fd, oldPath, oldLen, newFD, newPath, newLen)
}

// workspaceRelative is target (absolute, in the guest's view) as a path
// relative to the directory of link (relative to /workspace), when target
// is /workspace or inside it and link stays inside it.
func workspaceRelative(target, link string) (string, bool) {
	t := path.Clean(target)
	if t != "/workspace" && !strings.HasPrefix(t, "/workspace/") {
		return "", false
	}
	l := path.Clean("/workspace/" + link)
	if !strings.HasPrefix(l, "/workspace/") {
		return "", false
	}
	rel, err := filepath.Rel(path.Dir(l), t)
	return rel, err == nil
}

// wasiErrno maps a host error from the workspace's os.Root to a WASI errno.
func wasiErrno(err error) int32 {
	if err == nil {
		return 0
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		switch {
		case errors.Is(err, fs.ErrExist):
			return wasiErrnoExist
		case errors.Is(err, fs.ErrNotExist):
			return wasiErrnoNoent
		}
		// os.Root's own refusal to leave the root.
		return wasiErrnoPerm
	}
	switch errno {
	case syscall.EEXIST:
		return wasiErrnoExist
	case syscall.ENOENT:
		return wasiErrnoNoent
	case syscall.ENOTDIR:
		return wasiErrnoNotdir
	case syscall.EACCES, syscall.EROFS:
		return wasiErrnoAcces
	case syscall.ELOOP:
		return wasiErrnoLoop
	case syscall.ENAMETOOLONG:
		return wasiErrnoNametoolong
	case syscall.EISDIR:
		return wasiErrnoIsdir
	case syscall.EPERM:
		return wasiErrnoPerm
	}
	return wasiErrnoIo
}
