#!/usr/bin/env bash
# tests/cli/cli_commands_test.sh — the commands' flag tables as a user meets them:
# `zapbench --version` (one parseable first line), every command's --help,
# usage errors (one line naming the flag, the value and what it wants, exit 2),
# and the old spellings of `zapbench load` (--wire, --json CODEC) still working
# with a warning naming the new one, against a live server. Every wait is for an
# event (a line printed, a process's exit), bounded by $hang seconds to catch a
# hang only. Usage: cli_commands_test.sh ZAPBENCH SOURCE_DIR
set -u
bin=$1
src=${2:-}
. "$(dirname "$0")/../support/cli_checks.sh"
usage_error() {  # name, expected stderr line (exact), zapbench arguments...
  local name=$1 line=$2
  shift 2
  "$bin" "$@" >/dev/null 2>"$work/usage_err"
  local rc=$?
  [ "$rc" = 2 ] && grep -qxF -- "$line" "$work/usage_err"
  local ok=$?
  check "$name (exit $rc: $(head -c 300 "$work/usage_err"))" "$ok"
}

# ---- --version
"$bin" --version >"$work/version" 2>&1
rc=$?
first=$(head -n 1 "$work/version")
[ "$rc" = 0 ] && [[ "$first" =~ ^zapbench\ [0-9]+\.[0-9]+\.[0-9]+\ commit\ ([0-9a-f]{12}(-dirty)?|unknown)\ \([A-Za-z]*:\ .*\)$ ]]
check "--version: one parseable first line (got: $first)" $?
"$bin" version >"$work/version2" 2>&1
[ $? = 0 ] && cmp -s "$work/version" "$work/version2"; check "'zapbench version' prints the same" $?
if [ -n "$src" ] && git -C "$src" rev-parse HEAD >/dev/null 2>&1; then
  [[ "$first" != *" commit unknown "* ]]; check "--version names the commit in a git checkout" $?
fi
grep -q "^compiler " "$work/version"; check "--version names the compiler" $?

# ---- host-info (plumbing): its version line is --version's first line, byte for byte
"$bin" host-info >"$work/host_info" 2>&1
rc=$?
[ "$rc" = 0 ] && [ "$(head -n 1 "$work/host_info")" = "version: $first" ] &&
  grep -qE "^cpu_count: [1-9][0-9]*$" "$work/host_info" && grep -qE "^allowed_cpus: [0-9][0-9,-]*$" "$work/host_info" &&
  grep -q "^kernel: Linux " "$work/host_info" && grep -q "^hostname: ." "$work/host_info"
check "host-info: version equal to --version's, cpu_count, allowed_cpus, kernel, hostname (exit $rc)" $?

