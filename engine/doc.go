// Package engine is the only package that touches wasmtime. It compiles
// each guest image once (cached on disk by the hash of its module and the
// engine's configuration), snapshots an image's initialized runtime so a
// guest starts in about a millisecond, and runs guests under fuel, epoch
// and memory limits with the host functions of the control protocol
// (docs/PROTOCOL.md), a guest's network (fetch.go, through egress) and a
// hardened WASI. It captures a guest between runs and restores it from
// memory or a file, mapping large states copy-on-write (hibernate.go,
// hibstate.go, statemap.go).
//
// Driver (driver.go) is what the run pipeline uses of it
// (pipeline.Driver): guests for one run (pre-started in a pool per image),
// kept guests for contexts, and restored ones.
//
// Size: wasmtime's C API through cgo, the guest's host functions, the
// snapshot of a runtime and the format of a captured state are each large
// and each only meaningful next to the others; each file is one of them.
package engine
