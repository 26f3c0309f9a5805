#!/usr/bin/env bash
# fuzz/run_fuzzer.sh — runs a libFuzzer binary for the fuzz.* ctests and for longer runs on demand.
#   run_fuzzer.sh BINARY SEED_DIR WORK_DIR [libFuzzer args...]   fuzz a scratch copy of SEED_DIR
#     (SEED_DIR may be several directories joined by ':', their seeds copied together)
#   run_fuzzer.sh --replay BINARY SEED_DIR                        run each seed file once, no fuzzing
# FUZZ_SECONDS (default 30) bounds the run; it is clamped to 60 unless FUZZ_LONG=1. The seed dir is never
# written; WORK_DIR/corpus (grown corpus) and WORK_DIR/artifacts (crash-*, timeout-*, ...) are recreated.
# Exit status is libFuzzer's: non-zero on any crash, sanitizer report, timeout or OOM.
set -euo pipefail

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# -timeout: one input running this long is a hang (a loop that never ends), not a slow machine.
common=(-timeout=25 -rss_limit_mb=2048)

hexdump_file() { od -An -tx1 -v "$1" | tr -d ' \n'; echo; }

if [[ "${1:-}" == "--replay" ]]; then
  [[ $# -eq 3 ]] || { echo "usage: $0 --replay BINARY SEED_DIR" >&2; exit 2; }
  bin=$2 seeds=$3
  mapfile -t files < <(find "$seeds" -maxdepth 1 -type f | LC_ALL=C sort)
  ((${#files[@]})) || { echo "replay: no seeds in $seeds" >&2; exit 1; }
  echo "replay: ${#files[@]} seed files from $seeds"
  # libFuzzer given files (not directories) executes each once and exits.
  printf '%s\0' "${files[@]}" | xargs -0 -n 500 "$bin" "${common[@]}"
  echo "replay: ok"
  exit 0
fi

[[ $# -ge 3 ]] || { echo "usage: $0 BINARY SEED_DIR WORK_DIR [libFuzzer args...]" >&2; exit 2; }
bin=$1 seeds=$2 work=$3
shift 3

secs=${FUZZ_SECONDS:-30}
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "FUZZ_SECONDS must be a whole number of seconds, got '$secs'" >&2; exit 2; }
secs=$((10#$secs))
if [[ "${FUZZ_LONG:-0}" != 1 && $secs -gt 60 ]]; then
  echo "fuzz: FUZZ_SECONDS=$secs clamped to 60 (set FUZZ_LONG=1 for longer runs)"
  secs=60
fi
((secs >= 1)) || secs=1  # -max_total_time=0 would mean "forever"

IFS=: read -ra seed_dirs <<<"$seeds"
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
for dir in "${seed_dirs[@]}"; do
  [[ -d "$dir" ]] || { echo "fuzz: seed dir $dir missing (build the asan preset first: it builds the fuzz targets)" >&2; exit 1; }
  cp -r "$dir"/. "$work/corpus/"
done

echo "fuzz: $(basename "$bin") for ${secs}s on $(ls "$work/corpus" | wc -l) seeds, work dir $work"
rc=0
# The outer timeout is only a safety net against a wedged process; libFuzzer stops itself at secs.
timeout -k 10 $((secs + 300)) "$bin" "${common[@]}" -max_total_time="$secs" -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" 2>&1 | tee "$work/fuzz.log" || rc=${PIPESTATUS[0]}

grep -E '^#[0-9]+[[:space:]]+DONE' "$work/fuzz.log" | tail -n 1 | sed 's/^/fuzz: final: /' || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
  "$work/fuzz.log" | sed 's/^/fuzz: /' || true
shopt -s nullglob
for f in "$work"/artifacts/*; do
  echo "fuzz: artifact $f ($(wc -c <"$f") bytes): $(hexdump_file "$f")"
done
if ((rc != 0)); then
  echo "fuzz: FAILED (exit $rc); reproduce with: $bin ${common[*]} <artifact>" >&2
fi
exit "$rc"
