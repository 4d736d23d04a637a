/*
 * _wasmexec: the C half of the wasmexec driver for the CPython WASI guest.
 *
 * The image is a WASI reactor: wasmexec_init (exported, run once per image
 * by the engine, which then snapshots the memory) starts the interpreter and
 * imports the driver, whose init calls prepare(); wasmexec_serve (exported,
 * the entry of every guest) runs the request loop.
 *
 * The control channel (docs/PROTOCOL.md) is driven from C only. The loop
 * calls the host's recv, hands the request to the Python handler it was
 * given to prepare() (and keeps: a strong reference in a C static), and calls
 * the host's send with the handler's result. recv and send are not exposed to
 * Python at all, and once prepare() has run, `_wasmexec` is gone from
 * sys.modules and can't be imported again. So user code can neither answer
 * a request nor receive one, whatever it does to the driver's Python state.
 *
 * Around that, the things the driver needs to keep user code away from
 * itself and from later requests (README.md, "Isolation from user code"):
 *
 *   hide(code)           mark the driver's code objects (co_flags bit
 *                        CO_WASMEXEC_HIDDEN, see tools/patch_cpython.py):
 *                        frame.f_back and sys._getframe() end before them
 *   call_user(f, *args)  run user code: sys.settrace/setprofile are allowed
 *                        only inside, and removed again before returning;
 *                        the cyclic GC runs only inside
 *   compile_cell(src, filename) -> (code, last_expr_code | None)
 *                        REPL split of a cell, parsed and compiled in C
 *                        (no Python-level ast objects user code could patch)
 *   freeze(json)         inputs as read-only containers (ReadOnlyDict/List)
 *   strip_hidden(exc)    drop the driver's frames from exc's traceback(s)
 *   raw_stream(fd)       raw stdin/stdout/stderr over the host's read/write
 *   set_localtime(f)     the zone libc's localtime_r applies (None: UTC)
 *
 * and an audit hook (PySys_AddAuditHook) that refuses: new audit hooks,
 * sys.settrace/setprofile outside user code, gc.get_objects/get_referrers/
 * get_referents, and reading tb_frame/gi_frame of a hidden frame from
 * anywhere but the driver.
 *
 * Host functions (import module "wasmexec"):
 *   recv(ptr, cap) -> n     block for the next request (-1: no more requests,
 *                           -2: suspend: return from wasmexec_serve, state kept)
 *   send(ptr, len)          deliver the result of the current request
 *   write(fd, ptr, len) -> n   append to the run's stdout (1) / stderr (2)
 *   read(ptr, cap) -> n     read the run's stdin (0: EOF); with cap 0, the
 *                           number of the signal that closed stdin (0: none)
 *
 * There are no threads on wasm32-wasi, so the GIL is not released.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"
#include "pycore_ast.h"           // mod_ty, _PyAST_Module()
#include "pycore_ceval.h"         // _Py_wasmexec_stack_limit (tools/patch_cpython.py)
#include "pycore_compile.h"       // _PyAST_Compile()
#include "pycore_parser.h"        // _PyParser_ASTFromString()
#include "pycore_pyarena.h"       // _PyArena_New()
#include "frameobject.h"          // PyFrame_GetCode()
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wasi/api.h>
#include <wasi/libc-environ.h>

extern char **environ;

#define WASMEXEC_IMPORT(name) \
    __attribute__((import_module("wasmexec"), import_name(name)))

WASMEXEC_IMPORT("recv") extern int32_t wasmexec_recv(void *ptr, int32_t cap);
WASMEXEC_IMPORT("send") extern void wasmexec_send(const void *ptr, int32_t len);
WASMEXEC_IMPORT("write") extern int32_t wasmexec_write(int32_t fd, const void *ptr, int32_t len);
WASMEXEC_IMPORT("read") extern int32_t wasmexec_read(void *ptr, int32_t cap);
WASMEXEC_IMPORT("fetch") extern int32_t wasmexec_fetch(const void *req, int32_t req_len,
                                                      void *resp, int32_t resp_cap);

/* The bottom of the C stack (wasm-ld, --stack-first: address 0). */
extern unsigned char __stack_low;
/* RecursionError is raised this far above the bottom of the stack. */
#define STACK_RESERVE (64 * 1024)

/* From _io (built in): the base of raw streams. */
extern PyTypeObject PyRawIOBase_Type;
extern PyTypeObject PyTextIOWrapper_Type;

/* ------------------------------------------------------------------------
 * State. */

static int serving = 0;          /* prepare() has run */
static int entered = 0;          /* inside wasmexec_serve */
static int suspending = 0;       /* recv said -2: suspend (see wasmexec_serve) */
static int in_user_code = 0;     /* inside call_user() */
static int clearing_hooks = 0;   /* the driver removes trace/profile hooks */
static int user_gc = 1;          /* the user's gc.isenabled() */
static PyObject *handler = NULL; /* the driver's request handler */
static PyObject *unsupported_operation = NULL;  /* io.UnsupportedOperation */

/* ------------------------------------------------------------------------
 * Hidden code and frames. */

static int
code_hidden(PyCodeObject *co)
{
    return (co->co_flags & CO_WASMEXEC_HIDDEN) != 0;
}

static int
frame_hidden(PyFrameObject *f)
{
    PyCodeObject *co = PyFrame_GetCode(f);
    int hidden = code_hidden(co);
    Py_DECREF(co);
    return hidden;
}

/* Is the running Python frame the driver's? */
static int
caller_hidden(void)
{
    PyFrameObject *f = PyEval_GetFrame();   /* borrowed */
    return f != NULL && frame_hidden(f);
}

static void
hide_code(PyCodeObject *co, int depth)
{
    co->co_flags |= CO_WASMEXEC_HIDDEN;
    if (depth > 50) {
        return;
    }
    PyObject *consts = co->co_consts;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(consts); i++) {
        PyObject *c = PyTuple_GET_ITEM(consts, i);
        if (PyCode_Check(c)) {
            hide_code((PyCodeObject *)c, depth + 1);
        }
    }
}

static PyObject *
wasmexec_hide(PyObject *module, PyObject *arg)
{
    if (serving) {
        PyErr_SetString(PyExc_RuntimeError, "hide() is for the driver's start-up");
        return NULL;
    }
    if (PyFunction_Check(arg)) {
        arg = PyFunction_GET_CODE(arg);
    }
    if (!PyCode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "hide() takes a function or a code object");
        return NULL;
    }
    hide_code((PyCodeObject *)arg, 0);
    Py_RETURN_NONE;
}

/* Hide every frame on the stack (the driver's main and the -c code that
 * called it): user code sees a stack that starts with its own frames. */
