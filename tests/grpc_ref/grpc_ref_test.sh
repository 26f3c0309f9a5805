#!/usr/bin/env bash
# tests/grpc_ref/grpc_ref_test.sh — zapbench-grpc (the grpc++ reference arm) against itself: `call` validates
# every answer of `serve` (both server APIs, depth 1 and 16), the ready channel, clean stops on SIGTERM and
# SIGINT with no process left, and every failure path: usage errors (exit 2, one line), a port in use, a
# server that is not there, a request the server must refuse (INVALID_ARGUMENT), and a server that lies in
# each checked field (serve --fault), which `call` must catch. And the answer's bytes: one request sent by
# nghttp (nghttp2-client, no gRPC library) to the arm and by curl to `zapbench serve`'s /rpc as a protobuf
# body get the same message bytes. Usage: grpc_ref_test.sh ZAPBENCH_GRPC ZAPBENCH REASON (ZAPBENCH_GRPC
# '-': the build has no grpc++ arm; skipped with REASON).
grpc=$1 bin=$2
if [ "$grpc" = - ]; then
  echo "skipped: zapbench-grpc is not built: $3"
  exit 77
fi
. "$(dirname "$0")/../support/cli_checks.sh"

# Starts `zapbench-grpc serve --listen 127.0.0.1:0 ARGS...` as $pid; $port once it announces it on its
# ready channel ("" if it died).
start_server() {
  start_ready "$work/serve.out" "$work/serve.err" "$grpc" serve --listen 127.0.0.1:0 "$@"
  port=$(ready_port grpc)
}
gone() { ! kill -0 "$1" 2>/dev/null; }

# ---- --help and usage errors
"$grpc" --help | grep -q "^  serve " && "$grpc" serve --help | grep -q -- "--listen HOST:PORT" &&
  "$grpc" call --help | grep -q -- "--depth N"
check "--help of the program and of each command" $?
usage_error() {  # expected message part, args...
  local want=$1
  shift
  "$grpc" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [ "$rc" = 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q -- "$want" "$work/err"
  check "usage error, exit 2, one line: $* (exit $rc)" $?
}
usage_error "zapbench-grpc: give a command, serve or call"
usage_error "unknown command 'nope'" nope
usage_error "zapbench-grpc serve: --listen is required" serve
usage_error "zapbench-grpc serve: --threads wants 1..1024, got '0'" serve --listen 127.0.0.1:0 --threads 0
usage_error "--threads is for --api async" serve --listen 127.0.0.1:0 --api callback --threads 2
usage_error "zapbench-grpc serve: --api wants" serve --listen 127.0.0.1:0 --api sync
usage_error "zapbench-grpc call: --target wants HOST:PORT, got 'x'" call --target x
usage_error "zapbench-grpc call: --depth wants" call --target 127.0.0.1:1 --depth 0
usage_error "zapbench-grpc call: --calls wants" call --target 127.0.0.1:1 --calls 0

# ---- the async server (the default) and the client, depth 16 and 1; the ready channel; SIGTERM
"$grpc" serve --listen 127.0.0.1:0 --threads 2 --ready-fd 3 3>"$work/ready" >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
ready() { grep -q "^grpc 127\.0\.0\.1:[0-9]*$" "$work/ready" || ! kill -0 "$pid" 2>/dev/null; }
await ready
port=$(sed -n 's/^grpc 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/ready")
[ -n "$port" ] && grep -qx "zapbench-grpc serve: grpc listening on 127.0.0.1:$port" "$work/serve.out" &&
  grep -q "async API, 2 completion queue thread(s)" "$work/serve.out"
check "serve --ready-fd 3: 'grpc 127.0.0.1:PORT' on the channel, the same port printed" $?
"$grpc" call --target "127.0.0.1:$port" --calls 2000 --depth 16 >"$work/call.out" 2>"$work/call.err"
rc=$?
[ "$rc" = 0 ] && grep -q ": 2000 ok, 0 failed in " "$work/call.out" && [ ! -s "$work/call.err" ]
check "call --calls 2000 --depth 16: every answer valid (exit $rc)" $?
"$grpc" call --target "127.0.0.1:$port" --calls 300 >"$work/call.out" 2>"$work/call.err"
rc=$?
[ "$rc" = 0 ] && grep -q ": 300 ok, 0 failed in " "$work/call.out"
check "call --calls 300 --depth 1: every answer valid (exit $rc)" $?

# A second server on the same port: refused, not sharing it (SO_REUSEPORT is off).
"$grpc" serve --listen "127.0.0.1:$port" >"$work/second.out" 2>"$work/second.err"
rc=$?
[ "$rc" = 1 ] && grep -q "zapbench-grpc serve: cannot listen on 127.0.0.1:$port" "$work/second.err"
check "serve on a port in use: exit 1, says it cannot listen (exit $rc)" $?

# account of 19 bytes: the server refuses each call (INVALID_ARGUMENT), call reports and fails.
"$grpc" call --target "127.0.0.1:$port" --calls 50 --depth 4 --account-bytes 19 >"$work/call.out" 2>"$work/call.err"
rc=$?
[ "$rc" = 1 ] && grep -q ": 0 ok, 50 failed in " "$work/call.out" &&
  grep -q "grpc-status 3 (bad protobuf body: account or hash of the wrong length)" "$work/call.err" &&
  [ "$(wc -l <"$work/call.err")" = 5 ]
check "a 19-byte account: INVALID_ARGUMENT for each, call exits 1, 5 failures described (exit $rc)" $?
"$grpc" call --target "127.0.0.1:$port" --calls 10 --account-bytes 0 >"$work/call.out" 2>"$work/call.err"
rc=$?
[ "$rc" = 1 ] && grep -q "grpc-status 3 (bad protobuf body: missing field)" "$work/call.err"
check "no account: INVALID_ARGUMENT (missing field) (exit $rc)" $?

server_pid=$pid
stop_pid
gone "$server_pid" && grep -q "^zapbench-grpc serve: stopped$" "$work/serve.out" &&
  grep -qx "  answered ok 2300" "$work/serve.out" && grep -qx "  answered error 60" "$work/serve.out"
check "after SIGTERM: no process left, the counters (2300 ok, 60 refused)" $?

# ---- the callback API; SIGINT
start_server --api callback
[ -n "$port" ] && grep -q "callback API" "$work/serve.out"
check "serve --api callback listens" $?
"$grpc" call --target "127.0.0.1:$port" --calls 2000 --depth 16 >"$work/call.out" 2>"$work/call.err"
rc=$?
[ "$rc" = 0 ] && grep -q ": 2000 ok, 0 failed in " "$work/call.out"
check "callback API: call --calls 2000 --depth 16, every answer valid (exit $rc)" $?
server_pid=$pid
kill -INT "$pid"
timeout "$hang" tail --pid="$pid" -f /dev/null
wait "$pid"
rc=$?
pid=
[ "$rc" = 0 ] && gone "$server_pid" && grep -qx "  answered ok 2000" "$work/serve.out" &&
  grep -q "Interrupt, stopping" "$work/serve.err"
check "SIGINT: exit 0, no process left, 2000 answered (exit $rc)" $?

# ---- a server that lies: call catches each field
for fault in id balance nonce hash status; do
  case $fault in
    id) says="id [0-9]*, want" ;;
    balance) says="balance [0-9]*, want" ;;
    nonce) says="nonce 43, want 42" ;;
    hash) says="block_hash of 32 bytes, not the sample hash" ;;
    status) says="grpc-status 13 (--fault status)" ;;
  esac
  start_server --fault "$fault"
  "$grpc" call --target "127.0.0.1:$port" --calls 20 --depth 4 >"$work/call.out" 2>"$work/call.err"
  rc=$?
  [ "$rc" = 1 ] && grep -q ": 0 ok, 20 failed in " "$work/call.out" && grep -q "$says" "$work/call.err"
  check "serve --fault $fault: call sees it ('$says'), exits 1 (exit $rc)" $?
  stop_pid
