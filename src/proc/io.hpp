// proc/io.hpp — descriptors and files between processes: a whole write to a
// pipe whose reader may be gone, complete lines out of what was read, a poll
// over children's outputs, a file read whole, a deadline. Used by the
// supervisor (bench), the hosts protocol and the loader's side of it.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace proc {

// A file a child wrote (its log, its result file), whole; empty when it
// cannot be read.
std::string read_file(const std::filesystem::path& path);

// Writes all of `text` to `fd` (a pipe to a child, or to whoever reads this
// process): false when the reader is gone (EPIPE) or on another error.
// SIGPIPE is blocked around the write (and a pending one consumed), so a
// reader that is gone is an error to handle whatever the process's own
// disposition of SIGPIPE.
bool write_all(int fd, std::string_view text);

// Calls on_line(line) for every complete line at the front of `buf` (without
// its '\n') and erases them; a partial last line stays for the next read.
template <class OnLine>
void take_lines(std::string& buf, OnLine on_line) {
  std::size_t from = 0;
  for (std::size_t nl; (nl = buf.find('\n', from)) != std::string::npos; from = nl + 1)
    on_line(buf.substr(from, nl - from));
  buf.erase(0, from);
}

// Waits up to `wait_ms` for any of `fds` (the read ends of children's
// stdout) to be readable, then reads each that is: on_read(i, bytes) with
// what came, or on_read(i, {}) at its end of file (or a read error). False
// when poll itself failed. The caller's loop owns its deadline and state.
// Throws Interrupted (interrupt.hpp) once the run's interrupt came: the
// caller's Childs end the children whose outputs these are.
bool read_some(const std::vector<int>& fds, int wait_ms,
               const std::function<void(std::size_t, std::string_view)>& on_read);

// A steady-clock deadline `seconds` from now.
inline std::chrono::steady_clock::time_point deadline_after(double seconds) {
  return std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                std::chrono::duration<double>(seconds));
}

}  // namespace proc
