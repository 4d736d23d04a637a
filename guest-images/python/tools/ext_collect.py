"""Collect a setuptools build of extension modules for static linking.

    ext_collect.py RECORD BUILD_LIB STAGE NAME PACKAGE... [--data GLOB...]

RECORD is what tools/ext_ldshared.sh wrote (one line per extension:
"OUTPUT OBJECT..."), BUILD_LIB setuptools' build/lib.* directory. Writes
into STAGE:
  lib/libNAME.a   every recorded object once (objects shared by several
                  extensions go in once; members get unique names)
  modules.txt     the extensions' dotted names (appended to: a stage may
                  collect several builds into one STAGE)
  pkg/PACKAGE/    the pure-Python modules (tests/ left out) and the files
                  matching the --data globs (relative to the package)
  tests/PACKAGE/  the packages' tests, with their data
"""
import os
import pathlib
import shutil
import subprocess
import sys

SUFFIX = ".cpython-311-wasm32-wasi.so"


def main():
    args = sys.argv[1:]
    data = []
    if "--data" in args:
        i = args.index("--data")
        args, data = args[:i], args[i + 1:]
    record, blib, stage, name = args[:4]
    packages = args[4:]
    blib, stage = pathlib.Path(blib).resolve(), pathlib.Path(stage)
    mods, objs = [], []
    for line in open(record):
        out, *o = line.split()
        rel = pathlib.Path(out).resolve()
        if not rel.name.endswith(SUFFIX):
            sys.exit("ext_collect: unexpected output %s" % out)
        # setuptools links into build/lib.* (or in place): the dotted name
        # is the path below the top-level package's parent.
        parts = rel.parts
        for top in packages:
            if top in parts:
                k = len(parts) - 1 - parts[::-1].index(top)
                dotted = ".".join(parts[k:-1] + (rel.name[:-len(SUFFIX)],))
                break
        else:
            sys.exit("ext_collect: %s is in none of %s" % (out, packages))
        if dotted not in mods:
            mods.append(dotted)
        for x in o:
            if x not in objs:
                objs.append(x)
    (stage / "lib").mkdir(parents=True, exist_ok=True)
    tmp = stage / ("objs-" + name)
    tmp.mkdir()
    members = []
    for i, o in enumerate(objs):
        m = tmp / ("%03d_%s" % (i, os.path.basename(o)))
        shutil.copy(o, m)
        members.append(str(m))
    ar = os.path.join(os.environ.get("LLVM_BIN", "/usr/lib/llvm-16/bin"), "llvm-ar")
    subprocess.run([ar, "rcs", str(stage / "lib" / ("lib%s.a" % name))] + members, check=True)
    shutil.rmtree(tmp)
    with open(stage / "modules.txt", "a") as f:
        f.write("".join(m + "\n" for m in sorted(mods)))
    for top in packages:
        root = blib / top
        for p in sorted(root.rglob("*")):
            if p.is_dir() or p.name.endswith(SUFFIX):
                continue
            rel = p.relative_to(blib)
            if "tests" in rel.parts:
                dest = stage / "tests" / rel
            elif p.suffix == ".py" or any(p.relative_to(root).match(g) for g in data):
                dest = stage / "pkg" / rel
            else:
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(p, dest)
    print(len(mods), "modules,", len(objs), "objects")


if __name__ == "__main__":
    main()
