"""wasmexec driver for the CPython 3.11 wasm32-wasi guest.

Started by ``_start`` (see guest.json: ``python -S -c "import wasmexec_driver;
wasmexec_driver.main()"``). It sets the guest up, then loops

    recv -> run -> send

over the host control channel (docs/PROTOCOL.md) through the builtin module
``_wasmexec``. Requests, results and values never travel through stdout.

Start-up is kept small: only builtin modules are imported here (``_json`` is
used directly so that ``json``/``re`` aren't loaded); ``traceback`` and
``linecache`` are imported the first time an error is formatted, ``asyncio``
only for code with top-level ``await``.
"""

import sys
import builtins
import errno
import io
import posix
import _json
import _wasmexec

_DRIVER_FILE = (lambda: 0).__code__.co_filename
_STDLIB_ZIP = "/usr/local/lib/python%d%d.zip" % sys.version_info[:2]
_PROTECTED = "/usr/local/lib"

_CO_COROUTINE = 0x0080
_PyCF_ONLY_AST = 0x0400
_PyCF_ALLOW_TOP_LEVEL_AWAIT = 0x2000

ModuleType = type(sys)


# ---------------------------------------------------------------------------
# Standard streams over the control channel.

class _HostWriter(io.RawIOBase):
    """Raw stream for stdout (1) / stderr (2) through _wasmexec.write."""

    def __init__(self, fd, name):
        super().__init__()
        self._fd = fd
        self.name = name

    def writable(self):
        return True

    def write(self, b):
        return _wasmexec.write(self._fd, b)

    def isatty(self):
        return False

    def fileno(self):
        raise io.UnsupportedOperation("fileno: standard streams go through the wasmexec host")


class _HostReader(io.RawIOBase):
    """Raw stream for stdin through _wasmexec.read (b'' on EOF)."""

    name = "<stdin>"

    def readable(self):
        return True

    def readinto(self, buf):
        data = _wasmexec.read(len(buf))
        n = len(data)
        buf[:n] = data
        return n

    def isatty(self):
        return False

    def fileno(self):
        raise io.UnsupportedOperation("fileno: standard streams go through the wasmexec host")


def _text_writer(fd, name, errors):
    raw = _HostWriter(fd, name)
    return io.TextIOWrapper(io.BufferedWriter(raw, 8192), encoding="utf-8",
                            errors=errors, newline="\n", line_buffering=True)


_stdout = None
_stderr = None


def _reset_streams():
    """Give each request working standard streams: recreate stdout/stderr if
    user code closed them, always a fresh stdin (nothing read ahead by a
    previous run can leak into this one)."""
    global _stdout, _stderr
    if _stdout is None or _stdout.closed:
        _stdout = _text_writer(1, "<stdout>", "surrogateescape")
    if _stderr is None or _stderr.closed:
        _stderr = _text_writer(2, "<stderr>", "backslashreplace")
    stdin = io.TextIOWrapper(io.BufferedReader(_HostReader(), 8192),
                             encoding="utf-8", errors="surrogateescape")
    sys.stdout = sys.__stdout__ = _stdout
    sys.stderr = sys.__stderr__ = _stderr
    sys.stdin = sys.__stdin__ = stdin


def _flush_streams():
    for s in (sys.stdout, sys.stderr, _stdout, _stderr):
        try:
            if s is not None and not s.closed:
                s.flush()
        except BaseException:
            pass


# ---------------------------------------------------------------------------
# Read-only stdlib. The real enforcement is in C below Python
# (_wasmexec_fsguard.c: every modifying WASI call on a descriptor inside
# /usr/local/lib fails with EACCES). This audit hook rejects the same
# intents early, by path, with a clearer message. It keeps its own
# references to everything it uses, so monkeypatching os/posixpath/builtins
# can't change what it checks.

