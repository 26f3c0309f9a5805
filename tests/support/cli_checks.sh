# tests/support/cli_checks.sh — what the shell tests of the command line share (sourced, never run): a
# scratch directory $work, removed on exit with the processes $pid and $lpid stopped (also after a
# failure); check NAME STATUS, which prints ok/FAILED and counts; await COMMAND..., true once COMMAND
# holds, false after $hang seconds (a bound that only a hang reaches: every wait is for an event);
# stop_pid, which ends the process $pid with SIGTERM, waits for it (a hang bound) and checks it exits 0;
# start_ready OUT ERR COMMAND..., which starts a server with its ready channel (--ready-fd) and waits for it,
# and ready_port KIND, a port it announced; and finish, the counts and the script's exit status, as its
# last command.
hang=60
work=$(mktemp -d)
trap 'kill "${pid:-}" "${lpid:-}" 2>/dev/null; rm -rf "$work"' EXIT
failures=0
passed=0

check() {  # name, condition result
  if [ "$2" = 0 ]; then
    echo "ok: $1"
    passed=$((passed + 1))
  else
    echo "FAILED: $1"
    failures=$((failures + 1))
  fi
}

await() {  # condition command...: true once it holds, false after $hang seconds
  local end=$((SECONDS + hang))
  until "$@"; do
    [ "$SECONDS" -ge "$end" ] && return 1
    sleep 0.02
  done
}

stop_pid() {  # SIGTERM to $pid, a bounded wait, its exit status checked; $pid is cleared
  kill -TERM "$pid"
  timeout "$hang" tail --pid="$pid" -f /dev/null
  wait "$pid"
  local rc=$?
  pid=
  [ "$rc" = 0 ]; check "SIGTERM exits 0 (got $rc)" $?
}

# start_ready OUT ERR COMMAND...: starts COMMAND --ready-fd 9 in the background, its stdout in OUT and
# its stderr in ERR (the same file or not), as $pid, and waits until it closes its ready channel (every listener announced: "KIND HOST:PORT" lines,
# kept in $ready) or exits; false when it announced nothing. Readiness is that event, never a line of
# its output. The channel is a FIFO: reading it to EOF is the wait (bounded by $hang, a hang only).
start_ready() {
  local out=$1 err=$2
  shift 2
  rm -f "$work/ready.fifo"
  mkfifo "$work/ready.fifo"
  if [ "$out" = "$err" ]; then
    "$@" --ready-fd 9 9>"$work/ready.fifo" >"$out" 2>&1 &
  else
    "$@" --ready-fd 9 9>"$work/ready.fifo" >"$out" 2>"$err" &
  fi
  pid=$!
  ready=$(timeout "$hang" cat "$work/ready.fifo")
  [ -n "$ready" ]
}

ready_port() {  # KIND: the port of the first listener of KIND that start_ready's process announced
  printf '%s\n' "$ready" | sed -n "s/^$1 .*:\([0-9]*\)\$/\1/p" | head -1
}

finish() {
  echo "$passed passed, $failures failed"
  [ "$failures" = 0 ]
}
