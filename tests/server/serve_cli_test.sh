#!/usr/bin/env bash
# tests/server/serve_cli_test.sh — `zapbench serve` as a user runs it: bound ports
# printed, a request answered, SIGTERM gives exit 0 and the counters, and
# bad flags give exit 2 with a clear message; `zapbench load` against it,
# also stopped by SIGINT. Every wait is for an event (a line printed, a
# process's exit, the server reading, the ready channel closed), bounded by $hang seconds to catch a
# hang only. ZAP-RPC (--zap-rpc): a health call answered with its PromiseID,
# a response frame sent to the server dropped and counted, the ready-channel
# name "zap-rpc". Usage: serve_cli_test.sh ZAPBENCH
set -u
bin=$1
. "$(dirname "$0")/../support/cli_checks.sh"

start_ready "$work/out" "$work/err" "$bin" serve --http 127.0.0.1:0 --zap 127.0.0.1:0 --zap-rpc 127.0.0.1:0
check "announces its listeners on the ready channel" $?
# Bytes the process has taken in with read() (/proc/PID/io rchar).
rchar() { sed -n 's/^rchar: //p' "/proc/$1/io"; }

port=$(ready_port http)
[ -n "$port" ] && grep -qx "zapbench serve: http listening on 127.0.0.1:$port" "$work/out"
check "prints the bound HTTP port, the one announced" $?
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' >&3
resp=$(timeout "$hang" cat <&3)
exec 3>&-
[[ "$resp" == "HTTP/1.1 200 OK"* && "$resp" == *$'\r\n\r\nok' ]]; check "answers GET /health" $?
zport=$(ready_port zap)
"$bin" load --wire zap --addr "127.0.0.1:$zport" --scenario rpc --body zap -c 2 -d 1 --warmup 0 \
  --json-out "$work/load.json" >"$work/load.out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "^  errors       0" "$work/load.out" && grep -q '"responses": [1-9]' "$work/load.json" &&
  grep -q '"buckets": \[\[' "$work/load.json"
check "zapbench load drives the server: exit 0, no errors, JSON with the histogram" $?
"$bin" load --wire smoke --addr 127.0.0.1:1 --scenario hello >/dev/null 2>"$work/err7"
[ $? = 2 ] && grep -q "wire wants one of http, http2, grpc, zap, zap-rpc, tcp, floor" "$work/err7"; check "load: a bad --wire is a usage error" $?
# SIGINT ends a load early with its results: once the server is reading its requests, a user's Ctrl-C.
before=$(rchar "$pid")
"$bin" load --wire zap --addr "127.0.0.1:$zport" --scenario rpc --body zap -c 2 -d "$hang" --warmup 0 \
  --json-out "$work/stopped.json" >"$work/stopped.out" 2>&1 &
lpid=$!
server_reading() { [ "$(rchar "$pid")" -gt "$((before + 100000))" ]; }
await server_reading; check "the load reaches the server" $?
kill -INT "$lpid"
wait "$lpid"
rc=$?
lpid=
[ "$rc" = 130 ] && grep -q "STOPPED by SIGINT after" "$work/stopped.out" && grep -q '"stopped": true' "$work/stopped.json" &&
  grep -q '"responses": [1-9]' "$work/stopped.json"
check "load: SIGINT ends the window early, prints and writes the results, exit 130 (got $rc)" $?

