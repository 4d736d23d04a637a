package python_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/testkit/testenv"
	"github.com/wasmexec/wasmexec/languages/python"
)

// A one-shot run with files runs one of them by filePath, as `python FILE`.
func TestFilePathOneShot(t *testing.T) {
	r := MustRunner(t)
	files := map[string]string{
		"app/main.py": "import sys, util\nprint(util.shout(' '.join(sys.argv[1:])))\nprint(__file__, sys.argv[0])\n",
		"app/util.py": "def shout(s):\n    return s.upper() + '!'\n",
	}
	res := MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, FilePath: "app/main.py", Files: files, Args: []string{"hi", "there"}})
	if res.Outcome != wasmexec.Succeeded || *res.Stdout != "HI THERE!\n/workspace/app/main.py app/main.py\n" {
		t.Fatalf("%s %+v %q", res.Outcome, res.Error, *res.Stdout)
	}
	// Relative to the working directory, as a shell would take it.
	res = MustRun(t, r, wasmexec.Request{Kind: wasmexec.KindExecute, FilePath: "main.py", Cwd: "app", Files: files, Args: []string{"x"}})
	if res.Outcome != wasmexec.Succeeded || *res.Stdout != "X!\n/workspace/app/main.py main.py\n" {
		t.Fatalf("cwd: %s %+v %q", res.Outcome, res.Error, *res.Stdout)
	}
}

func TestFilePathValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  wasmexec.Request
	}{
		{"code beside it", wasmexec.Request{Code: "1", FilePath: "a.py"}},
		{"absolute", wasmexec.Request{FilePath: "/workspace/a.py"}},
		{"escapes", wasmexec.Request{FilePath: "../a.py"}},
		{"unclean", wasmexec.Request{FilePath: "a/../b.py"}},
		{"not python", wasmexec.Request{FilePath: "a.js"}},
		{"tsconfig", wasmexec.Request{FilePath: "a.py", TsconfigPath: "tsconfig.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Kind, tc.req.Language = wasmexec.KindExecute, wasmexec.Python
			if _, err := (python.Driver{}).Prepare(t.Context(), &tc.req); wasmexec.ErrorCode(err) != wasmexec.EInvalid {
				t.Fatalf("err = %v, want invalid_argument", err)
			}
		})
	}
}

// os.utime(path) and Path.touch() set the times to now (this wasi-libc
// would set them to 0: tools/patch_stdlib.py).
func TestUtimeNow(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import os, time, pathlib
open("f.txt", "w").write("x")
os.utime("f.txt", (1, 2))
before = os.stat("f.txt").st_mtime
os.utime("f.txt")
a = os.stat("f.txt")
os.utime("f.txt", (1, 2))
pathlib.Path("f.txt").touch()
b = os.stat("f.txt")
fd = os.open("f.txt", os.O_RDONLY)
os.utime("f.txt", (1, 2))
os.utime(fd)
c = os.fstat(fd)
now = time.time()
[before, all(abs(s.st_mtime - now) < 60 and abs(s.st_atime - now) < 60 for s in (a, b, c)), os.utime in os.supports_fd]`})
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != "[2.0,true,true]" {
		t.Fatalf("%s %s %+v", res.Outcome, res.Value, res.Error)
	}
}

// Symlinks in the workspace behave as on Linux, but for absolute targets
// inside /workspace (stored relative to the link: readlink shows that
// form); one that climbs out, or names a path outside /workspace, leads
// nowhere.
func TestSymlinks(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import os, pathlib, shutil, tarfile, io
os.makedirs("d/e"); open("d/f.txt", "w").write("hi")
os.symlink("d", "rel"); os.symlink("/workspace/d/f.txt", "abs"); os.symlink("d/", "slash")
os.symlink("../../etc/passwd", "up"); os.symlink("nowhere", "dangling")
out = [open("rel/f.txt").read(), open("abs").read(), os.readlink("abs"), os.readlink("slash"),
       os.path.islink("rel"), os.path.isdir("rel/"), sorted(os.listdir("slash/")),
       os.path.exists("dangling"), os.path.lexists("dangling"),
       pathlib.Path("rel/f.txt").resolve().as_posix(), os.path.realpath("abs")]
os.symlink("/etc/passwd", "sys")
for bad in (lambda: open("up").read(), lambda: open("sys").read()):
    try: bad(); out.append("no error")
    except OSError as e: out.append(type(e).__name__)
out.append(os.readlink("sys"))
shutil.copytree("d", "copy", symlinks=True)
os.symlink("f.txt", "copy/lnk")
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as t: t.add("copy")
shutil.rmtree("copy"); buf.seek(0)
with tarfile.open(fileobj=buf) as t: t.extractall(".")
out += [os.readlink("copy/lnk"), open("copy/lnk").read()]
shutil.rmtree("rel") if False else os.unlink("rel")
out.append(os.path.exists("d/f.txt"))
out`})
	want := `["hi","hi","d/f.txt","d",true,true,["e","f.txt"],false,true,"/workspace/d/f.txt","/workspace/d/f.txt","PermissionError","PermissionError","/etc/passwd","f.txt","hi",true]`
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != want {
		t.Fatalf("%s %+v\n got %s\nwant %s", res.Outcome, res.Error, res.Value, want)
	}
}

