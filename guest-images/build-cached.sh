#!/usr/bin/env bash
# build-cached.sh NAME: build guest image NAME once per hash of its inputs.
#
# The inputs are every file under guest-images/NAME, the third_party/
# directories its third_party.txt names, and the Go toolchain version. The
# result lives outside the clone, in
# $WASMEXEC_CACHE_DIR/images/NAME-HASH (default ~/.cache/wasmexec), and
# build/images/NAME in the clone is a symlink to it. A changed input gives a
# new hash and so a rebuild; an unchanged one costs a hash of a few files.
#
# Several clones may share the cache: one build of NAME runs at a time (a
# lock, $cache/images/.NAME.lock); a second one waits, then finds the image
# complete if the first built the same inputs, and uses it. A build works in a scratch directory
# (.NAME-HASH-XXXXXX) that is renamed into place when it succeeds and
# removed when it fails or is interrupted; scratch left by a build that was
# killed outright (kill -9, a reboot) is removed by the next build.
#
# Progress: the build's step lines ("==> [NAME] ..." or "NAME-image: ...")
# are shown as [step k/n] with the time elapsed and, when an earlier build
# of NAME finished here, an estimate of the time left. Step durations are
# recorded in $cache/images/.stats/NAME.steps after every successful build.
#
# Status: while it builds, the script keeps build/images/.status/NAME.json
# up to date for a server that waits for the image (wasmexec serve loads
# an image when its build completes; /readyz shows the step and the
# estimate): {"state":"building"|"failed", "step", "steps", "label",
# "elapsedSeconds", "leftSeconds" (-1: no estimate yet), "estimate"
# ("record": from an earlier build's record; "pace": from this build's
# steps so far, when there is no record), "log" (from
# $WASMEXEC_BUILD_LOG, where the caller sends the output), "pid",
# "updatedAt"}. A build that completes removes it; one that fails leaves
# "failed".
set -euo pipefail
name=${1:?usage: build-cached.sh NAME}
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/guest-images/$name
cache=${WASMEXEC_CACHE_DIR:-$HOME/.cache/wasmexec}
images=$cache/images
[ -x "$src/build.sh" ] || { echo "build-cached: $src/build.sh is missing or not executable" >&2; exit 1; }

# Vendored code an image takes from the repository's third_party/ (one
# "SOURCE DEST" line each in guest-images/NAME/third_party.txt, SOURCE under
# third_party/) is an input too: a change there rebuilds the image.
third_party=()
if [ -f "$src/third_party.txt" ]; then
  while read -r d; do
    [ -d "$root/third_party/$d" ] || { echo "build-cached: $src/third_party.txt names third_party/$d, which is missing" >&2; exit 1; }
    third_party+=("$d")
  done < <(sed -e 's/#.*//' "$src/third_party.txt" | awk 'NF { split($1, p, "/"); print p[1] }' | LC_ALL=C sort -u)
