#!/usr/bin/python3.11
"""Small, exact edits to CPython 3.11.2's C sources for wasmexec, applied by
build.sh before configure. Each edit must match exactly once, so a different
source tree fails loudly instead of being half-patched.

1. Hidden driver frames. The driver (wasmexec_driver.py) marks its code
   objects with the co_flags bit CO_WASMEXEC_HIDDEN (through _wasmexec.hide)
   and so do the frames below it when it starts serving. A frame running
   such code is the end of the stack as user code sees it: frame.f_back
   (PyFrame_GetBack) returns None instead of a hidden frame, and
   sys._getframe(n) says "call stack is not deep enough" rather than walk
   into one. Together with the audit hook in _wasmexecmodule.c (tracebacks,
   gc), user code can't reach the driver's frames and, through them, its
   globals and the request being served.

2. The C stack. On wasm32-wasi CPython's C stack is 512 KiB of linear memory
   placed first (--stack-first), growing down towards address 0, and the
   interpreter has no check of its own (USE_STACKCHECK is Windows-only).
   Recursion through C under a raised sys.setrecursionlimit() (a recursive
   __getattr__, repr of a deeply nested list) ran the stack pointer below 0
   and the guest trapped. _Py_EnterRecursiveCall now also enters the slow
   path when the stack pointer is below _Py_wasmexec_stack_limit (set by
   _wasmexec to 64 KiB above the bottom of the stack), which raises
   RecursionError ("... (C stack)") like the recursion limit does. The
   compare is one global.get of __stack_pointer.

3. Linux calls on WASI. os.getrandom (WASI's random_get), os.sendfile
   (between files) and a descriptor of their own for os.scandir/os.listdir
   on a directory descriptor (WASI has no dup; so fdopendir, os.fwalk and
   shutil.rmtree's descriptor-based walk work) come from
   _wasmexec_linux.c; posixmodule.c calls them on WASI, and the config.site
   says fdopendir and sendfile exist (this wasi-libc's fdopendir works:
   what failed was the dup before it).
"""
import pathlib
import sys

HIDDEN = """
/* wasmexec: co_flags bit of the driver's code (see tools/patch_cpython.py) */
#define CO_WASMEXEC_HIDDEN 0x40000000
"""

