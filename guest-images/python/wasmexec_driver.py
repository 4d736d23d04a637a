"""wasmexec driver for the CPython 3.11 wasm32-wasi guest.

The image is a WASI reactor (see guest.json and README.md, "Snapshot").
Once per image, ``wasmexec_init`` (C, _wasmexecmodule.c) starts the
interpreter, imports this module and calls ``init()``: the pre-imported
stdlib is loaded, the guest set up, and the request handler handed to
``_wasmexec.prepare``. The engine snapshots the memory after that. Each
guest then starts in ``wasmexec_serve`` (C), which calls ``_start`` (what
differs per guest: environment, entropy, cwd, streams) and loops

    recv -> handler(request) -> send

in C over the host control channel (docs/PROTOCOL.md). Requests, results and
values never travel through stdout, and no Python code can receive or answer
a request: recv and send exist only in C.

Isolation from user code (README.md, "Isolation from user code"): this module
leaves sys.modules before any user code runs; its code is marked hidden, so
frame.f_back and sys._getframe() end before its frames and tracebacks handed
to user code lose them; it runs on a private copy of the builtins and keeps
its own references to everything it uses (taken at import, before any user
code), so user code replacing builtins, json, sys attributes or this module's
functions changes nothing here. User code runs only through
_wasmexec.call_user. Objects user code can reach (inputs, stdio streams) are
C types, and the read-only-stdlib audit hook lives in a namespace of its own.

The driver itself uses builtin modules only (``_json``'s C scanner and
encoders, not ``json``), so that user code replacing stdlib functions can't
change how requests are parsed or answered; ``traceback``/``linecache``
format errors and ``asyncio`` runs top-level ``await`` (all pre-imported).
"""

import _wasmexec            # first: a re-import of this module by user code fails here
import sys
import builtins
import errno
import posix
import _io
import _json

# The driver's own builtins: a copy taken before any user code runs. Every
# function defined below looks names up here, not in the builtins module
# that user code can change.
__builtins__ = dict(builtins.__dict__)

_DRIVER_FILE = (lambda: 0).__code__.co_filename
_FSGUARD_FILE = "<wasmexec stdlib guard>"
_STDLIB_ZIP = "/usr/local/lib/python%d%d.zip" % sys.version_info[:2]
_PROTECTED = "/usr/local/lib"

_CO_COROUTINE = 0x0080
_PyCF_ALLOW_TOP_LEVEL_AWAIT = 0x2000

# Captured references (C objects, which user code can't change).
_call_user = _wasmexec.call_user
_compile_cell = _wasmexec.compile_cell
_freeze = _wasmexec.freeze
_strip_hidden = _wasmexec.strip_hidden
_raw_stream = _wasmexec.raw_stream
_text_stream = _wasmexec.text_stream
_set_live = _wasmexec.set_live
_taken_signal = _wasmexec.taken_signal
_TextIOWrapper = _io.TextIOWrapper
_BufferedReader = _io.BufferedReader
_modules = sys.modules
_posix_chdir = posix.chdir
_getcwd = posix.getcwd
_getcwdb = posix.getcwdb


def _chdir(path):
    """chdir unless already there. wasi-libc keeps the working directory as
    a string (getcwd makes no WASI call), while chdir checks its target with
    a path_filestat_get, which wasmtime runs on a helper thread: two thread
    wake-ups per guest start for nothing."""
    try:
        if path == (_getcwdb() if isinstance(path, bytes) else _getcwd()):
            return
    except OSError:
        pass
    _posix_chdir(path)

_ModuleType = type(sys)
_SimpleNamespace = type(sys.implementation)
_type_name = type.__dict__["__name__"].__get__       # no metaclass __name__ property
_exit_code = SystemExit.__dict__["code"].__get__     # no subclass code property
_int_value = int.__int__                             # int subclass -> int, no __int__
_float_value = float.__float__
_str_value = str.__str__
_INF = float("inf")


# ---------------------------------------------------------------------------
# Standard streams over the host's read/write (C raw streams), created anew
# for every request: whatever user code did to the previous ones (closed
# them, set attributes) doesn't carry over.

_stdout = _stderr = None


