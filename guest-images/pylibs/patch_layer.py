#!/usr/bin/python3.11
"""patch_layer.py SITE: the layer's edits for the guest, each an exact
match that must be found (a new package version that no longer matches
fails the build instead of shipping unpatched).

- pytz: Debian points it at /usr/share/zoneinfo, which the guest lacks;
  point it at the tzdata package of the layer (make_tzdata.py).
- more_itertools: imports concurrent.futures.ThreadPoolExecutor at the
  top, which the guest's stdlib lacks (no threads); only `callback_iter`
  uses it."""
import pathlib
import sys

site = pathlib.Path(sys.argv[1])
TZ = "/usr/local/lib/python3.11/dist-packages/tzdata/zoneinfo"


def edit(rel, old, new, count=1):
    p = site / rel
    text = p.read_text()
    n = text.count(old)
    if n != count:
        sys.exit(f"patch_layer: {rel}: expected {count} of {old!r}, found {n}")
    p.write_text(text.replace(old, new))


edit("pytz/__init__.py", '"/usr/share/zoneinfo/', f'"{TZ}/', count=2)
edit("pytz/__init__.py", "os.path.join('/usr','share',\n                                'zoneinfo', *name_parts)",
     f"os.path.join({TZ!r}, *name_parts)")
edit("more_itertools/more.py", "from concurrent.futures import ThreadPoolExecutor\n",
     "try:\n    from concurrent.futures import ThreadPoolExecutor\nexcept ImportError:  # wasmexec: the guest has no threads\n    ThreadPoolExecutor = None\n")
