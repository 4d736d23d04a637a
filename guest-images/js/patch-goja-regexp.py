#!/usr/bin/env python3
"""Two fixes to goja's regular expressions.

Unicode property escapes (\\p{L}):
With the u flag, goja read \\p{L} as an escaped p followed by {L}: the
pattern compiled and never matched (FormatJS's Segmenter, validators that
test \\p{L}). The patch sends \\p and \\P in unicode mode to scanProperty
(gojapatch/regexp_property.go, copied into goja's parser), which writes
re2's equivalent.

RegExp.prototype.source: goja wrote a slash as \\u002f, and escaped it inside
a class too; engines write \\/ and leave one in a class alone
(new RegExp("[^/]").source is "[^/]"), and code compares sources
(minimatch's makeRe). Applied by build.sh to a private copy of goja; fails
loudly if goja changes shape.
"""
import sys

from replace_once import replace_once

goja, here = sys.argv[1], sys.argv[2]
k_case = "\tcase 'k':\n\t\t// The rules are too complicated to implement here, so we pass it on to regexp2\n"
replace_once("patch-goja-regexp", goja + "/parser/regexp.go", [
    (k_case, "\tcase 'p', 'P':\n\t\tif self.unicode {\n\t\t\tself.scanProperty(inClass)\n\t\t\treturn\n\t\t}\n\t\tself.pass()\n\t\treturn\n" + k_case),
])
prop = open(here + "/gojapatch/regexp_property.go").read()
head = "//go:build ignore\n"
if not prop.startswith(head):
    sys.exit("patch-goja-regexp: gojapatch/regexp_property.go lost its build line")
open(goja + "/parser/regexp_property.go", "w").write(prop[len(head):])

replace_once("patch-goja-regexp", goja + "/builtin_regexp.go", [
    ("\tpos := 0\n\tlastPos := 0\n\trd := &lenientUtf16Decoder{utf16Reader: r.source.utf16Reader()}\n",
     "\tpos := 0\n\tlastPos := 0\n\tinClass := false\n\trd := &lenientUtf16Decoder{utf16Reader: r.source.utf16Reader()}\n"),
    ("\t\tcase '/', '\\u000a', '\\u000d', '\\u2028', '\\u2029':\n\t\t\tsb.WriteSubstring(r.source, lastPos, pos)\n\t\t\tsb.WriteRune('\\\\')\n\t\t\tswitch c {\n",
     "\t\tcase '[':\n\t\t\tinClass = true\n\t\tcase ']':\n\t\t\tinClass = false\n\t\tcase '/', '\\u000a', '\\u000d', '\\u2028', '\\u2029':\n\t\t\tif c == '/' && inClass {\n\t\t\t\tbreak\n\t\t\t}\n\t\t\tsb.WriteSubstring(r.source, lastPos, pos)\n\t\t\tsb.WriteRune('\\\\')\n\t\t\tswitch c {\n\t\t\tcase '/':\n\t\t\t\tsb.WriteRune('/')\n"),
])
