#!/usr/bin/env bash
# install-postgres.sh: makes sure Debian's PostgreSQL server is installed, for
# the tests and benchmarks of the PostgreSQL store (they start a throwaway
# cluster with initdb in a temp dir; nothing here configures or starts the
# system's own cluster). make test and make bench run it first.
#
# What it installs, when initdb is missing: the Debian package postgresql
# (the distribution's supported server version, e.g. postgresql-15), with
# apt-get, which needs root. Without root it says what to run and exits 0:
# the PostgreSQL tests then skip with a message saying so.
set -euo pipefail

have_initdb() {
    [ -n "${WASMEXEC_PG_BINDIR:-}" ] && [ -x "$WASMEXEC_PG_BINDIR/initdb" ] && return 0
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
}

if have_initdb; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "install-postgres: PostgreSQL is not installed and installing it needs root;" >&2
    echo "install-postgres: run: sudo apt-get install postgresql   (the PostgreSQL store's tests skip until then)" >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-postgres: no apt-get here: install PostgreSQL's server (initdb, postgres) and set WASMEXEC_PG_BINDIR to its bin directory" >&2
    exit 0
fi
log=$(mktemp)
echo "install-postgres: installing Debian's postgresql package as root (apt-get install, log $log)" >&2
export DEBIAN_FRONTEND=noninteractive
APT_WAIT=(-o DPkg::Lock::Timeout=600)
# policy-rc.d 101: the package must not start the system cluster here (no
# init system in containers; the tests start their own).
prc=/usr/sbin/policy-rc.d
made_prc=
if [ ! -e "$prc" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$prc" && chmod +x "$prc" && made_prc=1
fi
trap '[ -n "$made_prc" ] && rm -f "$prc"' EXIT
if ! apt-get "${APT_WAIT[@]}" install -y --no-install-recommends postgresql >"$log" 2>&1; then
    apt-get "${APT_WAIT[@]}" update >>"$log" 2>&1 || true
    if ! apt-get "${APT_WAIT[@]}" install -y --no-install-recommends postgresql >>"$log" 2>&1; then
        tail -n 20 "$log" >&2
        echo "install-postgres: could not install postgresql; the PostgreSQL store's tests will skip" >&2
        exit 0
    fi
fi
have_initdb || { echo "install-postgres: postgresql installed but no /usr/lib/postgresql/*/bin/initdb" >&2; exit 0; }
echo "install-postgres: installed $(ls -d /usr/lib/postgresql/*/bin | tail -n 1)" >&2
