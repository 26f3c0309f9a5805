#!/usr/bin/env bash
# tests/report/report_html_test.sh — `zapbench report` and `zapbench compare` as a
# user runs them, then report.html rendered in headless Chromium: the page's
# script must count every chart and find marks with a non-empty bounding box
# in each (so the SVG really drew). A missing Chromium is a failure, not a
# skip. The same checks on a report shaped as a quick run, on one of a full
# run and on findings-*.svg: no text outside its chart, no line chart without
# a line. Usage: report_html_test.sh ZAPBENCH REPORT_TEST FULL_RESULTS_JSON
set -u
bin=$1
report_test=$2
full_results=$3
. "$(dirname "$0")/../support/cli_checks.sh"

mkdir -p "$work/run"
"$report_test" --write-synthetic "$work/run/results.json"
check "the synthetic results.json is written" $?

"$bin" report "$work/run" >"$work/out1" 2>&1
[ $? = 0 ] && grep -qx "wrote $work/run/report.md" "$work/out1" && grep -qx "wrote $work/run/report.html" "$work/out1" &&
  [ -s "$work/run/report.md" ] && [ -s "$work/run/report.html" ]
check "report DIR writes report.md and report.html next to results.json and prints their paths" $?
written=0
for f in findings.md findings-micro.svg findings-e2e.svg; do
  grep -qx "wrote $work/run/$f" "$work/out1" && [ -s "$work/run/$f" ] || written=1
done
[ "$written" = 0 ] && grep -q '^| Decode | 4.01 ns | direct 68.2 ns | 17.00× (17.00–17.00) ▲ |' "$work/run/findings.md"
check "and findings.md, the table What it found opens with, and its charts" $?

"$bin" report "$work/run/results.json" --out "$work/again" >/dev/null 2>&1
[ $? = 0 ] && cmp -s "$work/run/report.md" "$work/again/report.md" && cmp -s "$work/run/report.html" "$work/again/report.html"
check "report FILE --out DIR writes the same bytes (a pure function of results.json)" $?

mkdir -p "$work/blocked/findings.md"
"$bin" report "$work/run/results.json" --out "$work/blocked" >/dev/null 2>"$work/err_blocked"
[ $? = 2 ] && grep -qx "zapbench: $work/blocked/findings.md: cannot write" "$work/err_blocked"
check "report names a file it cannot write ($(head -c 200 "$work/err_blocked"))" $?

"$bin" report >/dev/null 2>"$work/err1"
[ $? = 2 ] && grep -q "^zapbench report: wants DIR|results.json, got 0 arguments" "$work/err1"
check "report without a path is a usage error" $?

"$bin" compare "$work/run" "$work/run/results.json" >"$work/cmp" 2>&1
[ $? = 0 ] && grep -q " figures of ours: 0 changed (0 improved, 0 regressed), " "$work/cmp" &&
  grep -q "^our figure  *kind  *A  *B  *B ÷ A  *judged (95% interval)  *p  *resolves  *verdict$" "$work/cmp"
check "compare of a run with itself: no figure changed" $?

# B: one cell of ours at half its rate (its CPU per request the same); --gate fails on it (exit 1), the
# offending line last.
python3 - "$work/run/results.json" "$work/slower.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["cells"]:
    if (c["arm"], c["scenario"], c["framing"], c["body"], c["connections"], c["pipeline"]) == \
            ("zapbench", "rpc", "zap", "zap", 10, 1):
        for s in c["samples"]:
            s["requests_per_s"] *= 0.5
            s["server_cpu_s"] *= 0.5
json.dump(r, open(sys.argv[2], "w"))
PY
"$bin" compare --gate "$work/run" "$work/slower.json" >"$work/gate" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^gate: FAIL — " "$work/gate" && tail -n 1 "$work/gate" | grep -q "^zapbench/rpc/zap/zap/c10/p1 "
check "compare --gate exits 1 on a regression, the offending figures last (exit $rc)" $?
"$bin" compare --gate --threshold 60% "$work/run" "$work/slower.json" >"$work/gate2" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^gate: pass — no figure or group of ours regressed by more than 60%" "$work/gate2"
check "compare --gate --threshold 60% passes a 50% regression (exit $rc)" $?
"$bin" compare --gate "$work/run" "$work/run" >"$work/gate3" 2>&1
check "compare --gate of a run with itself exits 0" $?

