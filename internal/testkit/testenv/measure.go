package testenv

import (
	"slices"
	"syscall"
	"time"
)

// CPUTime is this process's user and system CPU time so far (0 where
// getrusage fails), for benchmarks that report CPU per operation.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Median is the middle of xs (the upper one of an even count); xs is not
// changed.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
