// server/listen.hpp — the listening socket every server in this folder opens:
// an address (Endpoint) and a non-blocking SO_REUSEPORT listener on it, so
// each worker thread has its own socket on the same port and the kernel
// spreads new connections over them. Shared by server.cpp (zapbench serve)
// and floor.cpp (the floor arm) so both bind exactly alike.
#pragma once

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace server {

struct Endpoint {
  std::string host;
  std::uint16_t port = 0;  // 0: the kernel picks one (see Server::bound, Floor::bound)
};

// Throws std::runtime_error("<what>: <strerror(errno)>").
[[noreturn]] inline void fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

// A listening socket on ep with SO_REUSEPORT; bound_port gets the port the
// kernel gave (ep.port, or a free one for 0). Throws std::runtime_error with
// the address and the reason when it cannot resolve, bind or listen.
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

}  // namespace server
