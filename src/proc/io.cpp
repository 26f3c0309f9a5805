// proc/io.cpp — descriptors and files between processes (io.hpp).
#include "proc/io.hpp"

#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <ctime>
#include <fstream>
#include <sstream>

#include "proc/interrupt.hpp"

namespace proc {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool write_all(int fd, std::string_view text) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  bool ok = fd >= 0;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n > 0)
      done += std::size_t(n);
    else if (!(n < 0 && errno == EINTR))
      ok = false;
  }
  if (!ok && errno == EPIPE) {
    const timespec zero{};
    while (sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

bool read_some(const std::vector<int>& fds, int wait_ms,
               const std::function<void(std::size_t, std::string_view)>& on_read) {
  throw_if_interrupted();
  std::vector<pollfd> p;
  p.reserve(fds.size() + 1);
  for (int fd : fds) p.push_back(pollfd{fd, POLLIN, 0});
  if (interrupt_fd() >= 0) p.push_back(pollfd{interrupt_fd(), POLLIN, 0});  // last: wakes the wait at once
  const int n = poll(p.data(), p.size(), wait_ms);
  if (n < 0) return errno == EINTR;
  throw_if_interrupted();
  for (std::size_t i = 0; n > 0 && i < fds.size(); ++i) {
    if (p[i].revents == 0) continue;
    char b[64 * 1024];
    const ssize_t got = read(p[i].fd, b, sizeof b);
    if (got > 0)
      on_read(i, std::string_view(b, std::size_t(got)));
    else if (got == 0 || errno != EINTR)
      on_read(i, {});
  }
  return true;
}

}  // namespace proc