# Results that are no measurement: exit 2, the file and the field named, nothing compared.
bad() {  # name python-edit expected-stderr
  python3 - "$work/run/results.json" "$work/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
  "$bin" compare "$work/run" "$work/$1.json" >"$work/$1.out" 2>"$work/$1.err"
  local rc=$?
  [ $rc = 2 ] && [ ! -s "$work/$1.out" ] && grep -qF "zapbench: $work/$1.json: $3" "$work/$1.err"
  check "compare refuses $1 (exit $rc: $(head -c 200 "$work/$1.err"))" $?
}
bad negative 'r["cells"][0]["samples"][1]["requests_per_s"] = -5' \
  'cells[0].samples[1].requests_per_s: -5 is not a rate (expected a finite number >= 0); nothing of it is compared'
bad nan 'r["cells"][2]["samples"][0]["p99_ns"] = None' 'cells[2].samples[0].p99_ns: NaN (null) is not a latency'
bad empty 'r["cells"][1]["samples"] = []' 'cells[1].samples: empty, though the cell ran'
bad micro 'r["micro"]["figures"][0]["ns_per_op"] = []' 'micro.figures[0].ns_per_op: empty'
bad future 'r["schema"] = "zapbench.results/9"' 'schema: expected "zapbench.results/1", got "zapbench.results/9"'
head -c 3000 "$work/run/results.json" >"$work/truncated.json"
"$bin" compare "$work/run" "$work/truncated.json" >/dev/null 2>"$work/truncated.err"
[ $? = 2 ] && grep -q "^zapbench: $work/truncated.json: not JSON: " "$work/truncated.err"
check "compare refuses a truncated results.json ($(head -c 200 "$work/truncated.err"))" $?
# Nothing in common: said, exit 2.
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["cells"]=[]; r["micro"]["figures"]=[]; r["micro"].pop("instructions",None); json.dump(r,open(sys.argv[2],"w"))' \
  "$work/run/results.json" "$work/nothing.json"
"$bin" compare "$work/run" "$work/nothing.json" >/dev/null 2>"$work/nothing.err"
[ $? = 2 ] && grep -q "^zapbench: nothing to compare: .* have no figure in common" "$work/nothing.err"
check "compare of runs with nothing in common says so ($(head -c 200 "$work/nothing.err"))" $?

"$bin" compare --margin 0 "$work/run" "$work/run" >/dev/null 2>"$work/err_margin"
[ $? = 2 ] && grep -q "^zapbench compare: --margin" "$work/err_margin"
check "compare --margin 0 is a usage error ($(head -c 200 "$work/err_margin"))" $?

"$bin" compare "$work/run" >/dev/null 2>"$work/err2"
[ $? = 2 ] && grep -q "^zapbench compare: wants A and B, got 1 argument" "$work/err2"
check "compare with one argument is a usage error" $?

"$bin" compare "$work/run" "$work/missing" >/dev/null 2>"$work/err3"
[ $? = 2 ] && grep -q "^zapbench: $work/missing: cannot read" "$work/err3"
check "compare names an unreadable result set" $?

echo '{"schema": "zapbench.results/1", "env": []}' >"$work/bad.json"
"$bin" report "$work/bad.json" >/dev/null 2>"$work/err4"
[ $? = 2 ] && grep -q "^zapbench: $work/bad.json: env: expected an object$" "$work/err4"
check "report names the malformed member" $?

"$bin" compare --help | grep -q "^usage: zapbench compare \[--gate \[--threshold FRACTION\]\] \[flags\] A B"
check "compare --help" $?

