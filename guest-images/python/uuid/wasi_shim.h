/* What libuuid (util-linux 2.38.1) calls that wasi-libc lacks, forced into
 * every libuuid file by uuid.sh. */
#include <errno.h>
#include <sys/random.h>
#include <sys/types.h>

/* Users: one, root, as the guest's stat() results say. */
static inline uid_t getuid(void) { return 0; }
static inline gid_t getgid(void) { return 0; }
static inline int setuid(uid_t u) { (void)u; errno = ENOSYS; return -1; }
static inline int setgid(gid_t g) { (void)g; errno = ENOSYS; return -1; }
/* No modes in WASI. */
static inline mode_t umask(mode_t m) { (void)m; return 022; }
/* No locks: only reached with an open clock file
 * (/var/lib/libuuid/clock.txt), which the guest can't create (its root is
 * read-only); libuuid then keeps the clock sequence in memory. */
#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
static inline int flock(int fd, int op) { (void)fd; (void)op; errno = ENOSYS; return -1; }
/* Random bytes from WASI's random_get (wasi-libc's getentropy, at most 256
 * bytes a call), not /dev/urandom, which the guest doesn't have (libuuid
 * would fall back to rand() seeded by the clock). */
#define GRND_NONBLOCK 0x0001
static inline ssize_t getrandom(void *buf, size_t n, unsigned int flags)
{
    (void)flags;
    if (n > 256) {
        n = 256;
    }
    return getentropy(buf, n) == 0 ? (ssize_t)n : -1;
}
