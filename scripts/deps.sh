#!/usr/bin/env bash
# scripts/deps.sh — installs the Debian packages zapbench needs, only those
# missing. Used by `make bench` and `make test`; safe to run again. The codecs'
# libraries come from src/record/codecs.table (its "debian" column) and the
# arms' servers from src/matrix/arms.def (its debian column), so a codec or an
# arm added there is installed here too. Also the Node test client's npm package
# (tests/node, by its package-lock.json) where node and npm are installed.
#   scripts/deps.sh                    install what is missing (as root, or through sudo)
#   scripts/deps.sh --print-packages   print every package, one a line, and install nothing
set -euo pipefail

table="$(dirname "${BASH_SOURCE[0]}")/../src/record/codecs.table"
if [ ! -r "$table" ]; then
  echo "deps: cannot read $table (run this script from a zapbench checkout)" >&2
  exit 1
fi

packages=(
  g++ make cmake ninja-build           # the build
  ccache                               # repeated builds (make test builds four trees)
  lld                                  # the linker of every build: a test links in a third of ld.bfd's time
  clang-14 libclang-rt-14-dev          # the asan preset: clang ASan+UBSan and libFuzzer
  libgtest-dev libgmock-dev            # tests
  libbenchmark-dev                     # microbenchmarks
  libhttp-parser-dev                   # the HTTP/1.1 parser our own is benchmarked against
  libnghttp2-dev                       # HTTP/2 framing and HPACK (server and loader, framings http2 and grpc)
  liburing-dev                         # io_uring, the event core's second I/O backend (--io io_uring)
  nghttp2-client                       # h2load: the independent HTTP/2 loader our own is checked against
  libgrpc++-dev protobuf-compiler-grpc # the grpc++ reference arm and the gRPC C++ client of the tests
  chromium                             # the test that renders report.html headless
  valgrind                             # zapbench instructions: callgrind counts the request path's instructions
  linux-perf                           # ... and perf stat, where the machine exposes the counter
  python3-msgpack python3-thrift       # the binary peers' interop tests read our bytes with other languages' readers
  openssh-server openssh-client        # several hosts: ssh to each; the namespace mode runs an sshd per host
  netcat-openbsd iproute2              # ... and reaches it through nc in its namespace, built with ip and shaped with tc
)

# The codecs' libraries: column 6 of every row (comments and blank lines
# skipped, '-' is none, several packages blank-separated; a package two rows
# share is listed once). Plain bash, as on a fresh machine before anything is
# installed.
declare -A listed=()
for p in "${packages[@]}"; do listed[$p]=1; done
while IFS='|' read -r name _class _type _rank _sources debian _rest; do
  name="${name//[[:space:]]/}"
  if [ -z "$name" ] || [ "${name:0:1}" = "#" ]; then continue; fi
  for p in $debian; do
    if [ "$p" = "-" ] || [ -n "${listed[$p]:-}" ]; then continue; fi
    listed[$p]=1
    packages+=("$p")
  done
done <"$table"

# The arms' servers: the debian column of src/matrix/arms.def (nginx-light,
# h2o, nghttp2-server), its rows' fifth field, a quoted list.
arms="$(dirname "${BASH_SOURCE[0]}")/../src/matrix/arms.def"
while IFS=',' read -r _id _name _display _file debian _rest; do
  debian="${debian//\"/}"
  for p in $debian; do
    if [ -n "${listed[$p]:-}" ]; then continue; fi
    listed[$p]=1
    packages+=("$p")
  done
done < <(sed -n 's/^ZAPBENCH_ARM(\(.*\))[[:space:]]*$/\1/p' "$arms")

# Packages that cannot be installed beside the others, so they are unpacked
# (dpkg-deb -x, from `apt-get download`) into $unpack_root, where CMake finds
# them (CMakeLists.txt puts it on CMAKE_PREFIX_PATH):
#   libmsgpack-cxx-dev depends on libboost-dev (Boost 1.74), which conflicts
#   with libboost1.81-dev, which the boostjson codec needs. msgpack-cxx is
#   header-only and zapbench builds it with MSGPACK_NO_BOOST, so no Boost
#   1.74 is needed at all.
unpack_only=(libmsgpack-cxx-dev)
unpack_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/debs"

case "${1:-}" in
  "") ;;
  --print-packages)
    printf '%s\n' "${packages[@]}"
    exit 0
    ;;
  *)
    echo "usage: scripts/deps.sh [--print-packages]" >&2
    exit 2
    ;;
esac

is_unpack_only() {
  local u
  for u in "${unpack_only[@]}"; do [ "$u" = "$1" ] && return 0; done
  return 1
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
unpack=()
for p in "${packages[@]}"; do
  if installed "$p"; then continue; fi
  if is_unpack_only "$p"; then
    [ -f "$unpack_root/$p.unpacked" ] || unpack+=("$p")
  else
    missing+=("$p")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
updated=0
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  updated=1
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
  # openssh-server is here for the namespace mode's own sshds only: the
  # machine's ssh service, which the package enables and starts where systemd
  # runs, is put back to what it was before (none), so installing zapbench's
  # packages never opens port 22.
  for p in "${missing[@]}"; do
    if [ "$p" = openssh-server ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
      echo "deps: openssh-server is for the namespace mode's sshds: disabling the machine's own ssh service it started"
      "${sudo_cmd[@]}" systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
    fi
  done
fi

for p in "${unpack[@]}"; do
  echo "deps: unpacking $p into $unpack_root (it cannot be installed beside the others: see unpack_only)"
  if ((!updated)); then
    "${sudo_cmd[@]}" apt-get update -qq
    updated=1
  fi
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  # apt's sandbox user must be able to write where it downloads.
  chmod 0777 "$scratch"
  (cd "$scratch" && apt-get download -qq "$p")
  mkdir -p "$unpack_root"
  dpkg-deb -x "$scratch"/"${p}"_*.deb "$unpack_root"
  dpkg-deb -f "$scratch"/"${p}"_*.deb Version >"$unpack_root/$p.unpacked"
  rm -rf "$scratch"
  trap - EXIT
done

# The Node test client's package (tests/node: the independent @zap-proto/zap runtime that
# tests/node/zap_rpc_interop_test.sh drives our ZAP-RPC server with), pinned by its package-lock.json,
# into tests/node/node_modules. Only where node and npm are: without node that test skips itself.
node_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/node"
if [ -f "$node_dir/node_modules/@zap-proto/zap/package.json" ]; then
  :
elif ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "deps: node/npm not found: skipping tests/node's npm packages (the Node interop test will skip)"
else
  echo "deps: installing tests/node's npm packages (npm ci --prefix tests/node)"
  npm ci --prefix "$node_dir" --no-audit --no-fund
fi
