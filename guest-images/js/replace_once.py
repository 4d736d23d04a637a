"""The edit every patch-goja-*.py script makes: replace each old text that
occurs exactly once in a file, or fail loudly naming the script, so that a
goja version bump can't silently skip a patch."""
import sys


def replace_once(tag, path, pairs):
    """Applies (old, new) pairs to the file at path; tag names the caller."""
    src = open(path).read()
    for old, new in pairs:
        if src.count(old) != 1:
            sys.exit("%s: %r not found once in %s" % (tag, old, path))
        src = src.replace(old, new)
    open(path, "w").write(src)
