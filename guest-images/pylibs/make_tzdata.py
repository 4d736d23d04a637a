#!/usr/bin/python3.11
"""make_tzdata.py ZONEINFO SITE VERSION: turn Debian's /usr/share/zoneinfo
into the `tzdata` Python package (PyPI's layout), which zoneinfo reads when
the system has no time-zone files: tzdata/zoneinfo/<Area>/<City> (TZif
files, each directory a package), tzdata/zones (the keys) and
tzdata/__init__.py (IANA_VERSION)."""
import os
import pathlib
import shutil
import sys

src, site, debver = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
pkg = site / "tzdata"
zi = pkg / "zoneinfo"
zi.mkdir(parents=True)
iana = debver.split("-")[0]
# PyPI's tzdata numbers its releases as PEP 440 wants: 2024a is 2024.1.
# pandas parses __version__ that way and complains on every zoneinfo use
# of a version it can't read.
version = "%s.%d" % (iana[:4], ord(iana[4:5] or "a") - ord("a") + 1)
(pkg / "__init__.py").write_text(f'# IANA time zone data {iana} (Debian tzdata {debver})\nIANA_VERSION = "{iana}"\n__version__ = "{version}"\n')
keys = []
for root, dirs, files in os.walk(src, followlinks=False):
    rel = pathlib.Path(root).relative_to(src)
    if rel.parts and rel.parts[0] in ("posix", "right"):
        dirs[:] = []
        continue
    dirs.sort()
    for f in sorted(files):
        p = pathlib.Path(root) / f
        real = p.resolve()
        with open(real, "rb") as fh:
            if fh.read(4) != b"TZif":
                continue
        key = (rel / f).as_posix()
        if key in ("posixrules", "localtime", "Factory"):
            continue
        dst = zi / rel / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(real, dst)
        keys.append(key)
# The tables pytz reads (tzdata.zi for the version, zone1970.tab).
for f in ("tzdata.zi", "zone.tab", "zone1970.tab", "iso3166.tab"):
    if (src / f).exists():
        shutil.copyfile(src / f, zi / f)
for d in [zi, *[p for p in zi.rglob("*") if p.is_dir()]]:
    (d / "__init__.py").write_text("")
(pkg / "zones").write_text("\n".join(sorted(keys)) + "\n")
# A dist-info, so the manifest lists it like the others.
di = site / f"tzdata-{version}.dist-info"
di.mkdir()
(di / "METADATA").write_text(f"Metadata-Version: 2.1\nName: tzdata\nVersion: {version}\nSummary: IANA time zone data, from Debian tzdata {debver}\n")
print(f"tzdata {iana}: {len(keys)} zones")
