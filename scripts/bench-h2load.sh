#!/usr/bin/env bash
# scripts/bench-h2load.sh — our HTTP/2 loader against h2load (Debian
# nghttp2-client, nghttp2's own load generator) on the same server and cell:
# `zapbench serve --http2` on CPU 0, the loader (h2load -t1, or
# `zapbench load --framing http2 -t 1`) on CPU 1, GET /health at C
# connections × M concurrent streams, interleaved REPEATS times. Prints
# requests/s of both and their ratio (issue 18's target: ours ≥ 0.95 of
# h2load's), and the Little's-law check on zapbench load's own figures
# (C × M / mean latency against its reported rate).
# Usage: scripts/bench-h2load.sh [SECONDS=5] [REPEATS=3] [C=16] [M=16]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
repeats=${2:-3}
conns=${3:-16}
streams=${4:-16}
bin=build/release/src/cli/zapbench
command -v h2load >/dev/null || { echo "bench-h2load: h2load missing (apt-get install nghttp2-client)" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench-h2load: build first (make build)" >&2; exit 2; }
load_cpu=$(($(nproc) > 1 ? 1 : 0))
log=$(mktemp)
# shellcheck source=ready.sh
. scripts/ready.sh
trap 'kill -TERM "${ready_pid:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -f "$log"' EXIT
# Ready when the server has announced its listener and closed its ready channel.
start_ready taskset -c 0 "$bin" serve --http2 127.0.0.1:0 >"$log" 2>&1 || true
port=$(ready_port http2)
[ -n "$port" ] || { echo "bench-h2load: the server did not start" >&2; exit 1; }
echo "bench-h2load: serve --http2 on CPU 0 (port $port); h2load -t1 -c$conns -m$streams -D$secs vs zapbench load --framing http2 -t 1 -c $conns -p $streams -d $secs on CPU $load_cpu"
for round in $(seq 1 "$repeats"); do
  h=$(taskset -c "$load_cpu" h2load -t1 -c"$conns" -m"$streams" -D"$secs" --warm-up-time=1 "http://127.0.0.1:$port/health")
  h_rps=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' <<<"$h")
  h_ok=$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' <<<"$h")
  z=$("$bin" load --framing http2 --addr "127.0.0.1:$port" --scenario hello -c "$conns" -p "$streams" -t 1 --cpus "$load_cpu" -d "$secs" --warmup 1)
  z_rps=$(sed -n 's/^  requests\/s *\([0-9.]*\).*/\1/p' <<<"$z")
  z_mean=$(sed -n 's/.*mean \([0-9.]*\).*/\1/p' <<<"$z" | head -1)
  z_err=$(sed -n 's/^  errors *\([0-9]*\).*/\1/p' <<<"$z")
  awk -v r="$round" -v hr="$h_rps" -v ho="$h_ok" -v zr="$z_rps" -v zm="$z_mean" -v ze="$z_err" -v n="$((conns * streams))" 'BEGIN {
    printf "round %d: h2load %.0f req/s (%s succeeded) | zapbench load %.0f req/s (errors %d)\n", r, hr, ho, zr, ze
    printf "         rate zapbench/h2load = %.3f; Little: %d / mean %.1f us = %.0f req/s (%.1f%% of reported)\n",
      zr / hr, n, zm, n / (zm / 1e6), 100 * (n / (zm / 1e6)) / zr }'
done
