#!/usr/bin/env bash
# scripts/test.sh — `make test`: installs what is missing, builds the three presets (release; asan =
# clang ASan+UBSan, the whole suite and the fuzz targets in one build; tsan = the threaded targets
# only), runs every suite, then every fuzz target for FUZZ_SECONDS, and prints the wall time of each
# phase at the end. A build that fails stops the run; a suite that fails does not stop the next
# suites (all failures are seen in one run), but the command exits non-zero.
#   JOBS=N          parallel jobs (default: nproc)
#   FUZZ_SECONDS=S  seconds per fuzz target (default 15)
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc)}
export FUZZ_SECONDS=${FUZZ_SECONDS:-15}

names=()
seconds=()
results=()
failed=0
started_s=$SECONDS

summary() {
  echo
  echo "make test: time per phase (wall clock, $(nproc) CPUs, -j $jobs)"
  local i
  for i in "${!names[@]}"; do
    printf '  %-26s %4d min %02d s   %s\n' "${names[$i]}" $((seconds[i] / 60)) $((seconds[i] % 60)) "${results[$i]}"
  done
  local total=$((SECONDS - started_s))
  printf '  %-26s %4d min %02d s\n' "total" $((total / 60)) $((total % 60))
}
trap summary EXIT

# phase NAME must|may COMMAND...: runs COMMAND, records its time and result; a failing `must` phase
# (a build) ends the run, a failing `may` phase (a suite) is recorded and the run goes on.
phase() {
  local name=$1 kind=$2
  shift 2
  echo "==> $name: $*"
  local t0=$SECONDS rc=0
  "$@" || rc=$?
  names+=("$name")
  seconds+=($((SECONDS - t0)))
  if [ $rc -eq 0 ]; then
    results+=("ok")
  else
    results+=("FAILED (exit $rc)")
    failed=1
    if [ "$kind" = must ]; then
      echo "make test: $name failed; stopping" >&2
      exit $rc
    fi
  fi
}

build() { cmake --preset "$1" >/dev/null && cmake --build --preset "$1" -j "$jobs"; }

phase "deps" must scripts/deps.sh
phase "build release" must build release
phase "build asan (+ fuzz)" must build asan
phase "build tsan" must build tsan
phase "tests release" may ctest --preset release -j "$jobs"
phase "tests asan+ubsan" may ctest --preset asan -j "$jobs"
phase "tests tsan" may ctest --preset tsan -j "$jobs"
phase "fuzz (${FUZZ_SECONDS} s each)" may ctest --preset fuzz -j "$jobs"
exit $failed
