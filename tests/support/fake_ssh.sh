#!/bin/sh
# tests/support/fake_ssh.sh — a local stand-in for ssh (`--ssh PROGRAM`), so the
# multi-host code paths run in tests without an sshd: it takes ssh's options
# as bench/hosts/ssh.hpp writes them, ignores them, and runs the command on this host
# the way sshd would (`sh -c` of the quoted command line, stdin/stdout/stderr
# carried). A host named "down*" behaves as an unreachable one (ssh's message,
# exit 255); the host name is exported as FAKE_SSH_HOST for the command.
while [ $# -gt 0 ]; do
  case "$1" in
    -T | -n) shift ;;
    -o | -F | -i | -p | -l) shift 2 ;;
    --) shift; break ;;
    -*) echo "fake_ssh: unknown option $1" >&2; exit 255 ;;
    *) break ;;
  esac
done
host="$1"
shift
[ "${1:-}" = "--" ] && shift
case "$host" in
  down*)
    echo "ssh: connect to host $host port 22: Connection refused" >&2
    exit 255
    ;;
esac
FAKE_SSH_HOST="$host"
export FAKE_SSH_HOST
exec sh -c "$*"
