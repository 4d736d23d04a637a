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
