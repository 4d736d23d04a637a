// Package vfs manages workspaces: host directories mounted into guests at
// /workspace. It confines every path a client names to its workspace and
// enforces a byte quota.
//
// Confinement is two layers deep. Clean rejects what a client path must
// never contain (NUL bytes, "..", absolute paths outside /workspace, over-long
// names) with invalid_argument; resolve then refuses any symlink on the way
// (a guest could have planted one), also invalid_argument. The I/O itself
// goes through an os.Root opened on the workspace, so even a symlink swapped
// in between the check and the use can't lead outside: the kernel-level
// walk of os.Root refuses to leave the root.
//
// Error codes: invalid_argument (bad path, symlink, not a regular file or
// directory), not_found (absent), conflict (a directory is in the way),
// payload_too_large (over the quota).
package vfs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/wasmexec/wasmexec/exec"
)

// Limits on client paths (Linux's).
const (
	MaxPathBytes = 4096
	MaxNameBytes = 255
)

// Workspace is one directory tree owned by a context or a one-shot run.
type Workspace struct {
	Root  string
	Quota int64 // bytes; 0 means unlimited
}

// Manager creates and removes workspaces under one root directory.
type Manager struct {
	root  string
	quota int64
}

// NewManager returns a Manager keeping workspaces under root.
func NewManager(root string, quota int64) (*Manager, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace root: %w", err)
	}
	return &Manager{root: root, quota: quota}, nil
}

// Root returns the directory the manager keeps workspaces in.
func (m *Manager) Root() string { return m.root }

// Quota returns the byte quota of the workspaces this manager creates.
func (m *Manager) Quota() int64 { return m.quota }

// New creates an empty workspace with a fresh name (prefix helps debugging).
func (m *Manager) New(prefix string) (*Workspace, error) {
	var b [8]byte
	rand.Read(b[:])
	dir := filepath.Join(m.root, prefix+"-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	return &Workspace{Root: dir, Quota: m.quota}, nil
}

// RemoveStale removes every workspace whose name starts with prefix + "-"
// (left behind by a crash: workspaces don't outlive their owner). It returns
// how many it removed.
func (m *Manager) RemoveStale(prefix string) (int, error) {
	des, err := os.ReadDir(m.root)
	if err != nil {
		return 0, fmt.Errorf("list workspaces: %w", err)
	}
	n := 0
	var errs []error
	for _, de := range des {
		if !de.IsDir() || !strings.HasPrefix(de.Name(), prefix+"-") {
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
		return "", exec.Errorf(exec.EInvalid, "path contains a NUL byte")
	}
	if len(p) > MaxPathBytes {
		return "", exec.Errorf(exec.EInvalid, "path is longer than %d bytes", MaxPathBytes)
	}
	if strings.HasPrefix(p, "/workspace/") || p == "/workspace" {
		p = strings.TrimPrefix(p, "/workspace")
	} else if strings.HasPrefix(p, "/") {
		return "", exec.Errorf(exec.EInvalid, "absolute path %q is outside /workspace", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", exec.Errorf(exec.EInvalid, "path %q leaves the workspace", p)
		}
		if len(part) > MaxNameBytes {
			return "", exec.Errorf(exec.EInvalid, "a path component is longer than %d bytes", MaxNameBytes)
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
	if clean == "" {
		fi, err := root.Lstat(".")
		return fi, err
	}
	parts := strings.Split(clean, "/")
	for i := range parts {
		name := strings.Join(parts[:i+1], "/")
		fi, err := root.Lstat(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			if errors.Is(err, syscall.ENOTDIR) {
				return nil, exec.Errorf(exec.EConflict, "%q is not a directory", strings.Join(parts[:i], "/"))
			}
			return nil, fsError(err, clean)
		}
		last := i == len(parts)-1
		if fi.Mode()&fs.ModeSymlink != 0 && !(last && allowFinalLink) {
			return nil, exec.Errorf(exec.EInvalid, "path %q goes through a symlink", name)
		}
		if !last && !fi.IsDir() {
			return nil, exec.Errorf(exec.EConflict, "%q is not a directory", name)
		}
		if last {
			return fi, nil
		}
	}
	return nil, nil
}

// open cleans p and opens the workspace root.
func (w *Workspace) open(p string) (*os.Root, string, error) {
	clean, err := Clean(p)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(w.Root)
	if err != nil {
		return nil, "", fmt.Errorf("open workspace: %w", err)
	}
	return root, clean, nil
}

// fsError turns a file-system error into a client error where one fits
// (an escape caught by os.Root is a bad path, not a server failure).
func fsError(err error, clean string) error {
	var coded *exec.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &coded):
		return err
	case errors.Is(err, fs.ErrNotExist):
		return exec.Errorf(exec.ENotFound, "no file %q in the workspace", clean)
	case errors.Is(err, syscall.ENOTDIR):
		return exec.Errorf(exec.EConflict, "a component of %q is not a directory", clean)
	case errors.Is(err, syscall.EISDIR):
		return exec.Errorf(exec.EConflict, "%q is a directory", clean)
	case errors.Is(err, syscall.ELOOP), strings.Contains(err.Error(), "escapes from parent"), strings.Contains(err.Error(), "path escapes"):
		return exec.Errorf(exec.EInvalid, "path %q leaves the workspace", clean)
	case errors.Is(err, syscall.ENAMETOOLONG):
		return exec.Errorf(exec.EInvalid, "path %q is too long", clean)
	}
	return err
}

// WriteFile writes data at p, creating parent directories, within quota
// (payload_too_large). The file is replaced atomically: a guest never sees
// half of it.
func (w *Workspace) WriteFile(p string, data []byte) error {
	root, clean, err := w.open(p)
	if err != nil {
		return err
	}
	defer root.Close()
	if clean == "" {
		return exec.Errorf(exec.EInvalid, "a file path is required")
	}
	fi, err := w.resolve(root, clean, false)
	if err != nil {
		return err
	}
	if fi != nil && fi.IsDir() {
		return exec.Errorf(exec.EConflict, "%q is a directory", clean)
	}
	if w.Quota > 0 {
		used, err := w.Usage()
		if err != nil {
			return err
		}
		var old int64
		if fi != nil && fi.Mode().IsRegular() {
			old = fi.Size()
		}
		if used-old+int64(len(data)) > w.Quota {
			return exec.Errorf(exec.ETooLarge, "workspace quota of %d bytes exceeded (%d used, %d more requested)", w.Quota, used-old, len(data))
		}
	}
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
		err = exec.Errorf(exec.ENotFound, "no %s %q in the workspace", what, clean)
	}
	if err != nil {
		root.Close()
		return nil, "", nil, err
	}
	return root, clean, fi, nil
}

// ReadFile returns the content at p (not_found when absent; invalid_argument
// for a symlink, a directory or another non-regular file).
func (w *Workspace) ReadFile(p string) ([]byte, error) {
	root, clean, fi, err := w.existing(p, "file", false)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if fi.IsDir() {
		return nil, exec.Errorf(exec.EInvalid, "%q is a directory; list it instead", clean)
	}
	if !fi.Mode().IsRegular() {
		return nil, exec.Errorf(exec.EInvalid, "%q is not a regular file", clean)
	}
	b, err := root.ReadFile(clean)
	if err != nil {
		return nil, fsError(err, clean)
	}
	return b, nil
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
		return exec.Errorf(exec.EInvalid, "refusing to delete the workspace root")
	}
	if fi.IsDir() {
		err = root.RemoveAll(clean)
	} else {
		err = root.Remove(clean)
	}
	return fsError(err, clean)
}