static void
hide_stack(void)
{
    PyFrameObject *f = PyEval_GetFrame();
    Py_XINCREF(f);
    while (f != NULL) {
        PyCodeObject *co = PyFrame_GetCode(f);
        hide_code(co, 0);
        Py_DECREF(co);
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
}

/* ------------------------------------------------------------------------
 * Audit hook. */

static int
refuse(PyObject *exc, const char *what)
{
    PyErr_Format(exc, "%s is not available in the wasmexec sandbox", what);
    return -1;
}

static int
audit_hook(const char *event, PyObject *args, void *userData)
{
    if (!serving) {
        return 0;
    }
    if (strncmp(event, "sys.", 4) == 0) {
        const char *e = event + 4;
        if (strcmp(e, "addaudithook") == 0) {
            /* (sys.addaudithook() then returns None without adding it.) */
            return refuse(PyExc_RuntimeError, "sys.addaudithook");
        }
        if (strcmp(e, "settrace") == 0 || strcmp(e, "setprofile") == 0) {
            if (in_user_code || clearing_hooks) {
                return 0;
            }
            PyErr_Format(PyExc_RuntimeError,
                         "sys.%s is only available while the run's own code runs", e);
            return -1;
        }
        if (strcmp(e, "_getframe") == 0) {
            /* tools/patch_cpython.py already stops sys._getframe at the
             * driver's frames; this is a second line. */
            PyObject *f = PyTuple_Size(args) == 1 ? PyTuple_GET_ITEM(args, 0) : NULL;
            if (f != NULL && PyFrame_Check(f) && frame_hidden((PyFrameObject *)f)
                    && !caller_hidden()) {
                PyErr_SetString(PyExc_ValueError, "call stack is not deep enough");
                return -1;
            }
        }
        return 0;
    }
    if (strcmp(event, "gc.get_objects") == 0 || strcmp(event, "gc.get_referrers") == 0
            || strcmp(event, "gc.get_referents") == 0) {
        return refuse(PyExc_RuntimeError, event);
    }
    if (strcmp(event, "object.__getattr__") == 0 && PyTuple_Size(args) == 2) {
        PyObject *obj = PyTuple_GET_ITEM(args, 0);
        PyObject *name = PyTuple_GET_ITEM(args, 1);
        if (!PyUnicode_Check(name)) {
            return 0;
        }
        int hidden = 0;
        if (PyTraceBack_Check(obj) && PyUnicode_CompareWithASCIIString(name, "tb_frame") == 0) {
            PyFrameObject *f = ((PyTracebackObject *)obj)->tb_frame;
            hidden = f != NULL && frame_hidden(f);
        }
        else if ((PyGen_Check(obj) || PyCoro_CheckExact(obj) || PyAsyncGen_CheckExact(obj))
                 && (PyUnicode_CompareWithASCIIString(name, "gi_frame") == 0
                     || PyUnicode_CompareWithASCIIString(name, "cr_frame") == 0
                     || PyUnicode_CompareWithASCIIString(name, "ag_frame") == 0)) {
            hidden = code_hidden(((PyGenObject *)obj)->gi_code);
        }
        if (hidden && !caller_hidden()) {
            PyErr_SetString(PyExc_AttributeError,
                            "the frames of the wasmexec driver are not accessible");
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Running user code. */

/* Remove trace and profile functions, keeping any pending exception. */
static void
clear_hooks(void)
{
    PyThreadState *ts = PyThreadState_Get();
    if (ts->c_tracefunc == NULL && ts->c_profilefunc == NULL) {
        return;
    }
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    clearing_hooks = 1;
    int rc = 0;
    if (ts->c_tracefunc != NULL) {
        rc |= _PyEval_SetTrace(ts, NULL, NULL);
    }
    if (ts->c_profilefunc != NULL) {
        rc |= _PyEval_SetProfile(ts, NULL, NULL);
    }
    clearing_hooks = 0;
    if (rc != 0 || ts->c_tracefunc != NULL || ts->c_profilefunc != NULL) {
        /* Only an audit hook can refuse, and user code can't add one. */
        Py_FatalError("wasmexec: could not remove a trace/profile function");
    }
    PyErr_Restore(et, ev, tb);
}

static PyObject *
wasmexec_call_user(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "call_user(f, *args) needs f");
        return NULL;
    }
    int outer = in_user_code;
    in_user_code = 1;
    if (user_gc) {
        PyGC_Enable();
    }
    PyObject *res = PyObject_Vectorcall(args[0], args + 1, (size_t)(nargs - 1), NULL);
    /* The user's own gc.enable()/disable() carry over to its next run. */
    user_gc = PyGC_Disable();
    clear_hooks();
    in_user_code = outer;
    return res;
}

/* ------------------------------------------------------------------------
 * The control channel. */

static const char MSG_NOMEM[] =
    "{\"status\":\"error\",\"error\":{\"code\":\"memory_limit\",\"name\":\"MemoryError\","
    "\"message\":\"the driver ran out of memory handling the request\"}}";
static const char MSG_RECURSION[] =
    "{\"status\":\"error\",\"error\":{\"code\":\"stack_overflow\",\"name\":\"RecursionError\","
    "\"message\":\"the driver ran out of stack handling the request\"}}";
static const char MSG_FAILED[] =
    "{\"status\":\"error\",\"error\":{\"code\":\"internal\",\"name\":\"DriverError\","
    "\"message\":\"the driver failed handling the request\"}}";
static const char MSG_TOO_LARGE[] =
    "{\"status\":\"error\",\"error\":{\"code\":\"memory_limit\",\"name\":\"MemoryError\","
    "\"message\":\"the request does not fit in the guest's memory\"}}";

/* Output is coalesced (docs/PROTOCOL.md): the standard streams' writes
 * collect in out_buf and reach the host as one chunk (one event) when the
 * stream changes, OUT_MAX bytes are waiting, the oldest waiting byte is
 * OUT_AGE_NS old, the stream is flushed (print(..., flush=True)), or the
 * driver is about to read stdin or answer. A host call and an event per
 * print cost several µs; a chunk costs that once. A run whose readers
 * follow it live (a process: out_live) is line-buffered instead: a write
 * that ends a line goes out with it.
 *
 * The age is read from the clock (a host call) only at a write that ends
 * a line, or at every OUT_AGE_EVERY-th write without one: print() writes
 * each argument, separator and end apart, and a clock read per fragment
 * was a quarter of a short print's cost. */
#define OUT_MAX (16 << 10)
#define OUT_AGE_NS 2000000LL
#define OUT_AGE_EVERY 8
static char out_buf[OUT_MAX];
static int out_unclocked = 0;   /* writes since the age was last read */
static int32_t out_len = 0;
static int32_t out_fd = 0;
static long long out_since = 0;
static int out_live = 0;

static long long
monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Hands the waiting output to the host (which traps the run when the
 * output limit is exceeded: that does not return). */
static int
out_flush(void)
{
    if (out_len == 0) {
        return 0;
    }
    int32_t n = out_len;
    out_len = 0;
    return wasmexec_write(out_fd, out_buf, n) < 0 ? -1 : 0;
}

static int
out_write(int32_t fd, const char *p, int32_t len)
{
    if (out_len > 0 && (fd != out_fd || (int64_t)out_len + len > OUT_MAX)) {
        if (out_flush() < 0) {
            return -1;
        }
    }
    if (len >= OUT_MAX) {
        return wasmexec_write(fd, p, len) < 0 ? -1 : 0;
    }
    if (out_len == 0) {
        out_fd = fd;
        out_since = monotonic_ns();
    }
    memcpy(out_buf + out_len, p, (size_t)len);
    out_len += len;
    int line = memchr(p, '\n', (size_t)len) != NULL;
    if (out_live) {
        return line ? out_flush() : 0;
    }
    if (!line && ++out_unclocked < OUT_AGE_EVERY) {
        return 0;
    }
    out_unclocked = 0;
    if (monotonic_ns() - out_since >= OUT_AGE_NS) {
        return out_flush();
    }
    return 0;
}

/* WASI fd_write on fd 1/2 (_wasmexec_fsguard.c routes them here): while
 * the guest serves, the bytes join sys.stdout's/sys.stderr's in out_buf,
 * so os.write(1, ...) and C stdio keep their order with print() and the
 * host's output limit applies to them alike (past it the host traps the
 * run: out_write does not return). stderr is unbuffered, as on Linux: a
 * fatal error's message is out before the guest dies. Returns a WASI
 * errno, or -1 when not serving (start-up: WASI's own fd takes it). */
int
wasmexec_stdio_write(__wasi_fd_t fd, const __wasi_ciovec_t *iovs, size_t n,
                     __wasi_size_t *out)
{
    if (!entered) {
        return -1;
    }
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)iovs[i].buf;
        size_t len = iovs[i].buf_len;
        while (len > 0) {
            int32_t chunk = len > (1u << 30) ? (int32_t)(1u << 30) : (int32_t)len;
            if (out_write((int32_t)fd, p, chunk) < 0) {
                return __WASI_ERRNO_IO;
            }
            p += chunk;
            len -= (size_t)chunk;
            total += (size_t)chunk;
        }
    }
    if (fd == 2 && out_flush() < 0) {
        return __WASI_ERRNO_IO;
    }
    *out = (__wasi_size_t)total;
    return __WASI_ERRNO_SUCCESS;
}

