package main

import (
	"os"
	"syscall"
)

// The working directory without WASI calls. On wasip1 Go keeps the
// directory itself (syscall.Getwd is a string), but os.Getwd stats "." and
// $PWD to check them (two path_filestat_get) and os.Chdir stats its
// target: each such call crosses into wasmtime's WASI, which hands file
// system calls to a helper thread, so a plain `1+1` paid for about ten of
// them in thread wake-ups. Getwd and chdir below ask only when the
// directory changes.

// getwd returns the current directory.
func getwd() string {
	wd, err := syscall.Getwd()
	if err != nil || wd == "" {
		return "/"
	}
	return wd
}

// chdir changes the directory unless it is already dir; a directory that
// does not exist is still an error when it is a change.
func chdir(dir string) error {
	if wd, err := syscall.Getwd(); err == nil && wd == dir {
		return nil
	}
	return os.Chdir(dir)
}
