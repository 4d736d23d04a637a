// Package vfs manages workspaces: host directories mounted into guests at
// /workspace. It confines every path a client names to its workspace and
// bounds what a workspace holds (Limits: a byte quota that also charges
// directories and empty files, a file count) and what one call may cost (a
// read cap, a seed cap).
//
// Confinement is two layers deep. Clean rejects what a client path must
// never contain (NUL bytes, "..", absolute paths outside /workspace, over-long
// names) with invalid_argument; resolve then refuses any symlink on the way
// (a guest could have planted one), also invalid_argument. The I/O itself
// goes through an os.Root opened on the workspace, so even a symlink swapped
// in between the check and the use can't lead outside: the kernel-level
// walk of os.Root refuses to leave the root.
//
// Symlinks a guest makes (WASI lets it use any relative target, even "..")
// stay in the workspace as entries (Stat and List show them, Delete removes
// the link itself) but the file API never follows one, and inside the guest
// WASI follows one only while it stays within /workspace.
//
// Error codes: invalid_argument (bad path, symlink, not a regular file or
// directory), not_found (absent), conflict (a directory is in the way),
// payload_too_large (over the quota or the file limit, a file over the read
// cap, too many files to seed).
//
// Size: paths, quotas, snapshots and rollback all act on one workspace tree;
// each file is one of them.
package vfs

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/wasmexec/wasmexec"
)

// Limits on client paths (Linux's).
const (
	MaxPathBytes = 4096
	MaxNameBytes = 255
)

// Workspace is one directory tree owned by a context or a one-shot run. A
// Workspace{Root: dir} has no quota and no file limit, and the default read
// and seed caps.
type Workspace struct {
	Root string
	Limits
	// cache keeps the usage between file calls (TrackUsage), nil: count
	// at every call.
	cache *usageCache
}

// Manager creates and removes workspaces under one root directory, all
// with the same limits.
type Manager struct {
	root   string
	limits Limits
	// lock is held by a scratch manager (OpenScratch) on its own directory.
	lock *os.File
}

// NewManager returns a Manager keeping workspaces under root, with a byte
// quota (0: none) and the default other limits (DefaultLimits).
func NewManager(root string, quota int64) (*Manager, error) {
	l := DefaultLimits()
	l.Quota = quota
	return NewManagerLimits(root, l)
}

// NewManagerLimits returns a Manager keeping workspaces under root with
// limits l (invalid_argument when l is invalid).
func NewManagerLimits(root string, l Limits) (*Manager, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace root: %w", err)
	}
	return &Manager{root: root, limits: l}, nil
}

// Root returns the directory the manager keeps workspaces in.
func (m *Manager) Root() string { return m.root }

// Quota returns the byte quota of the workspaces this manager creates.
func (m *Manager) Quota() int64 { return m.limits.Quota }

// Limits returns the limits of the workspaces this manager creates.
func (m *Manager) Limits() Limits { return m.limits }

// Workspace returns the workspace at dir with the manager's limits.
func (m *Manager) Workspace(dir string) *Workspace {
	return &Workspace{Root: dir, Limits: m.limits}
}

// New creates an empty workspace with a fresh name (prefix helps debugging).
func (m *Manager) New(prefix string) (*Workspace, error) {
	var b [8]byte
	rand.Read(b[:])
	dir := filepath.Join(m.root, prefix+"-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	return m.Workspace(dir), nil
}

// RemoveStale removes every workspace whose name starts with prefix + "-"
// (left behind by a crash: workspaces don't outlive their owner). It returns
// how many it removed.
func (m *Manager) RemoveStale(prefix string) (int, error) {
	return m.RemoveStaleExcept(prefix, nil)
}

// Adopt returns the existing workspace named name (a directory directly
// under the root, e.g. one a durable context kept across a restart).
func (m *Manager) Adopt(name string) (*Workspace, error) {
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." {
		return nil, fmt.Errorf("workspace name %q is not a plain name", name)
	}
	dir := filepath.Join(m.root, name)
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace %s is not a directory", name)
	}
	return m.Workspace(dir), nil
}

