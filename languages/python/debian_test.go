package python_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
)

// pinnedDebianVersion is the python3.11 revision the image is built from
// (PY_VER in guest-images/python/base.sh).
func pinnedDebianVersion(tb testing.TB) string {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "guest-images", "python", "base.sh"))
	if err != nil {
		tb.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^PY_PKG=python3\.11\s+PY_VER=(\S+)$`).FindSubmatch(src)
	if m == nil {
		tb.Fatal("no PY_VER in base.sh")
	}
	return string(m[1])
}

// sys.version names the Debian revision the interpreter was built from, in
// the place of upstream's "main", with the date and time of that
// revision's changelog entry as Debian's own build writes them.
func TestSysVersionIsDebians(t *testing.T) {
	ver := pinnedDebianVersion(t)
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import sys, platform
[sys.version, list(sys._git), list(platform.python_build())]`})
	if res.Outcome != wasmexec.Succeeded {
		t.Fatalf("%s %+v", res.Outcome, res.Error)
	}
	tag := "debian/" + ver
	want := regexp.MustCompile(`^\["3\.11\.2 \(` + regexp.QuoteMeta(tag) +
		`, ([A-Z][a-z]{2} [ 0-9][0-9] [0-9]{4}), ([0-9]{2}:[0-9]{2}:[0-9]{2})\) \[Clang 16\.[^\]]*\]",` +
		`\["CPython","` + regexp.QuoteMeta(tag) + `",""\],` +
		`\["` + regexp.QuoteMeta(tag) + `","([A-Z][a-z]{2} [ 0-9][0-9] [0-9]{4}) ([0-9:]{8})"\]\]$`)
	m := want.FindStringSubmatch(string(res.Value))
	if m == nil {
		t.Fatalf("got %s, want sys.version naming %s", res.Value, tag)
	}
	if m[1] != m[3] || m[2] != m[4] {
		t.Errorf("sys.version's date %s %s, platform's %s %s", m[1], m[2], m[3], m[4])
	}
	// Not the build's fixed SOURCE_DATE_EPOCH (Nov 14 2023): the date of a
	// bookworm security revision, as in Debian's sys.version.
	if m[1] == "Nov 14 2023" {
		t.Errorf("sys.version has the build's SOURCE_DATE_EPOCH, not the changelog's date: %s", res.Value)
	}
}

// Fixes in Debian's patch series (absent from the upstream 3.11.2 tarball)
// are in the guest's stdlib: each case prints the same in the guest as in
// Debian's python3.11 on this machine, and as written here.
func TestDebianSecurityPatches(t *testing.T) {
	const helper = `
def t(f):
    try:
        return repr(f())
    except Exception as e:
        return type(e).__name__ + ": " + str(e)
`
	for _, tc := range []struct {
		name, code, want string
	}{
		{"urlsplit strips leading C0 controls and spaces (CVE-2023-24329)",
			`import urllib.parse; print(t(lambda: tuple(urllib.parse.urlsplit("\x00\x1f https://example.com/a"))))`,
			"('https', 'example.com', '/a', '', '')"},
		{"urlsplit refuses an IPv4 address in brackets (CVE-2024-11168)",
			`import urllib.parse; print(t(lambda: urllib.parse.urlsplit("http://user@[192.168.0.1]/")))`,
			"ValueError: An IPv4 address cannot be in brackets"},
		{"urlsplit refuses brackets inside a host name (CVE-2025-0938)",
			`import urllib.parse; print(t(lambda: urllib.parse.urlsplit("http://prefix[::1]/")))`,
			"ValueError: Invalid IPv6 URL"},
		{"parseaddr refuses a malformed address (CVE-2023-27043)",
			`import email.utils; print(t(lambda: email.utils.parseaddr("alice@example.org)<bob@example.org>")))`,
			"('', '')"},
		{"getaddresses refuses a malformed address (CVE-2023-27043)",
			`import email.utils; print(t(lambda: email.utils.getaddresses(["alice@example.org)<bob@example.org>"])))`,
			"[('', '')]"},
		{"ipaddress: the IANA special-purpose ranges as of the fix (CVE-2024-4032)",
			`import ipaddress; print(t(lambda: [(ipaddress.ip_address(a).is_private, ipaddress.ip_address(a).is_global) for a in ("64:ff9b:1::1", "2001:30::1")]))`,
			"[(True, False), (False, True)]"},
		{"zipfile.Path ends on malformed names (gh-123270; loops forever without)",
			`import io, zipfile
zf = zipfile.ZipFile(io.BytesIO(), "w")
for n in ("/one-slash.txt", "//two-slash.txt", "../parent.txt"):
    zf.writestr(n, b"content")
zf.filename = ""
root = zipfile.Path(zf)
print(t(lambda: [sorted(map(str, root.iterdir())), root.joinpath("..").joinpath("parent.txt").read_bytes()]))`,
			"[['../'], b'content']"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := helper + tc.code + "\n"
			if out, err := exec.Command("/usr/bin/python3.11", "-c", code).Output(); err != nil {
				t.Logf("no comparison with Debian's python3.11 here: %v", err)
			} else if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Fatalf("Debian's python3.11 here prints %q, the test expects %q", got, tc.want)
			}
			r := MustRunner(t)
			res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, Code: code, TimeoutMs: 20000})
			if res.Outcome != wasmexec.Succeeded {
				t.Fatalf("%s %+v", res.Outcome, res.Error)
			}
			if got := strings.TrimSpace(*res.Stdout); got != tc.want {
				t.Fatalf("guest prints %q, Debian's python3.11 %q", got, tc.want)
			}
		})
	}
}

// Modules the interpreter has frozen into python.wasm (posixpath, ntpath,
// os, ...) are Debian's too: make rebuilt them from the patched Lib/, so
// os.path.expandvars has CVE-2025-6075's linear form. With the upstream
// frozen copy this call is quadratic (test_posixpath's
// test_expandvars_large never ends) even when the zip's .py is patched.
func TestFrozenStdlibIsPatched(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import os, posixpath
[posixpath.__spec__.origin, len(os.path.expandvars("${" * 100000)), os.path.expandvars("$A" * 3)]`,
		TimeoutMs: 20000})
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != `["frozen",200000,"$A$A$A"]` {
		t.Fatalf("%s %s %+v", res.Outcome, res.Value, res.Error)
	}
}
