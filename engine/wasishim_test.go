package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// GHSA-852m-cvvp-9p4w: wasmtime 25.0.0 lets a guest open host descriptors
// without limit; one guest could take all of the server's. Past
// maxGuestFiles, path_open fails with EMFILE; closing one makes room again.
func TestGuestOpenFileLimit(t *testing.T) {
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "f"), []byte("x"), 0o644)
	h := MustStartHostile(t, img, GuestOptions{Workspace: ws})
	const rRead = 1 << 1
	open := func() (int32, uint32) {
		return h.resultData(opPathOpen, []uint32{3, dataAddr, 1, 0, rRead, 0, 0}, []byte("f"))
	}
	var fds []uint32
	for i := 0; i < maxGuestFiles; i++ {
		errno, fd := open()
		if errno != 0 {
			t.Fatalf("open #%d: errno %d", i+1, errno)
		}
		fds = append(fds, fd)
	}
	if errno, _ := open(); errno != wasiErrnoMfile {
		t.Fatalf("open #%d: errno %d, want EMFILE (%d)", maxGuestFiles+1, errno, wasiErrnoMfile)
	}
	if errno, _ := h.result(opFdClose, fds[0]); errno != 0 {
		t.Fatalf("close: errno %d", errno)
	}
	if errno, _ := open(); errno != 0 {
		t.Fatalf("open after a close: errno %d", errno)
	}
	// Closing what isn't open changes nothing.
	if errno, _ := h.result(opFdClose, 999); errno != wasiErrnoBadf {
		t.Fatalf("close(999): errno %d", errno)
	}
	if errno, _ := open(); errno != wasiErrnoMfile {
		t.Fatalf("open over the limit: errno %d", errno)
	}
	// The limit is per guest.
	h2 := MustStartHostile(t, img, GuestOptions{Workspace: ws})
	if errno, _ := h2.resultData(opPathOpen, []uint32{3, dataAddr, 1, 0, rRead, 0, 0}, []byte("f")); errno != 0 {
		t.Fatalf("another guest's open: errno %d", errno)
	}
}

// GHSA-96f6-r43r-8c24: wasmtime 25.0.0 copies three uninitialized bytes per
// directory entry into guest memory. The shadow zeroes them.
func TestReaddirPaddingIsZeroed(t *testing.T) {
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	ws := t.TempDir()
	for i := 0; i < 40; i++ {
		os.WriteFile(filepath.Join(ws, fmt.Sprintf("file-%02d", i)), nil, 0o644)
	}
	h := MustStartHostile(t, img, GuestOptions{Workspace: ws})
	const buf, bufLen = 0x4000, 0x2000
	for off := uint32(0); off < bufLen; off += 4 {
		h.result(opPoke, buf+off, 0xAAAAAAAA)
	}
	errno, used := h.result(opReaddir, 3, buf, bufLen)
	if errno != 0 || used == 0 || used >= bufLen {
		t.Fatalf("fd_readdir: errno %d, %d bytes", errno, used)
	}
	res, _ := h.call("", opSend, []uint32{buf, used}, nil)
	b := res.Response
	entries := 0
	for off := 0; off+direntSize <= len(b); entries++ {
		if pad := b[off+21 : off+24]; !bytes.Equal(pad, []byte{0, 0, 0}) {
			t.Fatalf("entry %d: padding % x", entries, pad)
		}
		off += direntSize + int(binary.LittleEndian.Uint32(b[off+16:]))
	}
	if entries != 42 {
		t.Fatalf("%d entries, want 42 (., .. and 40 files)", entries)
	}
}

func TestZeroDirentPadding(t *testing.T) {
	entry := func(name string) []byte {
		b := bytes.Repeat([]byte{0xEE}, direntSize)
		binary.LittleEndian.PutUint32(b[16:], uint32(len(name)))
		return append(b, name...)
	}
	full := append(entry("a"), entry("bcd")...)
	for cut := 0; cut <= len(full); cut++ {
		b := append([]byte(nil), full[:cut]...)
		zeroDirentPadding(b)
		for _, start := range []int{21, direntSize + 1 + 21} {
			for i := start; i < start+3 && i < cut; i++ {
				if b[i] != 0 {
					t.Fatalf("cut %d: byte %d = %#x", cut, i, b[i])
				}
			}
		}
		for i := 0; i < cut; i++ {
			isPad := (i >= 21 && i < 24) || (i >= direntSize+1+21 && i < direntSize+1+24)
			if !isPad && b[i] != full[i] {
				t.Fatalf("cut %d: byte %d changed", cut, i)
			}
		}
	}
}