/* C stdio's buffered stdout (printf in an extension module) goes out
 * before the answer, like sys.stdout. */
static void
flush_c_stdio(void)
{
    fflush(stdout);
    fflush(stderr);
}

static void
send_static(const char *msg)
{
    flush_c_stdio();
    out_flush();
    wasmexec_send(msg, (int32_t)strlen(msg));
}

/* Send the handler's result (a bytes object), or a fixed error when the
 * handler failed. Clears the Python error state. */
static void
send_result(PyObject *res)
{
    if (res != NULL && PyBytes_CheckExact(res) && PyBytes_GET_SIZE(res) <= INT32_MAX) {
        flush_c_stdio();
        out_flush();
        wasmexec_send(PyBytes_AS_STRING(res), (int32_t)PyBytes_GET_SIZE(res));
        return;
    }
    if (res == NULL && PyErr_ExceptionMatches(PyExc_MemoryError)) {
        send_static(MSG_NOMEM);
    }
    else if (res == NULL && PyErr_ExceptionMatches(PyExc_RecursionError)) {
        send_static(MSG_RECURSION);
    }
    else {
        send_static(MSG_FAILED);
    }
    PyErr_Clear();
}

/* Requests are read into a buffer that grows to the largest request seen.
 * Returns 1 with *req set (a new bytes object, or NULL with an error set
 * when it could not be stored), 0 when the host has no more requests. */
static char *recv_buf = NULL;
static int32_t recv_cap = 0;

static int
recv_request(PyObject **req)
{
    *req = NULL;
    if (recv_buf == NULL) {
        recv_buf = PyMem_RawMalloc(64 * 1024);
        recv_cap = recv_buf ? 64 * 1024 : 0;
    }
    for (;;) {
        int32_t n = wasmexec_recv(recv_buf, recv_cap);
        if (n < 0) {
            suspending = (n == -2);
            return 0;
        }
        if (n <= recv_cap && recv_buf != NULL) {
            *req = PyBytes_FromStringAndSize(recv_buf, (Py_ssize_t)n);
            return 1;
        }
        /* Too long: nothing was copied and the request was not consumed.
         * Grow to the announced length and ask again. */
        char *nb = PyMem_RawRealloc(recv_buf, (size_t)n);
        if (nb == NULL) {
            PyErr_NoMemory();
            return 1;
        }
        recv_buf = nb;
        recv_cap = n;
    }
}

/* The driver's per-guest start and its end (see prepare()). */
static PyObject *on_start = NULL;
static PyObject *on_end = NULL;

/* prepare(handler, start, end): called once by the driver at the end of
 * the image's init (wasmexec_init below). From here on the control channel
 * belongs to C: the audit hook is installed, `_wasmexec` leaves sys.modules
 * (and can't be imported again), the frames on the stack are hidden, and
 * the handler is kept here for wasmexec_serve. The loop itself runs when
 * the host calls wasmexec_serve, in the snapshotted image once per guest. */
static PyObject *
wasmexec_prepare(PyObject *module, PyObject *args)
{
    PyObject *h, *start, *end;
    if (serving) {
        PyErr_SetString(PyExc_RuntimeError, "prepare() runs once");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOO:prepare", &h, &start, &end)) {
        return NULL;
    }
    if (!PyCallable_Check(h) || !PyCallable_Check(start) || !PyCallable_Check(end)) {
        PyErr_SetString(PyExc_TypeError, "prepare(handler, start, end): all must be callable");
        return NULL;
    }
    if (PySys_AddAuditHook(audit_hook, NULL) < 0) {
        return NULL;
    }
    PyObject *modules = PyImport_GetModuleDict();
    if (PyDict_GetItemString(modules, "_wasmexec") != NULL
            && PyDict_DelItemString(modules, "_wasmexec") < 0) {
        return NULL;
    }
    hide_stack();
    Py_INCREF(h);
    Py_INCREF(start);
    Py_INCREF(end);
    handler = h;
    on_start = start;
    on_end = end;
    serving = 1;
    user_gc = PyGC_Disable();
    Py_RETURN_NONE;
}

/* Fatal errors of the exported entry points: the message goes to the
 * guest's stderr (for a snapshot, into the error `make prepare` reports),
 * then the guest exits with status 70 (EX_SOFTWARE). */
static void
fail(const char *step)
{
    fprintf(stderr, "wasmexec python guest: %s failed\n", step);
    if (PyErr_Occurred()) {
        PyErr_Print();
    }
    fflush(stderr);
    exit(70);
}

/* Built-in modules beyond config.c's (the numpy build's, numpy.sh): defined
 * only when they are linked in. */
extern void wasmexec_extend_inittab(void) __attribute__((weak));

/* wasmexec_init: the image's init (guest.json "init", after _initialize).
 * Starts the interpreter (as `python -S`), imports the driver and the
 * pre-imported stdlib, and prepares the handler. The engine runs it once
 * per image and snapshots the memory after it (engine/snapshot.go). */
__attribute__((export_name("wasmexec_init")))
void
wasmexec_init(void)
{
    static int done = 0;
    if (done) {
        fail("wasmexec_init (called twice)");
    }
    done = 1;
    if (wasmexec_extend_inittab) {
        wasmexec_extend_inittab();
    }
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.site_import = 0;       /* -S */
    config.parse_argv = 0;
    config.install_signal_handlers = 0;
    char *argv[] = {"python", NULL};
    PyStatus st = PyConfig_SetBytesArgv(&config, 1, argv);
    if (!PyStatus_Exception(st)) {
        st = Py_InitializeFromConfig(&config);
    }
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) {
        fprintf(stderr, "wasmexec python guest: Py_InitializeFromConfig failed: %s\n",
                st.err_msg ? st.err_msg : "?");
        exit(70);
    }
    PyObject *driver = PyImport_ImportModule("wasmexec_driver");
    if (driver == NULL) {
        fail("import wasmexec_driver");
    }
    PyObject *r = PyObject_CallMethod(driver, "init", NULL);
    Py_DECREF(driver);
    if (r == NULL) {
        fail("wasmexec_driver.init()");
    }
    Py_DECREF(r);
    if (!serving) {
        fail("wasmexec_driver.init() (it did not call prepare)");
    }
}

/* wasmexec_serve: the guest's entry (guest.json "entry"), once per guest,
 * and again after each suspend.
 * Makes the guest's own environment visible (a snapshot holds the one it
 * was taken with), lets the driver refresh what is per guest (entropy,
 * os.environ, cwd, streams), then loops recv -> handler -> send until the
 * host has no more requests. */
