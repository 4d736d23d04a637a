//go:build !linux

package engine

type pageRun struct{ first, n int }

func writtenPages([]byte) ([]pageRun, error) { return nil, nil }

func prefault([]byte, []pageRun) {}

func madvisePopulate(addr, n uintptr) {}

func hugePages([]byte, int) {}
