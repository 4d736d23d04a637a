#!/usr/bin/env python3
"""Make goja's parser build its Unicode identifier tables on first use.

goja/parser merges three unicode.RangeTables in package init, about 1 ms of
every JavaScript guest start. The tables are consulted only for non-ASCII
identifiers, so building them lazily (sync.OnceValue) costs nothing for ASCII
code. Applied by build.sh to a private copy of goja; fails loudly if goja
changes shape, so a version bump can't silently skip the patch.
"""
import re
import sys

path = sys.argv[1]
src = open(path).read()
names = ["unicodeRangeIdNeg", "unicodeRangeIdStartPos", "unicodeRangeIdContPos"]
block = re.search(r"var \(\n((?:\t\w+\s*= rangetable\.Merge\([^\n]*\)\n){3})\)\n", src)
if not block:
    sys.exit("patch-goja: the rangetable var block was not found in " + path)
lines = []
for line in block.group(1).splitlines():
    name, expr = [s.strip() for s in line.split("=", 1)]
    for n in names:
        expr = re.sub(r"\b%s\b" % n, n + "()", expr)
    lines.append("\t%s = sync.OnceValue(func() *unicode.RangeTable { return %s })" % (name, expr))
src = src.replace(block.group(0), "var (\n" + "\n".join(lines) + "\n)\n")
for n in names:
    src = re.sub(r"unicode\.Is\(%s," % n, "unicode.Is(%s()," % n, src)
if '"sync"' not in src:
    src = src.replace("import (\n", 'import (\n\t"sync"\n', 1)
open(path, "w").write(src)
