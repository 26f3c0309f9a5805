#!/usr/bin/env python3
"""scripts/perf-groups.py — a flat `perf report --sort symbol -g none -q` grouped into what a
request's CPU is made of on a server: TCP/IP and its copies, epoll's readiness work, io_uring's own,
syscall entry and exit, slab, user space, idle, and the rest of the kernel. One column per report.
Used by scripts/bench-io.sh (PROFILE=1). Usage: perf-groups.py NAME=REPORT.txt [NAME=REPORT.txt ...]"""
import collections
import re
import sys

# First match wins, in this order (a symbol belongs to one group).
GROUPS = [
    ("idle", r"(safe_halt|cpuidle|do_idle|default_idle)"),
    ("syscall entry and exit", r"(do_syscall_64|entry_SYSCALL|syscall_exit|syscall_return|__x64_sys_|"
     r"exit_to_user|fpregs|switch_fpu)"),
    ("epoll readiness", r"(^ep_|epoll|sock_poll|tcp_poll|__pollwait|fdget|^fget|^fput)"),
    ("io_uring", r"(^io_|^__io|llist_|tctx_|task_work)"),
    ("TCP/IP, skb, copies", r"(tcp|skb|^ip_|inet|sock|bbr|__dev_queue|dev_hard|net_rx|napi|netif|loopback|"
     r"_copy_to_iter|_copy_from_iter|copy_user|__check_object_size|datagram|validate_xmit|dst_|eth_|"
     r"^nf_|^sk_|__sk_|release_sock|lock_sock|process_backlog|csum|page_frag|__local_bh)"),
    ("slab", r"(slab|kmem|kfree|kmalloc|memcg|objcg|refill_obj)"),
]
LINE = re.compile(r"\s+([0-9.]+)%\s+\[(.)\]\s+(\S+)")


def groups(path):
    shares = collections.Counter()
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            share, kind, symbol = float(m.group(1)), m.group(2), m.group(3)
            if kind == ".":  # user space: the server's own code and libc
                name = "user space"
            else:
                name = next((g for g, rx in GROUPS if re.search(rx, symbol)), "other kernel (scheduler, locks, timers)")
            shares[name] += share
    return shares


def main():
    if len(sys.argv) < 2 or any("=" not in a for a in sys.argv[1:]):
        sys.exit("usage: perf-groups.py NAME=REPORT.txt [NAME=REPORT.txt ...]")
    columns = [(a.split("=", 1)[0], groups(a.split("=", 1)[1])) for a in sys.argv[1:]]
    names = sorted({g for _, c in columns for g in c}, key=lambda g: -max(c[g] for _, c in columns))
    print(f"{'':40s}" + "".join(f"{n:>12s}" for n, _ in columns))
    for g in names:
        print(f"{g:40s}" + "".join(f"{c[g]:11.1f}%" for _, c in columns))


if __name__ == "__main__":
    main()
