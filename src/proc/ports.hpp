// proc/ports.hpp — a port for a child that cannot choose its own and cannot
// say when it listens (nginx, h2o, nghttpd): a free one chosen for it, and
// whether it accepts yet. Used where a server is launched, here and on a
// server host (bench/hosts/remote_child.hpp).
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace proc {

// A port free at the time of the call (nginx needs one up front): on
// loopback, or with `any_address` on every address of the host (a server
// other hosts dial: remote_child.hpp's {port}); 0 when none could be had.
// Another process could take it before the server binds it; the server then
// fails to bind and says so.
std::uint16_t free_port(bool any_address = false);

// Whether 127.0.0.1:port accepts a TCP connection now (one attempt, at most
// 100 ms).
bool accepting(std::uint16_t port);

// Polls accepting() until it holds or timeout_s (a hang bound) passes; with
// `watched` (the server's pid, its parent's child), also until that process
// has ended: a server that exits at its start fails at once, not after the
// bound.
bool wait_accepting(std::uint16_t port, double timeout_s, pid_t watched = 0);

// Whether the child `pid` has ended, without reaping it (its parent still
// collects its status); false for a process that is not this one's child.
bool child_ended(pid_t pid);

}  // namespace proc
