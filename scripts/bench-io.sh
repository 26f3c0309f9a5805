#!/usr/bin/env bash
# scripts/bench-io.sh — what the syscall interface costs a request: the floor and `zapbench serve`
# (ZAP-RPC + ZAP, ZAP-HTTP + ZAP) on epoll and on io_uring, at 16 connections x depth 1 and 1 x 16,
# server pinned to one CPU and the loader to another, ROUNDS interleaved rounds. Per sample: the
# server's system calls per request (perf stat -e raw_syscalls:sys_enter on its PID for the load's
# window) and its CPU per request (utime + stime from /proc/PID/stat), and the requests/s; then the
# median per cell and the ratios io_uring / epoll. LOADER_IO picks the loader's own backend (epoll).
#   scripts/bench-io.sh                   # defaults: 3 rounds of 3 s
#   ROUNDS=5 DURATION=5s scripts/bench-io.sh
#   PROFILE=1 scripts/bench-io.sh         # instead: where the floor's CPU goes on each backend
# PROFILE=1: `perf record -g -C SERVER_CPU` of the floor (a quiet machine: the whole CPU is recorded)
# in the middle of a DURATION load at 16 x 1 and 1 x 16 on each
# backend, its kernel and user symbols grouped (scripts/perf-groups.py: TCP/IP, epoll readiness,
# io_uring, syscall entry and exit, ...) — how much of a request the interface is (docs/io-uring-plan.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ready.sh

ZAPBENCH=${ZAPBENCH:-build/release/src/cli/zapbench}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-3s}
SERVER_CPU=${SERVER_CPU:-0}
LOADER_CPU=${LOADER_CPU:-1}
LOADER_IO=${LOADER_IO:-epoll}
command -v perf >/dev/null || { echo "bench-io.sh: perf (Debian linux-perf) is needed" >&2; exit 2; }
[ -x "$ZAPBENCH" ] || { echo "bench-io.sh: no $ZAPBENCH (make build)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-io.XXXXXX")
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# start_floor IO: the floor on SERVER_CPU, 100 B each way, ready (its PID in $ready_pid).
start_floor() {
  start_ready taskset -c "$SERVER_CPU" "$ZAPBENCH" floor --listen 127.0.0.1:0 --request-bytes 100 \
    --response-bytes 100 --io "$1" >"$work/server.log" 2>&1
}

# sample IO TARGET CONNECTIONS DEPTH: one line "io target c p requests syscalls cpu_s" to $work/samples.
sample() {
  local io=$1 target=$2 c=$3 p=$4 port load_args
  case $target in
    floor)
      start_floor "$io"
      port=$(ready_port floor)
      load_args=(--framing tcp --request-bytes 100 --response-bytes 100) ;;
    zap-rpc | zap)
      start_ready taskset -c "$SERVER_CPU" "$ZAPBENCH" serve --"$target" 127.0.0.1:0 --io "$io" \
        >"$work/server.log" 2>&1
      port=$(ready_port "$target")
      load_args=(--framing "$target" --scenario rpc --body zap) ;;
  esac
  server_pid=$ready_pid
  local ticks_before
  ticks_before=$(cpu_ticks "$server_pid")
  perf stat -x, -e raw_syscalls:sys_enter -p "$server_pid" -o "$work/perf.csv" &
  local perf_pid=$!
  "$ZAPBENCH" load "${load_args[@]}" --addr "127.0.0.1:$port" -c "$c" -p "$p" -d "$DURATION" --warmup 0 \
    --cpus "$LOADER_CPU" --io "$LOADER_IO" --json-out "$work/load.json" >/dev/null
  local ticks_after
  ticks_after=$(cpu_ticks "$server_pid")
  kill -INT "$perf_pid"
  wait "$perf_pid" 2>/dev/null || true
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
  local requests syscalls
  requests=$(grep -o '"requests": *[0-9]*' "$work/load.json" | head -1 | grep -o '[0-9]*$')
  syscalls=$(grep raw_syscalls "$work/perf.csv" | cut -d, -f1)
  echo "$io $target $c $p $requests $syscalls $(echo "($ticks_after - $ticks_before) / $(getconf CLK_TCK)" | bc -l)" \
    >>"$work/samples"
}

# profile C P: the floor's CPU on each backend, grouped, one column per backend.
profile() {
  local c=$1 p=$2 io port
  for io in epoll io_uring; do
    start_floor "$io"
    port=$(ready_port floor)
    server_pid=$ready_pid
    "$ZAPBENCH" load --framing tcp --request-bytes 100 --response-bytes 100 --addr "127.0.0.1:$port" \
      -c "$c" -p "$p" -d "$DURATION" --warmup 0 --cpus "$LOADER_CPU" --io "$LOADER_IO" >/dev/null &
    local load_pid=$!
    # The whole CPU, not the PID: on loopback the peer's TCP input runs in the sender's softirq. The
    # load's middle only: its first second (connects) and last (drain) left out.
    sleep 1
    perf record -q -g -C "$SERVER_CPU" -o "$work/$io.data" -- sleep $((${DURATION%s} - 2)) 2>/dev/null
    wait "$load_pid"
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    perf report -i "$work/$io.data" --no-children --sort symbol -g none -q 2>/dev/null >"$work/$io.txt"
  done
  echo "# the floor, $c x $p, CPU $SERVER_CPU in the middle $((${DURATION%s} - 2)) s of a $DURATION load: share of its samples"
  python3 scripts/perf-groups.py "epoll=$work/epoll.txt" "io_uring=$work/io_uring.txt"
}
if [ "${PROFILE:-0}" = 1 ]; then
  [ "${DURATION%s}" -ge 4 ] 2>/dev/null || { echo "bench-io.sh: PROFILE=1 wants DURATION of 4s or more, in whole seconds" >&2; exit 2; }
  profile 16 1
  profile 1 16
  exit 0
fi

for round in $(seq "$ROUNDS"); do
  for shape in "16 1" "1 16"; do
    for target in floor zap-rpc zap; do
      for io in epoll io_uring; do
        # shellcheck disable=SC2086
        sample "$io" "$target" $shape
      done
    done
  done
  echo "bench-io.sh: round $round of $ROUNDS done" >&2
done

echo "# loader on $LOADER_IO, $ROUNDS rounds of $DURATION; server on CPU $SERVER_CPU, loader on CPU $LOADER_CPU"
echo "# per request: the server's system calls and CPU (medians over rounds)"
awk '
  { key = $2 " " $3 "x" $4; io = $1; n = ++count[key, io]
    sc[key, io, n] = $6 / $5; cpu[key, io, n] = $7 / $5 * 1e6; rate[key, io, n] = $5; keys[key] = 1 }
  function median(arr, key, io, m,    i, j, t, v) {
    for (i = 1; i <= m; i++) v[i] = arr[key, io, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  END {
    printf "%-14s %14s %14s %8s %14s %14s %8s\n", "cell", "epoll sys/req", "uring sys/req", "ratio", "epoll us/req", "uring us/req", "ratio"
    for (key in keys) {
      m = count[key, "epoll"]
      se = median(sc, key, "epoll", m); su = median(sc, key, "io_uring", m)
      ce = median(cpu, key, "epoll", m); cu = median(cpu, key, "io_uring", m)
      printf "%-14s %14.3f %14.3f %8.2f %14.3f %14.3f %8.2f\n", key, se, su, su / se, ce, cu, cu / ce
    }
  }' "$work/samples"
