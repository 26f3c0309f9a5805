#!/usr/bin/env bash
# scripts/bench-h2-servers.sh — server CPU per request of `zapbench serve --http2` against two HTTP/2
# servers people deploy, h2o (Debian h2o) and nghttpd (Debian nghttp2-server, the same libnghttp2),
# under h2load (-t1 -c C -m M, D seconds): each server alone on CPU 0 with one worker thread, h2load on
# CPU 1, the rounds interleaved (ours, h2o, nghttpd, then again). Ours serves GET /health ("ok"); theirs
# a static file of the same two bytes. The server's CPU is its utime + stime over the run
# (/proc/PID/stat, every thread), divided by the requests h2load saw succeed. Prints one line per run and
# the median per server. Usage: scripts/bench-h2-servers.sh [SECONDS=4] [ROUNDS=3] [C=16] [M=16]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-4} rounds=${2:-3} conns=${3:-16} streams=${4:-16}
bin=build/release/src/cli/zapbench
for tool in h2load h2o nghttpd; do
  command -v "$tool" >/dev/null || { echo "bench-h2-servers: $tool missing (apt-get install nghttp2-client h2o nghttp2-server)" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "bench-h2-servers: build first (make build)" >&2; exit 2; }
work=$(mktemp -d)
spid=
trap '[ -z "$spid" ] || kill -TERM "$spid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
printf ok >"$work/ok"
chmod a+rx "$work"  # h2o started as root serves as nobody
port=18461
tick=$(getconf CLK_TCK)
cat >"$work/h2o.conf" <<CONF
num-threads: 1
listen:
  port: $port
  host: 127.0.0.1
hosts:
  "127.0.0.1:$port":
    paths:
      /:
        file.dir: $work
access-log: /dev/null
CONF
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# shellcheck source=ready.sh
. scripts/ready.sh
# one NAME PATH COMMAND...: start the server pinned to CPU 0, wait until it is ready (ours: its
# listener announced through --ready-fd; h2o and nghttpd have no ready channel: until they answer a
# request), load it, stop it.
one() {
  local name=$1 path=$2
  shift 2
  if [ "$name" = zapbench ]; then
    start_ready taskset -c 0 "$@" >"$work/$name.log" 2>&1 ||
      { echo "bench-h2-servers: $name did not start" >&2; exit 1; }
    spid=$ready_pid
  else
    taskset -c 0 "$@" >"$work/$name.log" 2>&1 &
    spid=$!
    local end=$((SECONDS + 30))
    until h2load -n 1 -c 1 "http://127.0.0.1:$port$path" 2>/dev/null | grep -q "1 succeeded"; do
      [ "$SECONDS" -lt "$end" ] || { echo "bench-h2-servers: $name did not start" >&2; exit 1; }
      sleep 0.1
    done
  fi
  local before after ok
  before=$(cpu_ticks "$spid")
  taskset -c 1 h2load -t1 -c"$conns" -m"$streams" -D"$secs" "http://127.0.0.1:$port$path" >"$work/h2load" 2>&1
  after=$(cpu_ticks "$spid")
  ok=$(sed -n 's/.* \([0-9]*\) succeeded.*/\1/p' "$work/h2load")
  kill -TERM "$spid"
  wait "$spid" 2>/dev/null || true
  spid=
  awk -v n="$name" -v t=$((after - before)) -v hz="$tick" -v ok="$ok" \
    'BEGIN { printf "%-9s %9d requests  server CPU %.2f us/request\n", n, ok, t / hz * 1e6 / ok }' | tee -a "$work/all"
}
for ((r = 1; r <= rounds; r++)); do
  one zapbench /health "$bin" serve --http2 "127.0.0.1:$port" --threads 1
  one h2o /ok h2o -c "$work/h2o.conf"
  one nghttpd /ok nghttpd --no-tls -n 1 -d "$work" "$port"
done
echo "median server CPU per request (us), $rounds interleaved rounds, h2load -t1 -c$conns -m$streams -D$secs:"
for n in zapbench h2o nghttpd; do
  awk -v n="$n" '$1 == n { print $6 }' "$work/all" | sort -n | awk -v n="$n" '{ v[NR] = $1 } END { printf "  %-9s %.2f\n", n, v[int((NR + 1) / 2)] }'
done
