"""Write matplotlib's font list for the guest at build time.

    mpl_fontlist.py MPL_DATA OUT_JSON

matplotlib scans its fonts and writes the list (fontlist-v330.json) to its
cache directory the first time it is imported. In the guest that cost
~0.3 s on every fresh run, and the cache would land in the workspace. So
the image carries the list, made here by Debian's matplotlib 3.6.3 (the
guest's version, the same font code and the same freetype) from the
guest's own mpl-data, with no system fonts: the guest has only
matplotlib's. Font paths are stored relative to the data directory, as
matplotlib itself stores the fonts it ships.
"""
import json
import os
import sys
import tempfile

data, out = sys.argv[1], sys.argv[2]
os.environ["MPLCONFIGDIR"] = tempfile.mkdtemp(prefix="mplconfig-")
import matplotlib  # noqa: E402

if matplotlib.__version__ != "3.6.3":
    sys.exit("mpl_fontlist: the build host's matplotlib is %s, not 3.6.3" % matplotlib.__version__)
matplotlib.get_data_path = lambda: data
import matplotlib.font_manager as fm  # noqa: E402

find = fm.findSystemFonts
fm.findSystemFonts = lambda fontpaths=None, fontext="ttf": find(fontpaths, fontext) if fontpaths else []
m = fm.FontManager()
# Sorted, so the image is the same from build to build (the scan's order
# is a set's; matplotlib's choice among equally good fonts is no better).
m.ttflist.sort(key=lambda e: e.fname)
m.afmlist.sort(key=lambda e: e.fname)
fm.json_dump(m, out)
with open(out) as f:
    doc = json.load(f)
fonts = doc["ttflist"] + doc["afmlist"]
bad = [e["fname"] for e in fonts if os.path.isabs(e["fname"])]
if bad or len(doc["ttflist"]) < 30:
    sys.exit("mpl_fontlist: %d ttf fonts, absolute paths: %s" % (len(doc["ttflist"]), bad[:5]))
print(len(doc["ttflist"]), "ttf and", len(doc["afmlist"]), "afm fonts")
