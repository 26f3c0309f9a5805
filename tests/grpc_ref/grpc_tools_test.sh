#!/usr/bin/env bash
# tests/grpc_ref/grpc_tools_test.sh — the tools gRPC users probe servers with, pinned in go/tools and built
# by scripts/go-build.sh: grpcurl (server reflection: list, describe, a call with no local .proto) and
# grpc-health-probe (grpc.health.v1.Health/Check), against both gRPC servers of this build — `zapbench
# serve --http2` and the grpc++ arm `zapbench-grpc serve` — which must answer them alike (docs/spec/
# http2-grpc.md §2.4). Every wait is bounded by the hang bound only. Skipped (exit 77) with the reason
# when the tools could not be built; the grpc++ half is skipped with its reason when zapbench-grpc is not.
# Usage: grpc_tools_test.sh ZAPBENCH TOOLS_DIR ZAPBENCH_GRPC|- GRPC_REASON
set -u
bin=$1 tools=$2 grpc=$3 grpc_reason=${4:-}
for tool in grpcurl grpc-health-probe; do
  if [ ! -x "$tools/$tool" ]; then
    echo "skipped: $tool is not built: $(cat "$tools/$tool.unavailable" 2>/dev/null || echo "no $tools/$tool")"
    exit 77
  fi
done
. "$(dirname "$0")/../support/cli_checks.sh"
grpcurl() { timeout "$hang" "$tools/grpcurl" -plaintext "$@"; }
probe() { timeout "$hang" "$tools/grpc-health-probe" "$@"; }
# eth_getBalance of account 0x00..13, block 100 (grpcurl's JSON: uint64 as strings, bytes as base64).
call_json='{"id":7,"block":100,"method":"eth_getBalance","account":"AAECAwQFBgcICQoLDA0ODxAREhM="}'

# probe_server NAME ADDR: every tool against one server.
probe_server() {
  local name=$1 addr=$2
  grpcurl "$addr" list >"$work/list" 2>&1
  for service in zapbench.Eth grpc.health.v1.Health grpc.reflection.v1alpha.ServerReflection; do
    grep -qx "$service" "$work/list"; check "$name: grpcurl list names $service" $?
  done
  grpcurl "$addr" describe zapbench.Eth >"$work/describe" 2>&1
  grep -q "rpc Call ( .zapbench.Request ) returns ( .zapbench.Response );" "$work/describe"
  check "$name: grpcurl describe zapbench.Eth shows its method" $?
  grpcurl "$addr" describe zapbench.Response >"$work/describe" 2>&1
  grep -q "uint64 balance = 2;" "$work/describe"; check "$name: grpcurl describe zapbench.Response shows its fields" $?
  grpcurl -d "$call_json" "$addr" zapbench.Eth/Call >"$work/call" 2>&1
  grep -q '"id": "7"' "$work/call" && grep -q '"nonce": "42"' "$work/call"
  check "$name: a call through reflection, no local .proto, is answered" $?
  grpcurl "$addr" describe no.Such >"$work/nosuch" 2>&1
  [ $? != 0 ] && grep -qi "not found\|no symbol" "$work/nosuch"; check "$name: an unknown symbol is an error" $?
  grpcurl -d '{}' "$addr" zapbench.Eth/Nope >"$work/nope" 2>&1
  grep -qi "does not include a method" "$work/nope"
  check "$name: the reflected descriptors tell grpcurl an unknown method does not exist" $?
  probe -addr "$addr" >"$work/probe" 2>&1
  grep -q "status: SERVING" "$work/probe"; check "$name: grpc-health-probe: SERVING" $?
  probe -addr "$addr" -service zapbench.Eth >"$work/probe" 2>&1
  grep -q "status: SERVING" "$work/probe"; check "$name: grpc-health-probe -service zapbench.Eth: SERVING" $?
  probe -addr "$addr" -service no.Such >"$work/probe" 2>&1
  [ $? != 0 ] && grep -q "NotFound" "$work/probe"; check "$name: grpc-health-probe of an unknown service: NotFound" $?
}

start_ready "$work/out" "$work/err" "$bin" serve --http2 127.0.0.1:0 --threads 1
port=$(ready_port http2)
[ -n "$port" ]; check "zapbench serve announces its HTTP/2 port" $?
probe_server zapbench "127.0.0.1:$port"
grep -qx grpc.reflection.v1.ServerReflection "$work/list"; check "zapbench: grpcurl list names reflection v1 too" $?
stop_pid

if [ "$grpc" = - ]; then
  echo "skipped: the grpc++ half: zapbench-grpc is not built: $grpc_reason"
else
  start_ready "$work/gout" "$work/gerr" "$grpc" serve --listen 127.0.0.1:0
  gport=$(ready_port grpc)
  [ -n "$gport" ]; check "zapbench-grpc serve announces its port" $?
  probe_server zapbench-grpc "127.0.0.1:$gport"
  stop_pid
fi
finish
