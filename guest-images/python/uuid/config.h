/* util-linux's config.h for libuuid on wasm32-wasi (uuid.sh: util-linux's
 * configure is not run, it would probe the host). What wasi-libc has;
 * everything left undefined is absent (no sockets or network interfaces:
 * the node is random; no uuidd; no TLS). */
#define PACKAGE "util-linux"
#define PACKAGE_STRING "util-linux 2.38.1"
#define HAVE_UNISTD_H 1
#define HAVE_STDLIB_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_NANOSLEEP 1
#define HAVE_STRNLEN 1
#define HAVE_STRNDUP 1
/* getrandom comes from uuid/wasi_shim.h (WASI's random_get). */
#define HAVE_GETRANDOM 1
