#!/usr/bin/env bash
# tests/server/floor_cli_test.sh — `zapbench floor` and `zapbench load --framing tcp` (or floor) as a user runs them: the bound
# port printed, a floor run with responses and no errors, SIGTERM gives exit 0 and the counters, and bad
# flags give exit 2 with a clear message. Every wait is for an event, bounded by $hang seconds to catch a
# hang only. Usage: floor_cli_test.sh ZAPBENCH
set -u
bin=$1
. "$(dirname "$0")/../support/cli_checks.sh"
usage_error() {  # name, expected message, zapbench arguments...
  local name=$1 msg=$2
  shift 2
  "$bin" "$@" >/dev/null 2>"$work/usage_err"
  local rc=$?
  [ "$rc" = 2 ] && grep -q -- "$msg" "$work/usage_err"
  local ok=$?  # before the $(...) below, which would replace $?
  check "$name (exit $rc: $(head -c 200 "$work/usage_err"))" "$ok"
}

start_ready "$work/out" "$work/err" "$bin" floor --listen 127.0.0.1:0 --request-bytes 82 --response-bytes 80
port=$(ready_port floor)
[ -n "$port" ] && [ "$port" != 0 ] && grep -qx "zapbench floor: listening on 127.0.0.1:$port" "$work/out"
ok=$?
check "prints the bound port ($(head -1 "$work/out"))" "$ok"

"$bin" load --framing floor --addr "127.0.0.1:$port" --request-bytes 82 --response-bytes 80 -c 4 -d 1 \
  --warmup 0 --json-out "$work/load.json" >"$work/load.out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "^zapbench load: tcp 82 B requests, 80 B responses" "$work/load.out" &&
  grep -q "^  errors       0$" "$work/load.out" && grep -Eq '^  requests/s   [0-9.]+ \([1-9][0-9]* responses' "$work/load.out"
check "load --framing floor: exit 0, responses, no errors" $?
grep -q '"framing": "tcp",$' "$work/load.json" && grep -q '"scenario": "",$' "$work/load.json" &&
  grep -q '"body": "",$' "$work/load.json" && grep -q '"responses": [1-9]' "$work/load.json"
check "load --framing floor --json-out: framing tcp, empty scenario and body, responses" $?

stop_pid
grep -q "^  connections 4$" "$work/out"; check "prints the connection count" $?
grep -Eq "^  requests echoed [1-9][0-9]*$" "$work/out"; check "prints the requests echoed" $?

"$bin" floor --help >"$work/help"
[ $? = 0 ] && grep -q "usage: zapbench floor --listen HOST:PORT --request-bytes N --response-bytes M" "$work/help"
check "floor --help prints the usage, exit 0" $?
"$bin" load --help >"$work/help"
[ $? = 0 ] && grep -q -- "--framing http|http2|grpc|zap|zap-rpc|tcp|floor" "$work/help" && grep -q -- "--request-bytes N" "$work/help"
check "load --help tells of --framing tcp (and floor, its older name)" $?

usage_error "floor: no flags" "--listen, --request-bytes and --response-bytes are required" floor
usage_error "floor: no --response-bytes" "are required" floor --listen 127.0.0.1:0 --request-bytes 82
usage_error "floor: --request-bytes 0" "--request-bytes wants at least 1" floor --listen 127.0.0.1:0 \
  --request-bytes 0 --response-bytes 80
usage_error "floor: a bad address" "--listen wants HOST:PORT, got 'nonsense'" floor --listen nonsense \
  --request-bytes 82 --response-bytes 80
usage_error "floor: an unknown flag" "floor: unknown option '--scenario'" floor --scenario hello
usage_error "floor: an address that does not resolve" "cannot resolve '256.1.1.1'" floor --listen 256.1.1.1:80 \
  --request-bytes 82 --response-bytes 80
usage_error "load: floor without byte counts" "--wire floor needs --addr, --request-bytes and --response-bytes" \
  load --wire floor --addr 127.0.0.1:1
usage_error "load: floor with --scenario" "do not apply to --wire floor" load --wire floor --addr 127.0.0.1:1 \
  --request-bytes 82 --response-bytes 80 --scenario hello
usage_error "load: byte counts without floor" "are for --wire floor only" load --wire http --addr 127.0.0.1:1 \
  --scenario hello --request-bytes 82
usage_error "load: a bad --wire names floor" "--wire wants one of http, http2, grpc, zap, zap-rpc, tcp, floor, got 'smoke'" load --wire smoke --addr 127.0.0.1:1

finish
