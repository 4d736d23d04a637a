#!/usr/bin/env python3
"""Let esbuild keep a top-level await in CommonJS output.

The JS guest converts ES modules to CommonJS with esbuild's transform and
runs a cell that awaits at its top level in an async wrapper of its own, so
the await must survive the conversion; esbuild refuses it for the "cjs"
format. Applied by build.sh to a private copy of esbuild; fails loudly if
esbuild changes shape, so a version bump can't silently skip the patch.
"""
import sys

path = sys.argv[1]
src = open(path).read()
old = "if feature == compat.TopLevelAwait && !p.options.outputFormat.KeepESMImportExportSyntax() {"
new = ("if feature == compat.TopLevelAwait && !p.options.outputFormat.KeepESMImportExportSyntax()"
       " && p.options.outputFormat != config.FormatCommonJS {")
if src.count(old) != 1:
    sys.exit("patch-esbuild: the top-level await check was not found in " + path)
open(path, "w").write(src.replace(old, new))