def _install_audit_hook():
    fspath = posix.fspath
    getcwd = posix.getcwd
    to_str = str.__str__
    decode = bytes.decode
    _type = type
    _str = str
    _bytes = bytes
    _int = int
    EACCES = errno.EACCES
    PROT = _PROTECTED
    PROT_SLASH = _PROTECTED + "/"
    # (On WASI O_RDONLY is a bit of its own and O_RDWR = O_RDONLY|O_WRONLY,
    # so test the access mode as a whole.)
    O_WRONLY = posix.O_WRONLY
    O_RDWR = posix.O_RDWR
    MODIFY_FLAGS = 0
    for name in ("O_APPEND", "O_CREAT", "O_TRUNC", "O_EXCL"):
        MODIFY_FLAGS |= getattr(posix, name, 0)

    # event -> positions of the path arguments to check
    PATH_EVENTS = {
        "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,),
        "os.chmod": (0,), "os.chown": (0,), "os.utime": (0,),
        "os.truncate": (0,), "os.chflags": (0,), "os.mkfifo": (0,),
        "os.mknod": (0,), "os.setxattr": (0,), "os.removexattr": (0,),
        "os.rename": (0, 1), "os.link": (0, 1), "os.symlink": (1,),
        "shutil.rmtree": (0,), "shutil.move": (0, 1),
        "shutil.copyfile": (1,), "shutil.copymode": (1,),
        "shutil.copystat": (1,), "shutil.chown": (0,),
        "shutil.unpack_archive": (1,),
    }

    def resolve(p):
        if _type(p) is _int or p is None:
            return None          # a descriptor: the C guard decides
        try:
            p = fspath(p)
        except BaseException:
            return None
        if isinstance(p, _bytes):
            p = decode(p, "utf-8", "surrogateescape")
        p = to_str(p)
        if not p.startswith("/"):
            p = getcwd() + "/" + p
        parts = []
        for c in p.split("/"):
            if c == "" or c == ".":
                continue
            if c == "..":
                if parts:
                    parts.pop()
                continue
            parts.append(c)
        return "/" + "/".join(parts)

    def protected(p):
        r = resolve(p)
        return r is not None and (r == PROT or r.startswith(PROT_SLASH))

    def deny(p):
        raise PermissionError(EACCES, "Permission denied: %s is read-only" % PROT, p)

    def hook(event, args):
        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            write = False
            if _type(flags) is _int:
                write = ((flags & O_WRONLY) == O_WRONLY or (flags & O_RDWR) == O_RDWR
                         or (flags & MODIFY_FLAGS) != 0)
            if not write and _type(mode) is _str:
                for c in "wax+":
                    if c in mode:
                        write = True
                        break
            if write and protected(path):
                deny(path)
            return
        idx = PATH_EVENTS.get(event)
        if idx is None:
            return
        for i in idx:
            if i < len(args) and protected(args[i]):
                deny(args[i])

    sys.addaudithook(hook)


# ---------------------------------------------------------------------------
# JSON without importing json (and re): the C scanner/encoder of _json.

class _ScanContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float
    memo = None


_scan_once = _json.make_scanner(_ScanContext())


def _json_loads(text):
    # Requests come from the host's JSON encoder: no leading whitespace
    # surprises, but be lenient about surrounding whitespace anyway.
    s = text.strip()
    try:
        value, end = _scan_once(s, 0)
    except StopIteration:
        raise ValueError("request is not valid JSON") from None
    if end != len(s):
        raise ValueError("trailing data after the JSON request")
    return value


def _no_default(o):
    raise TypeError("not JSON serializable: %s" % type(o).__name__)


_encode_ascii = _json.make_encoder(None, _no_default, _json.encode_basestring_ascii,
                                   None, ":", ",", False, False, False)
_encode_utf8 = _json.make_encoder(None, _no_default, _json.encode_basestring,
                                  None, ":", ",", False, False, False)


def _json_dumps_bytes(obj):
    """obj must already be plain JSON data (see _to_json)."""
    text = "".join(_encode_utf8(obj, 0))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # lone surrogates: escape them as \udXXX
        return "".join(_encode_ascii(obj, 0)).encode("ascii")


# ---------------------------------------------------------------------------
# Values -> JSON. Documented in README.md:
#   None/bool/int/str -> as is; float -> as is unless nan/inf;
#   list/tuple (and subclasses) -> array; dict with only str keys -> object;
#   anything else -> {"$repr": repr(v), "$type": type name};
#   a value containing a cycle -> the fallback for the whole value.