def _reset_streams():
    global _stdout, _stderr
    # Text goes straight to the C raw streams (write_through, no Python
    # buffer, no flush per line), which coalesce it into chunks in order
    # across the two streams (_wasmexecmodule.c, out_write): a flush per
    # line through BufferedWriter cost more than the print itself.
    # (_text_stream: a TextIOWrapper, UTF-8, newline "\n", write_through,
    # whose write puts ASCII text straight into that buffer.)
    _stdout = _text_stream(_raw_stream(1), "surrogateescape")
    _stderr = _text_stream(_raw_stream(2), "backslashreplace")
    stdin = _TextIOWrapper(_BufferedReader(_raw_stream(0), 8192),
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
# intents early, by path, with a clearer message. It is built in a
# namespace of its own with no builtins at all (everything it uses is passed
# in), so its frames, which user code sees in a PermissionError's
# traceback, lead nowhere else.

_FSGUARD_SOURCE = '''
def make_hook(fspath, getcwd, to_str, decode, type_, str_, bytes_, int_, len_,
              BaseException_, PermissionError_, EACCES, PROT, O_WRONLY, O_RDWR,
              MODIFY_FLAGS, PATH_EVENTS):
    PROT_SLASH = PROT + "/"

    def resolve(p):
        if type_(p) is int_ or p is None:
            return None          # a descriptor: the C guard decides
        try:
            p = fspath(p)
        except BaseException_:
            return None
        if type_(p) is not str_:
            if isinstance_bytes(p):
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

    def isinstance_bytes(p):
        t = type_(p)
        return t is bytes_ or bytes_ in t.__mro__

    def protected(p):
        r = resolve(p)
        return r is not None and (r == PROT or r.startswith(PROT_SLASH))

    def deny(p):
        raise PermissionError_(EACCES, "Permission denied: %s is read-only" % PROT, p)

    def hook(event, args):
        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            write = False
            if type_(flags) is int_:
                write = ((flags & O_WRONLY) == O_WRONLY or (flags & O_RDWR) == O_RDWR
                         or (flags & MODIFY_FLAGS) != 0)
            if not write and type_(mode) is str_:
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
            if i < len_(args) and protected(args[i]):
                deny(args[i])

    return hook
'''


def _install_audit_hook():
    # (On WASI O_RDONLY is a bit of its own and O_RDWR = O_RDONLY|O_WRONLY,
    # so test the access mode as a whole.)
    modify = 0
    for name in ("O_APPEND", "O_CREAT", "O_TRUNC", "O_EXCL"):
        modify |= getattr(posix, name, 0)
    # event -> positions of the path arguments to check
    path_events = {
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
    ns = {"__builtins__": {}}
    exec(compile(_FSGUARD_SOURCE, _FSGUARD_FILE, "exec", dont_inherit=True), ns)
    hook = ns["make_hook"](
        posix.fspath, posix.getcwd, str.__str__, bytes.decode, type, str, bytes, int, len,
        BaseException, PermissionError, errno.EACCES, _PROTECTED, posix.O_WRONLY, posix.O_RDWR,
        modify, type(type.__dict__)(path_events))   # a read-only mappingproxy
    sys.addaudithook(hook)


# ---------------------------------------------------------------------------
# JSON without importing json (and re): the C scanner/encoder of _json.

_scan_once = _json.make_scanner(_SimpleNamespace(
    strict=True, object_hook=None, object_pairs_hook=None,
    parse_float=float, parse_int=int, parse_constant=float))


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
    raise TypeError("not JSON serializable: %s" % _type_name(type(o)))


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
        # lone surrogates: escape them as \\udXXX
        return "".join(_encode_ascii(obj, 0)).encode("ascii")


# ---------------------------------------------------------------------------
# Values -> JSON. Documented in README.md:
#   None/bool/int/str -> as is; float -> as is unless nan/inf;
#   list/tuple (and subclasses) -> array; dict with only str keys -> object;
#   anything else -> {"$repr": repr(v), "$type": type name};
#   a value containing a cycle -> the fallback for the whole value.
# Types are tested with type()/issubclass, never isinstance (which asks the
# object's __class__, i.e. user code), and subclass values are converted by
# the base type's own methods.

class _Cycle(Exception):
    pass


_MAX_DEPTH = 200
_MAX_INT_BITS = 13000   # str(int) refuses > 4300 digits by default


def _fallback(v):
    tname = _str_value(_type_name(type(v)))
    try:
        r = repr(v)   # user code
        if not issubclass(type(r), str):
            raise TypeError("__repr__ returned non-string")
        r = _str_value(r)
    except BaseException as e:  # user __repr__ may do anything
        r = "<%s object (repr failed: %s)>" % (tname, _str_value(_type_name(type(e))))
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
        if v != v or v == _INF or v == -_INF:
            return {"$repr": repr(v), "$type": "float"}
        return v
    if issubclass(t, str):
        return _str_value(v)
    if issubclass(t, int):     # (bool can't be subclassed)
        return _to_json_inner(_int_value(v), active, depth)
    if issubclass(t, float):
        return _to_json_inner(_float_value(v), active, depth)
    if issubclass(t, (set, frozenset)):
        # {"$type": "Set", "entries": [...]}, as JavaScript's Set
        if depth >= _MAX_DEPTH:
            return _fallback(v)
        seq = set.__iter__(v) if issubclass(t, set) else frozenset.__iter__(v)
        return {"$type": "Set", "entries": [_to_json_inner(x, active, depth + 1) for x in seq]}
    is_dict = issubclass(t, dict)
    is_list = issubclass(t, list)
    if is_dict or is_list or issubclass(t, tuple):
        if depth >= _MAX_DEPTH:
            return _fallback(v)
        vid = id(v)
        if vid in active:
            raise _Cycle()
        active.add(vid)
        try:
            if is_dict:
                items = list(dict.items(v))
                for k, _ in items:
                    if not issubclass(type(k), str):
                        # {"$type": "Map", "entries": [[key, value], ...]}, as JavaScript's Map
                        return {"$type": "Map", "entries": [
                            [_to_json_inner(k, active, depth + 1), _to_json_inner(x, active, depth + 1)]
                            for k, x in items]}
                return {_str_value(k): _to_json_inner(x, active, depth + 1) for k, x in items}
            seq = list.__iter__(v) if is_list else tuple.__iter__(v)
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
# Errors.

_sources = {}   # filename -> source text of the latest request using it


def _strip_frames(te, StackSummary, seen):
    """Drop the stdlib guard's frames (the audit hook raises from inside it)
    and the asyncio frames that lead into user code (top-level await), in te
    and the exceptions it chains. (The driver's own frames are gone already:
    _strip_hidden.)"""
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    frames = [f for f in te.stack if f.filename != _FSGUARD_FILE and f.filename != _DRIVER_FILE]
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
            return "%s: %s\n" % (_type_name(type(e)), _message(e))
        except BaseException:
            return "exception\n"


def _message(e):
    try:
        return _str_value(str(e))   # user code
    except BaseException:
        return "<exception str() failed>"


def _error(code, e, details=None):
    err = {"code": code, "name": _str_value(_type_name(type(e))), "message": _message(e),
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
    code = _exit_code(e)
    if code is None:
        n = 0
    elif issubclass(type(code), int):
        n = _int_value(code) & 0xFF   # what the OS would report for exit(n)
    else:
        try:
            sys.stderr.write(_str_value(str(code)) + "\n")
        except BaseException:
            pass
        n = 1
    return {"status": "exit", "exitCode": n}


def _too_big(e):
    """numpy's ValueError for an array past the address space: on wasm32
    (4 GiB) a request a 64-bit machine would refuse with MemoryError under
    its memory limit, so it is memory_limit here too."""
    return (type(e) is ValueError and len(e.args) == 1 and type(e.args[0]) is str
            and e.args[0].startswith("array is too big"))


def _run_error(e):
    _strip_hidden(e)
    t = type(e)
    if issubclass(t, SystemExit):
        return _exit_result(e)
    if issubclass(t, RecursionError):
        return _error("stack_overflow", e)
    if issubclass(t, MemoryError) or _too_big(e):
        return _error("memory_limit", e)
    if issubclass(t, KeyboardInterrupt) and _taken_signal() == 2:
        # SIGINT's default handler raised it and nothing caught it: Python
        # prints the traceback and dies by SIGINT (exit status 130).
        try:
            sys.stderr.write(_format_exception(e))
        except BaseException:
            pass
        return {"status": "exit", "exitCode": 130}
    if _display is not None and issubclass(t, _display.OutputLimitError):
        return _error("output_limit", e)
    return _error("exception", e)


# ---------------------------------------------------------------------------
# Running code.

class _CompileFailed(Exception):
    """args[0] is the result to send."""


def _compile(fn, source, filename, *more):
    try:
        return fn(source, filename, *more)
    except SyntaxError as e:
        _strip_hidden(e)
        raise _CompileFailed(_syntax_error(e))
    except ValueError as e:
        # source with NUL bytes
        _strip_hidden(e)
        raise _CompileFailed(_error("syntax_error", e))
    except RecursionError as e:
        _strip_hidden(e)
        raise _CompileFailed(_error("stack_overflow", e))
    except MemoryError as e:
        _strip_hidden(e)
        raise _CompileFailed(_error("memory_limit", e))


def _run_code(code, ns):
    """Run user code (only ever through _call_user)."""
    if code.co_flags & _CO_COROUTINE:
        import asyncio
        coro = _call_user(eval, code, ns)
        try:
            return _call_user(asyncio.run, coro)
        finally:
            coro.close()   # no "never awaited" warning if the loop failed
    return _call_user(eval, code, ns)


def _unbind(ns, frozen):
    """inputs is bound while the run's own code runs, no longer."""
    if dict.get(ns, "inputs") is frozen:
        dict.pop(ns, "inputs", None)


def _new_main(filename=None):
    m = _ModuleType("__main__")
    m.__builtins__ = builtins
    m.__spec__ = None
    m.__loader__ = None
    m.__package__ = None
    if filename is not None:
        m.__file__ = filename
    return m


_context_main = None   # the evaluate namespace, kept between requests


def _evaluate(source, filename, frozen):
    main = _context_main
    _modules["__main__"] = main
    sys.argv = [""]
    head, last = _compile(_compile_cell, source, filename)
    ns = main.__dict__
    ns["inputs"] = frozen
    try:
        _run_code(head, ns)
        value = None if last is None else _run_code(last, ns)
    finally:
        _unbind(ns, frozen)
    if last is None or value is None:
        # a statement, or None (print(...)): no value, as in Python's REPL
        # and as JavaScript's undefined
        return {"status": "ok", "hasValue": False}
    return {"status": "ok", "hasValue": True, "value": _to_json(value)}


def _execute(source, filename, args, frozen, argv0):
    """Run source as the program __main__, in the context's namespace: what
    a program defines (top-level await included) is there for the next
    request, as in JavaScript and as after IPython's `%run -i`. A one-shot
    run's guest is fresh, so there the namespace is a new one anyway."""
    main = _context_main
    code = _compile(compile, source, filename, "exec", _PyCF_ALLOW_TOP_LEVEL_AWAIT, True)
    sys.argv = [argv0] + [_str_value(str(a)) for a in args]
    ns = main.__dict__
    ns["__file__"] = filename
    ns["inputs"] = frozen
    _modules["__main__"] = main
    try:
        _run_code(code, ns)
    finally:
        _unbind(ns, frozen)
    return {"status": "ok", "hasValue": False}


def _bad_request(e):
    return {"status": "error", "error": {"code": "internal", "name": _type_name(type(e)),
                                         "message": "bad request: %s" % _message(e)}}


def _handle(raw):
    try:
        req = _json_loads(raw.decode("utf-8"))
        if type(req) is not dict:
            raise ValueError("request is not a JSON object")
        op = req.get("op")
        source = req.get("code") or ""
        filename = req.get("filename") or ("<stdin>" if op == "evaluate" else "main.py")
        args = req.get("args") or []
        inputs = req.get("inputs")
        cwd = req.get("cwd") or ""
        file_path = req.get("filePath") or ""
        if not (type(source) is str and type(filename) is str
                and type(args) is list and type(cwd) is str and type(file_path) is str):
            raise ValueError("bad request fields")
        _set_live(req.get("live") is True)
        outputs = req.get("outputs")
    except Exception as e:
        return _bad_request(e)
    if not file_path:
        _register_source(filename, source)
    _forget_missing_paths()
    if _display is not None:
        _display.begin(outputs)
    try:
        frozen = _freeze(inputs if inputs is not None else {})
        if cwd:
            _chdir(cwd)
        argv0 = filename
        if file_path:
            # `python FILE` in the working directory: argv[0] as given,
            # __file__ absolute, the script's directory first on sys.path.
            filename = _abspath(file_path)
            source = _read_script(filename)
            _register_source(filename, source)
            argv0 = file_path
            saved_path0 = sys.path[0] if sys.path else None
            sys.path[0:1] = [filename.rpartition("/")[0] or "/"]
        try:
            if op == "evaluate":
                return _with_outputs(_evaluate(source, filename, frozen))
            if op == "execute":
                return _with_outputs(_execute(source, filename, args, frozen, argv0))
        finally:
            if file_path and saved_path0 is not None and sys.path:
                sys.path[0] = saved_path0
        return {"status": "error", "error": {"code": "internal", "name": "ValueError",
                                             "message": "unknown op %r" % (op,)}}
    except _CompileFailed as e:
        return e.args[0]
    except BaseException as e:
        return _with_outputs(_run_error(e))


_WORKSPACE_PATHS = ()   # sys.path entries in the workspace (PYTHONPATH), set at init


def _forget_missing_paths():
    """importlib remembers (None in sys.path_importer_cache) that a sys.path
    entry was no directory, and never looks again. The workspace's package
    directory is made by the first pip install, while a context's guest
    lives on: forget the miss, so the next import looks again (one stat)."""
    cache = sys.path_importer_cache
    for p in _WORKSPACE_PATHS:
        if type(cache) is dict and p in cache and cache[p] is None:
            del cache[p]


def _register_source(filename, source):
    _sources[filename] = source
    linecache = _modules.get("linecache")
    if linecache is not None:   # user code formatting its own tracebacks
        try:
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        except BaseException:
            pass


def _abspath(p):
    if not p.startswith("/"):
        cwd = _getcwd()
        p = (cwd if cwd.endswith("/") else cwd + "/") + p
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


def _coding_cookie(data):
    """The PEP 263 encoding of a source file's first two lines, or None."""
    for line in data.split(b"\n", 2)[:2]:
        s = line.lstrip(b" \t\f")
        if not s.startswith(b"#"):
            if s.strip():
                return None     # code before any cookie
            continue
        i = s.find(b"coding")
        if i >= 0 and s[i + 6:i + 7] in (b":", b"="):
            rest = s[i + 7:].lstrip(b" \t")
            n = 0
            while n < len(rest) and (rest[n:n + 1].isalnum() or rest[n:n + 1] in (b"-", b"_", b".")):
                n += 1
            if n:
                return rest[:n].decode("ascii")
    return None


def _read_script(path):
    """A workspace file's source text, decoded as Python decodes a script
    (UTF-8, a BOM, or a coding cookie). Missing: FileNotFoundError, which
    the run reports as its exception."""
    with _io.open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    enc = _coding_cookie(data) or "utf-8"
    try:
        return data.decode(enc)
    except (LookupError, UnicodeDecodeError) as e:
        raise SyntaxError("%s: can't decode the file as %s: %s" % (path, enc, _message(e))) from None


def _with_outputs(result):
    """Adds the run's rich outputs (display(), plt.show(), figures left
    open: _wasmexec_display) to its result."""
    if _display is None:
        return result
    try:
        outputs, truncated = _display.end()
    except BaseException:
        return result
    if outputs:
        result["outputs"] = outputs
    if truncated:
        result["outputsTruncated"] = True
    return result


def _encode_result(result):
    try:
        return _json_dumps_bytes(result)
    except BaseException as e:
        return _json_dumps_bytes({"status": "error", "error": {
            "code": "internal", "name": _str_value(_type_name(type(e))),
            "message": "could not encode the result: %s" % _message(e)}})


def _serve_one(raw):
    """The handler given to _wasmexec.serve: request bytes -> result bytes."""
    try:
        result = _handle(raw)
    except BaseException as e:  # driver bug: still answer the request
        result = {"status": "error", "error": {"code": "internal", "name": _type_name(type(e)),
                                               "message": _message(e)}}
    _flush_streams()
    out = _encode_result(result)
    try:
        _reset_streams()   # fresh streams for the next request, made now
    except BaseException:
        pass               # (out of memory: the next request keeps these)
    return out


# ---------------------------------------------------------------------------

def _chdir_workspace():
    """WASI has no working directory of its own (wasi-libc starts at "/"):
    start in $PWD when the host sets it, else in /workspace if present."""
    for cand in (posix.environ.get(b"PWD"), b"/workspace"):
        if cand:
            try:
                _chdir(cand)
                return
            except OSError:
                pass


# Network (docs/PROTOCOL.md "Network"): the guest has no sockets; the host
# makes each HTTP(S) request (_wasmexec.fetch), under the run's allow-list.
# http.client.HTTPConnection and HTTPSConnection are replaced, before
# anything imports urllib.request, by classes that keep http.client's own
# request formatting and response parsing and exchange the bytes with the
# host instead of a socket: http.client, urllib.request.urlopen (errors:
# URLError with the host's reason) and what is built on them work.
# Redirects are the caller's (http.client never follows them; urllib's
# handler does, and the host checks each hop as a new request).
#
# User code reaches these classes (they are http.client's), so, like the
# stdlib guard, they are built in a namespace of their own: their
# functions' __globals__ lead to that namespace (its own builtins, C
# objects, http.client), never to the driver's. What user code can do
# there it could do by calling the C fetch itself, which the host polices.

_NETWORK_SOURCE = r"""
def install(hc, host_fetch, BytesIO, make_encoder, encode_basestring, make_scanner, Namespace):
    def no_default(o):
        raise TypeError("not JSON serializable")
    encode = make_encoder(None, no_default, encode_basestring, None, ":", ",", False, False, False)
    scan = make_scanner(Namespace(strict=True, object_hook=None, object_pairs_hook=None,
                                  parse_float=float, parse_int=int, parse_constant=float))

    def u32(n):
        return bytes((n & 0xFF, (n >> 8) & 0xFF, (n >> 16) & 0xFF, (n >> 24) & 0xFF))

    def dechunk(body):
        out = bytearray()
        i = 0
        while True:
            j = body.find(b"\r\n", i)
            if j < 0:
                raise OSError("malformed chunked request body")
            size = int(body[i:j].split(b";")[0].strip() or b"0", 16)
            if size == 0:
                return bytes(out)
            out += body[j + 2:j + 2 + size]
            i = j + 2 + size + 2

    def exchange(scheme, host, port, raw):
        # One HTTP/1.1 request, as http.client formatted it, through the
        # host; the response as HTTP/1.1 bytes for http.client to parse.
        head, sep, body = bytes(raw).partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target = lines[0].split(" ")[:2]
        headers = []
        chunked = False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip(), value.strip()
            low = name.lower()
            if low == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            if low in ("host", "content-length", "transfer-encoding", "connection"):
                continue
            headers.append([name, value])
        if chunked:
            body = dechunk(body)
        if target.startswith("http://") or target.startswith("https://"):
            url = target
        else:
            h = "[%s]" % host if ":" in host else host
            url = "%s://%s:%d%s" % (scheme, h, port, target)
        meta = "".join(encode({"method": method, "url": url, "headers": headers, "redirect": "manual"}, 0))
        meta = meta.encode("utf-8", "surrogateescape")
        out = host_fetch(u32(len(meta)) + meta + body)
        n = out[0] | (out[1] << 8) | (out[2] << 16) | (out[3] << 24)
        resp, _ = scan(out[4:4 + n].decode("utf-8"), 0)
        if resp.get("error"):
            raise OSError(resp["error"])
        data = out[4 + n:]
        lines = ["HTTP/1.1 %d %s" % (resp.get("status", 0), resp.get("statusText") or "")]
        for name, value in resp.get("headers") or ():
            if name not in ("content-length", "transfer-encoding", "connection"):
                lines.append("%s: %s" % (name, value))
        lines.append("Content-Length: %d" % len(data))
        lines.append("Connection: close")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + data

    class HostSocket:
        # What http.client writes its request to and reads its response from.
        def __init__(self):
            self.sent = bytearray()
            self.response = None

        def sendall(self, data):
            self.sent += data

        def makefile(self, mode="rb", *args, **kwargs):
            return BytesIO(self.response or b"")

        def close(self):
            pass

    Base = hc.HTTPConnection

    class HTTPConnection(Base):
        # http.client.HTTPConnection over the host's fetch (no sockets).
        _scheme = "http"

        def connect(self):
            self.sock = HostSocket()

        def putrequest(self, method, url, *args, **kwargs):
            if type(self.sock) is HostSocket and self.sock.response is not None:
                self.sock = None     # a new request: a new exchange
            return Base.putrequest(self, method, url, *args, **kwargs)

        def _exchange(self):
            sock = self.sock
            if type(sock) is HostSocket and sock.response is None:
                sock.response = exchange(self._scheme, self.host, self.port, sock.sent)

        def endheaders(self, message_body=None, *, encode_chunked=False):
            Base.endheaders(self, message_body, encode_chunked=encode_chunked)
            sock = self.sock
            if type(sock) is HostSocket:
                head, _, body = bytes(sock.sent).partition(b"\r\n\r\n")
                want = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        want = int(value.strip() or b"0")
                if len(body) >= want or b"chunked" in head.lower():
                    self._exchange()   # errors surface from request(), as a connection error would

        def getresponse(self):
            self._exchange()
            return Base.getresponse(self)

    class HTTPSConnection(HTTPConnection):
        # HTTPS through the host, which verifies the server's certificate
        # against its own roots (context and check_hostname are ignored).
        _scheme = "https"
        default_port = hc.HTTPS_PORT

        def __init__(self, host, port=None, key_file=None, cert_file=None, timeout=hc.socket._GLOBAL_DEFAULT_TIMEOUT,
                     source_address=None, *, context=None, check_hostname=None, blocksize=8192):
            HTTPConnection.__init__(self, host, port, timeout, source_address, blocksize)

    HTTPConnection.__module__ = HTTPSConnection.__module__ = "http.client"
    hc.HTTPConnection = HTTPConnection
    hc.HTTPSConnection = HTTPSConnection
    if "HTTPSConnection" not in hc.__all__:
        hc.__all__.append("HTTPSConnection")
"""


def _install_network():
    host_fetch = getattr(_wasmexec, "fetch", None)
    if host_fetch is None:
        return      # an older host ABI: no network support
    import http.client
    ns = {"__builtins__": dict(__builtins__), "__name__": "wasmexec_network"}
    exec(compile(_NETWORK_SOURCE, "<wasmexec network>", "exec"), ns)
    ns["install"](http.client, host_fetch, _io.BytesIO, _json.make_encoder,
                  _json.encode_basestring, _json.make_scanner, _SimpleNamespace)
    del ns["install"]


# Local time (time.tzset and TZ). wasi-libc has no time zones: its
# localtime is gmtime, and CPython on WASI has no time.tzset. The time
# module's local-time functions are replaced by ones that use the zone TZ
# names (an IANA key, from the bundled tzdata or /usr/share/zoneinfo
# through zoneinfo, or a POSIX TZ string such as "EST5EDT,M3.2.0,M11.1.0"),
# and time.tzset reads TZ again, as on Linux. Without TZ, or with one no
# zone matches, local time is UTC, as before. C code that asks libc for
# local time (datetime's C half: astimezone(), naive fromtimestamp() and
# timestamp(); sqlite's 'localtime') gets the same zone: python.wasm's
# localtime_r calls the zone's offset function tzset registers
# (_wasmexec.set_localtime).
#
# zoneinfo is imported here, at init, with the real datetime: its C half
# takes datetime's C API when it is first imported, and a test that
# re-imports _datetime afresh (test_datetime) would leave it a stale one.
#
# User code reaches these functions (they are the time module's), so,
# like the network classes, they live in a namespace of their own.

_TIME_SOURCE = r"""
def install(time, environ, struct_time, import_module, BytesIO, pack, dt, modules, set_localtime):
    # dt is the datetime module, taken now: user code may swap the one in
    # sys.modules (test.support's import_fresh_module does).
    c = {name: getattr(time, name) for name in ("localtime", "mktime", "ctime", "asctime", "strftime")}
    gmtime, time_now = time.gmtime, time.time
    state = {"zone": None, "ZoneInfo": None}

    def zoneinfo_class():
        # zoneinfo's C half needs the real datetime in sys.modules when it
        # is first imported.
        if state["ZoneInfo"] is None:
            swapped = modules.get("datetime")
            modules["datetime"] = dt
            try:
                state["ZoneInfo"] = import_module("zoneinfo").ZoneInfo
            finally:
                if swapped is None:
                    modules.pop("datetime", None)
                else:
                    modules["datetime"] = swapped
        return state["ZoneInfo"]

    def posix_zone(spec, ZoneInfo):
        # A TZif file without transitions whose footer is the POSIX string:
        # zoneinfo then applies the string to every instant.
        def block():
            return b"TZif2" + bytes(15) + pack(">6l", 0, 0, 0, 0, 1, 4) + pack(">lBB", 0, 0, 0) + b"UTC\0"
        data = block() + block() + b"\n" + spec.encode("ascii") + b"\n"
        return ZoneInfo.from_file(BytesIO(data), key=spec)

    def find_zone(spec):
        if spec.startswith(":"):
            spec = spec[1:]
        if not spec or spec in ("UTC", "UTC0", "GMT", "GMT0", "Etc/UTC"):
            return None
        ZoneInfo = zoneinfo_class()
        try:
            return ZoneInfo(spec)
        except (ValueError, OSError, LookupError):
            pass
        try:
            spec.encode("ascii")
            return posix_zone(spec, ZoneInfo)
        except (ValueError, OSError, LookupError, UnicodeError):
            return None

    def local(secs, zone):
        dt_ = dt.datetime.fromtimestamp(secs, zone)
        off = dt_.utcoffset()
        dst = dt_.dst()
        return struct_time((dt_.year, dt_.month, dt_.day, dt_.hour, dt_.minute, dt_.second,
                            dt_.weekday(), dt_.timetuple().tm_yday, 1 if dst else 0,
                            dt_.tzname(), int(off.total_seconds())))

    def c_localtime(secs):
        # For libc's localtime_r (_wasmexecmodule.c): the offset east of
        # UTC in seconds, DST or not, and the zone's abbreviation.
        dt_ = dt.datetime.fromtimestamp(secs, state["zone"])
        return int(dt_.utcoffset().total_seconds()), 1 if dt_.dst() else 0, dt_.tzname() or ""

    def localtime(secs=None):
        zone = state["zone"]
        if zone is None:
            return c["localtime"](secs)
        if secs is None:
            secs = time_now()
        gmtime(secs)                    # the same argument checks and errors
        return local(int(secs // 1), zone)

    def mktime(t):
        zone = state["zone"]
        if zone is None:
            return c["mktime"](t)
        t = tuple(t)
        if len(t) < 9:
            raise TypeError("mktime(): illegal time tuple argument")
        y, mo, d, h, mi, s, _, _, isdst = (int(v) for v in t[:9])
        # Normalize as C's mktime does (month 13, day 0, hour 25, ...).
        y, mo = y + (mo - 1) // 12, (mo - 1) % 12 + 1
        try:
            wall = (dt.datetime(y, mo, 1) - dt.datetime(1970, 1, 1)).total_seconds() + (d - 1) * 86400 + h * 3600 + mi * 60 + s
            naive = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=wall)
        except (ValueError, OverflowError):
            raise OverflowError("mktime argument out of range") from None
        aware = naive.replace(tzinfo=zone)
        if isdst >= 0 and bool(aware.dst()) != bool(isdst):
            other = aware.replace(fold=1)
            if bool(other.dst()) == bool(isdst):
                aware = other
        return float(aware.timestamp())

    def asctime(t=None):
        return c["asctime"](localtime() if t is None else t)

    def ctime(secs=None):
        return c["asctime"](localtime(secs))

    def strftime(format, t=None):
        return c["strftime"](format, localtime() if t is None else t)

    def tzset():
        zone = find_zone(environ.get(b"TZ", b"").decode("utf-8", "surrogateescape"))
        state["zone"] = zone
        set_localtime(None if zone is None else c_localtime)
        if zone is None:
            time.timezone, time.altzone, time.daylight, time.tzname = 0, 0, 0, ("UTC", "UTC")
            return
        year = gmtime(time_now()).tm_year
        jan = local(mktime((year, 1, 1, 0, 0, 0, 0, 0, -1)), zone)
        jul = local(mktime((year, 7, 1, 0, 0, 0, 0, 0, -1)), zone)
        janzone, julzone = -jan.tm_gmtoff, -jul.tm_gmtoff
        if janzone < julzone:       # DST is reversed in the southern hemisphere
            jan, jul, janzone, julzone = jul, jan, julzone, janzone
        time.timezone, time.altzone = janzone, julzone
        time.daylight = int(janzone != julzone)
        time.tzname = (jan.tm_zone, jul.tm_zone)

    for f in (localtime, mktime, asctime, ctime, strftime):
        f.__doc__ = c[f.__name__].__doc__
        f.__module__ = "time"
        setattr(time, f.__name__, f)
    tzset.__doc__ = ("tzset()\n\nInitialize, or reinitialize, the local timezone to the value "
                     "of the environment variable TZ (an IANA zone name or a POSIX TZ string).")
    tzset.__module__ = "time"
    time.tzset = tzset
    zoneinfo_class()
    return tzset
"""

# os.utime(path) and Path.touch() set the times to 0 (1970): CPython calls
# utimensat(..., NULL) ("now"), and the wasi-libc it is linked with
# (Debian's 0.0~git20220510) reads the NULL array as the times instead of
# asking WASI for "now" (fixed upstream later). os is frozen into the
# interpreter, so its os.py can't be patched in the zip: posix.utime and
# os.utime are replaced here by a function that passes "now" as an
# explicit time (WASI's realtime clock), kept in os.supports_* as the
# original was. (Own namespace, as above.)

_UTIME_SOURCE = r"""
def install(posix, os, time_ns):
    c_utime = posix.utime

    def utime(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True):
        if times is None and ns is None:
            now = time_ns()
            ns = (now, now)
        if ns is None:      # (the C function refuses ns=None beside times)
            return c_utime(path, times, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        return c_utime(path, times, ns=ns, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

    utime.__doc__ = c_utime.__doc__
    utime.__module__ = "posix"
    posix.utime = os.utime = utime
    for name in ("supports_dir_fd", "supports_fd", "supports_follow_symlinks", "supports_effective_ids"):
        s = getattr(os, name, None)
        if s is not None and c_utime in s:
            s.discard(c_utime)
            s.add(utime)
"""


def _install_utime():
    import os
    import time
    ns = {"__builtins__": dict(__builtins__), "__name__": "wasmexec_utime"}
    exec(compile(_UTIME_SOURCE, "<wasmexec utime>", "exec"), ns)
    ns["install"](posix, os, time.time_ns)
    del ns["install"]


# time.tzset, kept in a list: a function among the driver's globals would
# be marked as the driver's (_setup), and its frames hidden from the
# tracebacks of user code that calls it.
_tzset = []


def _install_time():
    import time
    import datetime
    import _struct
    ns = {"__builtins__": dict(__builtins__), "__name__": "wasmexec_time"}
    exec(compile(_TIME_SOURCE, "<wasmexec time>", "exec"), ns)
    _tzset.append(ns["install"](time, posix.environ, time.struct_time, __import__("importlib").import_module,
                                _io.BytesIO, _struct.pack, datetime, _modules, _wasmexec.set_localtime))
    del ns["install"]


# The stdlib imported at init, so that the snapshot holds it (README.md,
# "Snapshot"): what agents' code imports most, and what the driver itself
# needs to format an error (traceback, linecache) or run top-level await.
PREIMPORTED = (
    "os", "json", "re", "datetime", "collections", "math", "itertools", "functools",
    "decimal", "random", "dataclasses", "typing", "pathlib", "string", "time",
    "copy", "enum", "operator", "statistics", "fractions", "textwrap", "uuid",
    "secrets", "base64", "hashlib", "struct", "heapq", "bisect", "io",
    "traceback", "linecache", "asyncio",
)


def _setup():
    _install_audit_hook()
    # exit()/quit() (site isn't loaded: -S)
    builtins.exit = builtins.quit = sys.exit
    if _display is not None:
        builtins.display = _display.display
    global _context_main
    _context_main = _new_main()
    _modules["__main__"] = _context_main
    _modules.pop("wasmexec_driver", None)
    global _WORKSPACE_PATHS
    _WORKSPACE_PATHS = tuple(p for p in sys.path if p.startswith("/workspace/"))
    if sys.path and sys.path[0] != "":
        sys.path.insert(0, "")
    sys.argv = [""]
    function = type(_setup)
    for v in list(globals().values()):
        if type(v) is function:
            _wasmexec.hide(v)


_reseed = None          # random's module-level generator, reseeded per guest
_display = None         # _wasmexec_display (rich outputs), when the image has it
_np_reseed = None       # numpy's legacy global RandomState, reseeded per guest


class _DottedBuiltins:
    """Finds built-in modules with dotted names (numpy's extension modules,
    linked into python.wasm: numpy.sh): BuiltinImporter itself answers only
    top-level names."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        import _imp
        if "." not in name or not _imp.is_builtin(name):
            return None
        from importlib.machinery import BuiltinImporter, ModuleSpec
        return ModuleSpec(name, BuiltinImporter, origin="built-in")


def init():
    """The image's init (called from C, wasmexec_init): everything that is
    the same for every guest. The engine snapshots the memory after it."""
    global _reseed
    if any("." in name for name in sys.builtin_module_names):
        sys.meta_path.insert(1, _DottedBuiltins)
    _install_time()
    _install_utime()
    try:
        _install_network()
    except ImportError:
        pass        # no http.client: the guest has no network support at all
    for name in PREIMPORTED:
        __import__(name)
    global _display, _np_reseed
    try:
        import _wasmexec_display as _display
    except ImportError:
        _display = None
    # numpy, when the image has it (every image built with numpy.sh): a
    # first import costs a fresh guest 150-430 ms; in the snapshot it is
    # mapped, not copied, per guest. Its global RandomState was seeded now,
    # so every guest reseeds it (_start), as random's.
    try:
        import numpy
        _np_reseed = numpy.random.mtrand._rand.seed
    except ImportError:
        _np_reseed = None
    _reseed = _modules["random"]._inst.seed
    _setup()
    _warm_up()
    import gc
    gc.collect()
    gc.freeze()     # the image's objects: never scanned again, so their pages stay shared
    _wasmexec.prepare(_serve_one, _start, _end)


# Requests run once at init so that the snapshot holds what a first request
# creates or specializes (3.11 quickens bytecode in place, and the first
# error imports and warms up traceback's formatting): each guest then
# starts with warm driver code and dirties fewer of the snapshot's pages.
# None of them prints (there is no host to write to yet), and what they
# leave in the driver's state is removed.
_WARM_UP = (
    b'{"op":"evaluate","code":"x = [1, 2.5, \\"a\\", None, {\\"k\\": (1,)}]\\nx","filename":"<warm-up>"}',
    b'{"op":"execute","code":"import sys\\nsys.argv","filename":"<warm-up>"}',
    b'{"op":"evaluate","code":"1/0","filename":"<warm-up>"}',
)


def _warm_up():
    for req in _WARM_UP:
        _serve_one(req)
    _sources.clear()
    _modules["linecache"].cache.pop("<warm-up>", None)
    for name in ("x", "_"):
        _context_main.__dict__.pop(name, None)


def _start(environ):
    """Once per guest, before the first request (called from C,
    wasmexec_serve): what must differ between guests of one snapshot."""
    # The guest's own environment (os.environ is posix.environ's dict).
    posix.environ.clear()
    posix.environ.update(environ)
    # Fresh entropy: random's state was seeded when the image was made.
    # (os.urandom, uuid4, secrets and SystemRandom read WASI random_get on
    # every call; tempfile makes its generator on first use.)
    _reseed()
    try:
        _tzset[0]()     # TZ of this guest (cheap without one)
    except BaseException:
        pass
    if _np_reseed is not None:
        _np_reseed()
    tf = _modules.get("tempfile")
    if tf is not None:
        tf._name_sequence = None
    _chdir_workspace()
    _reset_streams()


def _end():
    # No more requests: nothing may reach the host after this point.
    _flush_streams()
    null = _TextIOWrapper(_io.BytesIO(), encoding="utf-8")
    sys.stdout = sys.__stdout__ = sys.stderr = sys.__stderr__ = null
