#!/usr/bin/env bash
# tests/server/serve_h2spec_test.sh — h2spec 2.2.1 (the HTTP/2 conformance suite, pinned in go/tools and
# built by scripts/go-build.sh), a client zapbench did not write, against `zapbench serve --http2` (one
# thread): every one of its 145 cases must pass, against GET / (a 404 of 9 bytes: every case runs) and
# against GET /health (2 bytes: case 6.9.2/2 needs an answer of 5 bytes or more and is skipped, the one
# expected skip). A new failure or skip fails the suite; its junit report names the case. Skipped (exit 77)
# with the reason scripts/go-build.sh recorded when h2spec could not be built.
# Usage: serve_h2spec_test.sh ZAPBENCH TOOLS_DIR
set -u
bin=$1 tools=$2
if [ ! -x "$tools/h2spec" ]; then
  echo "skipped: h2spec is not built: $(cat "$tools/h2spec.unavailable" 2>/dev/null || echo "no $tools/h2spec")"
  exit 77
fi
. "$(dirname "$0")/../support/cli_checks.sh"

start_ready "$work/out" "$work/err" "$bin" serve --http2 127.0.0.1:0 --threads 1
port=$(ready_port http2)
[ -n "$port" ]; check "announces the bound HTTP/2 port" $?

# run PATH EXPECTED_SKIPS: h2spec against PATH; its junit report's failures and skips checked.
run() {
  local path=$1 want_skips=$2 junit="$work/h2spec$(echo "$1" | tr / _).xml"
  timeout "$hang" "$tools/h2spec" -h 127.0.0.1 -p "$port" -P "$path" -o 5 -j "$junit" >"$work/h2spec.log" 2>&1
  tail -n 1 "$work/h2spec.log"
  local cases failed skipped
  cases=$(grep -ac "<testcase" "$junit" 2>/dev/null)
  failed=$(grep -a -B1 "<failure" "$junit" 2>/dev/null | sed -n 's/.*package="\([^"]*\)" classname="\([^"]*\)".*/\1: \2/p')
  skipped=$(grep -a -B1 "<skipped" "$junit" 2>/dev/null | sed -n 's/.*package="\([^"]*\)" classname="\([^"]*\)".*/\1: \2/p')
  [ "$cases" = 145 ]; check "h2spec against $path: 145 cases run (got ${cases:-none})" $?
  # The junit file holds h2spec's raw frames (grep -a); its own last line must agree.
  [ -z "$failed" ] && tail -n 1 "$work/h2spec.log" | grep -aq ", 0 failed$"
  local rc=$?
  check "h2spec against $path: no case fails${failed:+ (failed: $failed)}" $rc
  [ $rc = 0 ] || grep -a -A12 "^Failures:" "$work/h2spec.log"
  [ "$skipped" = "$want_skips" ]; check "h2spec against $path: skipped only '${want_skips:-nothing}' (got '${skipped}')" $?
}
run / ""
run /health "http2/6.9.2: Sends a SETTINGS frame for window size to be negative"

kill -0 "$pid" 2>/dev/null; check "the server survives every case" $?
stop_pid
grep -q "error http2_connection_error" "$work/out"; check "the stop line counts the connection errors h2spec provoked" $?
finish
