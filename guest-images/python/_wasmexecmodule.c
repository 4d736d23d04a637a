/*
 * _wasmexec: the wasmexec control channel for the CPython WASI guest.
 *
 * Thin wrappers around the host functions of import module "wasmexec"
 * (see docs/PROTOCOL.md):
 *
 *   recv(ptr, cap) -> n     block for the next request (-1: no more requests)
 *   send(ptr, len)          deliver the result of the current request
 *   write(fd, ptr, len) -> n   append to the run's stdout (1) / stderr (2)
 *   read(ptr, cap) -> n     read the run's stdin (0: EOF)
 *
 * Python API:
 *   recv() -> bytes | None
 *   send(b: bytes-like) -> None
 *   write(fd: int, b: bytes-like) -> int
 *   read(n: int) -> bytes          (b"" on EOF)
 *
 * There are no threads on wasm32-wasi, so the GIL is not released.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"
#include <stdint.h>
#include <stdlib.h>

#define WASMEXEC_IMPORT(name) \
    __attribute__((import_module("wasmexec"), import_name(name)))

WASMEXEC_IMPORT("recv") extern int32_t wasmexec_recv(void *ptr, int32_t cap);
WASMEXEC_IMPORT("send") extern void wasmexec_send(const void *ptr, int32_t len);
WASMEXEC_IMPORT("write") extern int32_t wasmexec_write(int32_t fd, const void *ptr, int32_t len);
WASMEXEC_IMPORT("read") extern int32_t wasmexec_read(void *ptr, int32_t cap);

/* Requests are read into a reusable buffer that grows to the largest
 * request seen; the bytes object handed to Python is a copy. */
static char *recv_buf = NULL;
static int32_t recv_cap = 0;

static PyObject *
wasmexec_recv_impl(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    if (recv_buf == NULL) {
        recv_cap = 64 * 1024;
        recv_buf = malloc((size_t)recv_cap);
        if (recv_buf == NULL) {
            recv_cap = 0;
            return PyErr_NoMemory();
        }
    }
    for (;;) {
        int32_t n = wasmexec_recv(recv_buf, recv_cap);
        if (n < 0) {
            Py_RETURN_NONE;
        }
        if (n <= recv_cap) {
            return PyBytes_FromStringAndSize(recv_buf, (Py_ssize_t)n);
        }
        /* Too long: nothing was copied and the request was not consumed.
         * Grow to the announced length and ask again. */
        char *nb = realloc(recv_buf, (size_t)n);
        if (nb == NULL) {
            return PyErr_NoMemory();
        }
        recv_buf = nb;
        recv_cap = n;
    }
}

static int
check_len(Py_ssize_t len)
{
    if (len > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "buffer too large for wasmexec");
        return -1;
    }
    return 0;
}

static PyObject *
wasmexec_send_impl(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (check_len(view.len) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    wasmexec_send(view.buf, (int32_t)view.len);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *
wasmexec_write_impl(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "write(fd, data) takes exactly 2 arguments");
        return NULL;
    }
    int fd = _PyLong_AsInt(args[0]);
    if (fd == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (fd != 1 && fd != 2) {
        PyErr_SetString(PyExc_ValueError, "fd must be 1 (stdout) or 2 (stderr)");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (check_len(view.len) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    int32_t n = 0;
    if (view.len > 0) {
        n = wasmexec_write((int32_t)fd, view.buf, (int32_t)view.len);
    }
    PyBuffer_Release(&view);
    if (n < 0) {
        PyErr_SetString(PyExc_OSError, "wasmexec write failed");
        return NULL;
    }
    return PyLong_FromLong((long)n);
}

static PyObject *
wasmexec_read_impl(PyObject *module, PyObject *arg)
{
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "read size must be >= 0");
        return NULL;
    }
    if (n > (1 << 24)) {
        n = 1 << 24;   /* at most 16 MiB per call */
    }
    if (n == 0) {
        return PyBytes_FromStringAndSize(NULL, 0);
    }
    PyObject *b = PyBytes_FromStringAndSize(NULL, n);
    if (b == NULL) {
        return NULL;
    }
    int32_t got = wasmexec_read(PyBytes_AS_STRING(b), (int32_t)n);
    if (got < 0) {
        Py_DECREF(b);
        PyErr_SetString(PyExc_OSError, "wasmexec read failed");
        return NULL;
    }
    if (got > n) {
        got = (int32_t)n;
    }
    if (got != n && _PyBytes_Resize(&b, (Py_ssize_t)got) < 0) {
        return NULL;
    }
    return b;
}

static PyMethodDef wasmexec_methods[] = {
    {"recv", wasmexec_recv_impl, METH_NOARGS,
     "recv() -> bytes | None\n\nBlock until the next request; None when the host has no more."},
    {"send", wasmexec_send_impl, METH_O,
     "send(data)\n\nDeliver the result of the current request."},
    {"write", (PyCFunction)(void (*)(void))wasmexec_write_impl, METH_FASTCALL,
     "write(fd, data) -> int\n\nAppend data to the run's stdout (fd 1) or stderr (fd 2)."},
    {"read", wasmexec_read_impl, METH_O,
     "read(n) -> bytes\n\nRead up to n bytes of the run's stdin; b'' on EOF."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef wasmexec_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_wasmexec",
    .m_doc = "wasmexec host control channel (see docs/PROTOCOL.md)",
    .m_size = -1,
    .m_methods = wasmexec_methods,
};

PyMODINIT_FUNC
PyInit__wasmexec(void)
{
    return PyModule_Create(&wasmexec_module);
}