// The Linux calls the guest builds on WASI (_wasmexec_linux.c):
// os.getrandom, os.sendfile between files, and directory descriptors for
// os.listdir/os.scandir, so os.fwalk and shutil.rmtree's descriptor-based
// walk (the one safe against symlink races) exist as on Linux, following
// links that climb above the walked directory; shutil's copyfile takes its
// sendfile path.
func TestLinuxCallsOnWASI(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import os, shutil, errno
out = []
a, b = os.getrandom(32), os.getrandom(32, os.GRND_NONBLOCK | os.GRND_RANDOM)
out += [len(a), a != b, len(os.getrandom(0))]
try: os.getrandom(4, 0x100)
except OSError as e: out.append(errno.errorcode[e.errno])
open("src", "wb").write(bytes(range(256)) * 1024)
src, dst = os.open("src", os.O_RDONLY), os.open("dst", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
out += [os.sendfile(dst, src, 100, 1000), os.lseek(src, 0, os.SEEK_CUR)]
out += [os.sendfile(dst, src, None, 300000), os.lseek(src, 0, os.SEEK_CUR), os.sendfile(dst, src, None, 10)]
os.close(dst)
out.append(open("dst", "rb").read() == (bytes(range(256)) * 1024)[100:1100] + bytes(range(256)) * 1024)
shutil.copyfile("src", "copy")
out += [open("copy", "rb").read() == open("src", "rb").read(), shutil._USE_CP_SENDFILE]
os.makedirs("t/a/b"); open("t/a/f", "w").close(); os.symlink("a", "t/l")
fd = os.open("t", os.O_RDONLY)
out += [sorted(os.listdir(fd)), sorted(e.name for e in os.scandir(fd)), sorted(os.listdir(fd))]
out.append(sorted((root, sorted(dirs), sorted(files)) for root, dirs, files, _ in os.fwalk("t")))
os.close(fd)
os.makedirs("u/x"); os.makedirs("u/y"); open("u/y/f", "w").close(); os.symlink("../y", "u/x/link")
out.append(sorted((root, sorted(dirs), sorted(files)) for root, dirs, files, _ in os.fwalk("u", follow_symlinks=True)))
out.append(shutil.rmtree.avoids_symlink_attacks)
shutil.rmtree("t")
out.append(os.path.exists("t"))
out`})
	// What Debian's python3.11 prints for the same code.
	want := `[32,true,0,"EINVAL",1000,0,262144,262144,0,true,true,true,["a","l"],["a","l"],["a","l"],[["t",["a","l"],[]],["t/a",["b"],["f"]],["t/a/b",[],[]]],[["u",["x","y"],[]],["u/x",["link"],[]],["u/x/link",[],["f"]],["u/y",[],["f"]]],true,false]`
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != want {
		t.Fatalf("%s %+v\n got %s\nwant %s", res.Outcome, res.Error, res.Value, want)
	}
}

// Paths outside the preopens behave as on Linux: a missing one is
// FileNotFoundError, "/" lists what the guest has, chdir("/") works, and
// the root is read-only.
func TestRootDirectory(t *testing.T) {
	r := MustRunner(t)
	for _, tc := range []struct{ name, code, want string }{
		{"missing path outside the workspace", `
import os, errno
out = []
for p in ("/usr/share/zoneinfo/No/Such_Zone", "/etc/passwd", "/nonexistent/x", "/usr/local/lib/nonexistent"):
    try:
        open(p)
    except FileNotFoundError as e:
        out.append(e.errno == errno.ENOENT)
out`, "[true,true,true,true]"},
		{"listing /", "import os\n[sorted(os.listdir('/')), sorted(os.listdir('/usr')), os.listdir('/usr/local'), 'python311.zip' in os.listdir('/usr/local/lib')]", `[["usr","workspace"],["local","share"],["lib"],true]`},
		{"chdir /", "import os\nos.chdir('/')\nopen('workspace/w.txt', 'w').write('hi')\n[os.getcwd(), open('/workspace/w.txt').read(), os.path.isdir('workspace')]", `["/","hi",true]`},
		{"root is read-only", `
out = []
for p in ("/x.txt", "/usr/x.txt", "/workspace/../y.txt", "/usr/share/zoneinfo/x"):
    try:
        open(p, "w")
        out.append("wrote " + p)
    except PermissionError:
        out.append("refused")
out`, `["refused","refused","refused","refused"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := MustRun(t, r, wasmexec.Request{Code: tc.code})
			if res.Outcome != wasmexec.Succeeded || string(res.Value) != tc.want {
				t.Fatalf("%s %s %+v, want %s", res.Outcome, res.Value, res.Error, tc.want)
			}
		})
	}
}

