package engine

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// GHSA-vqjp-4c8c-hfgg: cap-std follows a symlink natively when a path's
// trailing slash lands on it, so a link whose target climbs out of the
// workspace would lead out of it. Guests may make symlinks in the
// workspace, so every shape of that escape must stay inside: links whose
// targets climb, reached with and without trailing slashes, directly and
// through another link. (Where the kernel has openat2, cap-std's fast path
// confines these too; the trimming itself is checked by the link targets
// the host sees and by TestTrimTrailingSlashes.)
func TestSymlinksStayInTheWorkspace(t *testing.T) {
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	top := t.TempDir()
	ws := filepath.Join(top, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "secret.txt"), []byte("host secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := MustStartHostile(t, img, GuestOptions{Workspace: ws}) // fd 3: /workspace
	const ws3 = 3
	symlink := func(target, link string) int32 {
		errno, _ := h.resultData(opSymlink, []uint32{ws3, dataAddr, uint32(len(target)), dataAddr + uint32(len(target)), uint32(len(link))}, []byte(target+link))
		return errno
	}
	open := func(p string, oflags, lookup uint32) int32 {
		errno, _ := h.openAt(ws3, p, oflags, lookup)
		return errno
	}
	stat := func(p string, lookup uint32) (int32, byte) {
		errno, ft, _ := h.statAt(ws3, p, lookup)
		return errno, ft
	}
	readlink := func(p string) (int32, string) {
		const buf = 0x3000
		errno, n := h.resultData(opReadlink, []uint32{ws3, dataAddr, uint32(len(p)), buf, 256}, []byte(p))
		if errno != 0 {
			return errno, ""
		}
		res, _ := h.call("", opSend, []uint32{buf, n}, nil)
		return 0, string(res.Response)
	}

	if errno, _ := h.resultData(opMkdir, []uint32{ws3, dataAddr, 4}, []byte("sub/")); errno != 0 {
		t.Fatalf("mkdir sub/ = %d", errno)
	}
	if errno, _ := h.resultData(opPathOpen, []uint32{ws3, dataAddr, 5, 1 /* creat */, 1<<1 | 1<<6, 0, 0}, []byte("sub/f")); errno != 0 {
		t.Fatalf("create sub/f = %d", errno)
	}
	for _, tc := range []struct {
		target, link string
		want         int32
	}{
		{"../secret.txt", "up", 0},
		{"../", "updir", 0},
		{"../../../../../../..//", "root", 0},
		{"updir/", "chain", 0},
		{"sub/", "s", 0},
		{"/workspace/sub//", "abs", 0},
		{"/workspace/sub/f", "sub/absf", 0},
		{"/etc/passwd", "etc", 0},
		{"/workspace/../etc/", "etc2", 0},
		{"/workspacex", "etc3", 0},
		{"x", "../outside", wasiErrnoPerm},
		{"x\x00y", "nul", wasiErrnoInval},
	} {
		if errno := symlink(tc.target, tc.link); errno != tc.want {
			t.Fatalf("path_symlink(%q, %q) = %d, want %d", tc.target, tc.link, errno, tc.want)
		}
	}
	// Targets lose trailing slashes; absolute ones inside /workspace are
	// made relative to the link.
	// Other absolute targets are kept: links that lead nowhere.
	for link, want := range map[string]string{"updir": "..", "root": "../../../../../../..", "chain": "updir", "s": "sub", "abs": "sub", "sub/absf": "f",
		"etc": "/etc/passwd", "etc2": "/workspace/../etc", "etc3": "/workspacex"} {
		if got, err := os.Readlink(filepath.Join(ws, link)); err != nil || got != want {
			t.Fatalf("the host's link %s = %q, %v; want %q", link, got, err, want)
		}
		if errno, got := readlink(link); errno != 0 || got != want {
			t.Fatalf("path_readlink(%s) = %d %q, want %q", link, errno, got, want)
		}
	}

	// No way through a climbing link reaches the host's file.
	for _, p := range []string{"up", "up/", "up//", "up/.", "updir/secret.txt", "updir/", "updir//secret.txt",
		"chain/secret.txt", "chain/", "root/etc/passwd", "root/", "root/" + top[1:] + "/secret.txt",
		"etc", "etc/", "etc2/passwd", "etc2/"} {
		for _, lookup := range []uint32{0, wasiLookupSymlinkFollow} {
			if errno := open(p, 0, lookup); errno == 0 {
				t.Fatalf("path_open(%q, lookup %d) succeeded: it left the workspace", p, lookup)
			}
			if errno, ft := stat(p, lookup); errno == 0 && (lookup == wasiLookupSymlinkFollow || p[len(p)-1] == '/') {
				t.Fatalf("path_filestat_get(%q, lookup %d) succeeded (type %d): it left the workspace", p, lookup, ft)
			}
		}
	}

	// A trailing slash still means "a directory, following the link".
	if errno, ft := stat("s/", 0); errno != 0 || ft != wasiFiletypeDirectory {
		t.Fatalf("stat s/ = %d, type %d; want the directory", errno, ft)
	}
	if errno, ft := stat("s", 0); errno != 0 || ft != 7 /* symbolic_link */ {
		t.Fatalf("lstat s = %d, type %d; want the link", errno, ft)
	}
	if errno, _ := stat("sub/f/", 0); errno != wasiErrnoNotdir {
		t.Fatalf("stat sub/f/ = %d, want ENOTDIR", errno)
	}
	if errno := open("sub/f/", 0, 0); errno != wasiErrnoNotdir {
		t.Fatalf("open sub/f/ = %d, want ENOTDIR", errno)
	}
	if errno := open("s/", 0, 0); errno != 0 {
		t.Fatalf("open s/ = %d, want the directory", errno)
	}
	if errno, _ := readlink("s/"); errno != wasiErrnoInval {
		t.Fatalf("readlink s/ = %d, want EINVAL", errno)
	}
	if errno, _ := h.resultData(opUnlink, []uint32{ws3, dataAddr, 6}, []byte("sub/f/")); errno != wasiErrnoNotdir {
		t.Fatalf("unlink sub/f/ = %d, want ENOTDIR", errno)
	}
	if _, err := os.Stat(filepath.Join(ws, "sub", "f")); err != nil {
		t.Fatalf("unlink sub/f/ removed the file: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(top, "secret.txt")); err != nil || string(b) != "host secret" {
		t.Fatalf("the host's file changed: %q, %v", b, err)
	}
}

func TestWorkspaceRelative(t *testing.T) {
	for _, tc := range []struct {
		target, link, want string
		ok                 bool
	}{
		{"/workspace/a/b", "c/l", "../a/b", true},
		{"/workspace/a/b", "l", "a/b", true},
		{"/workspace", "l", ".", true},
		{"/workspace", "a/b/l", "../..", true},
		{"/workspace/a", "a/l", ".", true},
		{"/workspace/./a/../b", "x/y/l", "../../b", true},
		{"/etc", "l", "", false},
		{"/workspace/../etc", "l", "", false},
		{"/workspacefoo", "l", "", false},
		{"/workspace/a", "../l", "", false},
	} {
		got, ok := workspaceRelative(tc.target, tc.link)
		if ok != tc.ok || got != tc.want {
			t.Fatalf("workspaceRelative(%q, %q) = %q, %v; want %q, %v", tc.target, tc.link, got, ok, tc.want, tc.ok)
		}
	}
}

func TestTrimTrailingSlashes(t *testing.T) {
	mem := []byte("a/b//" + "/" + "///" + "x")
	for _, tc := range []struct {
		p, n, want int32
		trimmed    bool
	}{
		{0, 5, 3, true},  // "a/b//"
		{0, 3, 3, false}, // "a/b"
		{5, 1, 1, false}, // "/"
		{5, 4, 1, true},  // "////"
		{9, 1, 1, false}, // "x"
		{0, 0, 0, false},
		{8, 9, 9, false}, // out of bounds: left to wasmtime
	} {
		if got, trimmed := trimTrailingSlashes(mem, tc.p, tc.n); got != tc.want || trimmed != tc.trimmed {
			t.Fatalf("trim(%q) = %d, %v; want %d, %v", mem[tc.p:min(int(tc.p+tc.n), len(mem))], got, trimmed, tc.want, tc.trimmed)
		}
	}
}

// cap-std confines a path relative to a directory descriptor to that
// directory, where Linux confines it to nothing (here: the workspace). A
// path from a descriptor that climbs above it, directly or through a
// link, runs again from /workspace: it reaches what Linux would inside
// the workspace, and nothing outside it.
func TestDirectoryDescriptorsReachTheWorkspace(t *testing.T) {
	e, _ := MustTestEngine(t)
	img := MustWatImage(t, e, "hostile", nil, nil)
	top := t.TempDir()
	ws := filepath.Join(top, "ws")
	for _, d := range []string{"ws/a/b", "ws/a/c"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"ws/a/c/f": "in", "secret.txt": "host secret"} {
		if err := os.WriteFile(filepath.Join(top, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../c", filepath.Join(ws, "a/b/up")); err != nil {
		t.Fatal(err)
	}
	h := MustStartHostile(t, img, GuestOptions{Workspace: ws}) // fd 3: /workspace
	open := h.openAt
	stat := func(dirfd uint32, p string) (int32, uint64) {
		errno, _, size := h.statAt(dirfd, p, wasiLookupSymlinkFollow)
		return errno, size
	}
	errno, b := open(3, "a/b", wasiOflagsDirectory, 0)
	if errno != 0 {
		t.Fatalf("open a/b = %d", errno)
	}
	// Through the link and by "..", from the descriptor of a/b.
	for _, p := range []string{"up/f", "../c/f", "up/../c/f"} {
		if errno, size := stat(b, p); errno != 0 || size != 2 {
			t.Fatalf("stat(a/b, %q) = %d, size %d; want a/c/f", p, errno, size)
		}
	}
	errno, up := open(b, "up", wasiOflagsDirectory, wasiLookupSymlinkFollow)
	if errno != 0 {
		t.Fatalf("open(a/b, up) = %d", errno)
	}
	// A descriptor opened that way knows where it is, too.
	if errno, size := stat(up, "../c/f"); errno != 0 || size != 2 {
		t.Fatalf("stat(a/b/up, ../c/f) = %d, size %d", errno, size)
	}
	// Never past the workspace.
	climb := "../../../secret.txt"
	for _, p := range []string{climb, "up/" + climb, "../../" + filepath.Base(ws) + "/../secret.txt"} {
		if errno, _ := stat(b, p); errno == 0 {
			t.Fatalf("stat(a/b, %q) reached the host's file", p)
		}
		if errno, _ := open(b, p, 0, 0); errno == 0 {
			t.Fatalf("open(a/b, %q) reached the host's file", p)
		}
	}
	if errno, _ := stat(3, "../secret.txt"); errno == 0 {
		t.Fatal("stat(/workspace, ../secret.txt) reached the host's file")
	}

	// A descriptor opened through a link that is then swapped for one
	// that climbs out: no path from it (an absolute one, "/", ".", the
	// empty one) turns into one ending in a slash on that link.
	if err := os.Symlink("c", filepath.Join(ws, "a/l")); err != nil {
		t.Fatal(err)
	}
	errno, l := open(3, "a/l", wasiOflagsDirectory, wasiLookupSymlinkFollow)
	if errno != 0 {
		t.Fatalf("open a/l = %d", errno)
	}
	if err := os.Remove(filepath.Join(ws, "a/l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../..", filepath.Join(ws, "a/l")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "//", ".", "", "./", "secret.txt", "../secret.txt", "../../secret.txt"} {
		if errno, size := stat(l, p); errno == 0 && size == uint64(len("host secret")) {
			t.Fatalf("stat(a/l, %q) reached the host's file", p)
		}
		if errno, fd := open(l, p+"/secret.txt", 0, 0); errno == 0 {
			if errno, size := stat(fd, "."); errno == 0 && size == uint64(len("host secret")) {
				t.Fatalf("open(a/l, %q) reached the host's file", p+"/secret.txt")
			}
		}
	}
}

// The paths the host joins for a descriptor go to wasmtime again, so they
// must never end in a slash (GHSA-vqjp-4c8c-hfgg) nor be absolute.
func TestDescriptorPathsNeverEndInASlash(t *testing.T) {
	g := &Guest{workspaceFD: 3, opts: GuestOptions{Workspace: "/ws"}, shim: &wasiShim{open: map[int32]fdPath{
		5: {rel: "a/l", known: true},
		6: {},
	}}}
	for _, tc := range []struct {
		fd         int32
		name, want string
		known      bool
	}{
		{3, "a/b", "a/b", true},
		{3, "a/b//", "a/b", true},
		{3, "/", "", false},
		{3, "", "", false},
		{5, "x", "a/l/x", true},
		{5, "/", "", false},
		{5, "//", "", false},
		{5, ".", "a/l/.", true},
		{5, "./", "a/l/.", true},
		{5, "../", "a/l/..", true},
		{6, "x", "", false},
		{7, "x", "", false},
	} {
		got := g.fdPathOf(tc.fd, tc.name)
		if got.known != tc.known || got.rel != tc.want {
			t.Errorf("fdPathOf(%d, %q) = %q %v, want %q %v", tc.fd, tc.name, got.rel, got.known, tc.want, tc.known)
		}
	}
}

// openAt has the guest open p relative to dirfd for reading: the errno
// and the descriptor.
func (h *hostile) openAt(dirfd uint32, p string, oflags, lookup uint32) (int32, uint32) {
	h.tb.Helper()
	const rRead = 1 << 1
	return h.resultData(opPathOpen, []uint32{dirfd, dataAddr, uint32(len(p)), oflags, rRead, lookup, 0}, []byte(p))
}

// statAt has the guest stat p relative to dirfd: the errno, the file type
// and the size it got.
func (h *hostile) statAt(dirfd uint32, p string, lookup uint32) (int32, byte, uint64) {
	h.tb.Helper()
	const buf = 0x3000
	errno, _ := h.resultData(opStat, []uint32{dirfd, dataAddr, uint32(len(p)), buf, 0, lookup}, []byte(p))
	res, _ := h.call("", opSend, []uint32{buf, filestatSize}, nil)
	st := res.Response
	return errno, st[filestatFiletypeOffset], binary.LittleEndian.Uint64(st[32:]) // size: after nlink
}
