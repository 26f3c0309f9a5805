# tests/support/cli_checks.sh — what the shell tests of the command line share (sourced, never run): a
# scratch directory $work, removed on exit with the processes $pid and $lpid stopped (also after a
# failure); check NAME STATUS, which prints ok/FAILED and counts; await COMMAND..., true once COMMAND
# holds, false after $hang seconds (a bound that only a hang reaches: every wait is for an event); and
# finish, the counts and the script's exit status, as its last command.
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

finish() {
  echo "$passed passed, $failures failed"
  [ "$failures" = 0 ]
}