// RemoveStaleExcept is RemoveStale keeping the workspaces named in keep
// (those of durable contexts).
func (m *Manager) RemoveStaleExcept(prefix string, keep map[string]bool) (int, error) {
	des, err := os.ReadDir(m.root)
	if err != nil {
		return 0, fmt.Errorf("list workspaces: %w", err)
	}
	n := 0
	var errs []error
	for _, de := range des {
		if !de.IsDir() || !strings.HasPrefix(de.Name(), prefix+"-") || keep[de.Name()] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(m.root, de.Name())); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// Remove deletes the workspace and everything in it.
func (w *Workspace) Remove() error { return os.RemoveAll(w.Root) }

// Clean normalizes a client path (relative to the workspace, or absolute
// under /workspace) and rejects anything that would leave it: "..", NUL
// bytes, other absolute paths, names longer than the file system allows.
// It returns a slash path without a leading slash; "" is the workspace
// itself. Errors are invalid_argument.
func Clean(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", wasmexec.Errorf(wasmexec.EInvalid, "path contains a NUL byte")
	}
	if len(p) > MaxPathBytes {
		return "", wasmexec.Errorf(wasmexec.EInvalid, "path is longer than %d bytes", MaxPathBytes)
	}
	if strings.HasPrefix(p, "/workspace/") || p == "/workspace" {
		p = strings.TrimPrefix(p, "/workspace")
	} else if strings.HasPrefix(p, "/") {
		return "", wasmexec.Errorf(wasmexec.EInvalid, "absolute path %q is outside /workspace", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", wasmexec.Errorf(wasmexec.EInvalid, "path %q leaves the workspace", p)
		}
		if len(part) > MaxNameBytes {
			return "", wasmexec.Errorf(wasmexec.EInvalid, "a path component is longer than %d bytes", MaxNameBytes)
		}
	}
	c := strings.TrimPrefix(path.Clean("/"+p), "/")
	return c, nil
}

// rel turns a clean path into a name for os.Root ("." is the root).
func rel(clean string) string {
	if clean == "" {
		return "."
	}
	return clean
}

// resolve checks a clean path against symlinks: none may appear on the way,
// nor (unless allowFinalLink) as the final component. It returns the Lstat
// of the final component, or nil when it does not exist.
func (w *Workspace) resolve(root *os.Root, clean string, allowFinalLink bool) (fs.FileInfo, error) {
	fi, _, err := w.resolveDepth(root, clean, allowFinalLink)
	return fi, err
}

// resolveDepth is resolve that also returns how many leading components of
// clean exist (all of them when fi is not nil).
func (w *Workspace) resolveDepth(root *os.Root, clean string, allowFinalLink bool) (fs.FileInfo, int, error) {
	if clean == "" {
		fi, err := root.Lstat(".")
		return fi, 0, err
	}
	parts := strings.Split(clean, "/")
	for i := range parts {
		name := strings.Join(parts[:i+1], "/")
		fi, err := root.Lstat(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, i, nil
			}
			if errors.Is(err, syscall.ENOTDIR) {
				return nil, 0, wasmexec.Errorf(wasmexec.EConflict, "%q is not a directory", strings.Join(parts[:i], "/"))
			}
			return nil, 0, fsError(err, clean)
		}
		last := i == len(parts)-1
		if fi.Mode()&fs.ModeSymlink != 0 && !(last && allowFinalLink) {
			return nil, 0, wasmexec.Errorf(wasmexec.EInvalid, "path %q goes through a symlink", name)
		}
		if !last && !fi.IsDir() {
			return nil, 0, wasmexec.Errorf(wasmexec.EConflict, "%q is not a directory", name)
		}
		if last {
			return fi, len(parts), nil
		}
	}
	return nil, len(parts), nil
}

// open cleans p and opens the workspace root.
func (w *Workspace) open(p string) (*os.Root, string, error) {
	clean, err := Clean(p)
	if err != nil {
		return nil, "", err
	}
	root, err := openRoot(w.Root)
	if err != nil {
		return nil, "", err
	}
	return root, clean, nil
}

func openRoot(dir string) (*os.Root, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	return root, nil
}

// fsError turns a file-system error into a client error where one fits
// (an escape caught by os.Root is a bad path, not a server failure).
func fsError(err error, clean string) error {
	var coded *wasmexec.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &coded):
		return err
	case errors.Is(err, fs.ErrNotExist):
		return wasmexec.Errorf(wasmexec.ENotFound, "no file %q in the workspace", clean)
	case errors.Is(err, syscall.ENOTDIR):
		return wasmexec.Errorf(wasmexec.EConflict, "a component of %q is not a directory", clean)
	case errors.Is(err, syscall.EISDIR):
		return wasmexec.Errorf(wasmexec.EConflict, "%q is a directory", clean)
	case errors.Is(err, syscall.ELOOP), strings.Contains(err.Error(), "escapes from parent"), strings.Contains(err.Error(), "path escapes"):
		return wasmexec.Errorf(wasmexec.EInvalid, "path %q leaves the workspace", clean)
	case errors.Is(err, syscall.ENAMETOOLONG):
		return wasmexec.Errorf(wasmexec.EInvalid, "path %q is too long", clean)
	}
	return err
}