EDITS = {
    "Include/cpython/code.h": [
        ("""#define CO_FUTURE_ANNOTATIONS    0x1000000
""", """#define CO_FUTURE_ANNOTATIONS    0x1000000
""" + HIDDEN),
    ],
    "Tools/wasm/config.site-wasm32-wasi": [
        ("""# fdopendir() fails on SDK 15.0,
# OSError: [Errno 28] Invalid argument: '.'
ac_cv_func_fdopendir=no
""", """# wasmexec: fdopendir() works; the dup() before it is done with openat()
# (_wasmexec_linux.c), and so is sendfile() (file to file).
ac_cv_func_sendfile=yes
"""),
    ],
    "Modules/posixmodule.c": [
        ("""#ifdef HAVE_SYS_SENDFILE_H
#  include <sys/sendfile.h>
#endif
""", """#ifdef HAVE_SYS_SENDFILE_H
#  include <sys/sendfile.h>
#endif

#ifdef __wasi__
/* wasmexec: Linux calls built on WASI (_wasmexec_linux.c). */
#  define GRND_NONBLOCK 0x0001
#  define GRND_RANDOM   0x0002
extern ssize_t _wasmexec_getrandom(void *buf, size_t size, unsigned int flags);
extern int _wasmexec_dup_dir(int dirfd);
extern ssize_t sendfile(int out_fd, int in_fd, off_t *offset, size_t count);
#endif
"""),
        ("""        /* closedir() closes the FD, so we duplicate it */
        fd = _Py_dup(path->fd);
        if (fd == -1)
            return NULL;
""", """        /* closedir() closes the FD, so we duplicate it */
#ifdef __wasi__
        fd = _wasmexec_dup_dir(path->fd);
        if (fd == -1)
            return path_error(path);
#else
        fd = _Py_dup(path->fd);
        if (fd == -1)
            return NULL;
#endif
"""),
        ("""        /* closedir() closes the FD, so we duplicate it */
        fd = _Py_dup(iterator->path.fd);
        if (fd == -1)
            goto error;
""", """        /* closedir() closes the FD, so we duplicate it */
#ifdef __wasi__
        fd = _wasmexec_dup_dir(iterator->path.fd);
        if (fd == -1) {
            path_error(&iterator->path);
            goto error;
        }
#else
        fd = _Py_dup(iterator->path.fd);
        if (fd == -1)
            goto error;
#endif
"""),
        ("""#ifdef __linux__
    if (offobj == Py_None) {""", """#if defined(__linux__) || defined(__wasi__)
    if (offobj == Py_None) {"""),
        ("""#ifdef HAVE_GETRANDOM_SYSCALL
/*[clinic input]
os.getrandom
""", """#if defined(HAVE_GETRANDOM_SYSCALL) || defined(__wasi__)
/*[clinic input]
os.getrandom
"""),
        ("""        n = syscall(SYS_getrandom,
                    PyBytes_AS_STRING(bytes),
                    PyBytes_GET_SIZE(bytes),
                    flags);
""", """#ifdef __wasi__
        n = _wasmexec_getrandom(PyBytes_AS_STRING(bytes),
                                PyBytes_GET_SIZE(bytes), flags);
#else
        n = syscall(SYS_getrandom,
                    PyBytes_AS_STRING(bytes),
                    PyBytes_GET_SIZE(bytes),
                    flags);
#endif
"""),
        ("""#endif   /* HAVE_GETRANDOM_SYSCALL */
""", """#endif   /* HAVE_GETRANDOM_SYSCALL || __wasi__ */
"""),
        ("""#ifdef HAVE_GETRANDOM_SYSCALL
    if (PyModule_AddIntMacro(m, GRND_RANDOM)) return -1;""", """#if defined(HAVE_GETRANDOM_SYSCALL) || defined(__wasi__)
    if (PyModule_AddIntMacro(m, GRND_RANDOM)) return -1;"""),
    ],
    "Modules/clinic/posixmodule.c.h": [
        ("""#if defined(HAVE_GETRANDOM_SYSCALL)
""", """#if defined(HAVE_GETRANDOM_SYSCALL) || defined(__wasi__)
"""),
    ],
    "Objects/frameobject.c": [
        ("""        if (prev) {
            back = _PyFrame_GetFrameObject(prev);
        }
    }
    Py_XINCREF(back);
    return back;
""", """        if (prev) {
            back = _PyFrame_GetFrameObject(prev);
        }
    }
    /* wasmexec: the driver's frames are the end of the stack. */
    if (back != NULL && (back->f_frame->f_code->co_flags & CO_WASMEXEC_HIDDEN)) {
        back = NULL;
    }
    Py_XINCREF(back);
    return back;
"""),
    ],
    "Python/sysmodule.c": [
        ("""            if (_PyFrame_IsIncomplete(frame)) {
                continue;
            }
            --depth;
        }
    }
    if (frame == NULL) {
        _PyErr_SetString(tstate, PyExc_ValueError,
                         "call stack is not deep enough");
""", """            if (_PyFrame_IsIncomplete(frame)) {
                continue;
            }
            /* wasmexec: the driver's frames are the end of the stack. */
            if (frame->f_code->co_flags & CO_WASMEXEC_HIDDEN) {
                frame = NULL;
                break;
            }
            --depth;
        }
    }
    if (frame == NULL) {
        _PyErr_SetString(tstate, PyExc_ValueError,
                         "call stack is not deep enough");
"""),
    ],
    "Include/internal/pycore_ceval.h": [
        ("""#else
static inline int _Py_MakeRecCheck(PyThreadState *tstate) {
    return tstate->recursion_remaining-- <= 0;
}
#endif
""", """#elif defined(__wasi__)
/* wasmexec: also take the slow path when the C stack is nearly used up
   (see tools/patch_cpython.py). */
PyAPI_DATA(uintptr_t) _Py_wasmexec_stack_limit;
static inline int _Py_MakeRecCheck(PyThreadState *tstate) {
    return (tstate->recursion_remaining-- <= 0
            || (uintptr_t)__builtin_frame_address(0) < _Py_wasmexec_stack_limit);
}
#else
static inline int _Py_MakeRecCheck(PyThreadState *tstate) {
    return tstate->recursion_remaining-- <= 0;
}
#endif
"""),
    ],
    "Python/ceval.c": [
        ("""int
_Py_CheckRecursiveCall(PyThreadState *tstate, const char *where)
{
    /* Check against global limit first. */
""", """#ifdef __wasi__
/* wasmexec: the lowest stack pointer at which a recursive call may start
   (0: no check until _wasmexec sets it). */
uintptr_t _Py_wasmexec_stack_limit = 0;
#endif

int
_Py_CheckRecursiveCall(PyThreadState *tstate, const char *where)
{
#ifdef __wasi__
    /* wasmexec: the C stack is nearly exhausted. While the RecursionError
       is being created (headroom) calls may go on into the reserve below
       the limit; past the bottom the guest traps, which the host reports
       as stack_overflow. */
    if ((uintptr_t)__builtin_frame_address(0) < _Py_wasmexec_stack_limit) {
        if (tstate->recursion_headroom) {
            return 0;
        }
        tstate->recursion_headroom++;
        _PyErr_Format(tstate, PyExc_RecursionError,
                      "maximum recursion depth exceeded%s (C stack)",
                      where);
        tstate->recursion_headroom--;
        ++tstate->recursion_remaining;
        return -1;
    }
#endif
    /* Check against global limit first. */
"""),
    ],
}


def main():
    src = pathlib.Path(sys.argv[1])
    for rel, edits in EDITS.items():
        p = src / rel
        text = p.read_text(encoding="utf-8")
        for old, new in edits:
            n = text.count(old)
            if n != 1:
                sys.exit(f"patch_cpython: {rel}: expected 1 match, found {n}:\n{old}")
            text = text.replace(old, new)
        p.write_text(text, encoding="utf-8")


main()
