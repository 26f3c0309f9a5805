#!/usr/bin/env bash
# tests/go/go_test.sh — runs the Go modules' tests against this build:
# ZAPBENCH_EXE is our zapbench (the conformance tests start `zapbench serve`
# and `zapbench load`), ZAPBENCH_GO the Go arm the build made. go/ with
# zap-proto/go v1.3.0 and zap-proto/http v0.3.5 (checks a–d); then go/zaprpc
# with v1.8.1: its ZAP-RPC transport against ours both ways (e), and the same
# record, server and conformance packages built against the newest versions
# the mirror has, zap-proto/go v1.8.1 and zap-proto/http v0.3.9 (f). Exits 77 (ctest: skipped)
# with the reason when the Go arm could not be built; a version that cannot
# run its checks is named here with the reason; any test failure fails.
set -euo pipefail
go_bin=${ZAPBENCH_GO:?ZAPBENCH_GO: the zapbench-go the build made}
if [ ! -x "$go_bin" ]; then
  echo "skipped: the Go arm is not built: $(cat "$go_bin.unavailable" 2>/dev/null || echo "$go_bin is missing")"
  exit 77
fi
cd "$(dirname "$0")/../../go"
# shellcheck source=../../scripts/go-env.sh
. ../scripts/go-env.sh
export GOFLAGS="-mod=readonly -buildvcs=false"
echo "== go/ (zap-proto/go v1.3.0, zap-proto/http v0.3.5): the record, the servers, conformance (a)-(d)"
go test -count=1 ./...
if [ -x "$go_bin-rpc" ]; then
  echo "== go/zaprpc (zap-proto/go v1.8.1, zap-proto/http v0.3.9): the ZAP-RPC transport (e); record, server, conformance again (f)"
  cd zaprpc
  go test -count=1 ./... zapbench/go/record zapbench/go/server zapbench/go/conformance
else
  echo "== zap-proto/go v1.8.1, zap-proto/http v0.3.9 (checks e, f) not run: $(cat "$go_bin-rpc.unavailable" 2>/dev/null || echo "$go_bin-rpc is missing")"
fi
