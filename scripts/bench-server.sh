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
# shellcheck source=ready.sh
. scripts/ready.sh

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
# CPU ticks (utime + stime) of a process and its children: with wrk on one
# core the loader can be the ceiling, so the server's CPU per request is
# reported beside its rate.
ticks() {
  local t=0 p
  for p in "$1" $(pgrep -P "$1"); do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
  echo "$t"
}
hz=$(getconf CLK_TCK)
run_wrk() {  # url [script]
  local extra=()
  [ -n "${2:-}" ] && extra=(-s "$2")
  taskset -c "$load_cpu" wrk -t1 -c125 -d"${secs}s" "${extra[@]}" "$1" | rps
}

echo "bench-server: server on CPU $server_cpu, wrk -t1 -c125 -d${secs}s on CPU $load_cpu, $repeats rounds"
for round in $(seq 1 "$repeats"); do
  taskset -c "$server_cpu" /usr/sbin/nginx -c "$work/nginx.conf" -p "$work" &
  spid=$!
  sleep 0.5
  t0=$(ticks $spid)
  nginx_rps=$(run_wrk http://127.0.0.1:18081/health)
  nginx_cpu=$(($(ticks $spid) - t0))
  kill %1; wait %1 2>/dev/null || true

  start_ready taskset -c "$server_cpu" "$bin" serve --http 127.0.0.1:18082 --threads 1 >"$work/serve.log" 2>&1 ||
    { cat "$work/serve.log" >&2; echo "bench-server: zapbench serve did not start" >&2; exit 1; }
  spid=$ready_pid
  t0=$(ticks $spid)
  health_rps=$(run_wrk http://127.0.0.1:18082/health)
  t1=$(ticks $spid)
  rpc_rps=$(run_wrk http://127.0.0.1:18082/rpc "$work/rpc.lua")
  t2=$(ticks $spid)
  kill -TERM "$spid"; wait "$spid" 2>/dev/null || true
  echo "round $round: req/s nginx /health $nginx_rps | zapbench /health $health_rps | zapbench /rpc json $rpc_rps"
  awk -v n="$nginx_rps" -v h="$health_rps" -v r="$rpc_rps" -v nc="$nginx_cpu" -v hc="$((t1 - t0))" \
    -v rc="$((t2 - t1))" -v hz="$hz" -v s="$secs" \
    'BEGIN { printf "         zapbench/nginx /health = %.2f, rpc/health = %.2f; server CPU us/request: nginx %.2f, zapbench /health %.2f, /rpc %.2f\n", h / n, r / h, nc / hz * 1e6 / (n * s), hc / hz * 1e6 / (h * s), rc / hz * 1e6 / (r * s) }'
done
