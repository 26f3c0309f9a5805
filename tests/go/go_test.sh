#!/usr/bin/env bash
# tests/go/go_test.sh — runs the Go module's tests (go/) against this build:
# ZAPBENCH_EXE is our zapbench (the conformance tests start `zapbench serve`),
# ZAPBENCH_GO the Go arm the build made. Exits 77 (ctest: skipped) with the
# reason when the Go arm could not be built; any test failure fails.
set -euo pipefail
go_bin=${ZAPBENCH_GO:?ZAPBENCH_GO: the zapbench-go the build made}
if [ ! -x "$go_bin" ]; then
  echo "skipped: the Go arm is not built: $(cat "$go_bin.unavailable" 2>/dev/null || echo "$go_bin is missing")"
  exit 77
fi
cd "$(dirname "$0")/../../go"
# shellcheck source=../../scripts/go-env.sh
. ../scripts/go-env.sh
GOFLAGS="-mod=readonly -buildvcs=false" exec go test -count=1 ./...
