#!/usr/bin/env bash
# tests/node/zap_rpc_interop_test.sh — our ZAP-RPC server against an independent client: the
# @zap-proto/zap runtime (zap-proto/js) builds and parses every envelope in tests/node/zap_rpc_client.mjs.
# First the package against the vectors (no server: the shared rpc_* vectors, eth_req and our
# docs/spec/vectors/rpc_eth_call_*.hex byte for byte), then `zapbench serve --zap-rpc 127.0.0.1:0` with
# 64 calls in flight on one connection (health and eth_call, every answer matched by PromiseID and
# checked), stopped by SIGTERM (exit 0, the calls counted). Skipped (exit 77) only when node is not
# installed; node without the package installed (scripts/deps.sh: npm ci --prefix tests/node) fails.
# Usage: zap_rpc_interop_test.sh ZAPBENCH SOURCE_DIR SHARED_VECTORS_DIR
set -u
bin=$1 src=$2 vectors=$3
client="$src/tests/node/zap_rpc_client.mjs"
if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node is not installed, so there is no @zap-proto/zap client to run"
  exit 77
fi
. "$src/tests/support/cli_checks.sh"

if [ ! -f "$src/tests/node/node_modules/@zap-proto/zap/package.json" ]; then
  check "the @zap-proto/zap package is installed in tests/node/node_modules (run scripts/deps.sh)" 1
  finish
  exit 1
fi

node "$client" --check-vectors "$vectors" "$src/docs/spec/vectors" >"$work/vectors.out" 2>&1
rc=$?
cat "$work/vectors.out"
[ "$rc" = 0 ]; check "@zap-proto/zap builds and reads the rpc vectors and our eth_call frames" $?

start_ready "$work/out" "$work/err" "$bin" serve --zap-rpc 127.0.0.1:0
port=$(ready_port zap-rpc)
[ -n "$port" ]; check "the server announces its ZAP-RPC port" $?

node "$client" "127.0.0.1:$port" --calls 4000 --in-flight 64 >"$work/client.out" 2>&1
rc=$?
cat "$work/client.out"
[ "$rc" = 0 ]; check "4000 calls, 64 in flight, from @zap-proto/zap: every answer matched and valid" $?
# Many connections' worth of windows on one: 256 in flight is the server's per-connection bound.
node "$client" "127.0.0.1:$port" --calls 2000 --in-flight 256 >"$work/client2.out" 2>&1
rc=$?
cat "$work/client2.out"
[ "$rc" = 0 ]; check "2000 calls, 256 in flight: every answer matched and valid" $?

stop_pid
grep -q "requests zap-rpc /health 1500" "$work/out" && grep -q "requests zap-rpc /rpc 4500" "$work/out"
check "the server counted the client's calls (1500 health, 4500 eth_call)" $?

finish
