/*
 * Read-only guard for the guest's stdlib tree (/usr/local/lib).
 *
 * wasmtime v25 preopens are read-write and the host runs as root, so the
 * guest itself must refuse to change the stdlib tree, which the host shares
 * between all guests. This file sits *below* Python: python.wasm is linked
 * with `-Wl,--wrap=__wasi_<call>` for every WASI call that can modify a
 * file system, so every caller (os, io, sqlite3, zipfile, ...) goes through
 * the checks here and no Python-level trick (monkeypatching, dir_fd,
 * os.PathLike objects that change their mind, SQL ATTACH) can get around it.
 *
 * The rule works on descriptors, not path strings:
 *  - a descriptor is "protected" if it is a preopen other than the
 *    workspace (PROTECTED_PREFIX, "/", /usr/share/zoneinfo: the image's
 *    and the host's read-only trees), or it was opened through path_open
 *    relative to a protected descriptor;
 *  - wasmtime resolves every path inside the tree of its base descriptor
 *    (no escape through "..", absolute symlinks or symlinks leaving the
 *    tree), so everything reachable from a protected descriptor is inside
 *    the protected tree and nothing else is;
 *  - on protected descriptors, calls that create, modify, rename or delete
 *    anything fail with EACCES (Python: PermissionError). Reading works.
 *
 * The fd_write wrapper also routes WASI fd 1/2 to the run's output
 * (std_routed below).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wasi/api.h>

#define PROTECTED_PREFIX "/usr/local/lib"

/* fd -> protected? Grows on demand. */
static uint8_t *prot = NULL;
static size_t prot_len = 0;
static int guard_ready = 0;

static int is_prot(__wasi_fd_t fd)
{
    return fd >= 0 && (size_t)fd < prot_len && prot[fd];
}

static void set_prot(__wasi_fd_t fd, int on)
{
    if (fd < 0) {
        return;
    }
    if ((size_t)fd >= prot_len) {
        if (!on) {
            return;
        }
        size_t n = prot_len ? prot_len : 64;
        while (n <= (size_t)fd) {
            n *= 2;
        }
        uint8_t *p = realloc(prot, n);
        if (p == NULL) {
            abort();   /* can't track: never silently unprotect */
        }
        memset(p + prot_len, 0, n - prot_len);
        prot = p;
        prot_len = n;
    }
    prot[fd] = on ? 1 : 0;
}

static int path_is_protected(const char *name, size_t len)
{
    /* Every preopen but the workspace is the image's or the host's, shared
     * by all guests like the stdlib (PROTECTED_PREFIX, the root "/", the
     * bundled zone files at /usr/share/zoneinfo): read-only. */
    static const char ws[] = "/workspace";
    size_t wlen = sizeof(ws) - 1;
    while (len > 1 && name[len - 1] == '/') {   /* trailing slashes */
        len--;
    }
    return !(len >= wlen && memcmp(name, ws, wlen) == 0 && (len == wlen || name[wlen] == '/'));
}

/* Mark the protected preopens. Runs on the first wrapped call, i.e. while
 * the interpreter starts and before any user code. */
static void guard_init(void)
{
    if (guard_ready) {
        return;
    }
    guard_ready = 1;
    for (__wasi_fd_t fd = 3;; fd++) {
        __wasi_prestat_t ps;
        __wasi_errno_t err = __wasi_fd_prestat_get(fd, &ps);
        if (err == __WASI_ERRNO_BADF) {
            break;
        }
        if (err != __WASI_ERRNO_SUCCESS || ps.tag != __WASI_PREOPENTYPE_DIR) {
            continue;
        }
        size_t len = ps.u.dir.pr_name_len;
        char *name = malloc(len + 1);
        if (name == NULL) {
            abort();
        }
        if (__wasi_fd_prestat_dir_name(fd, (uint8_t *)name, len) == __WASI_ERRNO_SUCCESS) {
            name[len] = 0;
            /* C strings stop at NUL; a name with an embedded NUL is odd,
             * protect it rather than guess. */
            if (strlen(name) != len || path_is_protected(name, len)) {
                set_prot(fd, 1);
            }
        }
        free(name);
    }
}

/* WASI fd 1 and 2 are the run's stdout and stderr while the guest serves:
 * writes to them (os.write(1, ...), C stdio, a fatal error's message) go to
 * wasmexec_stdio_write (_wasmexecmodule.c), the path sys.stdout/stderr
 * take, so they keep their order with print() and count against the same
 * output limit. Once user code closes one, or renumbers another
 * descriptor over it, it is an ordinary descriptor again (as on Linux,
 * where it is no longer the terminal or pipe). */
