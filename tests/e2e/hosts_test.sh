#!/usr/bin/env bash
# tests/e2e/hosts_test.sh — `zapbench run` over several hosts, end to end, on
# hosts the run builds itself (--netns: network namespaces joined by a bridge,
# Debian's sshd in each, keys generated in a temporary directory): the merge
# is exact (the sample's count is the sum of the hosts', the merged histogram
# the bucket-by-bucket sum of theirs), the start skew is reported (< 10 ms
# here), a loader killed mid-sample fails that sample naming its host while
# the other host's figures are kept and the run goes on, Ctrl-C ends the run
# at once, and after each, no namespace, sshd or zapbench process of the run
# is left. Root only (it skips otherwise: exit 77). Every wait is for an event,
# bounded by $hang seconds to catch a hang only; no speed is asserted.
# Usage: hosts_test.sh ZAPBENCH
set -u
bin=$(readlink -f "$1")  # absolute: the leftover checks match its processes by path
. "$(dirname "$0")/../support/cli_checks.sh"
hang=120
if [ "$(id -u)" != 0 ] || [ ! -x /usr/sbin/sshd ] || ! command -v nc >/dev/null || ! command -v ip >/dev/null; then
  echo "skipped: needs root, /usr/sbin/sshd (openssh-server), nc (netcat-openbsd) and ip (iproute2)"
  exit 77
fi

# The run's leftovers: namespaces named after its pid, processes in them, sshd
# children, zapbench children.
no_leftovers() {  # run pid, what
  local rp=$1 what=$2
  ! ip netns list | grep -q "^zb$rp-"; check "$what: no namespace of the run is left" $?
  ! pgrep -f "zb$rp-" >/dev/null; check "$what: no process naming the run's namespaces is left" $?
  ! pgrep -f "$bin (child|load)" >/dev/null; check "$what: no zapbench child or load process is left" $?
  ! pgrep -f "zapbench-netns-$rp-" >/dev/null; check "$what: no sshd (or other process) of the run's directory is left" $?
  ! ls -d "${TMPDIR:-/tmp}/zapbench-netns-$rp-"* >/dev/null 2>&1; check "$what: the run's directory is removed" $?
  ! ls -d /etc/netns/zb"$rp"-* >/dev/null 2>&1; check "$what: no /etc/netns entry of the run is left" $?
}

# --budget 0 --no-control: the first rounds only, no control copy (the rounds are run_test's); --io epoll:
# the servers on epoll only (the io axis is run_test's).
common=(--netns 2 --arms zapbench,floor --scenarios hello --framings zap-rpc --connections 2
        --server-cpus 0 --loader-cpus "$(nproc --all | awk '{print ($1 > 1) ? 1 : 0}')" --no-micro
        --budget 0 --no-control --io epoll)

# ---- a normal run: 2 loader hosts, the merge, the skew
"$bin" run "${common[@]}" --pipeline 1,16 --repeats 2 --duration 1 --warmup 0.3 --link-rate 1gbit --out "$work/r1" \
  >"$work/r1.out" 2>&1 &
pid=$!
rp=$pid
timeout "$hang" tail --pid="$pid" -f /dev/null
wait "$pid"
rc=$?
pid=
[ "$rc" = 0 ]; check "a run over 1 server + 2 loader namespaces exits 0 (got $rc; $(tail -n 3 "$work/r1.out"))" $?
python3 - "$work/r1" <<'PY'
import json, sys, glob, os
d = sys.argv[1]
r = json.load(open(os.path.join(d, "results.json")))
env = r["env"]
fails = []
def check(name, ok):
    print(("ok: " if ok else "FAILED: ") + name)
    if not ok: fails.append(name)
check("the link is named, with its shaping: %r" % env.get("link"),
      env.get("link", "").startswith("netns veth+bridge") and "rate 1gbit" in env.get("link", ""))
roles = sorted(h["role"] for h in env.get("hosts", []))
check("the hosts are recorded (1 server, 2 loaders): %r" % roles, roles == ["loader", "loader", "server"])
samples = [s for c in r["cells"] for s in c["samples"]]
skews = []
check("every cell has its 2 samples (%d)" % len(samples), len(samples) == 8)
for c in r["cells"]:
    for i, s in enumerate(c["samples"]):
        hosts = s.get("loader_hosts", [])
        name = "%s/%s sample %d" % (c["arm"], c["pipeline"], i + 1)
        check(name + ": 2 loader host rows", len(hosts) == 2)
        check(name + ": no errors (%r)" % s.get("errors_by_kind"), s["errors"] == 0)
        check(name + ": count = the sum of the hosts' (%d)" % s["responses"],
              s["responses"] == sum(h["responses"] for h in hosts) and s["responses"] > 0)
        skew = s.get("start_skew_ns")
        check(name + ": start skew reported (%r ns)" % skew, skew is not None and skew >= 0)
        skews.append(skew or 0)
        check(name + ": every host's go RTT and go->first send", all(h.get("go_rtt_ns", -1) >= 0 and h.get("go_to_first_send_ns", -1) >= 0 for h in hosts))