class _Cycle(Exception):
    pass


_MAX_DEPTH = 200
_MAX_INT_BITS = 13000   # str(int) refuses > 4300 digits by default


def _fallback(v):
    tname = type(v).__name__
    try:
        r = repr(v)
        if not isinstance(r, str):
            raise TypeError("__repr__ returned non-string")
        r = str.__str__(r)
    except BaseException as e:  # user __repr__ may do anything
        r = "<%s object (repr failed: %s)>" % (tname, type(e).__name__)
    return {"$repr": r, "$type": tname}


def _to_json_inner(v, active, depth):
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is int:
        if v.bit_length() > _MAX_INT_BITS:
            return {"$repr": "<int with %d bits>" % v.bit_length(), "$type": "int"}
        return v
    if t is float:
        if v != v or v in (float("inf"), float("-inf")):
            return {"$repr": repr(v), "$type": "float"}
        return v
    if isinstance(v, bool):
        return bool(v)
    if isinstance(v, str):
        return str.__str__(v)
    if isinstance(v, int):
        return _to_json_inner(int(v), active, depth)
    if isinstance(v, float):
        return _to_json_inner(float(v), active, depth)
    if isinstance(v, (list, tuple, dict)):
        if depth >= _MAX_DEPTH:
            return _fallback(v)
        vid = id(v)
        if vid in active:
            raise _Cycle()
        active.add(vid)
        try:
            if isinstance(v, dict):
                items = list(dict.items(v))
                for k, _ in items:
                    if not isinstance(k, str):
                        return _fallback(v)
                return {str.__str__(k): _to_json_inner(x, active, depth + 1) for k, x in items}
            seq = list.__iter__(v) if isinstance(v, list) else tuple.__iter__(v)
            return [_to_json_inner(x, active, depth + 1) for x in seq]
        finally:
            active.discard(vid)
    return _fallback(v)


def _to_json(v):
    try:
        return _to_json_inner(v, set(), 0)
    except _Cycle:
        return _fallback(v)


# ---------------------------------------------------------------------------
# inputs: read-only JSON data.

def _readonly(*_a, **_k):
    raise TypeError("inputs is read-only (copy it first: copy.deepcopy(inputs))")


class ReadOnlyDict(dict):
    """A dict that can't be modified (json.dumps, isinstance(x, dict) and
    reading work as for a dict; copy/deepcopy/pickle give a plain dict)."""
    __slots__ = ()
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly
    __ior__ = _readonly

    def __copy__(self):
        return dict(self)

    def __deepcopy__(self, memo):
        import copy
        return {k: copy.deepcopy(v, memo) for k, v in dict.items(self)}

    def __reduce_ex__(self, protocol):
        return (dict, (dict(self),))

    def __repr__(self):
        return dict.__repr__(self)


class ReadOnlyList(list):
    """A list that can't be modified (see ReadOnlyDict)."""
    __slots__ = ()
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = _readonly
    clear = sort = reverse = __iadd__ = __imul__ = _readonly

    def __copy__(self):
        return list(self)

    def __deepcopy__(self, memo):
        import copy
        return [copy.deepcopy(v, memo) for v in list.__iter__(self)]

    def __reduce_ex__(self, protocol):
        return (list, (list(self),))

    def __repr__(self):
        return list.__repr__(self)


def _freeze(v):
    t = type(v)
    if t is dict:
        d = ReadOnlyDict()
        for k, x in v.items():
            dict.__setitem__(d, k, _freeze(x))
        return d
    if t is list:
        return ReadOnlyList([_freeze(x) for x in v])
    return v


ReadOnlyDict.__module__ = ReadOnlyList.__module__ = "wasmexec"


# ---------------------------------------------------------------------------
# Errors.

_sources = {}   # filename -> source text of the latest request using it


