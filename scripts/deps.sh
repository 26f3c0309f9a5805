#!/usr/bin/env bash
# scripts/deps.sh — installs the Debian packages zapbench needs, only those
# missing. Used by `make bench` and `make test`; safe to run again. The codecs'
# libraries come from src/record/codecs.table (its "debian" column), so a codec
# added there is installed here too.
#   scripts/deps.sh                    install what is missing (as root, or through sudo)
#   scripts/deps.sh --print-packages   print every package, one a line, and install nothing
set -euo pipefail

table="$(dirname "${BASH_SOURCE[0]}")/../src/record/codecs.table"
if [ ! -r "$table" ]; then
  echo "deps: cannot read $table (run this script from a zapbench checkout)" >&2
  exit 1
fi

packages=(
  g++ make cmake ninja-build           # the build
  ccache                               # repeated builds (make test builds four trees)
  clang-14 libclang-rt-14-dev          # libFuzzer + sanitizers for the fuzz preset
  libgtest-dev libgmock-dev            # tests
  libbenchmark-dev                     # microbenchmarks
  libhttp-parser-dev                   # the HTTP/1.1 parser our own is benchmarked against
  nginx-light                          # zapbench run's reference arm (nginx serving /health)
  chromium                             # the test that renders report.html headless
  valgrind                             # zapbench instructions: callgrind counts the request path's instructions
  linux-perf                           # ... and perf stat, where the machine exposes the counter
)

# The codecs' libraries: column 6 of every row (comments and blank lines
# skipped, '-' is none). Plain bash, as on a fresh machine before anything is
# installed.
while IFS='|' read -r name _class _type _rank _sources debian _rest; do
  name="${name//[[:space:]]/}"
  debian="${debian//[[:space:]]/}"
  if [ -z "$name" ] || [ "${name:0:1}" = "#" ] || [ -z "$debian" ] || [ "$debian" = "-" ]; then continue; fi
  packages+=("$debian")
done <"$table"

case "${1:-}" in
  "") ;;
  --print-packages)
    printf '%s\n' "${packages[@]}"
    exit 0
    ;;
  *)
    echo "usage: scripts/deps.sh [--print-packages]" >&2
    exit 2
    ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
