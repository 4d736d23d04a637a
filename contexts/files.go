package contexts

import (
	"context"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// File calls work in any state but deleting, also while a run is in
// progress (the guest may see a file appear). A file uploaded during a run
// is never rolled back by that run's quota check. A file call on a
// hibernated context wakes it, as a run does (wakeForFiles).

// workspaceChanged notes a change to c's workspace outside a run (under
// its bookkeeping lock): the run's workspace snapshot is stale, and a
// shared context's record is saved again at its next idle snapshot, with
// the workspace (on one server the files are the directory itself: no
// record needs writing for them).
func (c *execContext) workspaceChanged() {
	c.snap = nil
	c.mu.Lock()
	c.hib.wsDirty = c.hib.wsDirty || c.shared
	c.mu.Unlock()
}

// withWorkspace runs fn on c's workspace under its bookkeeping lock.
func (m *Manager) withWorkspace(ctx context.Context, id string, fn func(c *execContext) error) error {
	c, err := m.lookup(id)
	if err != nil {
		return err
	}
	m.wakeForFiles(ctx, c)
	c.wsMu.Lock()
	defer c.wsMu.Unlock()
	c.mu.Lock()
	deleting := c.state == wasmexec.ContextDeleting
	c.mu.Unlock()
	if deleting {
		return notFound(id)
	}
	m.touch(c)
	m.wsChanged(c)
	return fn(c)
}

// wakeForFiles restores a hibernated context for a file call, so that the
// next run finds it awake and its descriptor and events say so, as after
// a run's wake. It takes the context's slot only when it is free with
// nobody queued: a context that runs or has runs queued is being woken by
// them, and a file call never waits behind runs. The file call goes on
// either way (the workspace is on the host); a wake that fails is logged
// and tried again by the next run.
func (m *Manager) wakeForFiles(ctx context.Context, c *execContext) {
	c.mu.Lock()
	hibernated := c.hib.hibernated
	c.mu.Unlock()
	if !hibernated || !c.tryAcquire() {
		return
	}
	defer c.release()
	if err := m.wake(ctx, c); err != nil {
		m.log.Warn("a file call could not wake its hibernated context (the next run tries again)", "contextId", c.id, "err", err)
	}
}

// WriteFile stores data at p in the context's workspace (replacing a file
// atomically, creating parent directories). Errors: context_not_found,
// invalid_argument (path), conflict (a directory is in the way),
// payload_too_large (quota).
func (m *Manager) WriteFile(ctx context.Context, id, p string, data []byte) (*wasmexec.FileEntry, error) {
	var e wasmexec.FileEntry
	err := m.withWorkspace(ctx, id, func(c *execContext) error {
		if err := c.ws.WriteFile(p, data); err != nil {
			return err
		}
		c.workspaceChanged()
		clean, _ := vfs.Clean(p)
		if c.inRun {
			if c.runUploads == nil {
				c.runUploads = map[string]bool{}
			}
			c.runUploads[clean] = true
		}
		var err error
		e, err = c.ws.Stat(clean)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// ReadFile returns the file at p. Errors: context_not_found, not_found,
// invalid_argument (path, symlink, directory).
func (m *Manager) ReadFile(ctx context.Context, id, p string) ([]byte, error) {
	var b []byte
	err := m.withWorkspace(ctx, id, func(c *execContext) error {
		var err error
		b, err = c.ws.ReadFile(p)
		return err
	})
	return b, err
}

// DeleteFile removes the file or directory tree at p (a symlink itself,
// never its target). Errors: context_not_found, not_found,
// invalid_argument.
func (m *Manager) DeleteFile(ctx context.Context, id, p string) error {
	return m.withWorkspace(ctx, id, func(c *execContext) error {
		if err := c.ws.Delete(p); err != nil {
			return err
		}
		c.workspaceChanged()
		return nil
	})
}

// ListFiles lists the entries directly inside dir ("" is /workspace).
// Errors: context_not_found, not_found, invalid_argument.
func (m *Manager) ListFiles(ctx context.Context, id, dir string) ([]wasmexec.FileEntry, error) {
	var es []wasmexec.FileEntry
	err := m.withWorkspace(ctx, id, func(c *execContext) error {
		var err error
		es, err = c.ws.List(dir)
		return err
	})
	return es, err
}

// ExtractArchive unpacks an archive (format tar, tgz or zip as
// vfs.ParseArchiveFormat reads it; "" detects it) under dir of the
// context's workspace, all or nothing, charged once against its limits
// (vfs.Workspace.Extract). Errors: context_not_found, invalid_argument
// (format), and Extract's.
func (m *Manager) ExtractArchive(ctx context.Context, id, dir, format string, r io.Reader) (*wasmexec.ArchiveResult, error) {
	format, err := vfs.ParseArchiveFormat(format)
	if err != nil {
		return nil, err
	}
	var res *wasmexec.ArchiveResult
	err = m.withWorkspace(ctx, id, func(c *execContext) error {
		var err error
		res, err = c.ws.Extract(ctx, dir, r, format)
		if err != nil {
			return err
		}
		c.workspaceChanged()
		if c.inRun {
			// Like uploads: never rolled back by the run in progress.
			if c.runUploads == nil {
				c.runUploads = map[string]bool{}
			}
			for _, p := range res.Paths {
				c.runUploads[p] = true
			}
		}
		return nil
	})
	return res, err
}

// WriteArchive writes the tree under dir of the context's workspace to out
// as a tar or gzipped tar (format "tar" or "tgz", vfs.ArchiveTar/Tgz).
// Errors: context_not_found, and vfs.Workspace.WriteArchive's.
func (m *Manager) WriteArchive(ctx context.Context, id, dir, format string, out io.Writer) error {
	return m.withWorkspace(ctx, id, func(c *execContext) error {
		return c.ws.WriteArchive(ctx, dir, format, out)
	})
}

// Hold takes the context's run slot for work on its workspace that no run
// may see half done (an npm install): runs queue behind it as behind a
// run, and it waits for the run in progress and those queued before it.
// release gives the slot back. Errors: context_not_found, overloaded
// (queue full, ctx ended while waiting).
func (m *Manager) Hold(ctx context.Context, id string) (ws *vfs.Workspace, release func(), err error) {
	c, err := m.lookup(id)
	if err != nil {
		return nil, nil, err
	}
	if err := c.acquire(ctx, m.cfg.QueueDepth, inLine); err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	deleting := c.state == wasmexec.ContextDeleting
	c.mu.Unlock()
	if deleting || c.ws == nil {
		c.release()
		return nil, nil, notFound(id)
	}
	if err := m.wake(ctx, c); err != nil {
		m.log.Warn("could not wake a hibernated context for work on its workspace (the next run tries again)", "contextId", c.id, "err", err)
	}
	m.touch(c)
	ws = c.ws
	ws.Forget()
	return ws, func() { ws.Forget(); m.wsChanged(c); c.release() }, nil
}

// ReplaceDir lets the host replace the directory rel of context id's
// workspace with one it staged inside the workspace (a package install):
// under the workspace's lock, as a file call, it checks that the result
// fits the workspace's limits (payload_too_large otherwise, nothing done)
// and runs swap. Errors: context_not_found, payload_too_large, swap's.
func (m *Manager) ReplaceDir(id, rel string, swap func() error) error {
	return m.withWorkspace(context.Background(), id, func(c *execContext) error {
		if err := c.ws.FitsReplacing(rel, "staged"); err != nil {
			return err
		}
		c.workspaceChanged()
		defer c.ws.Forget() // swapped in outside the file calls
		if err := swap(); err != nil {
			return err
		}
		if c.inRun {
			// Like uploads: never rolled back by the run in progress.
			if c.runUploads == nil {
				c.runUploads = map[string]bool{}
			}
			root := filepath.Join(c.ws.Root, rel)
			filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
				if err == nil {
					r, _ := filepath.Rel(c.ws.Root, p)
					c.runUploads[filepath.ToSlash(r)] = true
				}
				return nil
			})
		}
		return nil
	})
}
