#!/usr/bin/env bash
# scripts/test-stress.sh — the test command (`make test`) on a machine made
# slow on purpose, to prove that no test depends on the machine's speed:
#   1. BUSY_RUNS times (default 3) with every CPU also kept busy by other
#      processes (HOGS_PER_CPU spinning processes per CPU, default 1, at the
#      tests' own priority);
#   2. ONE_CPU_RUNS times (default 1) with everything restricted to one CPU
#      (taskset -c 0; make's -j and the suites' pinning follow the affinity).
# Prints, per run, the exit status, the ctest counts of each preset and the
# wall time; exits 1 if any run failed. Every log stays in build/stress/.
# The spinning processes are stopped on exit, also after a failure or Ctrl-C.
# Usage: scripts/test-stress.sh   (BUSY_RUNS=N ONE_CPU_RUNS=N HOGS_PER_CPU=N override)
set -uo pipefail
cd "$(dirname "$0")/.."

busy_runs=${BUSY_RUNS:-3}
one_cpu_runs=${ONE_CPU_RUNS:-1}
hogs_per_cpu=${HOGS_PER_CPU:-1}
logs=build/stress
mkdir -p "$logs"

hogs=()
stop_hogs() {
  if ((${#hogs[@]})); then
    kill "${hogs[@]}" 2>/dev/null
    wait "${hogs[@]}" 2>/dev/null
  fi
  hogs=()
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM

start_hogs() {
  local n
  n=$(($(nproc --all) * hogs_per_cpu))
  for ((i = 0; i < n; i++)); do
    sh -c 'while :; do :; done' &
    hogs+=($!)
  done
}

summary=()
failed=0
run() {  # name, command...
  local name=$1
  shift
  local log="$logs/$name.log"
  echo "stress: $name: $* (log: $log)"
  local start=$SECONDS
  "$@" >"$log" 2>&1
  local rc=$?
  local wall=$((SECONDS - start))
  # One ctest summary line per preset run: release, asan, tsan, fuzz.
  local counts
  counts=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" |
    sed -E 's/^[0-9]+% tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1 failed of \2/' | paste -sd ';' -)
  local line
  line=$(printf '%-12s exit %-3s %5d s  %s' "$name" "$rc" "$wall" "${counts:-no ctest summary}")
  echo "stress: $line"
  summary+=("$line")
  if [ "$rc" != 0 ]; then
    failed=1
    grep -E '\(Failed\)|\(Timeout\)|\*\*\*' "$log" | head -20
  fi
}

for ((r = 1; r <= busy_runs; r++)); do
  start_hogs
  run "busy-$r" make test
  stop_hogs
done
for ((r = 1; r <= one_cpu_runs; r++)); do
  run "one-cpu-$r" taskset -c 0 make test
done

echo
echo "stress: $(nproc --all) CPUs; busy = $hogs_per_cpu spinning process(es) per CPU beside the tests; one-cpu = taskset -c 0"
echo "stress: ctest counts per preset (release; asan; tsan; fuzz)"
printf 'stress: %s\n' "${summary[@]}"
exit "$failed"
