#!/usr/bin/env bash
# scripts/bench-load.sh — the load generator against wrk on the same server
# and settings: `zapbench serve` on CPU 0, the loader (wrk -t1, or
# `zapbench load -t 1`) on CPU 1, GET /health at 125 connections, interleaved
# REPEATS times. Prints requests/s and p50 of both, their ratios, and the
# Little's-law check on zapbench load's own figures (connections / mean
# latency against the reported rate), and how many requests each loader
# really keeps in flight (rate x mean latency: wrk records from its own
# deferred write, so its connections sit idle between response and send).
# Usage: scripts/bench-load.sh [SECONDS=8] [REPEATS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-8}
repeats=${2:-3}
bin=build/release/src/cli/zapbench
command -v wrk >/dev/null || { echo "bench-load: wrk missing (apt-get install wrk)" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench-load: build first (make build)" >&2; exit 2; }
load_cpu=$(($(nproc) > 1 ? 1 : 0))
# shellcheck source=ready.sh
. scripts/ready.sh
trap 'kill -TERM "${ready_pid:-}" 2>/dev/null || true' EXIT
start_ready taskset -c 0 "$bin" serve --http 127.0.0.1:18083 >/dev/null 2>&1 ||
  { echo "bench-load: the server did not start" >&2; exit 1; }

# wrk's p50 from --latency, in microseconds.
wrk_p50_us() {
  awk '/^ +50%/ { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); print v } else if (v ~ /ms$/) { sub(/ms$/, "", v); print v * 1000 } else if (v ~ /s$/) { sub(/s$/, "", v); print v * 1e6 } }'
}
echo "bench-load: serve on CPU 0; wrk -t1 -c125 -d${secs}s --latency vs zapbench load -t 1 -c 125 -d $secs on CPU $load_cpu"
for round in $(seq 1 "$repeats"); do
  w=$(taskset -c "$load_cpu" wrk -t1 -c125 -d"${secs}s" --latency http://127.0.0.1:18083/health)
  w_rps=$(sed -n 's/^Requests\/sec:[[:space:]]*\([0-9.]*\).*/\1/p' <<<"$w")
  w_p50=$(wrk_p50_us <<<"$w")
  w_avg=$(awk '/^    Latency/ { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); print v } else if (v ~ /ms$/) { sub(/ms$/, "", v); print v * 1000 } else { sub(/s$/, "", v); print v * 1e6 } }' <<<"$w")
  z=$("$bin" load --framing http --addr 127.0.0.1:18083 --scenario hello -c 125 -t 1 --cpus "$load_cpu" -d "$secs" --warmup 1)
  z_rps=$(sed -n 's/^  requests\/s *\([0-9.]*\).*/\1/p' <<<"$z")
  z_p50=$(sed -n 's/^  latency us *p50 \([0-9.]*\).*/\1/p' <<<"$z")
  z_mean=$(sed -n 's/.*mean \([0-9.]*\).*/\1/p' <<<"$z" | head -1)
  z_err=$(sed -n 's/^  errors *\([0-9]*\).*/\1/p' <<<"$z")
  awk -v r="$round" -v wr="$w_rps" -v wp="$w_p50" -v zr="$z_rps" -v zp="$z_p50" -v zm="$z_mean" -v ze="$z_err" -v wa="$w_avg" 'BEGIN {
    printf "round %d: wrk %.0f req/s p50 %.1f us | zapbench load %.0f req/s p50 %.1f us (errors %d)\n", r, wr, wp, zr, zp, ze
    printf "         rate zapbench/wrk = %.3f, p50 zapbench/wrk = %.3f, Little: 125 / mean %.1f us = %.0f req/s (%.1f%% of reported)\n",
      zr / wr, zp / wp, zm, 125 / (zm / 1e6), 100 * (125 / (zm / 1e6)) / zr
    printf "         in flight by Little (rate x mean latency): zapbench load %.0f, wrk %.0f of 125 connections\n",
      zr * zm / 1e6, wr * wa / 1e6 }'
done
