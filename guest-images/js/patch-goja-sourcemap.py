#!/usr/bin/env python3
"""Make goja parse a program's source map on first use, not while parsing.

Every ES module the guest loads was converted to CommonJS with an inline
source map, and goja decoded and parsed it (base64, then encoding/json, slow
in wasm) as it parsed the module: ~30 µs per module, for positions that are
needed only when a stack trace or an error names one. The patch keeps the
sourceMappingURL line and parses it the first time file.File.Position runs.
Applied by build.sh to a private copy of goja (GOJADIR); fails loudly if
goja changes shape, so a version bump can't silently skip the patch.
"""
import sys

from replace_once import replace_once

goja = sys.argv[1]


def patch(rel, pairs):
    replace_once("patch-goja-sourcemap", goja + "/" + rel, pairs)


patch("file/file.go", [
    ("\tsourceMap         *sourcemap.Consumer\n",
     "\tsourceMap         *sourcemap.Consumer\n"
     "\tsourceMapLoad     func() *sourcemap.Consumer\n"),
    ("func (fl *File) SetSourceMap(m *sourcemap.Consumer) {\n\tfl.sourceMap = m\n}\n",
     "func (fl *File) SetSourceMap(m *sourcemap.Consumer) {\n\tfl.sourceMap, fl.sourceMapLoad = m, nil\n}\n\n"
     "// SetSourceMapLoader makes the source map with load when a position\n"
     "// first needs it (wasmexec patch).\n"
     "func (fl *File) SetSourceMapLoader(load func() *sourcemap.Consumer) {\n\tfl.sourceMap, fl.sourceMapLoad = nil, load\n}\n\n"
     "func (fl *File) loadedSourceMap() *sourcemap.Consumer {\n"
     "\tfl.mu.Lock()\n\tdefer fl.mu.Unlock()\n"
     "\tif fl.sourceMapLoad != nil {\n\t\tfl.sourceMap, fl.sourceMapLoad = fl.sourceMapLoad(), nil\n\t}\n"
     "\treturn fl.sourceMap\n}\n"),
    ("\tif fl.sourceMap != nil {\n\t\tif source, _, row, col, ok := fl.sourceMap.Source(row, col); ok {",
     "\tif sm := fl.loadedSourceMap(); sm != nil {\n\t\tif source, _, row, col, ok := sm.Source(row, col); ok {"),
])

patch("parser/statement.go", [
    ("\tself.file.SetSourceMap(self.parseSourceMap())\n",
     "\tif !self.opts.disableSourceMaps {\n"
     "\t\tif line := extractSourceMapLine(self.str); line != \"\" {\n"
     "\t\t\t// Only what parseSourceMap reads: the line, the file, the options.\n"
     "\t\t\tlazy := &_parser{str: line, file: self.file, opts: self.opts}\n"
     "\t\t\tself.file.SetSourceMapLoader(lazy.parseSourceMap)\n"
     "\t\t}\n"
     "\t}\n"),
])
