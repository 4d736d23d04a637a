package vfs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Names in a scratch root (OpenScratch). Nothing else there is ever
// touched.
const (
	// scratchInstancePrefix starts the directory of one server process.
	scratchInstancePrefix = "inst-"
	// legacyRunPrefix starts the one-shot workspaces that servers before
	// instance directories kept directly in the scratch root.
	legacyRunPrefix = "run-"
)

// LegacyRunMinAge is how old a run-* directory directly in the scratch
// root must be before OpenScratch removes it: servers of the older layout
// hold no lock, and one still running beside a new one (a rolling restart,
// or several servers sharing /dev/shm/wasmexec-UID) may be using a fresh
// one, even for a long-lived pre-started guest.
const LegacyRunMinAge = 24 * time.Hour

// OpenScratch returns a Manager for one-shot workspaces under root (a
// scratch directory such as /dev/shm/wasmexec-UID), private to this
// process. The workspaces go in a directory of its own,
// root/inst-PID-RANDOM, locked with flock(2) for as long as the process
// lives (the kernel drops the lock when it dies, kill -9 included).
//
// First it removes what dead servers left behind: every inst-* directory
// whose lock it can take (its owner is gone; a live server's is skipped)
// and every run-* directory directly under root (the layout of servers
// before instance directories) last modified LegacyRunMinAge ago or more.
// Nothing else under root is touched. A lock
// on root itself, held while cleaning and while creating the new instance
// directory, keeps a starting server from removing another's directory
// between its creation and its lock. removed counts the directories
// removed. Close removes the instance directory.
func OpenScratch(root string, l Limits) (m *Manager, removed int, err error) {
	if err := l.Validate(); err != nil {
		return nil, 0, err
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, 0, fmt.Errorf("create scratch root: %w", err)
	}
	rootLock, err := lockDir(root, true)
	if err != nil {
		return nil, 0, fmt.Errorf("lock scratch root %s: %w", root, err)
	}
	defer rootLock.Close() // closing the descriptor releases the lock
	removed, cleanErr := removeStaleScratch(root, time.Now().Add(-LegacyRunMinAge))

	var b [6]byte
	rand.Read(b[:])
	dir := filepath.Join(root, scratchInstancePrefix+strconv.Itoa(os.Getpid())+"-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, removed, fmt.Errorf("create scratch directory: %w", err)
	}
	lock, err := lockDir(dir, false)
	if err != nil {
		os.Remove(dir)
		return nil, removed, fmt.Errorf("lock scratch directory %s: %w", dir, err)
	}
	if cleanErr != nil {
		cleanErr = fmt.Errorf("remove stale scratch under %s: %w", root, cleanErr)
	}
	return &Manager{root: dir, limits: l, lock: lock}, removed, cleanErr
}

// removeStaleScratch removes the directories of dead servers under root
// (root's lock held), and legacy run-* directories last modified before
// legacyBefore.
func removeStaleScratch(root string, legacyBefore time.Time) (int, error) {
	des, err := os.ReadDir(root)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, de := range des {
		name := de.Name()
		if !de.IsDir() {
			continue
		}
		dir := filepath.Join(root, name)
		switch {
		case strings.HasPrefix(name, scratchInstancePrefix):
			lock, err := lockDir(dir, false)
			if errors.Is(err, unix.EWOULDBLOCK) {
				continue // a live server's
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			err = os.RemoveAll(dir)
			lock.Close()
			if err != nil {
				errs = append(errs, err)
				continue
			}
		case strings.HasPrefix(name, legacyRunPrefix):
			if fi, err := de.Info(); err != nil || !fi.ModTime().Before(legacyBefore) {
				continue
			}
			if err := os.RemoveAll(dir); err != nil {
				errs = append(errs, err)
				continue
			}
		default:
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// lockDir opens dir and takes an exclusive flock on it: waiting for it
// when wait, else failing with EWOULDBLOCK when another holds it. Closing
// the returned file releases the lock.
func lockDir(dir string, wait bool) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Close releases a scratch manager's directory (OpenScratch) and removes
// it with every workspace still in it. It does nothing for other managers.
func (m *Manager) Close() error {
	if m.lock == nil {
		return nil
	}
	err := os.RemoveAll(m.root)
	m.lock.Close()
	m.lock = nil
	return err
}
