// tests/support/test_listener.hpp — a listening socket on 127.0.0.1:0 for the loader tests' own servers: an
// accept thread, and one thread per connection running the test's serve(fd) (the socket closed after it).
// Owns sockets and threads only; what a connection answers is the test's.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace zaptest {

// A blocking listener on 127.0.0.1:0: an accept thread and one thread per connection running serve(fd), which
// must return within ~10 ms of stopping() becoming true; the thread then closes fd. stop() (or the
// destructor) closes the listener and joins every connection's thread.
class TestListener {
 public:
  using Serve = std::function<void(int fd)>;

  explicit TestListener(Serve serve) : serve_(std::move(serve)) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listen_fd_, 64) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      ADD_FAILURE() << "test server: cannot listen";
    port_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~TestListener() { stop(); }
  std::uint16_t port() const { return port_; }
  bool stopping() const { return stopped_; }

  void stop() {
    if (stopped_.exchange(true)) return;
    acceptor_.join();
    close(listen_fd_);
    for (std::thread& t : conns_) t.join();  // each closes its socket within ~10 ms
  }

 private:
  void accept_loop() {
    while (!stopped_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 10) <= 0) continue;
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      const int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      conns_.emplace_back([this, fd] {
        serve_(fd);
        close(fd);
      });
    }
  }

  Serve serve_;
  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopped_{false};
  std::thread acceptor_;
  std::vector<std::thread> conns_;  // touched by the accept thread only, until stop() joins it
};

}  // namespace zaptest
