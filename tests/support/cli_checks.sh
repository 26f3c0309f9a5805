# tests/support/cli_checks.sh — what the shell tests of the command line share (sourced, never run): a
# scratch directory $work, removed on exit with the processes $pid and $lpid stopped (also after a
# failure); check NAME STATUS, which prints ok/FAILED and counts; await COMMAND..., true once COMMAND
# holds, false after $hang seconds (a bound that only a hang reaches: every wait is for an event);
# stop_pid, which ends the process $pid with SIGTERM, waits for it (a hang bound) and checks it exits 0;
# and finish, the counts and the script's exit status, as its last command.
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

finish() {
  echo "$passed passed, $failures failed"
  [ "$failures" = 0 ]
}
