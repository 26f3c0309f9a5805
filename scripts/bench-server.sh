#!/usr/bin/env bash
# scripts/bench-server.sh — the server's targets, measured the way the issue
# states them: the server on one pinned CPU, wrk (Debian) on the other, the
# same wrk command against nginx (nginx-light, one worker, `return 200 "ok"`)
# and against `zapbench serve`, interleaved REPEATS times in one run:
#   /health over HTTP/1.1 at 125 connections: zapbench vs nginx
#   POST /rpc with the default JSON codec at 125 connections vs our /health
# Usage: scripts/bench-server.sh [SECONDS=10] [REPEATS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
repeats=${2:-3}
bin=build/release/src/cli/zapbench
command -v wrk >/dev/null || { echo "bench-server: wrk missing (apt-get install wrk)" >&2; exit 2; }
command -v nginx >/dev/null || command -v /usr/sbin/nginx >/dev/null ||
  { echo "bench-server: nginx missing (apt-get install nginx-light)" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench-server: build first (make build)" >&2; exit 2; }
ncpu=$(nproc)
server_cpu=0
load_cpu=$((ncpu > 1 ? 1 : 0))

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $work/nginx.err;
pid $work/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work;
  server {
    listen 127.0.0.1:18081 reuseport;
    location = /health { default_type text/plain; return 200 "ok"; }
  }
}
CONF
cat >"$work/rpc.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$(cat ../shared/vectors/eth_req.json)'
LUA

rps() { sed -n 's/^Requests\/sec:[[:space:]]*\([0-9.]*\).*/\1/p'; }
run_wrk() {  # url [script]
  local extra=()
  [ -n "${2:-}" ] && extra=(-s "$2")
  taskset -c "$load_cpu" wrk -t1 -c125 -d"${secs}s" "${extra[@]}" "$1" | rps
}

echo "bench-server: server on CPU $server_cpu, wrk -t1 -c125 -d${secs}s on CPU $load_cpu, $repeats rounds"
for round in $(seq 1 "$repeats"); do
  taskset -c "$server_cpu" /usr/sbin/nginx -c "$work/nginx.conf" -p "$work" &
  sleep 0.5
  nginx_rps=$(run_wrk http://127.0.0.1:18081/health)
  kill %1; wait %1 2>/dev/null || true

  taskset -c "$server_cpu" "$bin" serve --http 127.0.0.1:18082 --threads 1 >"$work/serve.log" 2>&1 &
  sleep 0.5
  health_rps=$(run_wrk http://127.0.0.1:18082/health)
  rpc_rps=$(run_wrk http://127.0.0.1:18082/rpc "$work/rpc.lua")
  kill -TERM %1; wait %1 2>/dev/null || true
  echo "round $round: nginx /health $nginx_rps req/s | zapbench /health $health_rps req/s | zapbench /rpc json $rpc_rps req/s"
  awk -v n="$nginx_rps" -v h="$health_rps" -v r="$rpc_rps" \
    'BEGIN { printf "         zapbench/nginx /health = %.2f, rpc/health = %.2f\n", h / n, r / h }'
done