def _strip_frames(te, StackSummary, seen):
    """Drop the driver's frames (anywhere: the audit hook and the inputs
    wrappers raise from inside the driver) and the asyncio frames that lead
    into user code (top-level await), in te and the exceptions it chains."""
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    frames = [f for f in te.stack if f.filename != _DRIVER_FILE]
    asyncio_prefix = _STDLIB_ZIP + "/asyncio/"
    while frames and frames[0].filename.startswith(asyncio_prefix):
        frames.pop(0)
    te.stack = StackSummary.from_list(frames)
    _strip_frames(te.__cause__, StackSummary, seen)
    _strip_frames(te.__context__, StackSummary, seen)
    for sub in getattr(te, "exceptions", None) or ():
        _strip_frames(sub, StackSummary, seen)


def _format_exception(e):
    try:
        import linecache
        import traceback
        for fn, src in _sources.items():
            linecache.cache[fn] = (len(src), None, src.splitlines(True), fn)
        te = traceback.TracebackException(type(e), e, e.__traceback__)
        _strip_frames(te, traceback.StackSummary, set())
        return "".join(te.format())
    except BaseException:
        try:
            return "%s: %s\n" % (type(e).__name__, e)
        except BaseException:
            return type(e).__name__ + "\n"


def _message(e):
    try:
        return str(e)
    except BaseException:
        return "<exception str() failed>"


def _error(code, e, details=None):
    err = {"code": code, "name": type(e).__name__, "message": _message(e),
           "stack": _format_exception(e)}
    if details:
        err["details"] = details
    return {"status": "error", "error": err}


def _syntax_error(e):
    details = {}
    for key, attr in (("filename", "filename"), ("line", "lineno"), ("column", "offset"),
                      ("endLine", "end_lineno"), ("endColumn", "end_offset"),
                      ("text", "text")):
        v = getattr(e, attr, None)
        if v is not None:
            details[key] = v
    return _error("syntax_error", e, details)


def _exit_result(e):
    code = e.code
    if code is None:
        n = 0
    elif isinstance(code, int):
        n = code & 0xFF   # what the OS would report for exit(n)
    else:
        try:
            sys.stderr.write(str(code) + "\n")
        except BaseException:
            pass
        n = 1
    return {"status": "exit", "exitCode": n}


def _run_error(e):
    if isinstance(e, SystemExit):
        return _exit_result(e)
    if isinstance(e, RecursionError):
        return _error("stack_overflow", e)
    if isinstance(e, MemoryError):
        return _error("memory_limit", e)
    return _error("exception", e)


# ---------------------------------------------------------------------------
# Running code.

class _CompileFailed(Exception):
    def __init__(self, result):
        self.result = result


