#!/usr/bin/python3.11
"""Small, exact edits to CPython 3.11.2's Lib/ for wasm32-wasi, applied by
build.sh before `make wasm_stdlib`. Each edit must match exactly once, so a
different source tree fails loudly instead of being half-patched.

asyncio: the selector event loop creates a "self-pipe" with
socket.socketpair(), which WASI doesn't have, so asyncio.run() fails with
"OSError: [Errno 58] Not supported". The self-pipe only wakes the loop from
other threads or signal handlers; WASI has neither, so on WASI the loop runs
without one.

socket: WASI gives Python no sockets and no name resolution, and the
guest has no network. Instead of "module '_socket' has no attribute
'getaddrinfo'" (and "[Errno 58] Not supported" from socket.socket()), every
entry point says so in plain words, with the exception types code already
catches: getaddrinfo/gethostbyname/gethostbyname_ex/gethostbyaddr/
getnameinfo raise socket.gaierror (EAI_FAIL), socket.socket() and
socket.socketpair() raise OSError (ENOTSUP), both with a message starting
"no network in this sandbox"; so create_connection, http.client and
urllib (URLError) fail with it too; urllib's https:// (there is no ssl
module) gives the same URLError instead of "unknown url type: https".
gethostname() is "localhost" (so
getfqdn and email.utils.make_msgid work). asyncio's loop.getaddrinfo and
getnameinfo call them directly on WASI (it has no threads for the default
executor, which gave "No module named 'concurrent.futures.thread'").

shutil: copyfile takes Linux's os.sendfile path on WASI too (the guest's
sendfile copies between files in C, _wasmexec_linux.c: a 48 MB copy took
84 ms against 123 ms through copyfileobj's Python loop).
"""
import pathlib
import sys

EDITS = {
    "shutil.py": [
        ("""_USE_CP_SENDFILE = hasattr(os, "sendfile") and sys.platform.startswith("linux")
""", """_USE_CP_SENDFILE = hasattr(os, "sendfile") and sys.platform.startswith(("linux", "wasi"))
"""),
    ],
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
    "asyncio/base_events.py": [
        ("""            getaddr_func = socket.getaddrinfo

        return await self.run_in_executor(
""", """            getaddr_func = socket.getaddrinfo

        if sys.platform == "wasi":  # wasmexec: no threads, no executor
            return getaddr_func(host, port, family, type, proto, flags)
        return await self.run_in_executor(
"""),
        ("""    async def getnameinfo(self, sockaddr, flags=0):
        return await self.run_in_executor(
""", """    async def getnameinfo(self, sockaddr, flags=0):
        if sys.platform == "wasi":  # wasmexec: no threads, no executor
            return socket.getnameinfo(sockaddr, flags)
        return await self.run_in_executor(
"""),
    ],
    "urllib/request.py": [
        ("""    def unknown_open(self, req):
        type = req.type
        raise URLError('unknown url type: %s' % type)
""", """    def unknown_open(self, req):
        type = req.type
        if type == "https" and sys.platform == "wasi":
            # wasmexec: no ssl module because there is no network: say that.
            try:
                socket.getaddrinfo(req.host, 443)
            except OSError as err:
                raise URLError(err)
        raise URLError('unknown url type: %s' % type)
"""),
    ],
    "socket.py": [
        ("""                         proto, canonname, sa))
    return addrlist
""", """                         proto, canonname, sa))
    return addrlist


if sys.platform == "wasi" and not hasattr(_socket, "getaddrinfo"):
    # wasmexec (tools/patch_stdlib.py): no network in the guest. Say so.
    _NO_NETWORK = ("no network in this sandbox: Python code here has no "
                   "sockets and no DNS")

    def _no_name_resolution(what):
        return gaierror(EAI_FAIL, f"{_NO_NETWORK}; can't resolve {what}")

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        raise _no_name_resolution(f"{host!r} (socket.getaddrinfo)")

    def gethostbyname(hostname):
        raise _no_name_resolution(f"{hostname!r} (socket.gethostbyname)")

    def gethostbyname_ex(hostname):
        raise _no_name_resolution(f"{hostname!r} (socket.gethostbyname_ex)")

    def gethostbyaddr(ip_address):
        raise _no_name_resolution(f"{ip_address!r} (socket.gethostbyaddr)")

    def getnameinfo(sockaddr, flags):
        raise _no_name_resolution(f"{sockaddr!r} (socket.getnameinfo)")

    def gethostname():
        return "localhost"

    _wasi_socket_init = socket.__init__

    def _socket_init(self, family=-1, type=-1, proto=-1, fileno=None):
        try:
            _wasi_socket_init(self, family, type, proto, fileno)
        except OSError as e:
            if e.errno != errno.ENOTSUP:
                raise
            raise OSError(errno.ENOTSUP,
                          f"{_NO_NETWORK}; can't create a socket "
                          "(socket.socket)") from None

    _socket_init.__doc__ = _wasi_socket_init.__doc__
    socket.__init__ = _socket_init

    def socketpair(family=None, type=SOCK_STREAM, proto=0):
        raise OSError(errno.ENOTSUP, f"{_NO_NETWORK}; can't create a "
                      "socket pair (socket.socketpair)")

    __all__.extend(["getaddrinfo", "gethostbyname", "gethostbyname_ex",
                    "gethostbyaddr", "getnameinfo", "gethostname"])
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
