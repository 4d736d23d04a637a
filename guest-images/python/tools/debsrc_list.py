#!/usr/bin/python3.11
"""Print one-line `deb-src` entries mirroring the system's Debian `deb`
entries (same URIs, suites, components, signed-by), for a private apt
configuration. The system's apt configuration is only read.

Only entries for this release's suites are kept (codename, codename-*),
which leaves out third-party repositories."""
import glob
import os
import re
import sys


def codename():
    with open("/etc/os-release", encoding="utf-8") as f:
        for line in f:
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip().strip('"')
    sys.exit("debsrc_list: no VERSION_CODENAME in /etc/os-release")


def deb822(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for block in re.split(r"\n\s*\n", text):
        fields, key = {}, None
        for line in block.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[0] in " \t" and key:
                fields[key] += " " + line.strip()
                continue
            if ":" in line:
                key, val = line.split(":", 1)
                key = key.strip().lower()
                fields[key] = val.strip()
        if not fields or fields.get("enabled", "yes").lower() == "no":
            continue
        if "deb" not in fields.get("types", "").split():
            continue
        signed = fields.get("signed-by", "")
        if signed and not signed.startswith("/"):
            signed = ""  # inline keys can't be expressed in one-line form
        for uri in fields.get("uris", "").split():
            for suite in fields.get("suites", "").split():
                yield uri, suite, fields.get("components", "").split(), signed


def oneline(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line.startswith("deb "):
                continue
            opts, signed = "", ""
            m = re.match(r"deb\s+\[([^\]]*)\]\s+(.*)", line)
            if m:
                opts, rest = m.group(1), m.group(2)
            else:
                rest = line[4:]
            for o in opts.split():
                if o.startswith("signed-by="):
                    signed = o.split("=", 1)[1]
            parts = rest.split()
            if len(parts) >= 2:
                yield parts[0], parts[1], parts[2:], signed


def main():
    code = codename()
    entries = []
    if os.path.exists("/etc/apt/sources.list"):
        entries += list(oneline("/etc/apt/sources.list"))
    for p in sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        entries += list(oneline(p))
    for p in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        entries += list(deb822(p))
    seen = set()
    for uri, suite, comps, signed in entries:
        if not (suite == code or suite.startswith(code + "-")):
            continue
        comps = [c for c in comps if c == "main"] or comps
        key = (uri, suite)
        if key in seen:
            continue
        seen.add(key)
        opt = f"[signed-by={signed}] " if signed else ""
        print(f"deb-src {opt}{uri} {suite} {' '.join(comps)}")
    if not seen:
        sys.exit(f"debsrc_list: no Debian '{code}' entries in the apt sources")


main()
