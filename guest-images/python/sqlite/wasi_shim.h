/*
 * Force-included (-include) when compiling the SQLite amalgamation for
 * wasm32-wasi (wasi-libc 0.0~git20220510): supplies what the unix VFS
 * expects and WASI lacks.
 *
 * - POSIX advisory locks don't exist in WASI. The guest is a single process
 *   with a private workspace, so locks are no-ops: F_GETLK reports "no
 *   conflicting lock", F_SETLK/F_SETLKW succeed. Everything else goes to the
 *   real fcntl().
 * - fchmod/fchown/geteuid: WASI has no permissions or users; succeed / 0.
 */
#ifndef WASMEXEC_SQLITE_WASI_SHIM_H
#define WASMEXEC_SQLITE_WASI_SHIM_H

#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef F_RDLCK
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
#endif
#ifndef F_GETLK
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#endif

static int wasmexec_sqlite_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    switch (cmd) {
    case F_GETLK:
        if (arg) ((struct flock *)arg)->l_type = F_UNLCK;
        return 0;
    case F_SETLK:
    case F_SETLKW:
        return 0;
    default:
        return fcntl(fd, cmd, arg);
    }
}
#define fcntl wasmexec_sqlite_fcntl

static int wasmexec_sqlite_fchmod(int fd, mode_t mode) { (void)fd; (void)mode; return 0; }
static int wasmexec_sqlite_fchown(int fd, uid_t u, gid_t g) { (void)fd; (void)u; (void)g; return 0; }
static uid_t wasmexec_sqlite_geteuid(void) { return 0; }
#define fchmod wasmexec_sqlite_fchmod
#define fchown wasmexec_sqlite_fchown
#define geteuid wasmexec_sqlite_geteuid

#endif
