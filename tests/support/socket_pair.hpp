// tests/support/socket_pair.hpp — a non-blocking Unix stream pair for the
// event-core tests (tests/net): fd[0] is the connection under test, fd[1] its
// peer. Owns both descriptors; close_peer() closes the peer's early.
#pragma once

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

namespace zaptest {

struct SocketPair {
  SocketPair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fd), 0); }
  ~SocketPair() {
    for (int f : fd)
      if (f >= 0) close(f);
  }
  SocketPair(const SocketPair&) = delete;
  SocketPair& operator=(const SocketPair&) = delete;
  void close_peer() {
    close(fd[1]);
    fd[1] = -1;
  }
  int fd[2] = {-1, -1};
};

}  // namespace zaptest