// The bundled tzdata's zone files are where Linux has them.
func TestZoneinfoDirectory(t *testing.T) {
	if _, err := os.Stat(filepath.Join(testenv.ImagesDir(), python.LayerImage, "site", "tzdata", "zoneinfo")); err != nil {
		t.Skip("the bundled-library layer (guest-images/pylibs) is not built")
	}
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import os, zoneinfo
with open("/usr/share/zoneinfo/Europe/Berlin", "rb") as f:
    magic = f.read(4)
[magic.decode(), "Europe" in os.listdir("/usr/share/zoneinfo"), str(zoneinfo.ZoneInfo("America/New_York"))]`})
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != `["TZif",true,"America/New_York"]` {
		t.Fatalf("%s %s %+v", res.Outcome, res.Value, res.Error)
	}
}

// time.tzset honours TZ (from the request's env at start, or set later),
// with zones from the bundled tzdata and POSIX TZ strings.
func TestTimezone(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Env: map[string]string{"TZ": "Europe/Berlin"}, Code: `
import os, time, zoneinfo
out = [time.tzname, time.timezone, time.localtime(1700000000).tm_hour, time.strftime("%Z", time.localtime(1690000000)),
       time.mktime(time.localtime(1700000000)), str(zoneinfo.ZoneInfo("Asia/Tokyo"))]
os.environ["TZ"] = "EST5EDT,M3.2.0,M11.1.0"
time.tzset()
out += [time.tzname, time.localtime(1700000000).tm_hour]
del os.environ["TZ"]
time.tzset()
out += [time.tzname, time.localtime(1700000000).tm_hour]
out`})
	want := `[["CET","CEST"],-3600,23,"CEST",1700000000.0,"Asia/Tokyo",["EST","EDT"],17,["UTC","UTC"],22]`
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != want {
		t.Fatalf("%s %s %+v\nwant %s", res.Outcome, res.Value, res.Error, want)
	}
}

// C code that asks libc for local time (datetime's astimezone(), naive
// fromtimestamp() and timestamp(), sqlite's 'localtime') follows TZ as
// time.localtime() does, the zone's name and offset included.
func TestTimezoneInC(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Env: map[string]string{"TZ": "Europe/Berlin"}, Code: `
import datetime, os, sqlite3, time
def now():
    utc = datetime.datetime(2012, 11, 4, 6, 30, tzinfo=datetime.timezone.utc)
    return [utc.astimezone().strftime("%H:%M %z %Z"), datetime.datetime.fromtimestamp(1700000000).isoformat(),
            datetime.datetime(2023, 11, 14, 12, 0).timestamp(),
            sqlite3.connect(":memory:").execute("select datetime(1700000000, 'unixepoch', 'localtime')").fetchone()[0]]
out = now()
os.environ["TZ"] = "EST+05EDT,M3.2.0,M11.1.0"
time.tzset()
out += now()
del os.environ["TZ"]
time.tzset()
out += now()
out`})
	want := `["07:30 +0100 CET","2023-11-14T23:13:20",1699959600.0,"2023-11-14 23:13:20",` +
		`"01:30 -0500 EST","2023-11-14T17:13:20",1699981200.0,"2023-11-14 17:13:20",` +
		`"06:30 +0000 UTC","2023-11-14T22:13:20",1699963200.0,"2023-11-14 22:13:20"]`
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != want {
		t.Fatalf("%s %s %+v\nwant %s", res.Outcome, res.Value, res.Error, want)
	}
}

// uuid has its C half (_uuid over libuuid), as Debian's python3.11 does.
func TestUUIDModule(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import uuid, _uuid
a, b = uuid.uuid1(), uuid.uuid1()
[uuid._uuid is _uuid, _uuid.has_uuid_generate_time_safe, a.version, a.variant == uuid.RFC_4122, a != b,
 a.node == b.node, bool(a.node & (1 << 40)), uuid.uuid4().version, str(uuid.uuid5(uuid.NAMESPACE_DNS, "python.org"))]`})
	want := `[true,1,1,true,true,true,true,4,"886313e1-3b8a-5372-9b90-0c9aee199e5d"]`
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != want {
		t.Fatalf("%s %s %+v\nwant %s", res.Outcome, res.Value, res.Error, want)
	}
}

// The pure-Python twins of C modules are there, and the packages whose C
// half is missing import as far as Linux gets without it.
func TestWholeStdlib(t *testing.T) {
	r := MustRunner(t)
	res := MustRun(t, r, wasmexec.Request{Code: `
import _pydecimal, _pyio, importlib.util
[str(_pydecimal.Decimal(1) / 3)[:6], _pyio.BytesIO(b"ab").read().decode(), importlib.util.find_spec("ctypes") is not None,
 importlib.util.find_spec("test") is None]`})
	if res.Outcome != wasmexec.Succeeded || string(res.Value) != `["0.3333","ab",true,true]` {
		t.Fatalf("%s %s %+v", res.Outcome, res.Value, res.Error)
	}
}
