/*
 * Linux calls CPython's os module uses that wasi-libc doesn't have, built
 * on what WASI does have. tools/patch_cpython.py makes posixmodule.c call
 * them on WASI (os.getrandom, os.sendfile, and the descriptor os.scandir,
 * os.listdir and so os.fwalk and shutil.rmtree's descriptor-based walk
 * need), and config.site-wasm32-wasi says they exist.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>
#include <wasi/api.h>

#define WASMEXEC_GRND_NONBLOCK 0x0001
#define WASMEXEC_GRND_RANDOM 0x0002

/* getrandom(2). WASI's random_get is the host's CSPRNG, which is always
 * seeded and never blocks, so GRND_NONBLOCK and GRND_RANDOM change nothing;
 * other flags are EINVAL as on Linux. */
ssize_t _wasmexec_getrandom(void *buf, size_t size, unsigned int flags)
{
    if (flags & ~(unsigned int)(WASMEXEC_GRND_NONBLOCK | WASMEXEC_GRND_RANDOM)) {
        errno = EINVAL;
        return -1;
    }
    __wasi_errno_t err = __wasi_random_get((uint8_t *)buf, (__wasi_size_t)size);
    if (err != 0) {
        errno = err;
        return -1;
    }
    return (ssize_t)size;
}

/* A descriptor of its own for the directory dirfd names, which
 * fdopendir() can take over and closedir() close. WASI has no dup(), but
 * opening "." relative to the directory gives one (with its own reading
 * position, as fdopendir wants). */
int _wasmexec_dup_dir(int dirfd)
{
    return openat(dirfd, ".", O_RDONLY | O_DIRECTORY);
}

/* sendfile(2) from a file to a file (WASI has no sockets), as Linux does
 * it: count bytes read from in_fd (from *offset without moving in_fd's
 * position, which *offset then follows, or else from and advancing that
 * position) are written to out_fd. Returns the bytes written, fewer at the
 * end of in_fd or when a write fell short; -1 and errno when nothing could
 * be written. */
ssize_t sendfile(int out_fd, int in_fd, off_t *offset, size_t count)
{
    enum { CHUNK = 64 * 1024 };
    if (count > 0x7ffff000) {
        count = 0x7ffff000; /* Linux's limit for one call */
    }
    if (offset != NULL && *offset < 0) {
        errno = EINVAL;
        return -1;
    }
    char *buf = malloc(count < CHUNK ? (count ? count : 1) : CHUNK);
    if (buf == NULL) {
        errno = ENOMEM;
        return -1;
    }
    size_t done = 0;
    int saved = 0;
    while (done < count) {
        size_t want = count - done < CHUNK ? count - done : CHUNK;
        ssize_t n = offset != NULL ? pread(in_fd, buf, want, *offset + (off_t)done)
                                   : read(in_fd, buf, want);
        if (n < 0) {
            saved = errno;
            break;
        }
        if (n == 0) {
            break;
        }
        ssize_t w = 0;
        while (w < n) {
            ssize_t k = write(out_fd, buf + w, (size_t)(n - w));
            if (k <= 0) {
                saved = k < 0 ? errno : EIO;
                break;
            }
            w += k;
        }
        if (w < n && offset == NULL) {
            /* Read but not written: in_fd goes back to just after what
             * was written, as it would with Linux's sendfile. */
            lseek(in_fd, -(off_t)(n - w), SEEK_CUR);
        }
        done += (size_t)w;
        if (w < n) {
            break;
        }
    }
    free(buf);
    if (done == 0 && saved != 0) {
        errno = saved;
        return -1;
    }
    if (offset != NULL) {
        *offset += (off_t)done;
    }
    return (ssize_t)done;
}