def _compile(source, filename, mode, flags=0):
    try:
        return compile(source, filename, mode, flags, dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        # ValueError: source with NUL bytes
        if isinstance(e, SyntaxError):
            raise _CompileFailed(_syntax_error(e))
        raise _CompileFailed(_error("syntax_error", e))
    except RecursionError as e:
        raise _CompileFailed(_error("stack_overflow", e))
    except MemoryError as e:
        raise _CompileFailed(_error("memory_limit", e))


def _eval_code(code, ns):
    if code.co_flags & _CO_COROUTINE:
        import asyncio
        coro = eval(code, ns)
        try:
            return asyncio.run(coro)
        finally:
            coro.close()   # no "never awaited" warning if the loop failed
    return eval(code, ns)


def _new_main(filename=None):
    m = ModuleType("__main__")
    m.__builtins__ = builtins
    m.__spec__ = None
    m.__loader__ = None
    m.__package__ = None
    if filename is not None:
        m.__file__ = filename
    return m


_context_main = None   # the evaluate namespace, kept between requests


def _evaluate(source, filename, frozen):
    global _context_main
    if _context_main is None:
        _context_main = _new_main()
    main = _context_main
    main.inputs = frozen
    sys.modules["__main__"] = main
    sys.argv = [""]
    ns = main.__dict__
    flags = _PyCF_ALLOW_TOP_LEVEL_AWAIT
    tree = _compile(source, filename, "exec", flags | _PyCF_ONLY_AST)
    body = tree.body
    last = body[-1] if body else None
    import _ast
    if isinstance(last, _ast.Expr):
        head = _ast.Module(body=body[:-1], type_ignores=[])
        expr = _ast.Expression(body=last.value)
        head_code = _compile(head, filename, "exec", flags)
        expr_code = _compile(expr, filename, "eval", flags)
    else:
        head_code = _compile(tree, filename, "exec", flags)
        expr_code = None
    _eval_code(head_code, ns)
    if expr_code is None:
        return {"status": "ok", "hasValue": False}
    value = _eval_code(expr_code, ns)
    return {"status": "ok", "hasValue": True, "value": _to_json(value)}


def _execute(source, filename, args, frozen):
    main = _new_main(filename)
    main.inputs = frozen
    code = _compile(source, filename, "exec")
    sys.argv = [filename] + [str(a) for a in args]
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:
        if _context_main is not None:
            sys.modules["__main__"] = _context_main
        elif saved is not None:
            sys.modules["__main__"] = saved
    return {"status": "ok", "hasValue": False}


def _handle(raw):
    try:
        req = _json_loads(raw.decode("utf-8"))
        if not isinstance(req, dict):
            raise ValueError("request is not a JSON object")
        op = req.get("op")
        source = req.get("code") or ""
        filename = req.get("filename") or ("<stdin>" if op == "evaluate" else "main.py")
        args = req.get("args") or []
        inputs = req.get("inputs")
        cwd = req.get("cwd") or ""
        if not (isinstance(source, str) and isinstance(filename, str)
                and isinstance(args, list) and isinstance(cwd, str)):
            raise ValueError("bad request fields")
    except Exception as e:
        return {"status": "error", "error": {"code": "internal", "name": type(e).__name__,
                                             "message": "bad request: %s" % _message(e)}}
    _sources[filename] = source
    linecache = sys.modules.get("linecache")
    if linecache is not None:   # user code formatting its own tracebacks
        try:
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        except BaseException:
            pass
    frozen = _freeze(inputs if inputs is not None else {})
    try:
        if cwd:
            posix.chdir(cwd)
        if op == "evaluate":
            return _evaluate(source, filename, frozen)
        if op == "execute":
            return _execute(source, filename, args, frozen)
        return {"status": "error", "error": {"code": "internal", "name": "ValueError",
                                             "message": "unknown op %r" % (op,)}}
    except _CompileFailed as e:
        return e.result
    except BaseException as e:
        return _run_error(e)


def _encode_result(result):
    try:
        return _json_dumps_bytes(result)
    except BaseException as e:
        return _json_dumps_bytes({"status": "error", "error": {
            "code": "internal", "name": type(e).__name__,
            "message": "could not encode the result: %s" % _message(e)}})


# ---------------------------------------------------------------------------

class _Quitter:
    """exit()/quit() (site isn't loaded, see guest.json's -S)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "Use %s() to exit" % self.name

    def __call__(self, code=None):
        raise SystemExit(code)


def _chdir_workspace():
    """WASI has no working directory of its own (wasi-libc starts at "/"):
    start in $PWD when the host sets it, else in /workspace if present."""
    for cand in (posix.environ.get(b"PWD"), b"/workspace"):
        if cand:
            try:
                posix.chdir(cand)
                return
            except OSError:
                pass


def _setup():
    _install_audit_hook()
    _chdir_workspace()
    builtins.exit = _Quitter("exit")
    builtins.quit = _Quitter("quit")
    global _context_main
    _context_main = _new_main()
    sys.modules["__main__"] = _context_main
    if sys.path and sys.path[0] != "":
        sys.path.insert(0, "")
    sys.argv = [""]
    _reset_streams()


def main():
    _setup()
    while True:
        raw = _wasmexec.recv()
        if raw is None:
            break
        _reset_streams()
        try:
            result = _handle(raw)
        except BaseException as e:  # driver bug: still answer the request
            result = {"status": "error", "error": {"code": "internal", "name": type(e).__name__,
                                                   "message": _message(e)}}
        _flush_streams()
        _wasmexec.send(_encode_result(result))
    # No more requests: nothing may reach the host after this point.
    _flush_streams()
    null = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    sys.stdout = sys.__stdout__ = sys.stderr = sys.__stderr__ = null
