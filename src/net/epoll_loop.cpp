// net/epoll_loop.cpp — the epoll loop's system calls: epoll and eventfd
// set-up (checked), registration, the cross-thread wake-up.
#include "net/epoll_loop.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include "net/socket.hpp"

namespace net {

EpollLoop::EpollLoop() {
  epoll_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_ < 0) fail("epoll_create1");
  wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_ < 0) {
    const int e = errno;
    ::close(epoll_);
    errno = e;
    fail("eventfd");
  }
  if (!try_add(wake_, EPOLLIN, &wake_tag_)) {
    const int e = errno;
    ::close(wake_);
    ::close(epoll_);
    errno = e;
    fail("epoll_ctl");
  }
}

EpollLoop::~EpollLoop() {
  ::close(wake_);
  ::close(epoll_);
}

void EpollLoop::add(int fd, std::uint32_t events, Pollable* tag) {
  if (!try_add(fd, events, tag)) fail("epoll_ctl");
}

bool EpollLoop::try_add(int fd, std::uint32_t events, Pollable* tag) noexcept {
  epoll_event e{};
  e.events = events;
  e.data.ptr = tag;
  return epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &e) == 0;
}

void EpollLoop::modify(int fd, std::uint32_t events, Pollable* tag) noexcept {
  epoll_event e{};
  e.events = events;
  e.data.ptr = tag;
  epoll_ctl(epoll_, EPOLL_CTL_MOD, fd, &e);
}

void EpollLoop::stop() noexcept {
  set_stop();
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(wake_, &one, sizeof one);
}

void EpollLoop::quiet_wake() noexcept { epoll_ctl(epoll_, EPOLL_CTL_DEL, wake_, nullptr); }

}  // namespace net
