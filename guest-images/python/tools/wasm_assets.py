#!/usr/bin/env python
"""Wrapper around CPython's Tools/wasm/wasm_assets.py (`make wasm_stdlib`).

build.sh renames the upstream script to wasm_assets_upstream.py and puts
this file in its place. It runs the upstream script unchanged except that
the stdlib zip is written reproducibly:

- every .pyc is compiled in memory as an *unchecked hash-based* pyc (no
  source mtimes involved; zipimport never looks for sources anyway),
- co_filename is the in-guest path "/usr/local/lib/python311.zip/<module>.py"
  instead of the build machine's path,
- the build root (env WASMEXEC_BUILD_ROOT) is replaced by "/build" in the
  sources (it appears in _sysconfigdata),
- zip entries carry a fixed timestamp (SOURCE_DATE_EPOCH) and mode 0644.

It also ships the whole pure-Python stdlib: upstream leaves out modules
it judges useless on WASI (pure-Python twins of C modules such as
_pydecimal and _pyio, packages whose C half is missing such as ctypes and
multiprocessing, deprecated and platform modules, distutils, tkinter,
idlelib, ...). Code that imports them should get what it gets on Linux
when it runs there without the C half (an ImportError naming it), not
"No module named ...", and some work unchanged. Only tests stay out: the
test package and the test directories inside other packages.

Run it with PYTHONHASHSEED=0 so set/frozenset constants marshal the same way.
"""
import importlib._bootstrap_external as bext
import importlib.util
import os
import pathlib
import sys
import time
import zipfile

GUEST_ZIP = "/usr/local/lib/python{}{}.zip".format(*sys.version_info[:2])
BUILD_ROOT = os.environ.get("WASMEXEC_BUILD_ROOT", "")
EPOCH = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
DATE_TIME = time.gmtime(EPOCH)[:6]


class ReproduciblePyZipFile(zipfile.PyZipFile):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._compiled = {}

    def _get_codename(self, pathname, basename):
        # Same naming as PyZipFile: (file name, archive name).
        src = pathname + ".py"
        archivename = os.path.split(pathname)[1] + ".pyc"
        if basename:
            archivename = "%s/%s" % (basename, archivename)
        with open(src, "rb") as f:
            data = f.read()
        if BUILD_ROOT:
            data = data.replace(BUILD_ROOT.encode(), b"/build")
        dfile = GUEST_ZIP + "/" + archivename[:-1]
        code = compile(data, dfile, "exec", dont_inherit=True,
                       optimize=self._optimize)
        pyc = bext._code_to_hash_pyc(code, importlib.util.source_hash(data),
                                     checked=False)
        self._compiled[archivename] = bytes(pyc)
        return src, archivename

    def write(self, filename, arcname=None, compress_type=None,
              compresslevel=None):
        if arcname in self._compiled:
            info = zipfile.ZipInfo(arcname, DATE_TIME)
            info.compress_type = self.compression
            info.external_attr = 0o644 << 16
            self.writestr(info, self._compiled.pop(arcname),
                          compresslevel=self.compresslevel)
            return
        super().write(filename, arcname, compress_type, compresslevel)


# What stays out of the zip: tests only (replaces upstream's omit lists).
OMIT = '''
OMIT_FILES = (
    "test/",
    "ctypes/test/",
    "distutils/tests/",
    "idlelib/idle_test/",
    "lib2to3/tests/",
    "tkinter/test/",
    "unittest/test/",
)
OMIT_NETWORKING_FILES = ()
OMIT_MODULE_FILES = {}

'''


def upstream_source(path):
    src = path.read_text(encoding="utf-8")
    start = src.find("OMIT_FILES = (")
    end = src.find("# regression test sub directories")
    if start < 0 or end < start or src.count("OMIT_FILES = (") != 1:
        sys.exit("wasm_assets: the upstream script's omit lists are not where expected")
    return src[:start] + OMIT + src[end:]


zipfile.PyZipFile = ReproduciblePyZipFile
upstream = pathlib.Path(__file__).with_name("wasm_assets_upstream.py")
sys.argv[0] = str(upstream)
code = compile(upstream_source(upstream), str(upstream), "exec")
exec(code, {"__name__": "__main__", "__file__": str(upstream), "__builtins__": __builtins__})
