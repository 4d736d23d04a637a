#!/usr/bin/env bash
# vendor.sh: refresh third_party/formatjs, the guest's Intl polyfills and
# their CLDR data, from the pinned FormatJS packages on the npm registry.
# Run from guest-images/js; commit what it writes (its PROVENANCE lists
# the versions and their integrity).
set -euo pipefail
here=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --ignore-scripts \
  @formatjs/intl-numberformat@9.4.3 \
  @formatjs/intl-datetimeformat@7.8.1 \
  @formatjs/intl-pluralrules@6.3.16 \
  @formatjs/intl-relativetimeformat@13.0.1 \
  @formatjs/intl-listformat@8.3.15 \
  @formatjs/intl-segmenter@12.2.15 \
  @formatjs/intl-locale@5.3.12 \
  @formatjs/intl-getcanonicallocales@3.2.12 \
  @formatjs/intl-supportedvaluesof@2.3.11 \
  @formatjs/intl-localematcher@0.9.0 \
  @formatjs/bigdecimal@0.2.7 \
  @formatjs/fast-memoize@3.1.7 >/dev/null
cd "$here"
out=$here/../../third_party/formatjs
rm -rf "$out"
go run ./tools/intlvendor "$work/node_modules" "$out"
