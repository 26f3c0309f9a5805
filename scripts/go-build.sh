#!/usr/bin/env bash
# scripts/go-build.sh OUT_DIR — builds the Go reference arm into OUT_DIR:
# zapbench-go (the module in go/: the record, its codecs, the HTTP and ZAP-HTTP
# server; zap-proto/go v1.3.0 and zap-proto/http v0.3.5, the reference's pins)
# and zapbench-go-rpc (the module in go/zaprpc: zap-proto/go v1.8.1's ZAP-RPC
# transport; one Go build holds one version of a module), and the tools the
# tests drive our HTTP/2 and gRPC servers with, pinned in go/tools (h2spec,
# grpcurl, grpc-health-probe; not the product's, never run by a benchmark).
# Modules come from
# the Go module proxy (go.sum pins them; -mod=readonly refuses anything
# else), the zap-proto ones it refuses from ../shared/goproxy (go-env.sh).
# When a binary cannot be built — no Go, a Go older than go.mod asks for, a
# module no source serves — it writes why (the go command's last lines) to
# OUT_DIR/<binary>.unavailable, removes any older binary and goes on (exit 0):
# those arms are then reported unavailable with that reason, and everything
# else builds and runs. Called by the release build (CMake target
# zapbench_go); go's own cache makes a rebuild with no change a no-op.
set -uo pipefail
out=${1:?usage: scripts/go-build.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)

unavailable() { # BINARY WHY
  rm -f "$out/$1" "$out/$1.tmp"
  printf '%s\n' "$2" >"$out/$1.unavailable"
  echo "go-build: $1 is unavailable: $2" >&2
}

# build BINARY MODULE_DIR PACKAGE
build() {
  if ! log=$(cd "$2" && GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -o "$out/$1.tmp" "$3" 2>&1); then
    unavailable "$1" "go build failed: $(printf '%s' "$log" | tail -n 3 | tr '\n' ' ')"
    return
  fi
  mv -f "$out/$1.tmp" "$out/$1"
  rm -f "$out/$1.unavailable"
}

if ! cd "$(dirname "$0")/../go" 2>/dev/null; then
  unavailable zapbench-go "the source tree has no go/ module"
  unavailable zapbench-go-rpc "the source tree has no go/ module"
  for tool in h2spec grpcurl grpc-health-probe; do unavailable "$tool" "the source tree has no go/ module"; done
  exit 0
fi
# shellcheck source=go-env.sh
. ../scripts/go-env.sh

if ! command -v go >/dev/null 2>&1; then
  why="go not found on PATH (the Go arm needs the Go toolchain go.mod names)"
  unavailable zapbench-go "$why"
  unavailable zapbench-go-rpc "$why"
  for tool in h2spec grpcurl grpc-health-probe; do unavailable "$tool" "$why"; done
  exit 0
fi
build zapbench-go . ./cmd/zapbench-go
build zapbench-go-rpc zaprpc ./cmd/zapbench-go-rpc
build h2spec tools github.com/summerwind/h2spec/cmd/h2spec
build grpcurl tools github.com/fullstorydev/grpcurl/cmd/grpcurl
build grpc-health-probe tools github.com/grpc-ecosystem/grpc-health-probe
exit 0