// Entry is one item of a directory listing.
type Entry = exec.FileEntry

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
		return nil, exec.Errorf(exec.EInvalid, "%q is not a directory", clean)
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

// Usage returns the bytes used by regular files in the workspace (symlinks
// are not followed).
func (w *Workspace) Usage() (int64, error) {
	var total int64
	err := filepath.WalkDir(w.Root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while we walked
			}
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	return total, err
}

// NewWorkspace, SeedWorkspace and RemoveWorkspace make a Manager an
// exec.WorkspaceFactory: one-shot runs get a fresh workspace each, seeded
// from the request's files (within the quota) and removed afterwards.

// NewWorkspace creates an empty workspace and returns its directory.
func (m *Manager) NewWorkspace() (string, error) {
	ws, err := m.New("run")
	if err != nil {
		return "", err
	}
	return ws.Root, nil
}

// SeedWorkspace writes files (path → content) into the workspace at dir.
func (m *Manager) SeedWorkspace(dir string, files map[string]string) error {
	ws := &Workspace{Root: dir, Quota: m.quota}
	for p, content := range files {
		if err := ws.WriteFile(p, []byte(content)); err != nil {
			return err
		}
	}
	return nil
}

// RemoveWorkspace deletes the workspace at dir.
func (m *Manager) RemoveWorkspace(dir string) error { return os.RemoveAll(dir) }

var _ exec.WorkspaceFactory = (*Manager)(nil)

// WorkspaceUsage returns the bytes used by the workspace at dir. With
// Quota it makes a Manager an exec.WorkspaceQuota.
func (m *Manager) WorkspaceUsage(dir string) (int64, error) {
	return (&Workspace{Root: dir}).Usage()
}

var _ exec.WorkspaceQuota = (*Manager)(nil)