# ZAP-RPC: a response frame (dir 2, dropped and counted), then a health call (method 0, PromiseID 7): the
# answer is a response frame of 43 bytes, status 200, PromiseID 7, body "ok". Frames as
# docs/spec/zap-rpc.md §1 draws them: u32 LE L, dir, envelope (header: "ZAP\0", version 2, flags 0xC800,
# root 16, size).
rport=$(ready_port zap-rpc)
[ -n "$rport" ] && grep -qx "zapbench serve: zap-rpc listening on 127.0.0.1:$rport" "$work/out"
check "prints the bound ZAP-RPC port, the one announced" $?
header='\x5a\x41\x50\x00\x02\x00\x00\xc8\x10\x00\x00\x00'
zeros8='\x00\x00\x00\x00\x00\x00\x00\x00'
response_frame="\x25\x00\x00\x00\x02${header}\x24\x00\x00\x00\xc8\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00${zeros8}"
health_call="\x2d\x00\x00\x00\x01${header}\x2c\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00${zeros8}${zeros8}"
exec 3<>"/dev/tcp/127.0.0.1/$rport"
printf "$response_frame$health_call" >&3
answer=$(timeout "$hang" head -c 43 <&3 | od -An -tx1 -v | tr -d ' \n')
exec 3>&-
[ "$answer" = "2700000002${header//\\x/}26000000c8000000070000000000000008000000020000006f6b" ]
check "answers a ZAP-RPC health call with its PromiseID (got $answer)" $?

stop_pid
grep -q "requests http /health 1" "$work/out" && grep -q "requests zap /rpc [1-9]" "$work/out"
check "prints the request counters" $?
grep -q "requests zap-rpc /health 1" "$work/out" && grep -q "error zap_rpc_unsolicited 1" "$work/out"
check "prints the ZAP-RPC counters" $?
grep -q "connections 6" "$work/out"; check "prints the connection count" $?

# The ready channel names each listener; ZAP-RPC's is "zap-rpc".
"$bin" serve --zap-rpc 127.0.0.1:0 --ready-fd 3 3>"$work/ready" >/dev/null 2>&1 &
lpid=$!
announced() { grep -q "^zap-rpc 127\.0\.0\.1:[1-9][0-9]*$" "$work/ready"; }
await announced; check "--ready-fd announces the ZAP-RPC listener as zap-rpc" $?
kill -TERM "$lpid"
wait "$lpid"
lpid=

"$bin" serve --http 127.0.0.1:0 --json nope >/dev/null 2>"$work/err2"
rc=$?
[ "$rc" = 2 ] && grep -q "available JSON codecs: direct" "$work/err2"; check "unknown --json is a startup error listing codecs" $?
"$bin" serve >/dev/null 2>"$work/err3"
[ $? = 2 ] && grep -q -- "--http HOST:PORT" "$work/err3" && grep -q -- "--zap-rpc HOST:PORT" "$work/err3"
check "no listener is a usage error" $?
"$bin" serve --http nonsense >/dev/null 2>"$work/err4"
[ $? = 2 ] && grep -q "wants HOST:PORT" "$work/err4"; check "a bad address is a usage error" $?
"$bin" serve --zap-rpc 127.0.0.1 >/dev/null 2>"$work/err8"
[ $? = 2 ] && grep -q -- "--zap-rpc wants HOST:PORT" "$work/err8"; check "a bad --zap-rpc address is a usage error" $?
"$bin" serve --zap-rpc 256.1.1.1:80 >/dev/null 2>"$work/err9"
[ $? = 2 ] && grep -q "cannot resolve '256.1.1.1'" "$work/err9"
check "a --zap-rpc address that does not resolve is a clear error" $?
"$bin" serve --help >"$work/help" 2>&1
[ $? = 0 ] && grep -q -- "--zap-rpc HOST:PORT *a ZAP-RPC listener (repeatable)" "$work/help" &&
  grep -q "ZAP-RPC, ZAP's own multiplexed RPC transport" "$work/help"
check "--help describes --zap-rpc" $?
"$bin" serve --http 127.0.0.1:0 --threads 0 >/dev/null 2>"$work/err5"
[ $? = 2 ] && grep -q -- "--threads wants 1..1024" "$work/err5"; check "--threads 0 is a usage error" $?
"$bin" serve --http 256.1.1.1:80 >/dev/null 2>"$work/err6"
[ $? = 2 ] && grep -q "cannot resolve '256.1.1.1'" "$work/err6"; check "an address that does not resolve is a clear error" $?

finish
