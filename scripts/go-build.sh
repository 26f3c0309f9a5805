#!/usr/bin/env bash
# scripts/go-build.sh OUT_DIR — builds the Go reference arm (the module in go/)
# into OUT_DIR/zapbench-go, downloading its modules from the Go module proxy
# (go.sum pins them; -mod=readonly refuses anything else), and the zap-proto
# modules the proxy refuses from ../shared/goproxy (go-env.sh). When it cannot — no
# Go, a Go older than go.mod asks for, a module the proxy does not serve — it
# writes why to OUT_DIR/zapbench-go.unavailable, removes any older binary and
# exits 0: the Go arms are then reported unavailable with that reason, and
# everything else builds and runs. Called by the release build (CMake target
# zapbench_go); go's own cache makes a rebuild with no change a no-op.
set -uo pipefail
out=${1:?usage: scripts/go-build.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$out/zapbench-go
why=$bin.unavailable

unavailable() {
  rm -f "$bin" "$bin.tmp"
  printf '%s\n' "$1" >"$why"
  echo "go-build: the Go arm is unavailable: $1" >&2
  exit 0
}

cd "$(dirname "$0")/../go" 2>/dev/null || unavailable "the source tree has no go/ module"
# shellcheck source=go-env.sh
. ../scripts/go-env.sh

command -v go >/dev/null 2>&1 || unavailable "go not found on PATH (the Go arm needs the Go toolchain go.mod names)"
if ! log=$(GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -o "$bin.tmp" ./cmd/zapbench-go 2>&1); then
  unavailable "go build failed: $(printf '%s' "$log" | tail -n 3 | tr '\n' ' ')"
fi
mv -f "$bin.tmp" "$bin"
rm -f "$why"
