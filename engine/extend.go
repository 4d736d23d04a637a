package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ImageExtension is what the host adds to an image's guest.json when it
// loads it (EngineConfig.Extensions): e.g. the Python image gets the
// bundled-library layer and the path of a workspace's installed packages
// without a rebuild of the interpreter. The extended spec is part of the
// snapshot's inputs, so a changed extension takes a new snapshot.
type ImageExtension struct {
	// Env is added to the image's env; a key the image also sets is
	// replaced.
	Env map[string]string
	// Preopens maps host directories (absolute, or relative to the
	// working directory) to guest paths, like the image's own preopens and
	// made read-only the same way (readonly.go).
	Preopens map[string]string
	// WorkspaceDirs are directories (relative to the workspace) created in
	// every guest's workspace before it starts, and in the snapshot's.
	WorkspaceDirs []string
}

// extend applies the engine's extension for spec.Name to spec, read from
// the image directory dir.
func (e *Engine) extend(dir string, spec *ImageSpec) error {
	ext, ok := e.cfg.Extensions[spec.Name]
	if e.cfg.Extend != nil {
		ext, ok = e.cfg.Extend(spec.Name)
	}
	if !ok {
		return nil
	}
	if len(ext.Env) > 0 {
		env := map[string]string{}
		for k, v := range spec.Env {
			env[k] = v
		}
		for k, v := range ext.Env {
			env[k] = v
		}
		spec.Env = env
	}
	if len(ext.Preopens) > 0 {
		absDir, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		pre := map[string]string{}
		for k, v := range spec.Preopens {
			pre[k] = v
		}
		for host, guest := range ext.Preopens {
			abs, err := filepath.Abs(host)
			if err != nil {
				return err
			}
			if st, err := os.Stat(abs); err != nil || !st.IsDir() {
				return fmt.Errorf("image %s: extension preopen %s is not a directory", spec.Name, host)
			}
			rel, err := filepath.Rel(absDir, abs)
			if err != nil {
				return err
			}
			pre[rel] = guest
		}
		spec.Preopens = pre
	}
	spec.WorkspaceDirs = append(append([]string(nil), spec.WorkspaceDirs...), ext.WorkspaceDirs...)
	for _, d := range spec.WorkspaceDirs {
		if filepath.IsAbs(d) || d != filepath.Clean(d) || d == "." || strings.HasPrefix(d, "..") {
			return fmt.Errorf("image %s: workspace directory %q must be a clean relative path", spec.Name, d)
		}
	}
	return nil
}

// makeWorkspaceDirs creates the image's workspace directories in ws. One
// the workspace already has as something else (the code's own file) is
// left alone: the workspace is its owner's.
func makeWorkspaceDirs(spec ImageSpec, ws string) error {
	for _, d := range spec.WorkspaceDirs {
		p := filepath.Join(ws, d)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			return fmt.Errorf("workspace directory %s: %w", d, err)
		}
	}
	return nil
}
