// Package vfs manages workspaces: host directories mounted into guests at
// /workspace. It confines every path a client names to its workspace and
// enforces a byte quota.
package vfs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/wasmexec/wasmexec/exec"
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

// Remove deletes the workspace and everything in it.
func (w *Workspace) Remove() error { return os.RemoveAll(w.Root) }

// Clean normalizes a client path (relative to the workspace, or absolute
// under /workspace) and rejects anything that would leave it: "..", NUL
// bytes, and other absolute paths. It returns a slash path without a
// leading slash; "" is the workspace itself.
func Clean(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", exec.Errorf(exec.EInvalid, "path contains a NUL byte")
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
	}
	c := strings.TrimPrefix(path.Clean("/"+p), "/")
	return c, nil
}

// resolve maps a clean path to a host path, refusing symlinks anywhere on
// the way (a guest could have planted one pointing outside).
func (w *Workspace) resolve(clean string) (string, error) {
	host := w.Root
	if clean == "" {
		return host, nil
	}
	parts := strings.Split(clean, "/")
	for i, part := range parts {
		host = filepath.Join(host, part)
		fi, err := os.Lstat(host)
		if err != nil {
			if os.IsNotExist(err) {
				return filepath.Join(append([]string{w.Root}, parts...)...), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", exec.Errorf(exec.EInvalid, "path %q goes through a symlink", strings.Join(parts[:i+1], "/"))
		}
	}
	return host, nil
}

// WriteFile writes data at p, creating parent directories, within quota.
func (w *Workspace) WriteFile(p string, data []byte) error {
	clean, err := Clean(p)
	if err != nil {
		return err
	}
	if clean == "" {
		return exec.Errorf(exec.EInvalid, "a file path is required")
	}
	host, err := w.resolve(clean)
	if err != nil {
		return err
	}
	if w.Quota > 0 {
		used, err := w.Usage()
		if err != nil {
			return err
		}
		var old int64
		if fi, err := os.Lstat(host); err == nil && fi.Mode().IsRegular() {
			old = fi.Size()
		}
		if used-old+int64(len(data)) > w.Quota {
			return exec.Errorf(exec.ETooLarge, "workspace quota of %d bytes exceeded (%d used, %d more requested)", w.Quota, used-old, len(data))
		}
	}
	if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
		return fmt.Errorf("create parent directories: %w", err)
	}
	if fi, err := os.Lstat(host); err == nil && fi.IsDir() {
		return exec.Errorf(exec.EConflict, "%q is a directory", clean)
	}
	return os.WriteFile(host, data, 0o644)
}

// ReadFile returns the content at p (ENotFound when absent).
func (w *Workspace) ReadFile(p string) ([]byte, error) {
	clean, err := Clean(p)
	if err != nil {
		return nil, err
	}
	host, err := w.resolve(clean)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(host)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, exec.Errorf(exec.ENotFound, "no file %q in the workspace", clean)
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, exec.Errorf(exec.EInvalid, "%q is not a regular file", clean)
	}
	return os.ReadFile(host)
}

// Delete removes the file or directory tree at p.
func (w *Workspace) Delete(p string) error {
	clean, err := Clean(p)
	if err != nil {
		return err
	}
	if clean == "" {
		return exec.Errorf(exec.EInvalid, "refusing to delete the workspace root")
	}
	host, err := w.resolve(clean)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(host); os.IsNotExist(err) {
		return exec.Errorf(exec.ENotFound, "no file %q in the workspace", clean)
	}
	return os.RemoveAll(host)
}

// Entry is one item of a directory listing.
type Entry struct {
	Path  string `json:"path"`
	Type  string `json:"type"` // file | dir | symlink | other
	Size  int64  `json:"size"`
	MTime int64  `json:"modifiedAtMs"`
}

// List returns the entries directly inside dir.
func (w *Workspace) List(dir string) ([]Entry, error) {
	clean, err := Clean(dir)
	if err != nil {
		return nil, err
	}
	host, err := w.resolve(clean)
	if err != nil {
		return nil, err
	}
	des, err := os.ReadDir(host)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, exec.Errorf(exec.ENotFound, "no directory %q in the workspace", clean)
		}
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		fi, err := de.Info()
		if err != nil {
			continue
		}
		e := Entry{Path: path.Join(clean, de.Name()), Size: fi.Size(), MTime: fi.ModTime().UnixMilli(), Type: "other"}
		switch {
		case fi.Mode().IsRegular():
			e.Type = "file"
		case fi.IsDir():
			e.Type, e.Size = "dir", 0
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Type = "symlink"
		}
		out = append(out, e)
	}
	return out, nil
}

// Usage returns the bytes used by regular files in the workspace.
func (w *Workspace) Usage() (int64, error) {
	var total int64
	err := filepath.WalkDir(w.Root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
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

// Quota returns the byte quota of the workspaces this manager creates.
func (m *Manager) Quota() int64 { return m.quota }
