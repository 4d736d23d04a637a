package main

import (
	"time"
	"unsafe"
)

// The control channel (docs/PROTOCOL.md): functions of the host module
// "wasmexec". Requests, results and the standard streams travel here, never
// through WASI fd 1/2.

//go:wasmimport wasmexec recv
func hostRecv(ptr unsafe.Pointer, capacity int32) int32

//go:wasmimport wasmexec send
func hostSend(ptr unsafe.Pointer, length int32)

//go:wasmimport wasmexec write
func hostWrite(fd int32, ptr unsafe.Pointer, length int32) int32

//go:wasmimport wasmexec read
func hostRead(ptr unsafe.Pointer, capacity int32) int32

var recvBuf = make([]byte, 64<<10)

// recv blocks until the next request; ok is false when the host has no more.
func recv() (msg []byte, ok bool) {
	for {
		n := hostRecv(unsafe.Pointer(&recvBuf[0]), int32(len(recvBuf)))
		if n < 0 {
			return nil, false
		}
		if int(n) <= len(recvBuf) {
			return recvBuf[:n], true
		}
		recvBuf = make([]byte, n)
	}
}

func send(msg []byte) {
	flushOutput()
	if len(msg) == 0 {
		hostSend(nil, 0)
		return
	}
	hostSend(unsafe.Pointer(&msg[0]), int32(len(msg)))
}

// Output is coalesced: console writes collect in pending and reach the
// host as one chunk (one event) when the stream changes, pendingMax bytes
// are waiting, the oldest waiting byte is pendingAge old, or the driver is
// about to block or answer (send, read, a timer's sleep, a fetch, exit). A host
// call and an event per console.log cost ~10 µs; a chunk costs that once.
// A reader sees output at most about an epoch tick (5 ms) late while the
// guest computes, and at once when it waits (an interactive process's
// prompt, then read).
//
// The age comes from the host: the driver registers outputTick (write to
// fd 3), which the engine's epoch callback sets to 1 at every tick, and a
// write that finds it set hands the waiting output over. Reading the clock
// at every write instead (a host call) was a tenth of a console.log; it is
// still the way with a host that doesn't tick (pendingAge).
const (
	pendingMax = 16 << 10
	pendingAge = 2 * time.Millisecond
	tickFD     = 3
)

var (
	outputTick uint8 // set by the host's epoch callback
	ticking    bool  // the host ticks outputTick (registerTick)
)

// registerTick names outputTick to the host, at every entry (restore): a
// guest entered again after a capture may run in a new store.
func registerTick() {
	ticking = hostWrite(tickFD, unsafe.Pointer(&outputTick), 1) == 1
}

// aged reports whether the waiting output is due.
func aged() bool {
	if ticking {
		if outputTick == 0 {
			return false
		}
		outputTick = 0
		return true
	}
	return time.Since(pending.since) >= pendingAge
}

var pending struct {
	fd    int32
	buf   []byte
	since time.Time // when the oldest waiting byte was written
	live  bool      // the run's readers follow its output: no coalescing
}

// write writes a then b (a line and its newline: one write).
func write(fd int32, a, b string) {
	if len(a)+len(b) == 0 {
		return
	}
	beginWrite(fd)
	pending.buf = append(append(pending.buf, a...), b...)
	endWrite()
}

// beginWrite and endWrite bracket appending to pending.buf for fd.
func beginWrite(fd int32) {
	if fd != pending.fd && len(pending.buf) > 0 {
		flushOutput()
	}
	if len(pending.buf) == 0 {
		pending.fd = fd
		if !ticking {
			pending.since = time.Now()
		}
	}
}

func endWrite() {
	if pending.live || len(pending.buf) >= pendingMax || aged() {
		flushOutput()
	}
}

// flushOutput hands the waiting output to the host.
func flushOutput() {
	if len(pending.buf) == 0 {
		return
	}
	b := pending.buf
	pending.buf = pending.buf[:0]
	if cap(pending.buf) > 4*pendingMax { // one huge write: don't keep its buffer
		pending.buf = nil
	}
	hostWrite(pending.fd, unsafe.Pointer(&b[0]), int32(len(b)))
}

// read reads up to len(p) bytes of stdin; 0 means EOF.
func read(p []byte) int {
	flushOutput()
	if len(p) == 0 {
		return 0
	}
	return int(hostRead(unsafe.Pointer(&p[0]), int32(len(p))))
}