fi
hash=$( {
  (cd "$src" && find . -type f ! -name '*.md' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
  [ ${#third_party[@]} = 0 ] || (cd "$root/third_party" && find "${third_party[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
  go version
} | sha256sum | cut -c1-16)
out=$images/$name-$hash
mkdir -p "$images" "$root/build/images"

status_dir=$root/build/images/.status
status=$status_dir/$name.json
json_str() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//[$'\t\r\n']/ }
  printf '"%s"' "$s"
}
# write_status STATE STEP STEPS LABEL ELAPSED LEFT [ESTIMATE]
write_status() {
  mkdir -p "$status_dir"
  printf '{"image":%s,"state":"%s","step":%d,"steps":%d,"label":%s,"elapsedSeconds":%d,"leftSeconds":%d,"estimate":"%s","log":%s,"pid":%d,"updatedAt":%d}\n' \
    "$(json_str "$name")" "$1" "$2" "$3" "$(json_str "$4")" "$5" "$6" "${7:-}" "$(json_str "${WASMEXEC_BUILD_LOG:-}")" "$$" "$(date +%s)" \
    >"$status.$$" && mv -f "$status.$$" "$status"
}

uptodate() {
  echo "==> [$name] guest image up to date ($hash)"
  ln -sfn "$out" "$root/build/images/$name"
  rm -f "$status"
  exit 0
}
[ -f "$out/.complete" ] && uptodate

# One build of NAME at a time. After waiting, look again: the build we
# waited for has usually just completed the image.
have_flock=0
if command -v flock >/dev/null 2>&1; then
  have_flock=1
  exec 9>"$images/.$name.lock"
  if ! flock -n 9; then
    echo "==> [$name] waiting for another build of $name to finish (lock $images/.$name.lock)"
    write_status building 0 0 "waiting for another build of $name" 0 -1
    trap 'rm -f "$status"' EXIT
    flock 9
    trap - EXIT
  fi
  [ -f "$out/.complete" ] && uptodate
fi

# Remove the scratch of builds that are gone. A scratch directory
# .NAME-HASH-XXXXXX belongs to a live build when that build holds the lock
# of NAME (ours we hold ourselves), or, for builds started by an older copy
# of this script that took no lock, when a live process names it on its
# command line.
named_by_a_process() {
  local pat
  # A bracket around the last character: grep's own command line (which
  # holds the pattern) does not match it.
  pat=$(printf '%s' "$1" | sed 's/[].*^$\\[]/\\&/g')
  pat="${pat%?}[${1: -1}]"
  grep -qsE -- "$pat" /proc/[0-9]*/cmdline 2>/dev/null
}
for d in "$images"/.*-*-*; do
  [ -d "$d" ] || continue
  other=${d##*/.}
  other=${other%%-*}
  if [ "$other" != "$name" ] && [ $have_flock = 1 ] && [ -e "$images/.$other.lock" ] \
    && ! flock -n "$images/.$other.lock" true; then
    continue
  fi
  [ $have_flock = 1 ] || continue # without locks we can't tell: leave it
  named_by_a_process "$d" && continue
  echo "==> [$name] removing scratch left by an interrupted build: $d ($(du -sh "$d" 2>/dev/null | cut -f1))"
  rm -rf "$d"
done

stats=$images/.stats/$name.steps
mkdir -p "$images/.stats"

# progress reads the build's output and prefixes its step lines with
# [step k/n], the elapsed time and, from the previous build's record, the
# time left. It writes this build's record to $stats.new.
progress() {
  local -a prev_label=() prev_secs=() labels=() starts=()
  local n guessed="" total_prev=0 k=0 line label i j left leftn how
  if [ -f "$stats" ]; then
    while IFS=$'\t' read -r s l; do
      prev_secs+=("$s")
      prev_label+=("$l")
      total_prev=$((total_prev + s))
    done <"$stats"
  fi
  n=${#prev_label[@]}
  if [ "$n" = 0 ]; then
    # No record yet: count the step lines of the scripts (an upper bound,
    # as some steps only run when needed).
    n=$(cat "$src"/*.sh | grep -cE '^[[:space:]]*(step "|log "|echo "==> \['"$name"'\])' || true)
    guessed="~"
  fi
  fmt() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
  local re="^(==> \\[$name\\]|$name-image:) (.*)\$"
  while IFS= read -r line; do
    if [[ $line =~ $re ]]; then
      label=${BASH_REMATCH[2]}
      k=$((k + 1))
      # The record keys steps by their words: no digits, no paths.
      key=$(printf '%s' "$label" | sed -E 's#[^ ]*/[^ ]*#PATH#g; s/[0-9]+/N/g')
      labels+=("$key")
      starts+=("$SECONDS")
      left=""
      leftn=-1
      how=record
      for ((i = 0; i < ${#prev_label[@]}; i++)); do
        if [ "${prev_label[$i]}" = "$key" ]; then
          j=0
          for ((; i < ${#prev_label[@]}; i++)); do j=$((j + prev_secs[i])); done
          left=", about $(fmt "$j") left (last build: $(fmt "$total_prev"))"
          leftn=$j
          break
        fi
      done
      if [ "$leftn" -lt 0 ] && [ "$k" -gt 1 ] && [ "$SECONDS" -gt 0 ]; then
        # No record of an earlier build here: the pace of this one.
        leftn=$((SECONDS * (n - k + 1) / (k - 1)))
        how=pace
        [ "$leftn" -gt 0 ] || leftn=-1
      fi
      [ "$leftn" -ge 0 ] || how=""

      printf '==> [%s] [step %d/%s%d, %s elapsed%s] %s\n' "$name" "$k" "$guessed" "$((k > n ? k : n))" "$(fmt "$SECONDS")" "$left" "$label"
      write_status building "$k" "$((k > n ? k : n))" "$label" "$SECONDS" "$leftn" "$how"
    else
      printf '%s\n' "$line"
    fi
  done
  # Durations: each step lasts until the next one starts. Waiting for a
  # lock is not part of a build's own time.
  : >"$stats.new"
  for ((i = 0; i < ${#labels[@]}; i++)); do
    if ((i + 1 < ${#labels[@]})); then j=$((starts[i + 1] - starts[i])); else j=$((SECONDS - starts[i])); fi
    [[ ${labels[$i]} == waiting* ]] && continue
    printf '%s\t%s\n' "$j" "${labels[$i]}" >>"$stats.new"
  done
}

echo "==> [$name] building guest image (inputs $hash; cached in $out)"
start=$(date +%s)
tmp=$(mktemp -d "$images/.$name-$hash-XXXXXX")
# Failed or interrupted: remove the scratch and say so in the status (the
# EXIT trap runs on the signals too, through exit).
write_status building 0 0 "starting" 0 -1
trap 'rm -rf "$tmp" "$stats.new"; write_status failed 0 0 "the build failed" "$SECONDS" -1' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
SECONDS=0
(cd "$src" && ./build.sh "$tmp") 2>&1 | progress
touch "$tmp/.complete"
rm -rf "$out"
mv "$tmp" "$out"
[ -s "$stats.new" ] && mv "$stats.new" "$stats"
trap - EXIT INT TERM HUP
echo "==> [$name] built in $(($(date +%s) - start))s"
ln -sfn "$out" "$root/build/images/$name"
rm -f "$status"
