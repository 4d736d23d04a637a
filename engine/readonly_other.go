//go:build !linux

package engine

import "errors"

// Read-only bind mounts are Linux-only; elsewhere image views are copies.

func mountReadOnly(src, dst string) error {
	return errors.New("read-only bind mounts need Linux")
}

func unmount(dir string) {}

func isMounted(dir string) bool { return false }

// processAlive is conservative where we can't tell: views are kept.
func processAlive(pid int) bool { return true }
