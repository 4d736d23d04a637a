#!/usr/bin/env python3
"""Let a later script declare a global let/const/class again (REPL mode).

Agents resend whole cells: a context's second `const _ = require('lodash')`
failed with "Identifier '_' has already been declared". Chrome DevTools'
console allows it (V8's REPL mode): a top-level lexical declaration of a
later script replaces the binding of the same name, which is uninitialized
again until the new declaration runs; functions that use the name see the
new binding. A redeclaration inside one script stays a SyntaxError (the
compiler finds it), and so does one that meets a var, a function or a
non-configurable property of the global object.

The mode is off unless the embedder turns it on: Runtime.SetReplLexicals.
Applied by build.sh to a private copy of goja (GOJADIR); fails loudly if
goja changes shape, so a version bump can't silently skip the patch.
"""
import sys

from replace_once import replace_once

goja = sys.argv[1]


def patch(rel, pairs):
    replace_once("patch-goja-repl", goja + "/" + rel, pairs)


patch("runtime.go", [
    ("type Runtime struct {\n",
     "type Runtime struct {\n"
     "\t// replLexicals: a global let/const/class may be declared again by a\n"
     "\t// later script (wasmexec patch, SetReplLexicals).\n"
     "\treplLexicals bool\n"),
])

patch("vm.go", [
    # The check: an existing global lexical binding is no conflict.
    ("\tfor _, name := range names {\n"
     "\t\tif _, exists := s.names[name]; exists {\n"
     "\t\t\tgoto fail\n"
     "\t\t}\n",
     "\tfor _, name := range names {\n"
     "\t\tif idx, exists := s.names[name]; exists {\n"
     "\t\t\tif vm.r.replLexicals && idx&maskVar == 0 {\n"
     "\t\t\t\tcontinue\n"
     "\t\t\t}\n"
     "\t\t\tgoto fail\n"
     "\t\t}\n"),
    # The binding: the same slot, uninitialized, let or const as declared now.
    ("func (s *stash) createLexBinding(name unistring.String, isConst bool) {\n"
     "\tif s.names == nil {\n"
     "\t\ts.names = make(map[unistring.String]uint32)\n"
     "\t}\n",
     "func (s *stash) createLexBinding(name unistring.String, isConst bool) {\n"
     "\tif s.names == nil {\n"
     "\t\ts.names = make(map[unistring.String]uint32)\n"
     "\t}\n"
     "\tif idx, exists := s.names[name]; exists && idx&maskVar == 0 {\n"
     "\t\tslot := idx &^ maskTyp\n"
     "\t\tif isConst {\n"
     "\t\t\tslot |= maskConst | maskStrict\n"
     "\t\t}\n"
     "\t\ts.names[name] = slot\n"
     "\t\ts.values[idx&^maskTyp] = nil\n"
     "\t\treturn\n"
     "\t}\n"),
])

open(goja + "/repl_wasmexec.go", "w").write('''package goja

// SetReplLexicals lets a later script declare a global let, const or class
// again, replacing the binding, as Chrome DevTools' console does (wasmexec
// patch).
func (r *Runtime) SetReplLexicals(on bool) { r.replLexicals = on }
''')
