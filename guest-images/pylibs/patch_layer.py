#!/usr/bin/python3.11
"""patch_layer.py SITE: the layer's edits for the guest, each an exact
match that must be found (a new package version that no longer matches
fails the build instead of shipping unpatched).

- pytz: Debian points it at /usr/share/zoneinfo, which the guest lacks;
  point it at the tzdata package of the layer (make_tzdata.py).
- more_itertools: imports concurrent.futures.ThreadPoolExecutor at the
  top, which the guest's stdlib lacks (no threads); only `callback_iter`
  uses it."""
import pathlib
import sys

site = pathlib.Path(sys.argv[1])
TZ = "/usr/local/lib/python3.11/dist-packages/tzdata/zoneinfo"


def edit(rel, old, new, count=1):
    p = site / rel
    text = p.read_text()
    n = text.count(old)
    if n != count:
        sys.exit(f"patch_layer: {rel}: expected {count} of {old!r}, found {n}")
    p.write_text(text.replace(old, new))


edit("pytz/__init__.py", '"/usr/share/zoneinfo/', f'"{TZ}/', count=2)
edit("pytz/__init__.py", "os.path.join('/usr','share',\n                                'zoneinfo', *name_parts)",
     f"os.path.join({TZ!r}, *name_parts)")
edit("more_itertools/more.py", "from concurrent.futures import ThreadPoolExecutor\n",
     "try:\n    from concurrent.futures import ThreadPoolExecutor\nexcept ImportError:  # wasmexec: the guest has no threads\n    ThreadPoolExecutor = None\n")

# requests: urllib3 opens its own sockets, which the guest lacks. On WASI
# HTTPAdapter.send goes through http.client instead, whose connections the
# driver routes through the host's fetch (the run's allow-list, secrets,
# caps and record apply); the answer is wrapped in a urllib3 response as
# usual, so sessions, cookies, redirects (already followed by the host)
# and errors behave as elsewhere.
edit("requests/adapters.py", "import socket  # noqa: F401\n",
     "import socket  # noqa: F401\nimport sys as _sys\n")
edit("requests/adapters.py", """        try:
            conn = self.get_connection(request.url, proxies)
        except LocationValueError as e:
            raise InvalidURL(e, request=request)
""", """        if _sys.platform == "wasi":  # wasmexec (patch_layer.py)
            return self._wasmexec_send(request, stream, timeout)
        try:
            conn = self.get_connection(request.url, proxies)
        except LocationValueError as e:
            raise InvalidURL(e, request=request)
""")
edit("requests/adapters.py", """    def close(self):
        \"\"\"Disposes of any internal state.

        Currently, this closes the PoolManager and any active ProxyManager,
        which closes any pooled connections.
        \"\"\"
""", """    def _wasmexec_send(self, request, stream, timeout):
        # wasmexec (patch_layer.py): one exchange through http.client.
        import http.client
        import io
        from urllib.parse import urlsplit

        u = urlsplit(request.url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise InvalidURL(f"Invalid URL {request.url!r}", request=request)
        if isinstance(timeout, tuple):
            timeout = timeout[1] if timeout[1] is not None else timeout[0]
        elif isinstance(timeout, TimeoutSauce):
            timeout = timeout.read_timeout
        cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
        conn = cls(u.hostname, u.port) if timeout is None else cls(u.hostname, u.port, timeout=timeout)
        path = (u.path or "/") + ("?" + u.query if u.query else "")
        body = request.body
        if body is not None and not isinstance(body, (bytes, str)):
            if hasattr(body, "read"):
                body = body.read()
            else:
                body = b"".join(c.encode() if isinstance(c, str) else c for c in body)
        try:
            conn.request(request.method, path, body=body, headers=dict(request.headers))
            r = conn.getresponse()
            data = r.read()
        except OSError as e:
            raise ConnectionError(e, request=request)
        finally:
            conn.close()
        raw = HTTPResponse(body=io.BytesIO(data), headers=r.getheaders(), status=r.status,
                           reason=r.reason, preload_content=False, decode_content=True,
                           request_method=request.method, request_url=request.url, original_response=r)
        return self.build_response(request, raw)

    def close(self):
        \"\"\"Disposes of any internal state.

        Currently, this closes the PoolManager and any active ProxyManager,
        which closes any pooled connections.
        \"\"\"
""")
