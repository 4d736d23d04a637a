#!/usr/bin/python3.11
"""Small, exact edits to CPython 3.11.2's Lib/ for wasm32-wasi, applied by
build.sh before `make wasm_stdlib`. Each edit must match exactly once, so a
different source tree fails loudly instead of being half-patched.

asyncio: the selector event loop creates a "self-pipe" with
socket.socketpair(), which WASI doesn't have, so asyncio.run() fails with
"OSError: [Errno 58] Not supported". The self-pipe only wakes the loop from
other threads or signal handlers; WASI has neither, so on WASI the loop runs
without one.
"""
import pathlib
import sys

EDITS = {
    "asyncio/selector_events.py": [
        ("""    def _close_self_pipe(self):
        self._remove_reader(self._ssock.fileno())
""", """    def _close_self_pipe(self):
        if self._ssock is None:  # wasmexec: no self-pipe on WASI
            return
        self._remove_reader(self._ssock.fileno())
"""),
        ("""    def _make_self_pipe(self):
        # A self-socket, really. :-)
        self._ssock, self._csock = socket.socketpair()
""", """    def _make_self_pipe(self):
        if sys.platform == "wasi":
            # wasmexec: no socketpair() on WASI, and no threads or signals
            # that would need to wake the loop.
            self._ssock = self._csock = None
            return
        # A self-socket, really. :-)
        self._ssock, self._csock = socket.socketpair()
"""),
        ("""import socket
import warnings
""", """import socket
import sys
import warnings
"""),
    ],
}


def main():
    lib = pathlib.Path(sys.argv[1])
    for rel, edits in EDITS.items():
        p = lib / rel
        text = p.read_text(encoding="utf-8")
        for old, new in edits:
            n = text.count(old)
            if n != 1:
                sys.exit(f"patch_stdlib: {rel}: expected 1 match, found {n}:\n{old}")
            text = text.replace(old, new)
        p.write_text(text, encoding="utf-8")


main()