static uint8_t std_routed[3] = {0, 1, 1};

/* Returns a WASI errno, or -1 when not serving (the interpreter's start-up,
 * the snapshot): then the write goes to WASI's own fd. */
int wasmexec_stdio_write(__wasi_fd_t fd, const __wasi_ciovec_t *iovs, size_t n,
                         __wasi_size_t *out);

static int routed(__wasi_fd_t fd)
{
    return (fd == 1 || fd == 2) && std_routed[fd];
}

static void unroute(__wasi_fd_t fd)
{
    if (fd == 1 || fd == 2) {
        std_routed[fd] = 0;
    }
}

#define DENY_IF(cond) do { guard_init(); if (cond) return __WASI_ERRNO_ACCES; } while (0)

/* ---- path_open: track descriptors, refuse write intent ------------------ */
__wasi_errno_t __real___wasi_path_open(__wasi_fd_t fd, __wasi_lookupflags_t dirflags,
    const char *path, __wasi_oflags_t oflags, __wasi_rights_t base,
    __wasi_rights_t inheriting, __wasi_fdflags_t fdflags, __wasi_fd_t *out);

__wasi_errno_t __wrap___wasi_path_open(__wasi_fd_t fd, __wasi_lookupflags_t dirflags,
    const char *path, __wasi_oflags_t oflags, __wasi_rights_t base,
    __wasi_rights_t inheriting, __wasi_fdflags_t fdflags, __wasi_fd_t *out)
{
    guard_init();
    int from_prot = is_prot(fd);
    if (from_prot) {
        if ((oflags & (__WASI_OFLAGS_CREAT | __WASI_OFLAGS_EXCL | __WASI_OFLAGS_TRUNC)) ||
            (fdflags & __WASI_FDFLAGS_APPEND) ||
            (base & (__WASI_RIGHTS_FD_WRITE | __WASI_RIGHTS_FD_ALLOCATE |
                     __WASI_RIGHTS_FD_FILESTAT_SET_SIZE))) {
            return __WASI_ERRNO_ACCES;
        }
    }
    __wasi_errno_t err = __real___wasi_path_open(fd, dirflags, path, oflags, base,
                                                 inheriting, fdflags, out);
    if (err == __WASI_ERRNO_SUCCESS) {
        set_prot(*out, from_prot);
    }
    return err;
}

__wasi_errno_t __real___wasi_fd_close(__wasi_fd_t fd);
__wasi_errno_t __wrap___wasi_fd_close(__wasi_fd_t fd)
{
    guard_init();
    __wasi_errno_t err = __real___wasi_fd_close(fd);
    if (err == __WASI_ERRNO_SUCCESS) {
        set_prot(fd, 0);
        unroute(fd);
    }
    return err;
}

__wasi_errno_t __real___wasi_fd_renumber(__wasi_fd_t fd, __wasi_fd_t to);
__wasi_errno_t __wrap___wasi_fd_renumber(__wasi_fd_t fd, __wasi_fd_t to)
{
    guard_init();
    int p = is_prot(fd);
    __wasi_errno_t err = __real___wasi_fd_renumber(fd, to);
    if (err == __WASI_ERRNO_SUCCESS && fd != to) {
        set_prot(to, p);
        set_prot(fd, 0);
        unroute(to);
        unroute(fd);
    }
    return err;
}

/* ---- calls that modify through a descriptor ------------------------------ */
__wasi_errno_t __real___wasi_fd_write(__wasi_fd_t, const __wasi_ciovec_t *, size_t, __wasi_size_t *);
__wasi_errno_t __wrap___wasi_fd_write(__wasi_fd_t fd, const __wasi_ciovec_t *iovs,
                                      size_t n, __wasi_size_t *out)
{
    DENY_IF(is_prot(fd));
    if (routed(fd)) {
        int err = wasmexec_stdio_write(fd, iovs, n, out);
        if (err >= 0) {
            return (__wasi_errno_t)err;
        }
    }
    return __real___wasi_fd_write(fd, iovs, n, out);
}

__wasi_errno_t __real___wasi_fd_pwrite(__wasi_fd_t, const __wasi_ciovec_t *, size_t,
                                       __wasi_filesize_t, __wasi_size_t *);
