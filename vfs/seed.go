package vfs

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"syscall"

	"github.com/wasmexec/wasmexec"
)

// Seed writes files (path → content) into the workspace before a run, in
// time linear in the files and their path components: the workspace is
// counted once (Check), each file is checked against running totals, and
// nothing is written unless all of them fit. Existing files at those paths
// are replaced (each atomically), parent directories are created.
//
// Errors, before anything is written: payload_too_large for more than
// MaxSeedFiles files or a total over the quota or the file limit;
// invalid_argument for a bad path (or two names for one path); conflict
// when a file is in the way of a directory or the other way round. When
// ctx ends (the run's deadline) Seed stops between files and returns an
// error wrapping ctx.Err(); the files written so far stay.
func (w *Workspace) Seed(ctx context.Context, files map[string]string) error {
	if len(files) == 0 {
		return nil
	}
	if n, max := len(files), w.maxSeedFiles(); n > max {
		return wasmexec.Errorf(wasmexec.ETooLarge, "files names %d files; a run may seed at most %d", n, max)
	}
	type seed struct {
		clean, content string
	}
	seeds := make([]seed, 0, len(files))
	byPath := make(map[string]bool, len(files))
	for p, content := range files {
		clean, err := Clean(p)
		if err != nil {
			return err
		}
		if clean == "" {
			return wasmexec.Errorf(wasmexec.EInvalid, "files: a file path is required, not the workspace")
		}
		if byPath[clean] {
			return wasmexec.Errorf(wasmexec.EInvalid, "files names %q twice", clean)
		}
		byPath[clean] = true
		seeds = append(seeds, seed{clean, content})
	}
	slices.SortFunc(seeds, func(a, b seed) int { return strings.Compare(a.clean, b.clean) })
	for _, s := range seeds {
		for d := path.Dir(s.clean); d != "."; d = path.Dir(d) {
			if byPath[d] {
				return wasmexec.Errorf(wasmexec.EConflict, "files names %q as a file and as a directory of %q", d, s.clean)
			}
		}
	}

	root, err := openRoot(w.Root)
	if err != nil {
		return err
	}
	defer root.Close()
	var u Usage
	if w.limited() {
		if u, err = w.Check(ctx); err != nil {
			return err
		}
	}
	var (
		freed, more int64
		added       int
		newDirs     = map[string]bool{}
	)
	for _, s := range seeds {
		fi, depth, err := w.resolveDepth(root, s.clean, false)
		if err != nil {
			return err
		}
		if fi != nil && fi.IsDir() {
			return wasmexec.Errorf(wasmexec.EConflict, "files: %q is a directory in the workspace", s.clean)
		}
		if fi != nil {
			freed += w.chargeInfo(fi)
		} else {
			added++
			parts := strings.Split(s.clean, "/")
			for i := depth + 1; i < len(parts); i++ {
				if d := strings.Join(parts[:i], "/"); !newDirs[d] {
					newDirs[d] = true
					added++
					more += w.entryBytes()
				}
			}
		}
		more += w.charge(walkEntry{mode: syscall.S_IFREG, size: int64(len(s.content))})
	}
	if w.limited() {
		if err := w.fits(u, freed, added, more); err != nil {
			return err
		}
	}
	for _, s := range seeds {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("seed files: %w", err)
		}
		if err := writeAtomic(root, s.clean, []byte(s.content)); err != nil {
			return err
		}
	}
	return nil
}
