"""Download one source distribution from the Python package index, checked.

    pypi_sdist.py PROJECT FILENAME SHA256 OUTDIR

Used by the build when Debian's archive does not serve a source package's
orig tarball: the same upstream release is then taken as the project's
sdist (FILENAME, e.g. numpy-1.24.2.tar.gz) and accepted only if its sha256
is SHA256. `pip download` can't do this alone: it builds the package's
metadata (runs its setup.py) before it keeps the file, which for numpy
and pandas needs the very build this is a step of.

The index is pip's own: PIP_INDEX_URL, else `pip config`'s index-url, else
pip's built-in default, so the build names no host of its own and follows
a mirror configured for pip. The project page is read through the simple
API (PEP 691 JSON, else the PEP 503 HTML page).
"""
import hashlib
import html.parser
import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request


def index_url():
    url = os.environ.get("PIP_INDEX_URL", "").strip()
    if not url:
        try:
            out = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.index-url"],
                                 capture_output=True, text=True, timeout=60)
            url = out.stdout.strip() if out.returncode == 0 else ""
        except (OSError, subprocess.SubprocessError):
            url = ""
    if not url:
        from pip._internal.models.index import PyPI  # pip's default index
        url = PyPI.simple_url
    return url.rstrip("/") + "/"


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


def find(project, filename):
    page = urllib.parse.urljoin(index_url(), project + "/")
    req = urllib.request.Request(page, headers={
        "Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1"})
    with urllib.request.urlopen(req, timeout=180) as r:
        body = r.read()
        ctype = r.headers.get("Content-Type", "")
        base = r.geturl()
    if "json" in ctype:
        for f in json.loads(body)["files"]:
            if f["filename"] == filename:
                return urllib.parse.urljoin(base, f["url"])
    else:
        p = Links()
        p.feed(body.decode("utf-8", "replace"))
        for href in p.links:
            url = urllib.parse.urljoin(base, href)
            if urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1] == filename:
                return url
    raise SystemExit("pypi_sdist: %s not listed on the index page of %s (%s)" % (filename, project, page))


def main():
    project, filename, sha, outdir = sys.argv[1:5]
    url = find(project, filename)
    os.makedirs(outdir, exist_ok=True)
    dest = os.path.join(outdir, filename)
    h = hashlib.sha256()
    with urllib.request.urlopen(url, timeout=180) as r, open(dest + ".part", "wb") as f:
        while True:
            chunk = r.read(1 << 20)
            if not chunk:
                break
            h.update(chunk)
            f.write(chunk)
    if h.hexdigest() != sha:
        os.unlink(dest + ".part")
        raise SystemExit("pypi_sdist: %s: sha256 %s, expected %s" % (filename, h.hexdigest(), sha))
    os.replace(dest + ".part", dest)
    print(dest)


if __name__ == "__main__":
    main()
