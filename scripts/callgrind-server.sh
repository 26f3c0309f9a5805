#!/usr/bin/env bash
# scripts/callgrind-server.sh — the server's instructions per request (Ir,
# callgrind), independent of the machine's speed: `zapbench serve` (one
# thread, CPU 0) under callgrind, `zapbench load` (hello over HTTP/1.1, one
# connection, pipeline DEPTH; CPU 1) against it, twice — SHORT and LONG
# seconds — and the difference of the two runs' Ir over the difference of
# their requests (the server's own count), so start-up and shutdown cancel.
# FRAMING=http2: `serve --http2` and h2load (-t1 -c1 -m DEPTH) as the client,
# hello (/health) on one connection with DEPTH streams in flight.
# Usage: [FRAMING=http|http2] scripts/callgrind-server.sh [BIN=build/release/src/cli/zapbench] [DEPTHS="16 1"] [SHORT=2] [LONG=6]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/src/cli/zapbench}
depths=${2:-"16 1"}
short=${3:-2}
long=${4:-6}
port=${PORT:-18391}
wire=${FRAMING:-http}
case "$wire" in http | http2) ;; *) echo "callgrind-server: FRAMING is http or http2" >&2; exit 2 ;; esac
command -v valgrind >/dev/null || { echo "callgrind-server: valgrind missing" >&2; exit 2; }
[ "$wire" = http ] || command -v h2load >/dev/null || { echo "callgrind-server: h2load missing" >&2; exit 2; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# The loader's flag for the wire: --framing, or --wire in builds before it.
framing=--framing
"$bin" load --help 2>&1 | grep -q -- --framing || framing=--wire
# shellcheck source=ready.sh
. scripts/ready.sh

# One run: prints "<Ir> <requests>".
one() {  # depth seconds
  # Ready when the server closes its ready channel (valgrind passes fd 9 on).
  start_ready taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
    "$bin" serve --"$wire" 127.0.0.1:"$port" --threads 1 >"$work/serve.log" 2>"$work/vg.log" ||
    { echo "callgrind-server: the server did not start (valgrind's log: $work/vg.log)" >&2; exit 1; }
  local spid=$ready_pid
  if [ "$wire" = http ]; then
    taskset -c 1 "$bin" load "$framing" http --addr 127.0.0.1:"$port" --scenario hello -c 1 -t 1 -p "$1" \
      -d "$2" --warmup 0 >/dev/null
  else
    taskset -c 1 h2load -t1 -c1 -m"$1" -D"$2" "http://127.0.0.1:$port/health" >/dev/null
  fi
  kill -TERM "$spid"
  wait "$spid" || true
  local ir req
  ir=$(sed -n 's/^summary: *//p' "$work/cg.out")
  req=$(sed -n "s/^ *requests $wire \\/health *//p" "$work/serve.log")
  echo "$ir $req"
}

for d in $depths; do
  read -r ir1 req1 < <(one "$d" "$short")
  read -r ir2 req2 < <(one "$d" "$long")
  awk -v d="$d" -v i1="$ir1" -v r1="$req1" -v i2="$ir2" -v r2="$req2" \
    'BEGIN { printf "p%s: Ir/request %.0f  (runs: %d requests %.0f Ir, %d requests %.0f Ir)\n", d, (i2 - i1) / (r2 - r1), r1, i1, r2, i2 }'
done
