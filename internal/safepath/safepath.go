// Package safepath joins names that come from outside the server (a
// registry's package names, a tarball's or a wheel's entry paths) onto a
// directory the server writes to, refusing any that would land outside it.
// The server writes there as its own user, so one name that climbs out is
// a write anywhere that user can write, including the compiled-module
// cache: every such join goes through JoinUnder, not filepath.Join.
package safepath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrUnsafe is what every refusal of JoinUnder wraps.
var ErrUnsafe = errors.New("unsafe path")

// JoinUnder joins rel, a slash-separated path relative to root, onto root
// and returns the result, which is root itself (rel ".") or a path below
// it. It refuses (ErrUnsafe) an empty rel, an absolute one, one with a
// ".." component (even one that would come back: no name from outside
// needs it), a NUL byte or a backslash (a Windows separator here would be
// a file name with a backslash in it, never what the producer meant), and
// one that passes through a symlink already in the tree below root: a
// write through it would land wherever the link points. The symlink check
// reads the tree as it is now, so root must be a directory no one else
// writes to meanwhile (a fresh staging directory, or a workspace whose
// guests are held off).
func JoinUnder(root, rel string) (string, error) {
	if err := Check(rel); err != nil {
		return "", err
	}
	clean := path.Clean(rel)
	base := filepath.Clean(root)
	joined := filepath.Join(base, filepath.FromSlash(clean))
	if !Within(base, joined) {
		// Unreachable after Check; kept so that a change to Check can't
		// silently open a way out.
		return "", fmt.Errorf("%w: %q leaves %s", ErrUnsafe, rel, root)
	}
	if clean == "." {
		return joined, nil
	}
	p := base
	for _, part := range strings.Split(clean, "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%w: %q passes through the symlink %s", ErrUnsafe, rel, p)
		}
	}
	return joined, nil
}

// Check is JoinUnder's refusal of rel without a root: nil when rel is a
// relative slash path without "..", NUL or backslash.
func Check(rel string) error {
	switch {
	case rel == "":
		return fmt.Errorf("%w: empty path", ErrUnsafe)
	case strings.IndexByte(rel, 0) >= 0:
		return fmt.Errorf("%w: %q holds a NUL byte", ErrUnsafe, rel)
	case strings.Contains(rel, `\`):
		return fmt.Errorf("%w: %q holds a backslash", ErrUnsafe, rel)
	case strings.HasPrefix(rel, "/"):
		return fmt.Errorf("%w: %q is absolute", ErrUnsafe, rel)
	}
	for _, part := range strings.Split(rel, "/") {
		if part == ".." {
			return fmt.Errorf("%w: %q climbs out with ..", ErrUnsafe, rel)
		}
	}
	return nil
}

// Within reports whether p is dir or below it, comparing cleaned paths
// lexically (no symlink is resolved).
func Within(dir, p string) bool {
	dir, p = filepath.Clean(dir), filepath.Clean(p)
	if p == dir {
		return true
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}