# ---- help
"$bin" --help >"$work/help" 2>&1
[ $? = 0 ] && grep -q "^usage: zapbench <command>" "$work/help"; check "zapbench --help" $?
commands="serve load micro instructions run compare calibrate report floor codecs version host-info child"
for c in $commands; do
  grep -q "^  $c " "$work/help"; check "top-level help lists $c" $?
  "$bin" "$c" --help >"$work/help_$c" 2>&1
  [ $? = 0 ] && grep -q "^usage: zapbench $c" "$work/help_$c" &&
    grep -q "^  -h, --help  *print this help$" "$work/help_$c"
  check "$c --help: usage line and flags, exit 0" $?
  "$bin" help "$c" >"$work/help2_$c" 2>&1
  [ $? = 0 ] && cmp -s "$work/help_$c" "$work/help2_$c"; check "'zapbench help $c' is '$c --help'" $?
  # One summary, two places: the top-level help's line (wrapped lines joined) opens the command's help,
  # capitalized, with a full stop.
  summary=$(awk -v c="$c" '
    $1 == c && /^  [a-z]/ { on = 1; sub(/^  [^ ]+ +/, ""); printf "%s", $0; next }
    on && /^               / { sub(/^ +/, " "); printf "%s", $0; next }
    { on = 0 }' "$work/help")
  first=$(printf '%s' "${summary:0:1}" | tr '[:lower:]' '[:upper:]')
  own=$(awk 'NR > 1 && /^$/ { n++; next } n == 1 { printf "%s ", $0 } n > 1 { exit }' "$work/help_$c" | tr -s ' ' | sed 's/ $//')
  [ -n "$summary" ] && [ "$own" = "$first${summary:1}." ]
  check "$c --help opens with its summary (top-level: '$summary'; its own: '$own')" $?
done
# docs/commands.md documents every command's flags: each long flag its --help lists appears in the
# command's section (host-info and child share "Plumbing").
if [ -n "$src" ]; then
  for c in $commands; do
    case $c in host-info | child) heading="## Plumbing" ;; *) heading="## zapbench $c" ;; esac
    section=$(awk -v h="$heading" 'index($0, h) == 1 { on = 1; next } on && /^## / { exit } on' "$src/docs/commands.md")
    missing=""
    for f in $(grep -E '^  (-[a-zA-Z], )?--[a-z]' "$work/help_$c" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
      [ "$f" = --help ] && continue
      grep -qF -- "$f" <<<"$section" || missing="$missing $f"
    done
    [ -n "$section" ] && [ -z "$missing" ]
    check "docs/commands.md documents every flag of $c (missing:${missing:- none})" $?
  done
fi
grep -q "^  serve .*HTTP/2 and gRPC" "$work/help"; check "serve's summary names HTTP/2 and gRPC" $?
grep -q -- "^  --framing http|http2|grpc|zap|zap-rpc|tcp|floor$" "$work/help_load" && grep -q -- "^  -d, --duration DURATION " "$work/help_load" &&
  grep -q -- "^  -R, --rate RATE " "$work/help_load" && grep -q -- "^  --json CODEC  *use --body CODEC$" "$work/help_load"
check "load --help: framing, units, the deprecated --json" $?
"$bin" nonsense >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "unknown command 'nonsense'" "$work/err"; check "an unknown command is a usage error" $?

# ---- usage errors: one line, the flag as typed, the value, what it wants, where to look
grep -q "^plumbing (used over ssh by run and load --loader-hosts):$" "$work/help"
check "top-level help lists the plumbing apart" $?
usage_error "child without a program" \
  "zapbench child: wants -- PROGRAM ARG... after its flags (see 'zapbench child --help')" child --ready
usage_error "child: an unknown flag before --" \
  "zapbench child: unknown option '--bogus' (see 'zapbench child --help')" child --bogus -- /bin/true
usage_error "child: --env wants NAME=VALUE" \
  "zapbench child: --env wants NAME=VALUE, got 'X' (see 'zapbench child --help')" child --env X -- /bin/true
usage_error "child: --ready and --wait-accepting" \
  "zapbench child: --ready and --wait-accepting exclude each other (see 'zapbench child --help')" \
  child --ready --wait-accepting -- /bin/true
usage_error "host-info takes no argument" \
  "zapbench host-info: unexpected argument 'x' (see 'zapbench host-info --help')" host-info x
usage_error "load -c 0" "zapbench load: -c wants at least 1, got '0' (see 'zapbench load --help')" load -c 0
usage_error "load --rate in seconds" \
  "zapbench load: --rate wants requests per second > 0 (e.g. 1000 or 1000/s), got '5s' (see 'zapbench load --help')" \
  load --rate 5s
usage_error "load -d without a unit it knows" \
  "zapbench load: -d wants a duration > 0s (e.g. 10s, 500ms, 250us, 1m, 2h; a plain number is seconds), got '10x' (see 'zapbench load --help')" \
  load -d 10x
usage_error "load --framing lists its choices" \
  "zapbench load: --framing wants one of http, http2, grpc, zap, zap-rpc, tcp, floor, got 'udp' (see 'zapbench load --help')" load --framing udp
usage_error "load --framing grpc takes the rpc scenario only" \
  "zapbench load: --framing grpc takes --scenario rpc only (hello and logs are no methods of zapbench.Eth) (see 'zapbench load --help')" \
  load --framing grpc --addr 127.0.0.1:1 --scenario hello
"$bin" load --framing http --addr 127.0.0.1:1 --scenario rpc --body nope >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "^zapbench load: --body wants json (the default JSON codec, [a-z]*) or a codec by name (available: zap, direct.*), got 'nope': unknown codec (see 'zapbench load --help')$" "$work/err"
check "load --body: an unknown codec lists the available ones" $?
"$bin" serve --http 127.0.0.1:0 --codec nope >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "^zapbench serve: --codec wants a JSON codec or a binary peer (available: zap, direct.*), got 'nope': unknown codec (see 'zapbench serve --help')$" "$work/err"
check "serve --codec: an unknown codec lists the available ones" $?
"$bin" serve --http 127.0.0.1:0 --codec zap >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "got 'zap': ZAP is always served (application/zap)" "$work/err"
check "serve --codec zap: ZAP is always served" $?
if "$bin" codecs | grep -q "^flatbuffers-trusted .* available"; then
  "$bin" serve --http 127.0.0.1:0 --codec flatbuffers-trusted >/dev/null 2>"$work/err"
  [ $? = 2 ] && grep -q "got 'flatbuffers-trusted': its decoder is for trusted input only" "$work/err"
  check "serve --codec: a decoder for trusted input only is refused" $?
  "$bin" load --framing http --addr 127.0.0.1:1 --scenario rpc --body flatbuffers-trusted >/dev/null 2>"$work/err"
  [ $? = 2 ] && grep -q "got 'flatbuffers-trusted': its decoder is for trusted input only" "$work/err"
  check "load --body: a decoder for trusted input only is refused" $?
fi
# ---- the logs scenario's flags
usage_error "load --logs 0" "zapbench load: --logs wants 1..100000, got '0' (see 'zapbench load --help')" \
  load --framing http --addr 127.0.0.1:1 --scenario logs --logs 0
usage_error "load --logs past the record's bound" \
  "zapbench load: --logs wants 1..100000, got '100001' (see 'zapbench load --help')" \
  load --framing http --addr 127.0.0.1:1 --scenario logs --logs 100001
usage_error "load --logs without the logs scenario" \
  "zapbench load: --logs is for --scenario logs only (see 'zapbench load --help')" \
  load --framing http --addr 127.0.0.1:1 --scenario rpc --logs 5
usage_error "load --logs on the floor" "zapbench load: --logs is for --scenario logs only (see 'zapbench load --help')" \
  load --framing floor --addr 127.0.0.1:1 --request-bytes 1 --response-bytes 1 --logs 5
# A body codec without the logs record (while some codecs lack it) is refused, naming those that have it.
for codec in $("$bin" codecs | awk '$2 == "available" || $3 == "available" {print $1}'); do
  "$bin" load --framing http --addr 127.0.0.1:1 --scenario logs --body "$codec" -d 1ms --warmup 0 --timeout-ms 1 \
    >/dev/null 2>"$work/err"
  rc=$?
  if [ "$rc" = 2 ] && grep -q "has no logs record yet" "$work/err"; then
    grep -qx "zapbench load: --scenario logs: codec $codec has no logs record yet (record::LogsCodec); codecs with it: zap.* (see 'zapbench load --help')" "$work/err"
    check "load --scenario logs --body $codec: refused, naming the codecs with the record" $?
    break
  fi
done
usage_error "run --logs 0" \
  "zapbench run: --logs wants a comma-separated list of whole numbers, each 1..100000, got '0': bad item '0' (see 'zapbench run --help')" \
  run --logs 0
usage_error "run --logs without the logs scenario" \
  "zapbench run: --logs is for the logs scenario, which --scenarios leaves out (see 'zapbench run --help')" \
  run --scenarios hello,rpc --logs 100
usage_error "serve --max-response-bytes 0" \
  "zapbench serve: --max-response-bytes wants at least 1, got '0' (see 'zapbench serve --help')" \
  serve --http 127.0.0.1:0 --max-response-bytes 0
grep -q -- "^  --scenario hello|rpc|logs" "$work/help_load" && grep -q -- "^  --logs N " "$work/help_load" &&
  grep -q -- "^  --max-response-bytes N " "$work/help_serve" && grep -q -- "^  --logs LIST " "$work/help_run"
check "--help: load --scenario logs and --logs, serve --max-response-bytes, run --logs" $?

usage_error "micro --min-time 0" \
  "zapbench micro: --min-time wants a duration > 0s (e.g. 10s, 500ms, 250us, 1m, 2h; a plain number is seconds), got '0' (see 'zapbench micro --help')" \
  micro --min-time 0
usage_error "micro --cpu past the CPU set" "zapbench micro: --cpu wants 0..1023, got '4096' (see 'zapbench micro --help')" \
  micro --cpu 4096
usage_error "run --go-json lists its choices" \
  "zapbench run: --go-json wants one of goccy, sonic, stdlib, got 'yaml' (see 'zapbench run --help')" run --go-json yaml

# ---- run --dry-run: the plan and its estimate, nothing measured or written
"$bin" run --full --dry-run --out "$work/dry" >"$work/dry_full" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "^estimated duration: [0-9]" "$work/dry_full" && [ ! -e "$work/dry" ] &&
  grep -q "^  rpc grpc-cpp grpc+protobuf c1000 p16" "$work/dry_full" && grep -q "^  hello nginx http2 c1 p1" "$work/dry_full"
check "run --full --dry-run prints every cell and the estimated duration, writes nothing (exit $rc)" $?
"$bin" run --dry-run >"$work/dry_quick" 2>&1
rc=$?
full_samples=$(sed -n 's/.* = \([0-9]*\) samples.*/\1/p' "$work/dry_full")
quick_samples=$(sed -n 's/.* = \([0-9]*\) samples.*/\1/p' "$work/dry_quick")
[ "$rc" = 0 ] && [ -n "$quick_samples" ] && [ "$quick_samples" -lt "$full_samples" ] &&
  ! grep -q "^  hello zapbench grpc" "$work/dry_quick" && grep -q "^  rpc zapbench grpc+zap c1 p16" "$work/dry_quick"
check "run --dry-run: quick plans its chosen cells, fewer than full's (exit $rc, $quick_samples < $full_samples)" $?

# The io axis: quick copies only the headline cells onto io_uring (listed unavailable, with the
# kernel's reason, where it refuses io_uring); --io epoll plans none.
grep -q "^  rpc zapbench zap-rpc+zap c1 p16 io_uring" "$work/dry_quick" &&
  grep -q "^  rpc floor tcp c1 p16 io_uring" "$work/dry_quick" &&
  ! grep -q "^  hello .* io_uring" "$work/dry_quick" && ! grep -q "^  rpc zapbench grpc+protobuf .* io_uring" "$work/dry_quick" && grep -q "^  rpc zapbench grpc+protobuf c1 p16$" "$work/dry_quick" &&
  ! grep -q "^  .* \(nginx\|grpc-cpp\|go-zip\|go-fasthttp\) .* io_uring" "$work/dry_quick"
check "run --dry-run: quick's io_uring cells are the headline ZAP rpc cells and the floor's rpc" $?
"$bin" run --dry-run --io epoll >"$work/dry_epoll" 2>&1
[ $? = 0 ] && ! grep -q "io_uring" "$work/dry_epoll"
check "run --io epoll --dry-run: no io_uring cell" $?
usage_error "run --io lists its choices" \
  "zapbench run: --io wants a comma-separated list of epoll, io_uring, got 'kqueue': unknown 'kqueue' (see 'zapbench run --help')" \
  run --io kqueue

grep -q "^estimated duration: 10m00s, the budget (the first rounds ~" "$work/dry_quick" &&
  grep -q "^  rpc zapbench zap-rpc+zap c1 p16 (control)$" "$work/dry_quick"
check "run --dry-run: the budget is the estimate, the control copy is planned" $?
"$bin" run --budget 1m --dry-run >/dev/null 2>"$work/err_budget"
rc=$?
[ "$rc" = 2 ] && grep -q "^zapbench: run: --budget 1m00s: the first rounds alone take ~[0-9].*--budget 0 (the first rounds only)$" "$work/err_budget"
check "run --budget shorter than the first rounds is refused with their estimate (exit $rc: $(head -c 300 "$work/err_budget"))" $?
"$bin" run --budget 0 --dry-run >"$work/dry_zero" 2>&1
grep -q "^estimated duration: [0-9].* (the first rounds; no more rounds fit the budget)$" "$work/dry_zero"
check "run --budget 0: the first rounds only" $?
"$bin" run --scenarios c100k --c100k-connections 2000 --c100k-hold 1s --budget 0 --dry-run >"$work/dry_c100k" 2>&1
grep -q "then the c100k scenario, ~.* per I/O interface (2000 connections: connecting, 1s held, closing)" "$work/dry_c100k"
check "run --scenarios c100k --dry-run estimates the c100k pass" $?
usage_error "run --precision wants a fraction above 0" \
  "zapbench run: --precision wants a number > 0 and at most 1, got '0' (see 'zapbench run --help')" run --precision 0
usage_error "run --margin is at most 50%" \
  "zapbench run: --margin wants a number > 0 and at most 0.5, got '0.7' (see 'zapbench run --help')" run --margin 0.7

# ---- micro with the Go reference: a Go arm that is not there is listed with why, and --no-go skips it
"$bin" micro --filter '^Decode/zap$' --min-time 0.01 --go "$work/no-such-zapbench-go" >"$work/micro_go" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "^- go/\*: unavailable: .*no-such-zapbench-go does not exist" "$work/micro_go"
check "micro: a missing Go arm is reported with the reason (exit $rc: $(tail -c 300 "$work/micro_go"))" $?
"$bin" micro --filter '^Decode/zap$' --min-time 0.01 --no-go >"$work/micro_nogo" 2>&1
rc=$?
[ "$rc" = 0 ] && ! grep -q "go/" "$work/micro_nogo" && grep -q "Decode/zap" "$work/micro_nogo"
check "micro --no-go: only the C++ rows (exit $rc)" $?
# ---- calibrate: the machine's yardstick; its JSON lines parse, a bad flag is one line
usage_error "calibrate --depth 0" \
  "zapbench calibrate: --depth wants a comma-separated list of whole numbers, each 1..1024, got '0': bad item '0' (see 'zapbench calibrate --help')" \
  calibrate --depth 0
usage_error "calibrate: more in flight than one connection holds" \
  "zapbench calibrate: --depth 16 x --bytes 8192: at most 65536 bytes in flight (see 'zapbench calibrate --help')" \
  calibrate --depth 1,16 --bytes 8192
"$bin" calibrate --json -d 0.05s --warmup 0.02s -n 1 >"$work/calibrate.json" 2>"$work/calibrate.err"
rc=$?
[ "$rc" = 0 ] && [ "$(wc -l <"$work/calibrate.json")" = 2 ] &&
  python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$work/calibrate.json" &&
  python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
keys = ["calibration", "depth", "bytes", "round_trips", "round_trips_per_s", "p50_ns", "p99_ns",
        "server_cpu_ns_per_round_trip", "client_cpu_ns_per_round_trip", "spin_ns_per_op",
        "memcpy_4kib_ns_per_op", "memcpy_1mib_ns_per_op", "chase_16mib_ns_per_op"]
sys.exit(0 if [r["depth"] for r in rows] == [1, 16] and all(k in r for r in rows for k in keys)
         and all(r["round_trips"] > 0 for r in rows) else 1)' <"$work/calibrate.json"
check "calibrate --json: one JSON object per depth, every figure (exit $rc: $(head -c 300 "$work/calibrate.err"))" $?
"$bin" calibrate -d 0.05s --warmup 0.02s -n 1 --depth 1 >"$work/calibrate.out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "^zapbench calibrate: calibration v[0-9]" "$work/calibrate.out" &&
  grep -Eq "^ +1 +1 +[0-9]+ " "$work/calibrate.out" && grep -q "^work (CPU ns/op" "$work/calibrate.out"
check "calibrate: the table, its CPU line and the work (exit $rc)" $?
usage_error "calibrate: a CPU this process may not use" \
  "zapbench calibrate: --server-cpus: CPU 1023 is not available to this process ($(sed -n 's/^allowed_cpus: //p' "$work/host_info")) (see 'zapbench calibrate --help')" \
  calibrate --server-cpus 1023
# A ping-pong that fails exits 1 with one line naming what failed: here its sockets, past a limit of 5
# descriptors (stdin, stdout, stderr, the listener, the client: the accept has none left).
(ulimit -n 5 && exec "$bin" calibrate --json -d 0.05s --warmup 0 -n 1 --depth 1) >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
  grep -q "^zapbench: calibrate: ping-pong at depth 1: .*: Too many open files$" "$work/err"
check "calibrate: a ping-pong that fails exits 1, naming what failed (exit $rc: $(head -c 300 "$work/err"))" $?
usage_error "codecs takes no flags" "zapbench codecs: unknown option '--all' (see 'zapbench codecs --help')" codecs --all
usage_error "version takes no arguments" "zapbench version: unexpected argument 'x' (see 'zapbench version --help')" version x

# ---- instructions: counts under callgrind when valgrind can run this binary (make test installs valgrind;
# a sanitizer build it cannot run), the reason when not
"$bin" instructions --filter 'zap-http/hello$' --requests 32 --no-perf >"$work/ins.out" 2>"$work/ins.err"
rc=$?
if "$bin" --version | head -n 1 | grep -q -- "-fsanitize="; then
  [ "$rc" = 0 ] && grep -q "^callgrind unavailable: this zapbench is built with a sanitizer" "$work/ins.out" &&
    grep -Eq '^\| Server/zap-http/hello \| — \| — \|$' "$work/ins.out"
  ok=$?
  check "instructions in a sanitizer build: not counted, and why (exit $rc: $(head -c 300 "$work/ins.err"))" $ok
elif command -v valgrind >/dev/null; then
  [ "$rc" = 0 ] && grep -Eq '^\| Server/zap-http/hello \| [1-9][0-9]* \| — \|$' "$work/ins.out" &&
    [ "$(grep -c '^| Server/' "$work/ins.out")" = 1 ] && grep -q "^perf unavailable: perf: not asked for (--no-perf)$" "$work/ins.out"
  ok=$?
  check "instructions: one path counted under callgrind, perf not asked for (exit $rc: $(head -c 300 "$work/ins.err"))" $ok
else
  [ "$rc" = 0 ] && grep -q "^callgrind unavailable: valgrind is not installed" "$work/ins.out"
  ok=$?
  check "instructions without valgrind says why (exit $rc)" $ok
fi
ls -d /tmp/zapbench-instructions-* >/dev/null 2>&1
[ $? != 0 ]; check "instructions leaves no temporary directory behind" $?
"$bin" instructions --one http1/zap --requests 48 >"$work/one.out" 2>&1
[ $? = 0 ] && [ ! -s "$work/one.out" ]; check "instructions --one runs a case's batches quietly" $?
"$bin" instructions --one grpc/zap --requests 48 >"$work/one.out" 2>&1
[ $? = 0 ] && [ ! -s "$work/one.out" ]; check "instructions --one runs an HTTP/2 (gRPC) case's batches quietly" $?
usage_error "instructions --one names an unknown path (gRPC has no hello)" \
  "zapbench: instructions: no request path or codec op 'Server/grpc/hello'" instructions --one Server/grpc/hello
"$bin" instructions --one Encode/limit --requests 32 >"$work/one.out" 2>&1
[ $? = 0 ] && [ ! -s "$work/one.out" ]; check "instructions --one runs a codec op's case quietly" $?
usage_error "instructions --one names an unknown codec op" \
  "zapbench: instructions: no request path or codec op 'Encode/nosuch'" instructions --one Encode/nosuch
usage_error "instructions --filter matching nothing" "zapbench: instructions: no case matches --filter 'quic'" \
  instructions --filter quic
"$bin" instructions --filter '(' >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "^zapbench: instructions: --filter '(' is not a regular expression: " "$work/err"
check "instructions --filter that is no regular expression" $?
usage_error "instructions --requests 0" \
  "zapbench instructions: --requests wants 16..1000000000, got '0' (see 'zapbench instructions --help')" \
  instructions --requests 0

# ---- old spellings: warned, and still doing what they did
"$bin" load --wire http --addr 127.0.0.1:1 --scenario rpc --json nope >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -qx "zapbench load: --wire is deprecated: use --framing" "$work/err" &&
  grep -qx "zapbench load: --json is deprecated: use --body CODEC" "$work/err"
check "load --wire and --json CODEC warn with the new spelling" $?

start_ready "$work/out" "$work/serve_err" "$bin" serve --http 127.0.0.1:0
port=$(ready_port http)
[ -n "$port" ]; check "serve announces its port" $?
"$bin" load --wire http --addr "127.0.0.1:$port" --scenario rpc --body json --json direct -c 1 -d 200ms --warmup 0 \
  --json-out "$work/old.json" >"$work/old.out" 2>"$work/old.err"
rc=$?
# The load result file (bench/children/load_result.hpp) has one member per line.
ran_rpc_direct() { grep -q '"framing": "http",$' "$1" && grep -q '"scenario": "rpc",$' "$1" && grep -q '"body": "direct",$' "$1"; }
[ "$rc" = 0 ] && ran_rpc_direct "$work/old.json" &&
  grep -q '"responses": [1-9]' "$work/old.json" && grep -q "^  errors       0$" "$work/old.out" &&
  grep -qx "zapbench load: --json is deprecated: use --body CODEC" "$work/old.err"
check "load --body json --json direct (old spelling): runs with direct, warns (exit $rc)" $?
"$bin" load --framing http --addr "127.0.0.1:$port" --scenario rpc --body direct -c 1 -d 200ms --warmup 0 \
  --json-out "$work/new.json" >"$work/new.out" 2>"$work/new.err"
rc=$?
[ "$rc" = 0 ] && ran_rpc_direct "$work/new.json" &&
  grep -q '"duration_s": 0.2,$' "$work/new.json" && grep -q '"warmup_s": 0.0,$' "$work/new.json" && [ ! -s "$work/new.err" ]
check "load --framing http --body direct -d 200ms (new spelling): the same run, no warning (exit $rc)" $?
"$bin" load --framing http --addr "127.0.0.1:$port" --scenario logs --logs 50 --body zap -c 1 -d 200ms --warmup 0 \
  --json-out "$work/logs.json" >"$work/logs.out" 2>"$work/logs.err"
rc=$?
[ "$rc" = 0 ] && grep -q '"scenario": "logs",$' "$work/logs.json" && grep -q '"body": "zap",$' "$work/logs.json" &&
  grep -q '"logs": 50,$' "$work/logs.json" && grep -q '"received_mb_per_s": [1-9]' "$work/logs.json" &&
  grep -q '"responses": [1-9]' "$work/logs.json" && grep -q "^  errors       0$" "$work/logs.out" &&
  grep -q "^zapbench load: http logs N=50 body zap at " "$work/logs.out" &&
  grep -q "^  MB/s         [0-9.]* of responses" "$work/logs.out"
check "load --scenario logs --logs 50 --body zap: every answer valid, MB/s in the summary and the file (exit $rc)" $?
# ---- load --merge: two short loads' files, merged exactly (responses summed), reported as one load
"$bin" load --framing http --addr "127.0.0.1:$port" --scenario hello -c 1 -d 100ms --warmup 0 \
  --json-out "$work/m1.json" >/dev/null 2>&1 &&
  "$bin" load --framing http --addr "127.0.0.1:$port" --scenario hello -c 2 -d 100ms --warmup 0 \
    --json-out "$work/m2.json" >/dev/null 2>&1
check "load: two short loads for --merge" $?
responses_of() { sed -n 's/^  "responses": \([0-9]*\),$/\1/p' "$1"; }
"$bin" load --merge "$work/m1.json" "$work/m2.json" --json-out "$work/m12.json" >"$work/merge.out" 2>&1
rc=$?
sum=$(($(responses_of "$work/m1.json") + $(responses_of "$work/m2.json")))
[ "$rc" = 0 ] && [ "$(responses_of "$work/m12.json")" = "$sum" ] && grep -q '"connections": 3,$' "$work/m12.json" &&
  grep -q "^zapbench load: http hello at 127.0.0.1:$port, 3 connections" "$work/merge.out" &&
  grep -q "^  requests/s   [0-9.]* ($sum responses" "$work/merge.out"
check "load --merge: responses summed ($sum), the merged file and report (exit $rc)" $?
usage_error "load --merge with a load's flag" \
  "zapbench load: --merge takes result files and --json-out only, not -c (see 'zapbench load --help')" \
  load --merge "$work/m1.json" "$work/m2.json" -c 2
usage_error "load --merge with one file" \
  "zapbench load: --merge wants at least two result files, got 1 (see 'zapbench load --help')" \
  load --merge "$work/m1.json"
"$bin" load --merge "$work/m1.json" "$work/nothing.json" >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -qx "zapbench: load --merge: cannot read $work/nothing.json" "$work/err"
check "load --merge: a file that cannot be read is named" $?
printf '{"tool": "zapbench load"}' >"$work/bad.json"
"$bin" load --merge "$work/m1.json" "$work/bad.json" >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "^zapbench: load --merge: $work/bad.json: load result: framing: missing$" "$work/err"
check "load --merge: a file that does not parse is named with what is wrong" $?
sed 's/^  "framing": "http",$/  "framing": "zap",/' "$work/m2.json" >"$work/m3.json"  # another load's file
"$bin" load --merge "$work/m1.json" "$work/m3.json" >/dev/null 2>"$work/err"
# The merge's own wording is load_result.cpp's: the line names both files and the member.
[ $? = 2 ] && grep -q "^zapbench: load --merge: .*framing" "$work/err" && grep -qF "$work/m3.json" "$work/err" &&
  grep -qF "$work/m1.json" "$work/err"
check "load --merge: files of different loads are refused, naming both" $?
kill -TERM "$pid"
wait "$pid"
pid=
grep -q "^  requests http /logs [1-9]" "$work/out"; check "serve counts the /logs requests by route" $?

# ---- run over several hosts, through a local stand-in for ssh (tests/support/fake_ssh.sh: every "host"
# is this machine; the namespace mode's test, tests/e2e/hosts_test.sh, has real sshds): the preflight's
# message, nothing written when it fails, and a run whose samples are the merge of two loader hosts.
if [ -n "$src" ]; then
  fake_ssh="$src/tests/support/fake_ssh.sh"
  "$bin" run --server-host down1 --loader-hosts l1 --ssh "$fake_ssh" --no-micro --out "$work/hosts0" \
    >/dev/null 2>"$work/err"
  rc=$?
  [ "$rc" = 2 ] && grep -qx "zapbench: run: preflight: host down1: ssh failed (exit 255): ssh: connect to host down1 port 22: Connection refused" "$work/err" &&
    [ ! -e "$work/hosts0" ]
  check "run: a host that fails the preflight is named, and nothing runs (exit $rc: $(head -c 200 "$work/err"))" $?
  "$bin" run --server-host s1 --loader-hosts l1,l2 --ssh "$fake_ssh" --server-addr 127.0.0.1 --arms zapbench \
    --scenarios hello --framings zap --connections 2 --pipeline 1 --repeats 1 --duration 0.3 --warmup 0.1 \
    --no-micro --budget 0 --no-control --out "$work/hosts1" >"$work/hosts1.out" 2>&1
  rc=$?
  python3 - "$work/hosts1/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["cells"][0]["samples"][0]
hosts = s.get("loader_hosts", [])
ok = (r["env"]["link"] == "ssh hosts" and [h["role"] for h in r["env"]["hosts"]] == ["server", "loader", "loader"]
      and len(hosts) == 2 and s["errors"] == 0 and s["responses"] > 0
      and s["responses"] == sum(h["responses"] for h in hosts) and s.get("start_skew_ns", -1) >= 0)
sys.exit(0 if ok else 1)
PY
  check "run over 1 server + 2 loader hosts (fake ssh): the sample is the sum of the hosts' (exit $rc)" $?
fi

finish
