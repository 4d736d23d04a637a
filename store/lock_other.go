//go:build !unix

package store

import (
	"fmt"
	"os"
)

// lockFile only creates the lock file where flock(2) is not available: the
// one-Store-per-file rule is then not enforced.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: cannot create lock file %s (is the directory writable?): %w", path, err)
	}
	return f, nil
}

func unlockFile(f *os.File) error { return f.Close() }
