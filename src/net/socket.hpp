// net/socket.hpp — the socket calls every user of the event core makes alike:
// an address (Endpoint), the SO_REUSEPORT listening socket, resolving a
// target, TCP_NODELAY, one read and the unread-bytes probe, each with its
// errno folded into a small result. Owns no loop and no connection state.
#pragma once

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace net {

struct Endpoint {
  std::string host;
  std::uint16_t port = 0;  // 0: the kernel picks one (see Server::bound, Floor::bound)
};

// Throws std::runtime_error("<what>: <strerror(errno)>").
[[noreturn]] inline void fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

// A listening socket on ep with SO_REUSEPORT, so each worker thread has its
// own socket on the same port and the kernel spreads new connections over
// them; bound_port gets the port the kernel gave (ep.port, or a free one for
// 0). Throws std::runtime_error with the address and the reason when it
// cannot resolve, bind or listen.
inline int listen_on(const Endpoint& ep, std::uint16_t& bound_port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  const std::string port = std::to_string(ep.port);
  if (int rc = getaddrinfo(ep.host.empty() ? nullptr : ep.host.c_str(), port.c_str(), &hints, &res); rc != 0)
    throw std::runtime_error("cannot resolve '" + ep.host + "': " + gai_strerror(rc));
  const int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    freeaddrinfo(res);
    fail("socket");
  }
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  if (bind(fd, res->ai_addr, res->ai_addrlen) != 0) {
    const int e = errno;
    freeaddrinfo(res);
    close(fd);
    errno = e;
    fail("cannot listen on " + ep.host + ":" + port);
  }
  freeaddrinfo(res);
  if (listen(fd, 4096) != 0) {
    const int e = errno;
    close(fd);
    errno = e;
    fail("listen");
  }
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  bound_port = ntohs(ss.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  return fd;
}

// A resolved target for connect(); throws std::runtime_error when the host
// does not resolve.
struct Address {
  sockaddr_storage storage{};
  socklen_t length = 0;
};
inline Address resolve(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res); rc != 0)
    throw std::runtime_error("cannot resolve '" + host + "': " + gai_strerror(rc));
  Address a;
  std::memcpy(&a.storage, res->ai_addr, res->ai_addrlen);
  a.length = res->ai_addrlen;
  freeaddrinfo(res);
  return a;
}

// Small answers go out at once (every user writes whole messages per send).
inline void set_nodelay(int fd) noexcept {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// The outcome of one read(): data (bytes > 0), eof (the peer closed), again
// (nothing there now), failed (errno in error; EINTR is retried, never seen).
// 16 bytes, so it comes back in registers.
struct ReadResult {
  enum class Status : std::uint8_t { data, eof, again, failed };
  std::size_t bytes = 0;
  int error = 0;
  Status status = Status::again;
};
inline ReadResult read_some(int fd, void* p, std::size_t n) noexcept {
  for (;;) {
    const ssize_t got = ::read(fd, p, n);
    if (got > 0) return {static_cast<std::size_t>(got), 0, ReadResult::Status::data};
    if (got == 0) return {0, 0, ReadResult::Status::eof};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {0, 0, ReadResult::Status::again};
    return {0, errno, ReadResult::Status::failed};
  }
}

// Bytes wait unread in fd's receive queue (FIONREAD). A timeout uses it to
// tell a peer that went quiet from one whose bytes this loop has not read yet
// because a long batch of other events kept it busy. A syscall: ask it only
// of a connection already past a timeout.
inline bool unread_bytes_waiting(int fd) noexcept {
  int unread = 0;
  return ioctl(fd, FIONREAD, &unread) == 0 && unread > 0;
}

}  // namespace net
