// The C++ runtime's throw for a guest without exception handling.
//
// wasmtime v25 has no WebAssembly exception-handling proposal, so the C++
// extension libraries (numpy's sorts, pandas' window aggregations,
// matplotlib's Agg wrappers, kiwisolver) are compiled without it: clang
// still accepts try/catch, but a catch block can never run, and Debian's
// wasm32 libc++abi (built without exceptions) has no __cxa_throw. This
// file provides it: a throw says what was thrown on the run's stderr
// (and the Python error it stands for, when the code set one before
// throwing, as matplotlib's py::exception does), flushes Python's streams
// and ends the guest with exit status 70 (sysexits' EX_SOFTWARE; WASI allows statuses below 126 only). The
// host reports that as a failed run (code `exit`) and starts a new guest;
// nothing is unwound, so the guest's state can't be trusted after a throw
// anyway. README.md, "C++ without exceptions", lists the paths affected.
// wasmexec_fatal does the same for C code with no way back (FreeType's
// validators, which would longjmp: tools/patch_freetype.py).
#include <Python.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <typeinfo>

namespace __cxxabiv1 {
extern "C" char *__cxa_demangle(const char *, char *, size_t *, int *);
}

namespace {

// Standard exception types known to derive from std::exception, so that
// their what() can be read without RTTI casts across an unknown hierarchy.
const char *const kStdExceptions[] = {
    "std::exception", "std::runtime_error", "std::logic_error", "std::invalid_argument",
    "std::out_of_range", "std::length_error", "std::domain_error", "std::range_error",
    "std::overflow_error", "std::underflow_error", "std::bad_alloc", "std::bad_array_new_length",
    "std::bad_cast", "std::bad_typeid", "std::bad_function_call", "std::bad_optional_access",
    "std::bad_variant_access",
};

bool is_std_exception(const char *name) {
    for (const char *s : kStdExceptions) {
        // libc++ puts its types in an inline namespace: std::__2::runtime_error.
        if (strcmp(name, s) == 0) return true;
        if (strncmp(name, "std::__", 7) == 0) {
            const char *rest = strstr(name + 7, "::");
            if (rest && strcmp(rest + 2, s + 5) == 0) return true;
        }
    }
    return false;
}

void flush(const char *stream) {
    PyObject *f = PySys_GetObject(stream);  // borrowed
    if (f && f != Py_None) {
        PyObject *r = PyObject_CallMethod(f, "flush", NULL);
        Py_XDECREF(r);
        PyErr_Clear();
    }
}

}  // namespace

extern "C" {

[[noreturn]] void wasmexec_fatal(const char *what) {
    if (Py_IsInitialized()) {
        PySys_FormatStderr("fatal: %s; the run ends here\n", what);
        flush("stdout");
        flush("stderr");
    }
    _Exit(70);
}

void *__cxa_allocate_exception(size_t size) noexcept {
    void *p = calloc(1, size ? size : 1);
    if (!p) abort();
    return p;
}

void __cxa_free_exception(void *p) noexcept { free(p); }

[[noreturn]] void __cxa_throw(void *obj, std::type_info *type, void (*)(void *)) {
    int status = 0;
    char *name = __cxxabiv1::__cxa_demangle(type->name(), nullptr, nullptr, &status);
    const char *shown = (status == 0 && name) ? name : type->name();
    const char *what = nullptr;
    if (is_std_exception(shown)) what = static_cast<std::exception *>(obj)->what();
    if (Py_IsInitialized()) {
        PyObject *t = nullptr, *exc = nullptr, *tb = nullptr;
        PyErr_Fetch(&t, &exc, &tb);
        PyErr_NormalizeException(&t, &exc, &tb);
        PySys_FormatStderr(
            "fatal: C++ exception %s%s%s in an extension module; this guest has no C++ "
            "exception support, so the run ends here\n",
            shown, what ? ": " : "", what ? what : "");
        if (exc) {
            PySys_FormatStderr("the Python error it reported: %R\n", exc);
        }
        Py_XDECREF(t);
        Py_XDECREF(exc);
        Py_XDECREF(tb);
        flush("stdout");
        flush("stderr");
    }
    _Exit(70);
}

void *__cxa_begin_catch(void *obj) noexcept { return obj; }
void __cxa_end_catch() {}
[[noreturn]] void __cxa_rethrow() { _Exit(70); }

}  // extern "C"

// operator new. libc++abi built without exceptions returns nullptr when
// malloc fails (it can't throw bad_alloc), and code written for C++
// never checks: matplotlib's Agg renderer then draws a big figure's rows
// at nullptr plus their offsets, over whatever lies there. These replace
// libc++abi's (weak) definitions: a failed allocation ends the run as out
// of memory (exit status 71, EX_OSERR, the guest's oomExitCode in guest.json),
// before anything uses the pointer. The nothrow forms keep returning
// nullptr, which their callers check.
namespace {
[[noreturn]] void out_of_memory(size_t size) {
    if (Py_IsInitialized()) {
        PySys_FormatStderr("fatal: out of memory: a C++ allocation of %zu bytes failed; the run ends here\n", size);
        flush("stdout");
        flush("stderr");
    }
    _Exit(71);
}
void *checked(void *p, size_t size) {
    if (!p) out_of_memory(size);
    return p;
}
void *aligned(size_t size, std::align_val_t a) {
    size_t align = static_cast<size_t>(a);
    if (align < sizeof(void *)) align = sizeof(void *);
    // aligned_alloc wants a size that is a multiple of the alignment.
    size_t rounded = (size + align - 1) & ~(align - 1);
    if (rounded < size) return nullptr;
    return aligned_alloc(align, rounded ? rounded : align);
}
}  // namespace

void *operator new(size_t size) { return checked(malloc(size ? size : 1), size); }
void *operator new[](size_t size) { return checked(malloc(size ? size : 1), size); }
void *operator new(size_t size, std::align_val_t a) { return checked(aligned(size, a), size); }
void *operator new[](size_t size, std::align_val_t a) { return checked(aligned(size, a), size); }