done

# ---- the same answer bytes as zapbench's /rpc, through clients with no gRPC library
# zapbench.Request {id 7, block 0x10d4f, method "eth_getBalance", account the sample's}, 44 bytes, and
# as a gRPC message (flag 0, length 44).
request='\x08\x07\x10\xcf\x9a\x04\x1a\x0eeth_getBalance\x22\x14\xde\xad\xbe\xef\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff'
printf "$request" >"$work/req.pb"
printf "\x00\x00\x00\x00\x2c$request" >"$work/req.grpc"
if command -v nghttp >/dev/null && command -v curl >/dev/null; then
  start_server
  nghttp -H ':method: POST' -H 'content-type: application/grpc' -H 'te: trailers' -d "$work/req.grpc" \
    "http://127.0.0.1:$port/zapbench.Eth/Call" >"$work/grpc.answer" 2>"$work/nghttp.err"
  rc=$?
  stop_pid
  start_ready "$work/zs.out" "$work/zs.err" "$bin" serve --http 127.0.0.1:0
  zport=$(ready_port http)
  curl -sf -H 'content-type: application/x-protobuf' --data-binary "@$work/req.pb" "http://127.0.0.1:$zport/rpc" \
    >"$work/rpc.answer"
  stop_pid
  [ "$rc" = 0 ] && [ "$(wc -c <"$work/rpc.answer")" = 48 ] && [ "$(wc -c <"$work/grpc.answer")" = 53 ] &&
    tail -c +6 "$work/grpc.answer" | cmp -s - "$work/rpc.answer" &&
    [ "$(head -c 5 "$work/grpc.answer" | od -An -tx1 | tr -d ' ')" = 0000000030 ]
  check "nghttp's call to the arm gets, after the 5-byte prefix, the bytes curl gets from zapbench's /rpc (nghttp exit $rc)" $?
else
  echo "skip: nghttp (nghttp2-client) or curl is not installed: no byte comparison with zapbench's /rpc"
fi

# ---- no server
"$grpc" call --target "127.0.0.1:$port" --calls 1 --timeout 500ms >"$work/call.out" 2>"$work/call.err"
rc=$?
[ "$rc" = 1 ] && grep -qx "zapbench-grpc call: cannot connect to 127.0.0.1:$port within 500ms" "$work/call.err"
check "call with no server: exit 1 after --timeout, says so (exit $rc)" $?

finish
