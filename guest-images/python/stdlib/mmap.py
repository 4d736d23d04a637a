"""mmap for the wasm32-wasi guest: the module, without mappings.

WASI has no mmap(2), so CPython's C module is not built. Libraries import
mmap at the top for code paths most programs never take (pandas reads
through it with read_csv(memory_map=True); PIL's PDF parser): without the
module, `import pandas` fails. This module has the names; making a mapping
raises OSError(ENOSYS), as using a socket or starting a thread in the
guest fails at the call, not at the import.
"""
import errno as _errno

ACCESS_DEFAULT, ACCESS_READ, ACCESS_WRITE, ACCESS_COPY = 0, 1, 2, 3
PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4
MAP_SHARED, MAP_PRIVATE, MAP_ANONYMOUS = 1, 2, 32
MAP_ANON = MAP_ANONYMOUS
PAGESIZE = ALLOCATIONGRANULARITY = 65536  # a wasm page


class mmap:
    """Memory-mapped files are not available in this sandbox."""

    def __new__(cls, *args, **kwargs):
        raise OSError(_errno.ENOSYS, "mmap is not available in this sandbox (WASI has no memory mappings)")


error = OSError
