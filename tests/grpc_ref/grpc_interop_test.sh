#!/usr/bin/env bash
# tests/grpc_ref/grpc_interop_test.sh — the gRPC cross-checks with an independent implementation
# (docs/spec/http2-grpc.md), every answer validated:
#   server  the grpc++ client (`zapbench-grpc call`) against zapbench's gRPC endpoint (`zapbench serve
#           --http2`), depth 16 and 1;
#   loader  zapbench's loader (`zapbench load --framing grpc --scenario rpc --body protobuf`) against the
#           grpc++ server (`zapbench-grpc serve`): 0 errors, and the server counts the calls it answered.
# Skipped (exit 77) with the reason when the build has no zapbench-grpc, and until zapbench has the side
# under test (`serve --help` lists --http2; `load --help` lists the grpc framing).
# Usage: grpc_interop_test.sh server|loader ZAPBENCH_GRPC ZAPBENCH REASON (ZAPBENCH_GRPC '-': none built).
direction=$1 grpc=$2 bin=$3
if [ "$grpc" = - ]; then
  echo "skipped: zapbench-grpc is not built: $4"
  exit 77
fi
case $direction in
  server)
    if ! "$bin" serve --help | grep -q -- "--http2 HOST:PORT"; then
      echo "skipped: this zapbench serves no gRPC yet ('zapbench serve --help' lists no --http2)"
      exit 77
    fi
    ;;
  loader)
    if ! "$bin" load --help | grep -q -- "--framing [a-z0-9|-]*grpc"; then
      echo "skipped: this zapbench's loader has no gRPC yet ('zapbench load --help' lists no --framing grpc)"
      exit 77
    fi
    ;;
  *)
    echo "usage: grpc_interop_test.sh server|loader ZAPBENCH_GRPC ZAPBENCH REASON" >&2
    exit 2
    ;;
esac
. "$(dirname "$0")/../support/cli_checks.sh"

if [ "$direction" = server ]; then
  start_ready "$work/serve.out" "$work/serve.err" "$bin" serve --http2 127.0.0.1:0
  port=$(ready_port http2)
  [ -n "$port" ]; check "zapbench serve --http2 announces its port" $?
  for depth in 16 1; do
    calls=$((depth == 1 ? 300 : 2000))
    "$grpc" call --target "127.0.0.1:$port" --calls "$calls" --depth "$depth" >"$work/call.out" 2>"$work/call.err"
    rc=$?
    [ "$rc" = 0 ] && grep -q ": $calls ok, 0 failed in " "$work/call.out" && [ ! -s "$work/call.err" ]
    check "grpc++ client against zapbench serve --http2: $calls calls at depth $depth, every answer valid (exit $rc)" $?
    [ "$rc" = 0 ] || cat "$work/call.out" "$work/call.err"
  done
  # A request the protobuf codec cannot decode: zapbench answers grpc-status 3, as the grpc++ server does.
  "$grpc" call --target "127.0.0.1:$port" --calls 10 --account-bytes 19 >"$work/call.out" 2>"$work/call.err"
  rc=$?
  [ "$rc" = 1 ] && grep -q ": 0 ok, 10 failed in " "$work/call.out" && grep -q "grpc-status 3 " "$work/call.err"
  check "a 19-byte account: zapbench answers INVALID_ARGUMENT (grpc-status 3) (exit $rc)" $?
  stop_pid
else
  start_ready "$work/serve.out" "$work/serve.err" "$grpc" serve --listen 127.0.0.1:0
  port=$(ready_port grpc)
  [ -n "$port" ]; check "zapbench-grpc serve announces its port" $?
  for depth in 16 1; do
    "$bin" load --framing grpc --addr "127.0.0.1:$port" --scenario rpc --body protobuf -c 2 -p "$depth" -d 1s \
      --warmup 0 --json-out "$work/load.json" >"$work/load.out" 2>"$work/load.err"
    rc=$?
    [ "$rc" = 0 ] && grep -q '"framing": "grpc",$' "$work/load.json" && grep -q '"responses": [1-9]' "$work/load.json" &&
      grep -q "^  errors       0$" "$work/load.out"
    check "zapbench load --framing grpc --body protobuf -p $depth against grpc++: answers, 0 errors (exit $rc)" $?
    [ "$rc" = 0 ] || cat "$work/load.out" "$work/load.err"
  done
  stop_pid
  grep -q "^  answered ok [1-9]" "$work/serve.out" && grep -qx "  answered error 0" "$work/serve.out"
  check "the grpc++ server answered the loader's calls, none refused" $?
fi
finish
