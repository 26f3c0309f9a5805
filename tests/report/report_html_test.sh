#!/usr/bin/env bash
# tests/report/report_html_test.sh — `zapbench report` and `zapbench compare` as a
# user runs them, then report.html rendered in headless Chromium: the page's
# script must count every chart and find marks with a non-empty bounding box
# in each (so the SVG really drew). A missing Chromium is a failure, not a
# skip. Usage: report_html_test.sh ZAPBENCH REPORT_TEST
set -u
bin=$1
report_test=$2
. "$(dirname "$0")/../support/cli_checks.sh"

mkdir -p "$work/run"
"$report_test" --write-synthetic "$work/run/results.json"
check "the synthetic results.json is written" $?

"$bin" report "$work/run" >"$work/out1" 2>&1
[ $? = 0 ] && grep -qx "wrote $work/run/report.md" "$work/out1" && grep -qx "wrote $work/run/report.html" "$work/out1" &&
  [ -s "$work/run/report.md" ] && [ -s "$work/run/report.html" ]
check "report DIR writes report.md and report.html next to results.json and prints their paths" $?

"$bin" report "$work/run/results.json" --out "$work/again" >/dev/null 2>&1
[ $? = 0 ] && cmp -s "$work/run/report.md" "$work/again/report.md" && cmp -s "$work/run/report.html" "$work/again/report.html"
check "report FILE --out DIR writes the same bytes (a pure function of results.json)" $?

"$bin" report >/dev/null 2>"$work/err1"
[ $? = 2 ] && grep -q "^zapbench report: wants DIR|results.json, got 0 arguments" "$work/err1"
check "report without a path is a usage error" $?

"$bin" compare "$work/run" "$work/run/results.json" >"$work/cmp" 2>&1
[ $? = 0 ] && grep -q " figures: 0 changed (0 improved, 0 regressed), " "$work/cmp" &&
  grep -q "^key  *figure  *A  *B  *B ÷ A  *÷ run shift (95% interval)  *p  *verdict$" "$work/cmp"
check "compare of a run with itself: no figure changed" $?

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

"$bin" compare --help | grep -q "^usage: zapbench compare \[--margin FRACTION\] \[--absolute\] \[--fdr Q\] A B"
check "compare --help" $?

# Chromium: dump the DOM after the page's script ran.
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "FAILED: chromium not found: run scripts/deps.sh"
  failures=$((failures + 1))
else
  timeout 240 "$chromium" --headless=new --no-sandbox --disable-gpu --user-data-dir="$work/chrome" \
    --no-first-run --disable-extensions --dump-dom "file://$work/run/report.html" >"$work/dom.html" 2>"$work/chrome.err"
  rc=$?
  [ "$rc" = 0 ] && [ -s "$work/dom.html" ]
  check "chromium renders report.html (exit $rc)" $?
  [ "$rc" = 0 ] || tail -5 "$work/chrome.err"
  svgs=$(grep -o '<svg class="chart"[^>]*>' "$work/dom.html")
  n=$(printf '%s\n' "$svgs" | grep -c 'class="chart"')
  charts=$(grep -o '<body[^>]*data-charts="[0-9]*"' "$work/dom.html" | sed 's/.*data-charts="\([0-9]*\)"/\1/')
  # The synthetic run: 4 micro ops + 2 charts for each of hello p1, rpc p1, rpc p16.
  expected=10
  [ -n "$charts" ] && [ "$charts" = "$n" ] && [ "$n" -ge "$expected" ]
  check "body data-charts ($charts) equals the svg.chart count ($n), at least $expected" $?
  bad=$(printf '%s\n' "$svgs" | grep -v -E 'data-marks="[1-9][0-9]*"' | grep -o 'data-chart="[^"]*"')
  [ -z "$bad" ]
  check "every chart has marks ${bad:+(none in: $bad)}" $?
  bad=$(printf '%s\n' "$svgs" | grep -v -E 'data-bbox="[1-9][0-9]*×[1-9][0-9]*"' | grep -o 'data-chart="[^"]*"')
  [ -z "$bad" ]
  check "every chart's marks have a non-empty bounding box ${bad:+(empty in: $bad)}" $?
fi

finish