__attribute__((export_name("wasmexec_serve")))
void
wasmexec_serve(void)
{
    if (!serving || entered) {
        fail("wasmexec_serve (called before wasmexec_init, or twice)");
    }
    entered = 1;
    __wasilibc_deinitialize_environ();
    __wasilibc_initialize_environ();
    PyObject *env = PyDict_New();
    if (env == NULL) {
        fail("reading the environment");
    }
    for (char **e = environ; e != NULL && *e != NULL; e++) {
        const char *eq = strchr(*e, '=');
        if (eq == NULL || eq == *e) {
            continue;
        }
        PyObject *k = PyBytes_FromStringAndSize(*e, eq - *e);
        PyObject *v = PyBytes_FromString(eq + 1);
        if (k == NULL || v == NULL || PyDict_SetItem(env, k, v) < 0) {
            fail("reading the environment");
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    PyObject *r = PyObject_CallOneArg(on_start, env);
    Py_DECREF(env);
    if (r == NULL) {
        fail("the driver's per-guest start");
    }
    Py_DECREF(r);
    for (;;) {
        PyObject *req;
        clear_hooks();
        if (!recv_request(&req)) {
            break;
        }
        if (req == NULL) {
            send_static(MSG_TOO_LARGE);
            PyErr_Clear();
            continue;
        }
        PyObject *res = PyObject_CallOneArg(handler, req);
        Py_DECREF(req);
        clear_hooks();
        send_result(res);
        Py_XDECREF(res);
    }
    if (suspending) {
        /* Suspend (docs/PROTOCOL.md): the host captures the guest's memory
         * now, with no frame of ours live, and calls wasmexec_serve again,
         * in this instance or in a restored copy of it. Everything stays as
         * it is; the next entry refreshes what is per guest (on_start). */
        suspending = 0;
        entered = 0;
        return;
    }
    if (user_gc) {
        PyGC_Enable();
    }
    r = PyObject_CallNoArgs(on_end);
    Py_XDECREF(r);
    PyErr_Clear();
    /* No Py_FinalizeEx: the guest is discarded now, and finalizing would
     * only write to (un-share) the snapshot's pages. */
}

/* ------------------------------------------------------------------------
 * compile_cell: REPL semantics of evaluate. */

static PyObject *
wasmexec_compile_cell(PyObject *module, PyObject *args)
{
    PyObject *source, *filename;
    if (!PyArg_ParseTuple(args, "UU:compile_cell", &source, &filename)) {
        return NULL;
    }
    Py_ssize_t size;
    const char *str = PyUnicode_AsUTF8AndSize(source, &size);
    if (str == NULL) {
        return NULL;
    }
    if ((size_t)size != strlen(str)) {
        PyErr_SetString(PyExc_ValueError, "source code string cannot contain null bytes");
        return NULL;
    }
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    cf.cf_flags = PyCF_SOURCE_IS_UTF8 | PyCF_IGNORE_COOKIE | PyCF_ALLOW_TOP_LEVEL_AWAIT;
    PyArena *arena = _PyArena_New();
    if (arena == NULL) {
        return NULL;
    }
    PyObject *head = NULL, *last = NULL, *result = NULL;
    mod_ty mod = _PyParser_ASTFromString(str, filename, Py_file_input, &cf, arena);
    if (mod == NULL) {
        goto done;
    }
    asdl_stmt_seq *body = mod->v.Module.body;
    Py_ssize_t n = asdl_seq_LEN(body);
    stmt_ty tail = n > 0 ? asdl_seq_GET(body, n - 1) : NULL;
    if (tail != NULL && tail->kind == Expr_kind) {
        asdl_stmt_seq *rest = _Py_asdl_stmt_seq_new(n - 1, arena);
        if (rest == NULL) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < n - 1; i++) {
            asdl_seq_SET(rest, i, asdl_seq_GET(body, i));
        }
        mod_ty headmod = _PyAST_Module(rest, mod->v.Module.type_ignores, arena);
        mod_ty exprmod = _PyAST_Expression(tail->v.Expr.value, arena);
        if (headmod == NULL || exprmod == NULL) {
            goto done;
        }
        head = (PyObject *)_PyAST_Compile(headmod, filename, &cf, -1, arena);
        if (head == NULL) {
            goto done;
        }
        last = (PyObject *)_PyAST_Compile(exprmod, filename, &cf, -1, arena);
        if (last == NULL) {
            goto done;
        }
    }
    else {
        head = (PyObject *)_PyAST_Compile(mod, filename, &cf, -1, arena);
        if (head == NULL) {
            goto done;
        }
        last = Py_NewRef(Py_None);
    }
    result = PyTuple_Pack(2, head, last);
done:
    Py_XDECREF(head);
    Py_XDECREF(last);
    _PyArena_Free(arena);
    return result;
}

/* ------------------------------------------------------------------------
 * strip_hidden: remove the driver's frames from tracebacks. */

static int
strip_one(PyObject *exc, PyObject *seen, int depth)
{
    if (exc == NULL || !PyExceptionInstance_Check(exc) || depth > 100) {
        return 0;
    }
    PyObject *key = PyLong_FromVoidPtr(exc);
    if (key == NULL) {
        return -1;
    }
    int found = PySet_Contains(seen, key);
    if (found != 0 || PySet_Add(seen, key) < 0) {
        Py_DECREF(key);
        return found < 0 ? -1 : 0;
    }
    Py_DECREF(key);

    PyObject *tb = PyException_GetTraceback(exc);   /* new reference */
    if (tb != NULL && PyTraceBack_Check(tb)) {
        PyObject *keep = PyList_New(0);
        if (keep == NULL) {
            Py_DECREF(tb);
            return -1;
        }
        int changed = 0;
        for (PyTracebackObject *t = (PyTracebackObject *)tb; t != NULL; t = t->tb_next) {
            if (t->tb_frame != NULL && frame_hidden(t->tb_frame)) {
                changed = 1;
                continue;
            }
            if (PyList_Append(keep, (PyObject *)t) < 0) {
                Py_DECREF(keep);
                Py_DECREF(tb);
                return -1;
            }
        }
        if (changed) {
            Py_ssize_t n = PyList_GET_SIZE(keep);
            for (Py_ssize_t i = 0; i < n; i++) {
                PyTracebackObject *t = (PyTracebackObject *)PyList_GET_ITEM(keep, i);
                PyTracebackObject *next = i + 1 < n
                    ? (PyTracebackObject *)PyList_GET_ITEM(keep, i + 1) : NULL;
                Py_XINCREF(next);
                Py_XSETREF(t->tb_next, next);
            }
            if (PyException_SetTraceback(exc, n > 0 ? PyList_GET_ITEM(keep, 0) : Py_None) < 0) {
                Py_DECREF(keep);
                Py_DECREF(tb);
                return -1;
            }
        }
        Py_DECREF(keep);
    }
    Py_XDECREF(tb);

    PyObject *cause = PyException_GetCause(exc);
    int rc = strip_one(cause, seen, depth + 1);
    Py_XDECREF(cause);
    if (rc < 0) {
        return -1;
    }
    PyObject *context = PyException_GetContext(exc);
    rc = strip_one(context, seen, depth + 1);
    Py_XDECREF(context);
    if (rc < 0) {
        return -1;
    }
    if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_BaseExceptionGroup)) {
        PyObject *excs = ((PyBaseExceptionGroupObject *)exc)->excs;
        if (excs != NULL && PyTuple_Check(excs)) {
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(excs); i++) {
                if (strip_one(PyTuple_GET_ITEM(excs, i), seen, depth + 1) < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

static PyObject *
wasmexec_strip_hidden(PyObject *module, PyObject *exc)
{
    PyObject *seen = PySet_New(NULL);
    if (seen == NULL) {
        return NULL;
    }
    int rc = strip_one(exc, seen, 0);
    Py_DECREF(seen);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------
 * Read-only inputs: ReadOnlyDict and ReadOnlyList. Static types, so their
 * methods can't be replaced by user code (they are shared by every run). */

static const char READONLY_MSG[] = "inputs is read-only (copy it first: copy.deepcopy(inputs))";

static PyObject *
readonly_error(void)
{
    PyErr_SetString(PyExc_TypeError, READONLY_MSG);
    return NULL;
}

static int
readonly_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    readonly_error();
    return -1;
}

static int
readonly_ass_item(PyObject *self, Py_ssize_t i, PyObject *value)
{
    readonly_error();
    return -1;
}

static PyObject *
readonly_method(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return readonly_error();
}

static PyObject *
readonly_binary(PyObject *self, PyObject *other)
{
    return readonly_error();
}

static PyObject *
readonly_repeat(PyObject *self, Py_ssize_t n)
{
    return readonly_error();
}

/* copy.deepcopy(v, memo) */
static PyObject *
deepcopy_item(PyObject *copy, PyObject *v, PyObject *memo)
{
    return PyObject_CallMethod(copy, "deepcopy", "OO", v, memo);
}

static PyObject *
rodict_copy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyDict_Copy(self);   /* a plain dict */
}

static PyObject *
rodict_deepcopy(PyObject *self, PyObject *memo)
{
    PyObject *copy = PyImport_ImportModule("copy");
    if (copy == NULL) {
        return NULL;
    }
    /* A snapshot of the items: deepcopy runs arbitrary code. */
    PyObject *items = PyDict_Items(self);
    PyObject *out = items != NULL ? PyDict_New() : NULL;
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(items); i++) {
        PyObject *kv = PyList_GET_ITEM(items, i);
        PyObject *c = deepcopy_item(copy, PyTuple_GET_ITEM(kv, 1), memo);
        if (c == NULL || PyDict_SetItem(out, PyTuple_GET_ITEM(kv, 0), c) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(c);
    }
    Py_XDECREF(items);
    Py_DECREF(copy);
    return out;
}

static PyObject *
rodict_reduce_ex(PyObject *self, PyObject *protocol)
{
    PyObject *d = PyDict_Copy(self);
    if (d == NULL) {
        return NULL;
    }
    return Py_BuildValue("(O(N))", (PyObject *)&PyDict_Type, d);
}

static PyMethodDef rodict_methods[] = {
    {"clear", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"pop", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"popitem", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"setdefault", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"update", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"__copy__", rodict_copy, METH_NOARGS, NULL},
    {"__deepcopy__", rodict_deepcopy, METH_O, NULL},
    {"__reduce_ex__", rodict_reduce_ex, METH_O, NULL},
    {NULL, NULL, 0, NULL}
};

static PyMappingMethods rodict_as_mapping = {
    .mp_ass_subscript = readonly_ass_subscript,
};

static PyNumberMethods rodict_as_number = {
    .nb_inplace_or = readonly_binary,
};

static PyTypeObject ReadOnlyDict_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wasmexec.ReadOnlyDict",
    .tp_basicsize = sizeof(PyDictObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A dict that can't be modified (json.dumps, isinstance(x, dict) and reading "
              "work as for a dict; copy/deepcopy/pickle give a plain dict).",
    .tp_methods = rodict_methods,
    .tp_as_mapping = &rodict_as_mapping,
    .tp_as_number = &rodict_as_number,
};

static PyObject *
rolist_copy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyList_GetSlice(self, 0, PyList_GET_SIZE(self));   /* a plain list */
}

static PyObject *
rolist_deepcopy(PyObject *self, PyObject *memo)
{
    PyObject *copy = PyImport_ImportModule("copy");
    if (copy == NULL) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(self); i++) {
        PyObject *v = PyList_GET_ITEM(self, i);
        Py_INCREF(v);
        PyObject *c = deepcopy_item(copy, v, memo);
        if (c == NULL || PyList_Append(out, c) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(c);
        Py_DECREF(v);
    }
    Py_DECREF(copy);
    return out;
}

static PyObject *
rolist_reduce_ex(PyObject *self, PyObject *protocol)
{
    PyObject *l = rolist_copy(self, NULL);
    if (l == NULL) {
        return NULL;
    }
    return Py_BuildValue("(O(N))", (PyObject *)&PyList_Type, l);
}

static PyMethodDef rolist_methods[] = {
    {"append", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"extend", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"insert", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"pop", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"remove", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"clear", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"sort", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"reverse", (PyCFunction)(void (*)(void))readonly_method, METH_VARARGS | METH_KEYWORDS, NULL},
    {"__copy__", rolist_copy, METH_NOARGS, NULL},
    {"__deepcopy__", rolist_deepcopy, METH_O, NULL},
    {"__reduce_ex__", rolist_reduce_ex, METH_O, NULL},
    {NULL, NULL, 0, NULL}
};

static PyMappingMethods rolist_as_mapping = {
    .mp_ass_subscript = readonly_ass_subscript,
};

static PySequenceMethods rolist_as_sequence = {
    .sq_ass_item = readonly_ass_item,
    .sq_inplace_concat = readonly_binary,
    .sq_inplace_repeat = readonly_repeat,
};

static PyTypeObject ReadOnlyList_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wasmexec.ReadOnlyList",
    .tp_basicsize = sizeof(PyListObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A list that can't be modified (see ReadOnlyDict).",
    .tp_methods = rolist_methods,
    .tp_as_mapping = &rolist_as_mapping,
    .tp_as_sequence = &rolist_as_sequence,
};

/* JSON data (exact dicts and lists, as the request decoder makes them) as
 * read-only containers; everything else as it is. */
static PyObject *
freeze(PyObject *v)
{
    if (PyDict_CheckExact(v)) {
        if (Py_EnterRecursiveCall(" while freezing inputs")) {
            return NULL;
        }
        PyObject *d = PyObject_CallNoArgs((PyObject *)&ReadOnlyDict_Type);
        PyObject *k, *x;
        Py_ssize_t pos = 0;
        while (d != NULL && PyDict_Next(v, &pos, &k, &x)) {
            PyObject *fx = freeze(x);
            if (fx == NULL || PyDict_SetItem(d, k, fx) < 0) {
                Py_CLEAR(d);
            }
            Py_XDECREF(fx);
        }
        Py_LeaveRecursiveCall();
        return d;
    }
    if (PyList_CheckExact(v)) {
        if (Py_EnterRecursiveCall(" while freezing inputs")) {
            return NULL;
        }
        PyObject *l = PyObject_CallNoArgs((PyObject *)&ReadOnlyList_Type);
        for (Py_ssize_t i = 0; l != NULL && i < PyList_GET_SIZE(v); i++) {
            PyObject *fx = freeze(PyList_GET_ITEM(v, i));
            if (fx == NULL || PyList_Append(l, fx) < 0) {
                Py_CLEAR(l);
            }
            Py_XDECREF(fx);
        }
        Py_LeaveRecursiveCall();
        return l;
    }
    return Py_NewRef(v);
}

static PyObject *
wasmexec_freeze(PyObject *module, PyObject *v)
{
    return freeze(v);
}

/* ------------------------------------------------------------------------
 * Local time for C code. wasi-libc has no time zones (its localtime_r is
 * gmtime_r); the driver applies TZ itself (wasmexec_driver.py, "Local
 * time") and, while TZ names a zone, registers that zone's offset function
 * here. python.wasm is linked with -Wl,--wrap=localtime_r and
 * --wrap=localtime, so C code that asks libc for local time (datetime's C
 * half, sqlite) gets the same answer as time.localtime(), tm_gmtoff and
 * tm_zone included. */

struct tm *__real_localtime_r(const time_t *restrict t, struct tm *restrict tm);

static PyObject *localtime_hook = NULL;  /* f(secs) -> (gmtoff, isdst, name) */

/* tm_zone must outlive the call: zone abbreviations are kept here. There
 * are few ("EST", "CEST", "+0530"); past ZONE_NAMES the oldest slot is
 * reused, which only a caller holding a struct tm across that many new
 * names could notice. */
#define ZONE_NAMES 64
static char *zone_names[ZONE_NAMES];
static int zone_names_next = 0;

static const char *
zone_name(const char *name)
{
    for (int i = 0; i < ZONE_NAMES && zone_names[i] != NULL; i++) {
        if (strcmp(zone_names[i], name) == 0) {
            return zone_names[i];
        }
    }
    char *copy = strdup(name);
    if (copy == NULL) {
        return NULL;
    }
    free(zone_names[zone_names_next]);
    zone_names[zone_names_next] = copy;
    zone_names_next = (zone_names_next + 1) % ZONE_NAMES;
    return copy;
}

struct tm *
__wrap_localtime_r(const time_t *restrict t, struct tm *restrict tm)
{
    if (localtime_hook == NULL || !Py_IsInitialized()) {
        return __real_localtime_r(t, tm);
    }
    /* A caller may have released the GIL (sqlite3 runs its statements
     * so; there are no other threads to take it meanwhile), or have an
     * error set: take the GIL, keep the error, and leave none of the
     * hook's behind. */
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *et, *ev, *etb;
    PyErr_Fetch(&et, &ev, &etb);
    struct tm *res = NULL;
    long gmtoff = 0;
    int isdst = 0;
    const char *name = NULL, *kept = NULL;
    PyObject *r = PyObject_CallFunction(localtime_hook, "L", (long long)*t);
    if (r != NULL && PyArg_ParseTuple(r, "lis;localtime hook", &gmtoff, &isdst, &name)
            && (kept = zone_name(name)) != NULL) {
        time_t local = *t + (time_t)gmtoff;
        res = gmtime_r(&local, tm);
        if (res != NULL) {
            tm->tm_isdst = isdst > 0;
            tm->tm_gmtoff = gmtoff;
            tm->tm_zone = kept;
        }
    }
    Py_XDECREF(r);
    PyErr_Clear();
    PyErr_Restore(et, ev, etb);
    PyGILState_Release(gil);
    if (res == NULL) {
        errno = EOVERFLOW;      /* what glibc says for a time it can't convert */
    }
    return res;
}

/* localtime (sqlite calls it) is the same, into a static struct tm, as
 * libc's. */
struct tm *
__wrap_localtime(const time_t *t)
{
    static struct tm tm;
    return __wrap_localtime_r(t, &tm);
}

static PyObject *
wasmexec_set_localtime(PyObject *module, PyObject *hook)
{
    if (hook != Py_None && !PyCallable_Check(hook)) {
        PyErr_SetString(PyExc_TypeError, "set_localtime: a callable or None");
        return NULL;
    }
    Py_XSETREF(localtime_hook, hook == Py_None ? NULL : Py_NewRef(hook));
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------
 * Raw standard streams: a static subtype of _io._RawIOBase over the host's
 * read (fd 0) and write (fd 1, 2). */

typedef struct {
    PyObject_HEAD
    PyObject *dict;          /* the layout of _io._IOBase (iobase.c) */
    PyObject *weakreflist;
    int fd;
} StdStream;

static PyObject *
stdstream_readable(StdStream *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(self->fd == 0);
}

static PyObject *
stdstream_writable(StdStream *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(self->fd != 0);
}

static PyObject *
stdstream_isatty(StdStream *self, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_FALSE;
}

/* stdout and stderr are WASI fd 1 and 2, which go to the run's output
 * too (wasmexec_stdio_write). stdin has none: WASI fd 0 is not the run's
 * stdin. */
static PyObject *
stdstream_fileno(StdStream *self, PyObject *Py_UNUSED(ignored))
{
    if (self->fd == 0) {
        PyErr_SetString(unsupported_operation,
                        "fileno: stdin goes through the wasmexec host");
        return NULL;
    }
    return PyLong_FromLong((long)self->fd);
}

static PyObject *
stdstream_write(StdStream *self, PyObject *arg)
{
    if (self->fd == 0) {
        PyErr_SetString(unsupported_operation, "write: stdin is not writable");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    Py_ssize_t len = view.len > (1 << 30) ? (1 << 30) : view.len;
    int32_t n = (int32_t)len;
    if (len > 0 && out_write((int32_t)self->fd, view.buf, (int32_t)len) < 0) {
        n = -1;
    }
    PyBuffer_Release(&view);
    if (n < 0) {
        PyErr_SetString(PyExc_OSError, "wasmexec write failed");
        return NULL;
    }
    return PyLong_FromLong((long)n);
}

/* flush(): hand the coalesced output to the host now. */
static PyObject *
stdstream_flush(StdStream *self, PyObject *Py_UNUSED(ignored))
{
    if (self->fd != 0 && out_flush() < 0) {
        PyErr_SetString(PyExc_OSError, "wasmexec write failed");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The signal that closed stdin, once taken (take_signal), else 0. */
static int taken_signal = 0;

/* At EOF on stdin: was stdin closed by a signal sent to the process
 * (SIGTERM, SIGINT)? Then act on it as Linux would have when it arrived:
 * a Python handler runs (signal.signal; for SIGINT the default handler
 * raises KeyboardInterrupt), SIG_IGN ignores it, and SIG_DFL ends the
 * guest at once (no finally blocks, no atexit: the process is killed) with
 * exit status 125, which the host reports as the signal. Once per guest.
 * Returns -1 with an exception set (the handler raised), else 0: EOF. */
static int
take_signal(void)
{
    if (taken_signal) {
        return 0;
    }
    char none = 0;
    int32_t sig = wasmexec_read(&none, 0);
    if (sig <= 0 || sig >= 64) {
        return 0;
    }
    taken_signal = sig;
    /* The handler as _signal keeps it: SIG_IGN and SIG_DFL are the module's
     * own objects (on WASI not 1 and 0: emulated function pointers). */
    int action = 0;               /* 0 default, 1 ignore, 2 handler */
    PyObject *mod = PyImport_ImportModule("_signal");
    PyObject *h = mod == NULL ? NULL : PyObject_CallMethod(mod, "getsignal", "i", (int)sig);
    if (h != NULL && h != Py_None) {
        PyObject *ign = PyObject_GetAttrString(mod, "SIG_IGN");
        PyObject *dfl = PyObject_GetAttrString(mod, "SIG_DFL");
        if (ign != NULL && PyObject_RichCompareBool(h, ign, Py_EQ) == 1) {
            action = 1;
        } else if (dfl != NULL && PyObject_RichCompareBool(h, dfl, Py_EQ) == 1) {
            action = 0;
        } else if (PyCallable_Check(h)) {
            action = 2;
        }
        Py_XDECREF(ign);
        Py_XDECREF(dfl);
    }
    Py_XDECREF(h);
    Py_XDECREF(mod);
    PyErr_Clear();
    if (action == 1) {
        return 0;
    }
    if (action == 2 && PyErr_SetInterruptEx(sig) == 0) {
        return PyErr_CheckSignals();
    }
    PyErr_Clear();
    out_flush();                  /* what was printed is not lost */
    /* WASI exit statuses stop at 125: this one, after the host told us the
     * signal, says "ended by it" (exec.SignalExitStatus, docs/PROTOCOL.md). */
    _Exit(125);
}

static PyObject *
stdstream_readinto(StdStream *self, PyObject *arg)
{
    if (self->fd != 0) {
        PyErr_SetString(unsupported_operation, "readinto: not readable");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    Py_ssize_t cap = view.len > (1 << 24) ? (1 << 24) : view.len;   /* 16 MiB per call */
    int32_t got = 0;
    if (cap > 0) {
        out_flush(); /* a prompt is seen before the read blocks */
        got = wasmexec_read(view.buf, (int32_t)cap);
    }
    PyBuffer_Release(&view);
    if (got < 0) {
        PyErr_SetString(PyExc_OSError, "wasmexec read failed");
        return NULL;
    }
    if (got > cap) {
        got = (int32_t)cap;
    }
    if (got == 0 && cap > 0 && take_signal() < 0) {
        return NULL;
    }
    return PyLong_FromLong((long)got);
}

static PyObject *
stdstream_get_name(StdStream *self, void *closure)
{
    return PyUnicode_FromString(self->fd == 0 ? "<stdin>" : self->fd == 1 ? "<stdout>" : "<stderr>");
}

static PyMethodDef stdstream_methods[] = {
    {"readable", (PyCFunction)stdstream_readable, METH_NOARGS, NULL},
    {"writable", (PyCFunction)stdstream_writable, METH_NOARGS, NULL},
    {"isatty", (PyCFunction)stdstream_isatty, METH_NOARGS, NULL},
    {"fileno", (PyCFunction)stdstream_fileno, METH_NOARGS, NULL},
    {"write", (PyCFunction)stdstream_write, METH_O, NULL},
    {"flush", (PyCFunction)stdstream_flush, METH_NOARGS, NULL},
    {"readinto", (PyCFunction)stdstream_readinto, METH_O, NULL},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef stdstream_getset[] = {
    {"name", (getter)stdstream_get_name, NULL, NULL, NULL},
    {NULL}
};

static PyTypeObject StdStream_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wasmexec.StdStream",
    .tp_basicsize = sizeof(StdStream),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A raw standard stream of a wasmexec run (through the host).",
    .tp_methods = stdstream_methods,
    .tp_getset = stdstream_getset,
};

/* ------------------------------------------------------------------------
 * Text standard streams: io.TextIOWrapper with a fast write. print() calls
 * file.write once per argument, separator and end; TextIOWrapper's write
 * (checks, encode, a new bytes object, a method call into the raw stream)
 * cost ~2.5k wasm instructions each, most of a print's 15k. sys.stdout and
 * sys.stderr are this subtype, registered for their fd by text_stream():
 * an ASCII str goes straight into the output buffer (out_write), in order
 * with the raw stream's writes since the wrapper is write_through and keeps
 * nothing back. Anything else (non-ASCII, a str subclass, a stream closed,
 * detached or reconfigured) takes TextIOWrapper's own path. */

static struct {
    PyObject *text;   /* the registered stream (a strong reference) */
    PyObject *raw;    /* its raw StdStream */
} fast_text[3];
static PyObject *textio_write, *textio_reconfigure, *textio_detach, *textio_close;
static PyObject *iobase_closed_key;   /* "__IOBase_closed" (iobase.c) */

static int
fast_text_fd(PyObject *self)
{
    for (int fd = 1; fd <= 2; fd++) {
        if (fast_text[fd].text == self) {
            PyObject *dict = ((StdStream *)fast_text[fd].raw)->dict;
            if (dict != NULL && PyDict_GetItemWithError(dict, iobase_closed_key) != NULL) {
                return 0;   /* raw closed under the wrapper: let it raise */
            }
            return PyErr_Occurred() ? -1 : fd;
        }
    }
    return 0;
}

static void
fast_text_forget(PyObject *self)
{
    for (int fd = 1; fd <= 2; fd++) {
        if (fast_text[fd].text == self) {
            Py_CLEAR(fast_text[fd].text);
            Py_CLEAR(fast_text[fd].raw);
        }
    }
}

/* Call TextIOWrapper's own method (an unbound descriptor) on self. */
static PyObject *
textio_call(PyObject *method, PyObject *self, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t n = args == NULL ? 0 : PyTuple_GET_SIZE(args);
    PyObject *all = PyTuple_New(n + 1);
    if (all == NULL) {
        return NULL;
    }
    Py_INCREF(self);
    PyTuple_SET_ITEM(all, 0, self);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        Py_INCREF(a);
        PyTuple_SET_ITEM(all, i + 1, a);
    }
    PyObject *r = PyObject_Call(method, all, kwargs);
    Py_DECREF(all);
    return r;
}

static PyObject *
stdtext_write(PyObject *self, PyObject *arg)
{
    int fd = fast_text_fd(self);
    if (fd < 0) {
        return NULL;
    }
    if (fd > 0 && PyUnicode_CheckExact(arg) && PyUnicode_IS_ASCII(arg)) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(arg);
        const char *p = (const char *)PyUnicode_1BYTE_DATA(arg);
        for (Py_ssize_t done = 0; done < len;) {
            int32_t n = (int32_t)(len - done > (1 << 30) ? (1 << 30) : len - done);
            if (out_write((int32_t)fd, p + done, n) < 0) {
                PyErr_SetString(PyExc_OSError, "wasmexec write failed");
                return NULL;
            }
            done += n;
        }
        return PyLong_FromSsize_t(len);
    }
    return PyObject_CallFunctionObjArgs(textio_write, self, arg, NULL);
}

static PyObject *
stdtext_reconfigure(PyObject *self, PyObject *args, PyObject *kwargs)
{
    fast_text_forget(self);
    return textio_call(textio_reconfigure, self, args, kwargs);
}

static PyObject *
stdtext_detach(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    fast_text_forget(self);
    return textio_call(textio_detach, self, NULL, NULL);
}

static PyObject *
stdtext_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    fast_text_forget(self);
    return textio_call(textio_close, self, NULL, NULL);
}

static PyMethodDef stdtext_methods[] = {
    {"write", (PyCFunction)stdtext_write, METH_O, NULL},
    {"reconfigure", (PyCFunction)(void (*)(void))stdtext_reconfigure, METH_VARARGS | METH_KEYWORDS, NULL},
    {"detach", (PyCFunction)stdtext_detach, METH_NOARGS, NULL},
    {"close", (PyCFunction)stdtext_close, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject StdText_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wasmexec.StdText",
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A text standard stream of a wasmexec run.",
    .tp_methods = stdtext_methods,
};

/* text_stream(raw, errors): sys.stdout or sys.stderr of a run over the raw
 * stream raw (raw_stream(1) or (2)), UTF-8, write_through; registered for
 * the fast write in place of the previous run's. */
static PyObject *
wasmexec_text_stream(PyObject *module, PyObject *args)
{
    PyObject *raw, *errors;
    if (!PyArg_ParseTuple(args, "O!U", &StdStream_Type, &raw, &errors)) {
        return NULL;
    }
    int fd = ((StdStream *)raw)->fd;
    if (fd != 1 && fd != 2) {
        PyErr_SetString(PyExc_ValueError, "text_stream: raw must be stdout or stderr");
        return NULL;
    }
    PyObject *kwargs = Py_BuildValue("{s:s,s:O,s:s,s:O}", "encoding", "utf-8", "errors", errors,
                                     "newline", "\n", "write_through", Py_True);
    if (kwargs == NULL) {
        return NULL;
    }
    PyObject *pos = PyTuple_Pack(1, raw);
    PyObject *text = pos == NULL ? NULL : PyObject_Call((PyObject *)&StdText_Type, pos, kwargs);
    Py_XDECREF(pos);
    Py_DECREF(kwargs);
    if (text == NULL) {
        return NULL;
    }
    Py_XSETREF(fast_text[fd].text, Py_NewRef(text));
    Py_XSETREF(fast_text[fd].raw, Py_NewRef(raw));
    return text;
}

/* set_live(flag): whether the run's readers follow its output (no
 * coalescing, see out_write). */
static PyObject *
wasmexec_set_live(PyObject *module, PyObject *arg)
{
    int live = PyObject_IsTrue(arg);
    if (live < 0) {
        return NULL;
    }
    if (out_flush() < 0) {
        return NULL;
    }
    out_live = live;
    Py_RETURN_NONE;
}

static PyObject *
wasmexec_raw_stream(PyObject *module, PyObject *arg)
{
    int fd = _PyLong_AsInt(arg);
    if (fd == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (fd < 0 || fd > 2) {
        PyErr_SetString(PyExc_ValueError, "fd must be 0, 1 or 2");
        return NULL;
    }
    StdStream *s = (StdStream *)StdStream_Type.tp_alloc(&StdStream_Type, 0);
    if (s == NULL) {
        return NULL;
    }
    s->fd = fd;
    return (PyObject *)s;
}

/* ------------------------------------------------------------------------
 * Network: one HTTP request made by the host (docs/PROTOCOL.md "Network").
 * The driver formats the request and parses the response; this only moves
 * the bytes. The host blocks until the response (or ends the run). */

#define FETCH_FIRST_CAP (64 * 1024)

static PyObject *
wasmexec_fetch_py(PyObject *self, PyObject *arg)
{
    Py_buffer req;
    if (PyObject_GetBuffer(arg, &req, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (req.len <= 0 || req.len > INT32_MAX) {
        PyBuffer_Release(&req);
        PyErr_SetString(PyExc_ValueError, "fetch: bad request size");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, FETCH_FIRST_CAP);
    if (out == NULL) {
        PyBuffer_Release(&req);
        return NULL;
    }
    int32_t n = wasmexec_fetch(req.buf, (int32_t)req.len, PyBytes_AS_STRING(out), FETCH_FIRST_CAP);
    PyBuffer_Release(&req);
    if (n < 0) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_OSError, "the host did not answer the network request");
        return NULL;
    }
    if (n <= FETCH_FIRST_CAP) {
        if (_PyBytes_Resize(&out, n) < 0) {
            return NULL;
        }
        return out;
    }
    /* Too large for the first buffer: the host keeps it until we take it. */
    Py_DECREF(out);
    out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL) {
        return NULL;
    }
    if (wasmexec_fetch(NULL, 0, PyBytes_AS_STRING(out), n) != n) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_OSError, "the host lost the network response");
        return NULL;
    }
    return out;
}

static PyObject *
wasmexec_taken_signal(PyObject *mod, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(taken_signal);
}

/* ------------------------------------------------------------------------ */

static PyMethodDef wasmexec_methods[] = {
    {"fetch", wasmexec_fetch_py, METH_O,
     "fetch(request_bytes) -> response_bytes\n\nOne HTTP request made by the host (the driver's "
     "http.client replacement formats and parses both)."},
    {"prepare", wasmexec_prepare, METH_VARARGS,
     "prepare(handler, start, end)\n\nOnce, at the end of init: the host's requests will be "
     "answered with handler(request_bytes) -> result_bytes; start(environ) runs first in "
     "each guest, end() after the last request."},
    {"hide", wasmexec_hide, METH_O,
     "hide(function_or_code)\n\nMark driver code: its frames end the stack user code sees."},
    {"call_user", (PyCFunction)(void (*)(void))wasmexec_call_user, METH_FASTCALL,
     "call_user(f, *args)\n\nRun user code (trace/profile hooks and the cyclic GC only in there)."},
    {"compile_cell", wasmexec_compile_cell, METH_VARARGS,
     "compile_cell(source, filename) -> (code, last_expression_code | None)"},
    {"freeze", wasmexec_freeze, METH_O,
     "freeze(value)\n\nJSON data with dicts and lists made read-only."},
    {"strip_hidden", wasmexec_strip_hidden, METH_O,
     "strip_hidden(exc)\n\nRemove the driver's frames from exc's tracebacks (and chained ones)."},
    {"set_live", wasmexec_set_live, METH_O,
     "set_live(flag)\n\nWhether the run's output is followed live (writes go through at once)."},
    {"text_stream", wasmexec_text_stream, METH_VARARGS,
     "text_stream(raw, errors)\n\nThe run's sys.stdout or sys.stderr over raw, with a fast write."},
    {"taken_signal", wasmexec_taken_signal, METH_NOARGS,
     "taken_signal() -> int\n\nThe signal that closed stdin and was acted on (0: none)."},
    {"set_localtime", wasmexec_set_localtime, METH_O,
     "set_localtime(f)\n\nlibc's localtime_r asks f(secs) -> (gmtoff, isdst, name); None: UTC."},
    {"raw_stream", wasmexec_raw_stream, METH_O,
     "raw_stream(fd)\n\nThe run's raw stdin (0), stdout (1) or stderr (2)."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef wasmexec_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_wasmexec",
    .m_doc = "the wasmexec driver's C half (see docs/PROTOCOL.md)",
    /* Not -1: a re-import calls PyInit__wasmexec again (instead of copying
     * the first module's dict), which refuses once prepare() has run. */
    .m_size = 0,
    .m_methods = wasmexec_methods,
};

PyMODINIT_FUNC
PyInit__wasmexec(void)
{
    if (serving) {
        PyErr_SetString(PyExc_ImportError, "_wasmexec is private to the wasmexec driver");
        return NULL;
    }
    static int ready = 0;
    if (!ready) {
        _Py_wasmexec_stack_limit = (uintptr_t)&__stack_low + STACK_RESERVE;
        ReadOnlyDict_Type.tp_base = &PyDict_Type;
        ReadOnlyList_Type.tp_base = &PyList_Type;
        StdStream_Type.tp_base = &PyRawIOBase_Type;
        StdText_Type.tp_base = &PyTextIOWrapper_Type;
        StdText_Type.tp_basicsize = PyTextIOWrapper_Type.tp_basicsize;
        if (PyType_Ready(&ReadOnlyDict_Type) < 0 || PyType_Ready(&ReadOnlyList_Type) < 0
                || PyType_Ready(&StdStream_Type) < 0 || PyType_Ready(&StdText_Type) < 0) {
            return NULL;
        }
        PyObject *tw = (PyObject *)&PyTextIOWrapper_Type;
        textio_write = PyObject_GetAttrString(tw, "write");
        textio_reconfigure = PyObject_GetAttrString(tw, "reconfigure");
        textio_detach = PyObject_GetAttrString(tw, "detach");
        textio_close = PyObject_GetAttrString(tw, "close");
        iobase_closed_key = PyUnicode_InternFromString("__IOBase_closed");
        if (textio_write == NULL || textio_reconfigure == NULL || textio_detach == NULL
                || textio_close == NULL || iobase_closed_key == NULL) {
            return NULL;
        }
        PyObject *io = PyImport_ImportModule("_io");
        if (io == NULL) {
            return NULL;
        }
        unsupported_operation = PyObject_GetAttrString(io, "UnsupportedOperation");
        Py_DECREF(io);
        if (unsupported_operation == NULL) {
            return NULL;
        }
        ready = 1;
    }
    PyObject *m = PyModule_Create(&wasmexec_module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "ReadOnlyDict", (PyObject *)&ReadOnlyDict_Type) < 0
            || PyModule_AddObjectRef(m, "ReadOnlyList", (PyObject *)&ReadOnlyList_Type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
