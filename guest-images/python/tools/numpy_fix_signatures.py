"""Fixes numpy C functions whose parameter count differs from how CPython
calls them (PyMethodDef flags, getset getters and setters).

    numpy_fix_signatures.py NUMPY_PACKAGE_DIR

Natively an extra argument is harmless; on wasm an indirect call with
another signature traps ("indirect call type mismatch"). A definition with
too few parameters gets unused `void *` ones appended (what the native
ABI amounts to: the extra argument is ignored); a METH_VARARGS function
that takes keywords gets METH_KEYWORDS. Checks again afterwards and fails
if anything is left, so a new mismatch stops the build.
"""
import pathlib
import re
import sys

P = r'((?:[^()]|\([^()]*\))*)'
TABLE = re.compile(r'(\{\s*"[^"]+"\s*,\s*\((?:PyCFunction|PyCFunctionWithKeywords|_PyCFunctionFast|PyCFunctionFast)\)\s*'
                   r'(?:\(void\s*\(\*\)\s*\(void\)\)\s*)?([A-Za-z_0-9@]+)\s*,\s*)([A-Z_| \n]+?)(\s*,)')


def load(root):
    return {p: p.read_text(errors="replace") for p in root.rglob("*")
            if p.suffix in (".c", ".src", ".cpp", ".h") and p.is_file()}


def wanted(src):
    want = {}
    for p, t in src.items():
        for m in TABLE.finditer(t):
            fl = set(x.strip() for x in m.group(3).split("|"))
            if "METH_FASTCALL" in fl:
                k = 4 if "METH_KEYWORDS" in fl else 3
            elif "METH_KEYWORDS" in fl:
                k = 3
            else:
                k = 2
            want.setdefault(m.group(2), set()).add(k)
        for m in re.finditer(r'\(getter\)\s*([A-Za-z_0-9@]+)', t):
            want.setdefault(m.group(1), set()).add(2)
        for m in re.finditer(r'\(setter\)\s*([A-Za-z_0-9@]+)', t):
            want.setdefault(m.group(1), set()).add(3)
    return want


def defs(t, name):
    return re.finditer(r'(?:^|\n)(?:[^\n;{}]*?[\s*])?' + re.escape(name) + r'\s*\(' + P + r'(\)\s*\{)', t)


def nparams(s):
    ps = [x for x in re.sub(r'\([^()]*\)', '', s).split(",") if x.strip()]
    return 0 if ps == ["void"] else len(ps)


def mismatches(src):
    # Which names each file has followed by "(": a definition's name is
    # among them, so defs() runs only where it can match (run on every
    # file for every name it took minutes).
    called = {p: set(re.findall(r'([A-Za-z_0-9@]+)\s*\(', t)) for p, t in src.items()}
    out = []
    for name, ks in sorted(wanted(src).items()):
        for p, t in src.items():
            if name not in called[p]:
                continue
            for m in defs(t, name):
                n = nparams(m.group(1))
                for k in ks:
                    if n != k:
                        out.append((name, n, k, p))
    return out


def main():
    root = pathlib.Path(sys.argv[1])
    src = load(root)
    for name, n, k, p in mismatches(src):
        t = src[p]
        if n < k:
            m = next(defs(t, name))
            pad = "".join(", void *NPY_UNUSED(wasm_pad%d)" % i for i in range(k - n))
            t = t[:m.start(2)] + pad + t[m.start(2):]
            src[p] = t
            # and its prototypes
            for q, tt in src.items():
                src[q] = re.sub(r'(\b' + re.escape(name) + r'\s*\(' + P + r')(\)\s*;)',
                                lambda d: d.group(1) + pad + d.group(3) if nparams(d.group(2)) == n else d.group(0), tt)
            t = src[p]
        elif n == 3 and k == 2:
            for q, tt in src.items():
                def fix(m):
                    if m.group(2) != name or "METH_KEYWORDS" in m.group(3):
                        return m.group(0)
                    return m.group(1) + m.group(3).rstrip() + " | METH_KEYWORDS" + m.group(4)
                src[q] = TABLE.sub(fix, tt)
            t = src[p]
        else:
            sys.exit("numpy_fix_signatures: cannot fix %s (%d parameters, called with %d) in %s" % (name, n, k, p))
        src[p] = t
        print("fixed %s: %d parameters, called with %d (%s)" % (name, n, k, p.relative_to(root)))
    for p, t in src.items():
        if p.read_text(errors="replace") != t:
            p.write_text(t)
    left = mismatches(load(root))
    if left:
        sys.exit("numpy_fix_signatures: still mismatched: %s" % left)


if __name__ == "__main__":
    main()
