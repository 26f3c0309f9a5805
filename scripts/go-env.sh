# scripts/go-env.sh — sourced by every script that runs `go` (go-build.sh,
# tests/go/go_test.sh): when ../shared/goproxy exists beside the checkout (or
# ZAPBENCH_GOPROXY_MIRROR names a mirror), it goes after the default module
# proxy with `|`, so the default's 403 for github.com/zap-proto/* falls
# through to it. The mirror holds those modules exactly as published: go.sum
# pins the public hashes, and elsewhere the public proxy alone serves them.
zapbench_go_mirror=${ZAPBENCH_GOPROXY_MIRROR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/goproxy}
if [ -d "$zapbench_go_mirror" ] && command -v go >/dev/null 2>&1; then
  zapbench_go_proxy=$(go env GOPROXY)
  zapbench_go_proxy=${zapbench_go_proxy%,direct}
  zapbench_go_proxy=${zapbench_go_proxy%|direct}
  case $zapbench_go_proxy in
    off | direct | "") ;; # no proxy to put it after: leave go's choice alone
    *file://*) ;;         # already there (a caller sourced this before)
    *) export GOPROXY="$zapbench_go_proxy|file://$(cd "$zapbench_go_mirror" && pwd)" ;;
  esac
  unset zapbench_go_proxy
fi
unset zapbench_go_mirror
