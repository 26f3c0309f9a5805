// proc/ready.cpp — the ready channel's lines (ready.hpp).
#include "proc/ready.hpp"

#include <unistd.h>

#include "proc/io.hpp"

namespace proc {

std::optional<ReadyListener> parse_ready_line(const std::string& line) {
  const auto space = line.find(' ');
  if (space == std::string::npos || space == 0) return std::nullopt;
  const std::string addr = line.substr(space + 1);
  const auto colon = addr.rfind(':');
  if (colon == std::string::npos || colon + 1 == addr.size()) return std::nullopt;
  ReadyListener l;
  l.kind = line.substr(0, space);
  l.host = addr.substr(0, colon);
  if (l.host.size() >= 2 && l.host.front() == '[' && l.host.back() == ']')
    l.host = l.host.substr(1, l.host.size() - 2);
  unsigned port = 0;
  for (char c : addr.substr(colon + 1)) {
    if (c < '0' || c > '9' || (port = port * 10 + unsigned(c - '0')) > 65535) return std::nullopt;
  }
  l.port = static_cast<std::uint16_t>(port);
  return l;
}

std::string ready_line(const ReadyListener& l) {
  const bool v6 = l.host.find(':') != std::string::npos;
  std::string line = l.kind;
  line.append(v6 ? " [" : " ").append(l.host).append(v6 ? "]:" : ":");
  return line.append(std::to_string(l.port)).append("\n");
}

bool announce_ready(int fd, const std::vector<ReadyListener>& listeners) {
  std::string text;
  for (const ReadyListener& l : listeners) text += ready_line(l);
  const bool ok = write_all(fd, text);
  close(fd);  // EOF tells the parent that every listener is announced
  return ok;
}

}  // namespace proc
