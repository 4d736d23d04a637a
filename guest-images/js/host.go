package main

import "unsafe"

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
	if len(msg) == 0 {
		hostSend(nil, 0)
		return
	}
	hostSend(unsafe.Pointer(&msg[0]), int32(len(msg)))
}

func write(fd int32, b []byte) {
	if len(b) == 0 {
		return
	}
	hostWrite(fd, unsafe.Pointer(&b[0]), int32(len(b)))
}

// read reads up to len(p) bytes of stdin; 0 means EOF.
func read(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	return int(hostRead(unsafe.Pointer(&p[0]), int32(len(p))))
}
