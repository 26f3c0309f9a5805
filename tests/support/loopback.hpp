// tests/support/loopback.hpp — the one way a test opens a TCP connection to a
// server on this machine, and finds a port nothing listens on. Owns the
// socket calls only; what is sent and read is the caller's.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace zaptest {

// A blocking socket connected to 127.0.0.1:port (close-on-exec, TCP_NODELAY
// on: every send() leaves as its own segment). rcvbuf_bytes > 0: SO_RCVBUF
// set before connect(), so the window the server sees stays small (a client
// that does not read fills it at once). A failed connect fails the test and
// still returns the descriptor (its reads then fail at once).
inline int connect_loopback(std::uint16_t port, int rcvbuf_bytes = 0) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (rcvbuf_bytes > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf_bytes, sizeof rcvbuf_bytes);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0)
      << "connect to 127.0.0.1:" << port << ": " << std::strerror(errno);
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

// A loopback port nothing listens on: bound by the kernel's choice, then
// closed (another process could take it meanwhile; tests use it at once).
inline std::uint16_t dead_port() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  close(fd);
  return ntohs(a.sin_port);
}

}  // namespace zaptest
