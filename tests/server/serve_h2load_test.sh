#!/usr/bin/env bash
# tests/server/serve_h2load_test.sh — h2load (Debian nghttp2-client), an HTTP/2
# client zapbench did not write, against `zapbench serve --http2`: 2000
# requests for /health over 2 connections, 16 streams each, all succeeded;
# SIGTERM then gives exit 0 and the http2 counters. Skipped (exit 0 with a
# message) when h2load is not installed. Usage: serve_h2load_test.sh ZAPBENCH
set -u
bin=$1
. "$(dirname "$0")/../support/cli_checks.sh"

if ! command -v h2load >/dev/null 2>&1; then
  echo "SKIPPED: h2load not installed (Debian nghttp2-client)"
  exit 0
fi
start_ready "$work/out" "$work/err" "$bin" serve --http2 127.0.0.1:0
port=$(ready_port http2)
[ -n "$port" ]; check "announces the bound HTTP/2 port" $?
timeout "$hang" h2load -n 2000 -c 2 -m 16 "http://127.0.0.1:$port/health" >"$work/h2load" 2>&1
grep -q "2000 succeeded" "$work/h2load"; check "h2load: 2000 requests for /health succeeded" $?
grep -q "status codes: 2000 2xx" "$work/h2load"; check "h2load: every status 2xx" $?
stop_pid
grep -q "requests http2 /health 2000" "$work/out"; check "the stop line counts the http2 requests" $?
finish