// WriteFile writes data at p, creating parent directories, within the
// workspace's limits: payload_too_large when the quota or the file limit
// would be passed, counting the parent directories it creates. The file is
// replaced atomically: a guest never sees half of it.
func (w *Workspace) WriteFile(p string, data []byte) error {
	root, clean, err := w.open(p)
	if err != nil {
		return err
	}
	defer root.Close()
	if clean == "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "a file path is required")
	}
	fi, depth, err := w.resolveDepth(root, clean, false)
	if err != nil {
		return err
	}
	if fi != nil && fi.IsDir() {
		return wasmexec.Errorf(wasmexec.EConflict, "%q is a directory", clean)
	}
	var freed, more int64
	added := 0
	if fi != nil {
		freed = w.chargeInfo(fi)
	} else {
		added = strings.Count(clean, "/") + 1 - depth // the file and its missing parents
	}
	more = w.charge(walkEntry{mode: syscall.S_IFREG, size: int64(len(data))}) + int64(max(added-1, 0))*w.entryBytes()
	if w.limited() {
		u, err := w.usage(context.Background())
		if err != nil {
			return err
		}
		if err := w.fits(u, freed, added, more); err != nil {
			return err
		}
	}
	if err := writeAtomic(root, clean, data); err != nil {
		return err
	}
	w.changed(more-freed, added)
	return nil
}

// chargeInfo is Limits.charge of an Lstat result.
func (w *Workspace) chargeInfo(fi fs.FileInfo) int64 {
	if fi.Mode().IsRegular() && fi.Size() > 0 {
		return fi.Size()
	}
	return w.entryBytes()
}

// fits checks a change against the limits: usage u, minus freed bytes,
// plus files more entries holding more bytes. payload_too_large when
// it doesn't fit, or when u already passed a limit (Check stopped early).
func (w *Workspace) fits(u Usage, freed int64, files int, more int64) error {
	if u.Partial {
		return wasmexec.Errorf(wasmexec.ETooLarge, "the workspace is already over its limits (%s); delete files first", u)
	}
	if used := u.UsedBytes - freed; w.Quota > 0 && used+more > w.Quota {
		return wasmexec.Errorf(wasmexec.ETooLarge, "workspace quota of %d bytes exceeded (%d used, %d more requested)", w.Quota, used, more)
	}
	if w.MaxFiles > 0 && u.Files+files > w.MaxFiles {
		return wasmexec.Errorf(wasmexec.ETooLarge, "workspace limit of %d files exceeded (%d used, %d more requested)", w.MaxFiles, u.Files, files)
	}
	return nil
}

// writeAtomic writes data at clean through a temporary file renamed into
// place, creating parent directories.
func writeAtomic(root *os.Root, clean string, data []byte) error {
	if dir := path.Dir(clean); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return fsError(fmt.Errorf("create parent directories: %w", err), clean)
		}
	}
	var b [6]byte
	rand.Read(b[:])
	tmp := path.Join(path.Dir(clean), ".wasmexec-upload-"+hex.EncodeToString(b[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fsError(err, clean)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = root.Rename(tmp, clean)
	}
	if werr != nil {
		root.Remove(tmp)
		return fsError(werr, clean)
	}
	return nil
}

// existing opens the workspace and resolves p, which must exist: otherwise
// not_found, naming what was looked for ("file", "directory"). On success
// the caller closes root.
func (w *Workspace) existing(p, what string, allowFinalLink bool) (*os.Root, string, fs.FileInfo, error) {
	root, clean, err := w.open(p)
	if err != nil {
		return nil, "", nil, err
	}
	fi, err := w.resolve(root, clean, allowFinalLink)
	if err == nil && fi == nil {
		err = wasmexec.Errorf(wasmexec.ENotFound, "no %s %q in the workspace", what, clean)
	}
	if err != nil {
		root.Close()
		return nil, "", nil, err
	}
	return root, clean, fi, nil
}

// ReadFile returns the content at p (not_found when absent; invalid_argument
// for a symlink, a directory or another non-regular file). It reads at most
// the read cap (MaxReadBytes, never more than the quota): a larger file is
// payload_too_large. The size a file reports is never trusted: a 1 TiB
// sparse file is refused before any read, and a file that grows while it
// is read is cut off at the cap plus one byte, so one call holds at most
// the cap in memory.
func (w *Workspace) ReadFile(p string) ([]byte, error) {
	root, clean, fi, err := w.existing(p, "file", false)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if fi.IsDir() {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "%q is a directory; list it instead", clean)
	}
	if !fi.Mode().IsRegular() {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "%q is not a regular file", clean)
	}
	limit := w.readLimit()
	tooLarge := func(size int64) error {
		return wasmexec.Errorf(wasmexec.ETooLarge, "file %q has %d bytes; one read returns at most %d", clean, size, limit)
	}
	if fi.Size() > limit {
		return nil, tooLarge(fi.Size())
	}
	// O_NOFOLLOW: a symlink swapped in since resolve is refused; O_NONBLOCK:
	// so is a FIFO, without waiting for a writer.
	f, err := root.OpenFile(clean, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fsError(err, clean)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "%q is not a regular file", clean)
	}
	var buf bytes.Buffer
	buf.Grow(int(min(fi.Size(), limit)) + 1)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, fsError(err, clean)
	}
	if int64(buf.Len()) > limit {
		return nil, tooLarge(int64(buf.Len()))
	}
	return buf.Bytes(), nil
}

