// proc/ready.hpp — the ready channel, both sides: a server started by another
// process (zapbench serve and floor, zapbench-grpc; the Go arms speak the same
// lines) gets a pipe as `--ready-fd N`, writes one line per bound listener on
// it and closes it; the parent (bench/children/supervisor.hpp) reads it to its end.
// Readiness is that event, never a line of a log. Owns the line format only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace proc {

// One line of the ready channel: "<kind> <host>:<port>", e.g. "http 127.0.0.1:8080".
struct ReadyListener {
  std::string kind;  // http, zap, floor...
  std::string host;
  std::uint16_t port = 0;
};
// Parses one ready line; nullopt when it is not "<kind> <host>:<port>".
std::optional<ReadyListener> parse_ready_line(const std::string& line);
// The line for a listener ("zap [::1]:9999\n" for IPv6 hosts).
std::string ready_line(const ReadyListener& l);

// The child's side (zapbench serve and floor, after every listener is
// bound): writes one line per listener to `fd`, then closes it. False when
// the write failed (the parent is gone): the caller carries on regardless.
bool announce_ready(int fd, const std::vector<ReadyListener>& listeners);

}  // namespace proc
