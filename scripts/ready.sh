# scripts/ready.sh — how the scripts start a server of ours and know it is ready (sourced, never run):
# through its ready channel (--ready-fd), never a sleep, a poll or a line of its output. The tests do the
# same with their own start_ready (tests/support/cli_checks.sh). Servers without a ready channel (nginx,
# h2o, nghttpd) are the scripts' own business.
#
# start_ready COMMAND...: starts COMMAND --ready-fd 9 in the background (its stdout and stderr where the
# call's are: redirect the call), its PID in $ready_pid, and returns once it has closed its ready channel
# (every listener announced: "KIND HOST:PORT" lines, kept in $ready) or exited; false when it announced
# nothing. The channel is a FIFO: reading it to EOF is the wait (bounded at 60 s, a hang only).
# ready_port KIND: the port of the first listener of KIND that start_ready's server announced.
start_ready() {
  local fifo
  fifo=$(mktemp -u "${TMPDIR:-/tmp}/zapbench-ready.XXXXXX")
  mkfifo "$fifo"
  "$@" --ready-fd 9 9>"$fifo" &
  ready_pid=$!
  ready=$(timeout 60 cat "$fifo")
  rm -f "$fifo"
  [ -n "$ready" ]
}

ready_port() {  # KIND
  printf '%s\n' "$ready" | sed -n "s/^$1 .*:\([0-9]*\)\$/\1/p" | head -1
}
