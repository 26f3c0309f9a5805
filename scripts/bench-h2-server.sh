#!/usr/bin/env bash
# scripts/bench-h2-server.sh — the server's HTTP/2 cost against nginx's (issue
# 18's target: `zapbench serve --http2` on /health ≥ nginx's HTTP/2 /health
# requests/s and ≤ its server CPU per request). Each server runs alone, one
# thread (nginx: worker_processes 1, no master process, so one PID holds all
# its CPU), pinned to CPU 0; h2load -t1 on CPU 1 runs each cell; the server's
# CPU is its utime+stime from /proc/PID/stat before and after the cell.
# Prints one line per server and cell: requests/s and server CPU µs/request.
# Usage: scripts/bench-h2-server.sh [BIN=build/release/src/cli/zapbench] [SECONDS=5]
#        [CELLS="-c16 -m16;-c1 -m16;-c16 -m1"] [SERVERS="zapbench nginx"]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/src/cli/zapbench}
seconds=${2:-5}
IFS=';' read -r -a cells <<<"${CELLS:-"-c16 -m16;-c1 -m16;-c16 -m1"}"
servers=${SERVERS:-"zapbench nginx"}
port=${PORT:-18451}
for tool in h2load taskset; do command -v "$tool" >/dev/null || { echo "bench-h2-server: $tool missing" >&2; exit 2; }; done
work=$(mktemp -d)
spid=
cleanup() {
  [ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
tck=$(getconf CLK_TCK)

# utime + stime of a process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# shellcheck source=ready.sh
. scripts/ready.sh

# Ours is ready once it has announced its listener (--ready-fd); nginx, once it answers a request.
start() {  # server
  case "$1" in
    zapbench)
      start_ready taskset -c 0 "$bin" serve --http2 127.0.0.1:"$port" --threads 1 >"$work/serve.log" 2>&1 ||
        { echo "bench-h2-server: zapbench did not start" >&2; return 1; }
      spid=$ready_pid
      ;;
    nginx)
      command -v nginx >/dev/null || { echo "bench-h2-server: nginx missing" >&2; return 1; }
      cat >"$work/nginx.conf" <<EOF
worker_processes 1;
master_process off;
error_log $work/error.log;
pid $work/nginx.pid;
events { worker_connections 8192; }
http {
  access_log off;
  keepalive_requests 1000000000;
  keepalive_timeout 300s;
  http2_max_concurrent_streams 256;
  client_body_temp_path $work;
  server {
    listen 127.0.0.1:$port http2 reuseport;
    location = /health { default_type text/plain; return 200 "ok"; }
  }
}
EOF
      taskset -c 0 nginx -p "$work" -c "$work/nginx.conf" -g "daemon off;" &
      spid=$!
      for _ in $(seq 1 100); do
        h2load -n1 -c1 "http://127.0.0.1:$port/health" 2>/dev/null | grep -q "1 succeeded" && return 0
        sleep 0.1
      done
      echo "bench-h2-server: $1 did not answer on $port" >&2
      return 1
      ;;
  esac
}

for server in $servers; do
  start "$server"
  for cell in "${cells[@]}"; do
    # shellcheck disable=SC2086
    before=$(cpu_ticks "$spid")
    out=$(taskset -c 1 h2load -t1 $cell -D"$seconds" --warm-up-time=1 "http://127.0.0.1:$port/health")
    after=$(cpu_ticks "$spid")
    # The CPU counts the warm-up second too: requests over (warm-up + D) s at the measured rate.
    echo "$out" | awk -v s="$server" -v cell="$cell" -v t0="$before" -v t1="$after" -v tck="$tck" \
      -v d="$seconds" '
      /^finished in/ { rps = $4 }
      /^requests:/ { ok = $8 }
      END {
        cpu_us = (t1 - t0) / tck * 1e6
        printf "%-8s %-10s %10.0f req/s  %6.2f µs CPU/request (%d ok in %ss; CPU %.2fs over %ss incl. warm-up)\n",
          s, cell, rps, cpu_us / (rps * (d + 1)), ok, d, (t1 - t0) / tck, d + 1
      }'
  done
  kill "$spid"
  wait "$spid" 2>/dev/null || true
  spid=
done