// Stat describes the entry at p without following a final symlink.
func (w *Workspace) Stat(p string) (Entry, error) {
	root, clean, fi, err := w.existing(p, "file", true)
	if err != nil {
		return Entry{}, err
	}
	root.Close()
	return entryOf(clean, fi), nil
}

// Delete removes the file or directory tree at p. A symlink as the last
// component is removed itself (never its target); symlinks on the way are
// refused.
func (w *Workspace) Delete(p string) error {
	root, clean, fi, err := w.existing(p, "file", true)
	if err != nil {
		return err
	}
	defer root.Close()
	if clean == "" {
		return wasmexec.Errorf(wasmexec.EInvalid, "refusing to delete the workspace root")
	}
	// What it frees, for the kept usage: the entry and, for a directory,
	// what is below it (a walk of that tree only).
	freed, files := w.chargeInfo(fi), 1
	if fi.IsDir() && w.cache != nil {
		if werr := walk(context.Background(), filepath.Join(w.Root, clean), func(e walkEntry) error {
			freed += w.charge(e)
			files++
			return nil
		}); werr != nil {
			w.Forget()
		}
	}
	if fi.IsDir() {
		err = root.RemoveAll(clean)
	} else {
		err = root.Remove(clean)
	}
	if err != nil {
		w.Forget() // part of it may be gone
		return fsError(err, clean)
	}
	w.changed(-freed, -files)
	return nil
}

// Entry is one item of a directory listing.
type Entry = wasmexec.FileEntry

func entryOf(clean string, fi fs.FileInfo) Entry {
	e := Entry{Path: clean, Size: fi.Size(), ModifiedAtMs: fi.ModTime().UnixMilli(), Type: "other"}
	switch {
	case fi.Mode().IsRegular():
		e.Type = "file"
	case fi.IsDir():
		e.Type, e.Size = "dir", 0
	case fi.Mode()&fs.ModeSymlink != 0:
		e.Type = "symlink"
	}
	return e
}

// List returns the entries directly inside dir, sorted by name. Symlinks are
// listed as such, never followed.
func (w *Workspace) List(dir string) ([]Entry, error) {
	root, clean, fi, err := w.existing(dir, "directory", false)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if !fi.IsDir() {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "%q is not a directory", clean)
	}
	f, err := root.Open(rel(clean))
	if err != nil {
		return nil, fsError(err, clean)
	}
	defer f.Close()
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, fsError(err, clean)
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		fi, err := de.Info()
		if err != nil {
			continue
		}
		out = append(out, entryOf(path.Join(clean, de.Name()), fi))
	}
	sortEntries(out)
	return out, nil
}

func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
}

// NewWorkspace, SeedWorkspace and RemoveWorkspace make a Manager an
// wasmexec.WorkspaceFactory: one-shot runs get a fresh workspace each, seeded
// from the request's files (within the quota) and removed afterwards.

// NewWorkspace creates an empty workspace and returns its directory.
func (m *Manager) NewWorkspace() (string, error) {
	ws, err := m.New("run")
	if err != nil {
		return "", err
	}
	return ws.Root, nil
}

// SeedWorkspace writes files (path → content) into the workspace at dir in
// one pass within the manager's limits, stopping when ctx ends (see
// Workspace.Seed).
func (m *Manager) SeedWorkspace(ctx context.Context, dir string, files map[string]string) error {
	return m.Workspace(dir).Seed(ctx, files)
}

// RemoveWorkspace deletes the workspace at dir.
func (m *Manager) RemoveWorkspace(dir string) error { return os.RemoveAll(dir) }

var _ wasmexec.WorkspaceFactory = (*Manager)(nil)

// WatchWorkspace returns the check a one-shot run writing to dir is
// watched with (wasmexec.WorkspaceQuota): the run's quota_exceeded once dir is
// over a limit; nil when the manager has none.
func (m *Manager) WatchWorkspace(dir string) wasmexec.QuotaCheck {
	if m.limits.Quota <= 0 && m.limits.MaxFiles <= 0 {
		return nil
	}
	return m.Workspace(dir).Watch("the run")
}

// CheckWorkspace counts the workspace at dir against the manager's limits
// (Workspace.Check): cheap enough to poll while a guest writes; Usage.Over
// says a limit was passed and Usage.Failure is the run's quota_exceeded.
func (m *Manager) CheckWorkspace(ctx context.Context, dir string) (Usage, error) {
	return m.Workspace(dir).Check(ctx)
}

var _ wasmexec.WorkspaceQuota = (*Manager)(nil)
