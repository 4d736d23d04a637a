package vfs

// Walks returns how many directory walks the package has made.
func Walks() int64 { return walks.Load() }
