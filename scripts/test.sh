#!/usr/bin/env bash
# scripts/test.sh — `make test`: installs what is missing, builds the three presets (release; asan =
# clang ASan+UBSan, the whole suite and the fuzz targets in one build; tsan = the threaded targets
# only), runs every suite, then every fuzz target for FUZZ_SECONDS, and prints the wall time of each
# phase at the end. A build that fails stops the run; a suite that fails does not stop the next
# suites (all failures are seen in one run), but the command exits non-zero.
#   JOBS=N          parallel jobs (default: nproc)
#   FUZZ_SECONDS=S  seconds per fuzz target (default 10; `make fuzz FUZZ_SECONDS=600` for long runs)
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc)}
export FUZZ_SECONDS=${FUZZ_SECONDS:-10}

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
  failed_tests
}

# failed_tests: after the phase table (the part of the output a CI log keeps), the name of every test
# that failed in each suite — and of every one that failed first and passed when run again — with the
# end of its failing output, so a failure far up the log is still seen, and a flaky test is named.
failed_tests() {
  local list name suite
  for list in "$logs"/*.failed "$logs"/*.flaky; do
    [ -s "$list" ] || continue
    suite=$(basename "$list")
    local what="failed in ${suite%.*}"
    [ "${suite##*.}" = flaky ] && what="FLAKY in ${suite%.*} (failed, then passed when run again; fix it)"
    suite=${suite%.*}
    echo
    echo "make test: $what: $(cut -d: -f2- "$list" | tr '\n' ' ')"
    while IFS=: read -r _ name; do
      echo "---- $suite: $name (the end of its first output)"
      # LastTest.log holds each test's output after its "N/M Testing: NAME" line.
      awk -v n="$name" '$0 ~ /^[0-9]+\/[0-9]+ Testing: / { on = ($3 == n) } on' "$logs/$suite.log" |
        grep -v -E '^("|-{5,}|Test time|Test (Passed|Failed)|<end of output>)' | tail -n 25
    done <"$list"
  done
}

# suite PRESET: ctest over a preset. The tests that fail are run once more, alone: a test that then
# passes is flaky — the suite still passes, and the summary names it with its first failure's output
# (no test may depend on the machine's speed; one that does is found this way, not hidden); a test
# that fails again fails the suite. Keeps the lists and the first run's log in $logs (the fuzz preset
# shares the asan build's Testing directory, so each suite's are copied before the next runs).
suite() {
  local build=$1 rc=0
  [ "$1" = fuzz ] && build=asan  # the fuzz preset runs in the asan build (its Testing directory too)
  local dir=build/$build/Testing/Temporary
  rm -f "$dir/LastTestsFailed.log"
  ctest --preset "$1" -j "$jobs" || rc=$?
  [ $rc -eq 0 ] && return 0
  cp "$dir/LastTest.log" "$logs/$1.log" 2>/dev/null
  if ! cp "$dir/LastTestsFailed.log" "$logs/$1.first" 2>/dev/null; then
    return $rc  # no list of failed tests: not a test failure (ctest itself failed)
  fi
  echo "==> $1: running the failed tests once more: $(cut -d: -f2- "$logs/$1.first" | tr '\n' ' ')"
  if ctest --preset "$1" --rerun-failed; then
    mv "$logs/$1.first" "$logs/$1.flaky"
    return 0
  fi
  cp "$dir/LastTestsFailed.log" "$logs/$1.failed"
  return 8
}
logs=build/test-logs
rm -rf "$logs"
mkdir -p "$logs"

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
phase "tests release" may suite release
phase "tests asan+ubsan" may suite asan
phase "tests tsan" may suite tsan
phase "fuzz (${FUZZ_SECONDS} s each)" may suite fuzz
exit $failed