# Under 10 ms here (the barrier: the loaders pause at the end of their warm-up, so go travels over quiet
# hosts), taken on the median sample: one sample can meet a scheduling hiccup of a shared 2-CPU machine
# (every hop of go's delivery, ssh, nc, sshd, the loader, needs a CPU), and no speed is asserted.
skews.sort()
check("the median start skew is under 10 ms (%.2f ms; max %.2f ms)" % (skews[len(skews) // 2] / 1e6, skews[-1] / 1e6),
      skews[len(skews) // 2] < 10e6)
# The merged histogram is the bucket-by-bucket sum of the hosts' (the files the samples keep).
merged_files = sorted(glob.glob(os.path.join(d, "samples", "*.load.json")))
check("the merged result files are kept (%d)" % len(merged_files), len(merged_files) == 8)
for f in merged_files:
    parts = sorted(glob.glob(f[: -len(".load.json")] + ".load-host*.json"))
    m = json.load(open(f))
    hs = [json.load(open(p)) for p in parts]
    for key in ("latency", "latency_uncorrected"):
        total = {}
        for h in hs:
            for lo, hi, n in h[key]["buckets"]:
                total[lo] = total.get(lo, 0) + n
        mb = {lo: n for lo, hi, n in m[key]["buckets"]}
        check("%s %s: the merged buckets are the sum of %d hosts'" % (os.path.basename(f), key, len(hs)),
              len(hs) == 2 and mb == total and m[key]["count"] == sum(h[key]["count"] for h in hs))
    check(os.path.basename(f) + ": requests summed", m["requests"] == sum(h["requests"] for h in hs))
sys.exit(1 if fails else 0)
PY
check "results.json and the merged files" $?
grep -q "Loader hosts" "$work/r1/report.md"; check "the report has the loader hosts table" $?
no_leftovers "$rp" "after a normal run"

# ---- a loader host killed mid-sample
"$bin" run "${common[@]}" --pipeline 1 --arms zapbench --repeats 2 --duration 4 --warmup 0.3 \
  --out "$work/r2" >"$work/r2.out" 2>&1 &
pid=$!
rp=$pid
loader_in_ns2() { ip netns pids "zb$rp-loader2" 2>/dev/null | while read -r p; do
    grep -q "load" "/proc/$p/cmdline" 2>/dev/null && tr '\0' ' ' <"/proc/$p/cmdline" | grep -q -- "--coordinated" && echo "$p"
  done | head -n 1 | grep -q .; }
await loader_in_ns2; check "the second loader host's zapbench load runs" $?
sleep 1  # inside the window (warm-up 0.3 s, window 4 s): not a wait for an event, where the kill lands
for p in $(ip netns pids "zb$rp-loader2"); do
  tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "--coordinated" && kill -9 "$p"
done
timeout "$hang" tail --pid="$pid" -f /dev/null
wait "$pid"
rc=$?
pid=
[ "$rc" = 0 ]; check "the run goes on after a loader host died, exits 0 (got $rc)" $?
python3 - "$work/r2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
samples = [s for c in r["cells"] for s in c["samples"]]
fails = []
def check(name, ok):
    print(("ok: " if ok else "FAILED: ") + name)
    if not ok: fails.append(name)
failed = [s for s in samples if s["errors_by_kind"].get("run_failed")]
check("exactly one sample failed (%d of %d)" % (len(failed), len(samples)), len(failed) == 1 and len(samples) == 2)
if failed:
    hosts = failed[0].get("loader_hosts", [])
    bad = [h for h in hosts if h.get("failure")]
    good = [h for h in hosts if not h.get("failure")]
    check("the failed sample names the dead host: %r" % [h.get("failure") for h in bad],
          len(bad) == 1 and bad[0]["host"].endswith("10.251.0.3"))
    check("the other host's figures are kept (%r responses)" % [h["responses"] for h in good],
          len(good) == 1 and good[0]["responses"] > 0)
notes = " ".join(r.get("notes", []))
check("a note names the host: %s" % notes[:300], "10.251.0.3" in notes)
ok = [s for s in samples if not s["errors_by_kind"].get("run_failed")]
check("the next sample ran whole", len(ok) == 1 and ok[0]["responses"] > 0)
sys.exit(1 if fails else 0)
PY
check "the fault is recorded" $?
no_leftovers "$rp" "after a loader host died"

# ---- Ctrl-C mid-sample
"$bin" run "${common[@]}" --pipeline 1 --arms zapbench --repeats 1 --duration 60 --warmup 0.3 \
  --out "$work/r3" >"$work/r3.out" 2>&1 &
pid=$!
rp=$pid
await loader_in_ns2; check "the loaders run" $?
kill -INT "$pid"
timeout "$hang" tail --pid="$pid" -f /dev/null
wait "$pid"
rc=$?
pid=
[ "$rc" = 130 ]; check "Ctrl-C ends the run at once with exit 130 (got $rc)" $?
no_leftovers "$rp" "after Ctrl-C"

finish