__wasi_errno_t __wrap___wasi_fd_pwrite(__wasi_fd_t fd, const __wasi_ciovec_t *iovs,
                                       size_t n, __wasi_filesize_t off, __wasi_size_t *out)
{
    DENY_IF(is_prot(fd));
    if (routed(fd)) {
        return __WASI_ERRNO_SPIPE;  /* a pipe or terminal can't seek */
    }
    return __real___wasi_fd_pwrite(fd, iovs, n, off, out);
}

__wasi_errno_t __real___wasi_fd_allocate(__wasi_fd_t, __wasi_filesize_t, __wasi_filesize_t);
__wasi_errno_t __wrap___wasi_fd_allocate(__wasi_fd_t fd, __wasi_filesize_t off,
                                         __wasi_filesize_t len)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_fd_allocate(fd, off, len);
}

__wasi_errno_t __real___wasi_fd_filestat_set_size(__wasi_fd_t, __wasi_filesize_t);
__wasi_errno_t __wrap___wasi_fd_filestat_set_size(__wasi_fd_t fd, __wasi_filesize_t size)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_fd_filestat_set_size(fd, size);
}

__wasi_errno_t __real___wasi_fd_filestat_set_times(__wasi_fd_t, __wasi_timestamp_t,
                                                   __wasi_timestamp_t, __wasi_fstflags_t);
__wasi_errno_t __wrap___wasi_fd_filestat_set_times(__wasi_fd_t fd, __wasi_timestamp_t a,
                                                   __wasi_timestamp_t m, __wasi_fstflags_t f)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_fd_filestat_set_times(fd, a, m, f);
}

/* ---- calls that modify a path below a descriptor -------------------------- */
__wasi_errno_t __real___wasi_path_create_directory(__wasi_fd_t, const char *);
__wasi_errno_t __wrap___wasi_path_create_directory(__wasi_fd_t fd, const char *path)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_path_create_directory(fd, path);
}

__wasi_errno_t __real___wasi_path_remove_directory(__wasi_fd_t, const char *);
__wasi_errno_t __wrap___wasi_path_remove_directory(__wasi_fd_t fd, const char *path)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_path_remove_directory(fd, path);
}

__wasi_errno_t __real___wasi_path_unlink_file(__wasi_fd_t, const char *);
__wasi_errno_t __wrap___wasi_path_unlink_file(__wasi_fd_t fd, const char *path)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_path_unlink_file(fd, path);
}

__wasi_errno_t __real___wasi_path_filestat_set_times(__wasi_fd_t, __wasi_lookupflags_t,
    const char *, __wasi_timestamp_t, __wasi_timestamp_t, __wasi_fstflags_t);
__wasi_errno_t __wrap___wasi_path_filestat_set_times(__wasi_fd_t fd, __wasi_lookupflags_t fl,
    const char *path, __wasi_timestamp_t a, __wasi_timestamp_t m, __wasi_fstflags_t f)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_path_filestat_set_times(fd, fl, path, a, m, f);
}

__wasi_errno_t __real___wasi_path_symlink(const char *, __wasi_fd_t, const char *);
__wasi_errno_t __wrap___wasi_path_symlink(const char *old_path, __wasi_fd_t fd,
                                          const char *new_path)
{
    DENY_IF(is_prot(fd));
    return __real___wasi_path_symlink(old_path, fd, new_path);
}

/* Either side in the protected tree: moving a file out deletes it there,
 * a hard link out would make it writable through the other tree. */
__wasi_errno_t __real___wasi_path_rename(__wasi_fd_t, const char *, __wasi_fd_t, const char *);
__wasi_errno_t __wrap___wasi_path_rename(__wasi_fd_t fd, const char *old_path,
                                         __wasi_fd_t new_fd, const char *new_path)
{
    DENY_IF(is_prot(fd) || is_prot(new_fd));
    return __real___wasi_path_rename(fd, old_path, new_fd, new_path);
}

__wasi_errno_t __real___wasi_path_link(__wasi_fd_t, __wasi_lookupflags_t, const char *,
                                       __wasi_fd_t, const char *);
__wasi_errno_t __wrap___wasi_path_link(__wasi_fd_t old_fd, __wasi_lookupflags_t fl,
    const char *old_path, __wasi_fd_t new_fd, const char *new_path)
{
    DENY_IF(is_prot(old_fd) || is_prot(new_fd));
    return __real___wasi_path_link(old_fd, fl, old_path, new_fd, new_path);
}
