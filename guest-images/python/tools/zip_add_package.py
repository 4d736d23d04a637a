"""Append a pure-Python package tree to the stdlib zip as bytecode.

    zip_add_package.py ZIP DIR

Every DIR/**.py is compiled (optimization 0, like the stdlib's) and written
to ZIP as its .pyc at the same relative path, with the fixed timestamp of
SOURCE_DATE_EPOCH, in sorted order (reproducible). Only bytecode goes in:
zipimport takes a .pyc without its .py (there is no source to check).
Other files (package data read through the loader, such as pandas' Styler
templates) go in as they are. Each module's code names its file as the
guest sees it (/usr/local/lib/python311.zip/pandas/core/frame.py, as the
stdlib's own modules in the zip do): tracebacks show where it is, and
code that compares a frame's file with its package's __file__ (pandas'
find_stack_level, which points a warning at the caller's line) finds it.
"""
import importlib.util
import os
import pathlib
import sys
import zipfile


def main():
    zpath, top = sys.argv[1], pathlib.Path(sys.argv[2])
    # ZIP is given relative to the build's root, which is the guest's /.
    guest = "/" + zpath.lstrip("/")
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "1700000000"))
    import time
    date_time = time.gmtime(epoch)[:6]
    n = 0
    with zipfile.ZipFile(zpath, "a", compression=zipfile.ZIP_DEFLATED) as z:
        have = set(z.namelist())
        for src in sorted(top.rglob("*.py")):
            rel = src.relative_to(top).with_suffix(".pyc").as_posix()
            if rel in have:
                sys.exit("zip_add_package: %s is already in %s" % (rel, zpath))
            code = compile(src.read_bytes(), guest + "/" + rel[:-1], "exec", dont_inherit=True)
            data = importlib.util.MAGIC_NUMBER + b"\0\0\0\0" + \
                (epoch & 0xFFFFFFFF).to_bytes(4, "little") + \
                (src.stat().st_size & 0xFFFFFFFF).to_bytes(4, "little")
            import marshal
            data += marshal.dumps(code)
            info = zipfile.ZipInfo(rel, date_time)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
            n += 1
        for src in sorted(p for p in top.rglob("*") if p.is_file() and p.suffix != ".py"):
            rel = src.relative_to(top).as_posix()
            if rel in have:
                sys.exit("zip_add_package: %s is already in %s" % (rel, zpath))
            info = zipfile.ZipInfo(rel, date_time)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, src.read_bytes())
    print("added %d modules from %s" % (n, top))


if __name__ == "__main__":
    main()