# Chromium: dump the DOM after the page's script ran, at the report's width (its body is 1180 px at most).
chromium=$(command -v chromium || command -v chromium-browser || true)
dom() {  # page.html out.html: the DOM after the page's script ran
  timeout 240 "$chromium" --headless=new --no-sandbox --disable-gpu --user-data-dir="$work/chrome" \
    --no-first-run --disable-extensions --window-size=1280,1000 --dump-dom "file://$1" >"$2" 2>"$work/chrome.err"
}
# Every chart of a page: it drew marks of a real size; no text of it outside it (a clipped label: the page's
# script compares each text's box with its chart's); no line chart without a line (every series one point).
chart_checks() {  # what page.html expected_charts
  local what=$1 page=$2 expected=$3
  dom "$page" "$work/dom.html"
  local rc=$?
  [ "$rc" = 0 ] && [ -s "$work/dom.html" ]
  check "$what: chromium renders it (exit $rc)" $?
  [ "$rc" = 0 ] || tail -5 "$work/chrome.err"
  local svgs n charts bad
  svgs=$(grep -o '<svg class="chart"[^>]*>' "$work/dom.html")
  n=$(printf '%s\n' "$svgs" | grep -c 'class="chart"')
  charts=$(grep -o '<body[^>]*data-charts="[0-9]*"' "$work/dom.html" | sed 's/.*data-charts="\([0-9]*\)"/\1/')
  [ -n "$charts" ] && [ "$charts" = "$n" ] && [ "$n" -ge "$expected" ]
  check "$what: body data-charts ($charts) equals the svg.chart count ($n), at least $expected" $?
  bad=$(printf '%s\n' "$svgs" | grep -v -E 'data-marks="[1-9][0-9]*"' | grep -o 'data-chart="[^"]*"')
  [ -z "$bad" ]
  check "$what: every chart has marks ${bad:+(none in: $bad)}" $?
  bad=$(printf '%s\n' "$svgs" | grep -v -E 'data-bbox="[1-9][0-9]*×[1-9][0-9]*"' | grep -o 'data-chart="[^"]*"')
  [ -z "$bad" ]
  check "$what: every chart's marks have a non-empty bounding box ${bad:+(empty in: $bad)}" $?
  bad=$(printf '%s\n' "$svgs" | grep -v 'data-text-outside="0"' | grep -o 'data-chart="[^"]*"\|data-outside="[^"]*"')
  [ -z "$bad" ] && [ "$(printf '%s\n' "$svgs" | grep -c 'data-text-outside="0"')" = "$n" ]
  check "$what: no text outside its chart ${bad:+(clipped: $bad)}" $?
  local overflow
  overflow=$(grep -o '<body[^>]*data-overflow-x="[0-9]*"' "$work/dom.html" | sed 's/.*data-overflow-x="\([0-9]*\)"/\1/')
  [ "$overflow" = 0 ]
  check "$what: the page does not scroll sideways at 1280 px (by ${overflow:-?} px)" $?
  bad=$(printf '%s\n' "$svgs" | grep 'data-kind="lines"' | grep 'data-lines="0"' | grep -o 'data-chart="[^"]*"')
  [ -z "$bad" ]
  check "$what: every line chart draws a line ${bad:+(points only: $bad)}" $?
}

if [ -z "$chromium" ]; then
  echo "FAILED: chromium not found: run scripts/deps.sh"
  failures=$((failures + 1))
else
  # The synthetic run: 2 at a glance, 4 micro ops, 2 for each of hello p1, rpc p1, rpc p16.
  chart_checks "synthetic" "$work/run/report.html" 12
  # A quick run's shape: one connection count at depth 16 (bars there), the logs microbenchmarks: 2 at a glance,
  # 4 micro ops, 5 logs charts, 2 for each of hello p1, rpc p1, rpc p16.
  mkdir -p "$work/quick"
  "$report_test" --write-synthetic "$work/quick/results.json" quick && "$bin" report "$work/quick" >/dev/null 2>&1
  check "a quick-run-shaped report is written" $?
  chart_checks "quick-run shape" "$work/quick/report.html" 17
  grep -q '<svg class="chart" data-chart="e2e-rpc-p16-rate" data-kind="bars"' "$work/dom.html"
  check "quick-run shape: one connection count at depth 16 is a bar chart" $?
  # A full run's shape, as an earlier zapbench wrote it (several connection counts, no rounds).
  mkdir -p "$work/full"
  "$bin" report "$full_results" --out "$work/full" >/dev/null 2>&1
  check "a full-run-shaped report is written" $?
  chart_checks "full-run shape" "$work/full/report.html" 12
  # The findings' charts as files of their own (what a README shows), in a page with the report's script.
  {
    echo '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
    cat "$work/quick/findings-micro.svg" "$work/quick/findings-e2e.svg"
    sed -n '/^<script>/,/<\/script>/p' "$work/quick/report.html"
    echo '</body></html>'
  } >"$work/svgs.html"
  chart_checks "findings-*.svg" "$work/svgs.html" 2
fi

finish
