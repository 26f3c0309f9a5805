// net/uring_loop.cpp — UringLoop's ring: set-up from what the kernel offers
// (probe_uring), the provided-buffer ring, arming and cancelling operations,
// and what each completion does to its connection.
#include "net/uring_loop.hpp"

#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace net {
namespace {

constexpr unsigned kBufferGroup = 0;
constexpr std::size_t kPageBytes = 4096;
// The buffer ring's entries, rounded up to whole pages (the kernel maps them).
constexpr std::size_t kBufferRingBytes =
    (UringLoop::kBufferCount * sizeof(io_uring_buf) + kPageBytes - 1) / kPageBytes * kPageBytes;

const UringSupport& support() {
  static const UringSupport s = probe_uring();
  return s;
}

// The setup flags this process's rings use: the probe's best.
unsigned setup_flags(const UringSupport& s) noexcept {
  unsigned flags = IORING_SETUP_CQSIZE;
  if (s.single_issuer) flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED;
  if (s.defer_taskrun)
    flags |= IORING_SETUP_DEFER_TASKRUN;
  else if (s.coop_taskrun)
    flags |= IORING_SETUP_COOP_TASKRUN;
  return flags;
}

[[noreturn]] void fail_with(const std::string& what, int negative_errno) {
  throw std::runtime_error("io_uring: " + what + ": " + std::strerror(-negative_errno));
}

}  // namespace

std::string UringLoop::describe() {
  const UringSupport& s = support();
  if (!s.available) return s.describe();
  std::string out = "io_uring:";
  out += s.recv_multishot ? " multishot recv" : " single-shot recv";
  out += " into a provided-buffer ring (" + std::to_string(kBufferCount) + " x " +
         std::to_string(kBufferBytes / 1024) + " KiB), one send per connection, one enter per turn";
  if (s.single_issuer) out += ", SINGLE_ISSUER";
  if (s.defer_taskrun)
    out += ", DEFER_TASKRUN";
  else if (s.coop_taskrun)
    out += ", COOP_TASKRUN";
  out += "; accept and connect by readiness (poll); no registered files";
  return out;
}

UringLoop::UringLoop() {
  const UringSupport& s = support();
  if (!s.available) throw std::runtime_error(s.describe());
  multishot_ = s.recv_multishot;
  io_uring_params params{};
  params.flags = setup_flags(s);
  params.cq_entries = kCompletionEntries;
  if (const int rc = io_uring_queue_init_params(kRingEntries, &ring_, &params); rc < 0)
    fail_with("io_uring_setup", rc);
  ring_ready_ = true;
  try {
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake_ < 0) fail_with("eventfd", -errno);
    // The buffer ring: one page-aligned region for its entries, one for the buffers.
    // (liburing 2.3 has no io_uring_setup_buf_ring: registered by hand.)
    buffer_ring_ = static_cast<io_uring_buf_ring*>(std::aligned_alloc(kPageBytes, kBufferRingBytes));
    if (buffer_ring_ == nullptr) throw std::bad_alloc();
    std::memset(buffer_ring_, 0, kBufferRingBytes);
    io_uring_buf_reg reg{};
    reg.ring_addr = reinterpret_cast<std::uintptr_t>(buffer_ring_);
    reg.ring_entries = kBufferCount;
    reg.bgid = kBufferGroup;
    if (const int rc = io_uring_register_buf_ring(&ring_, &reg, 0); rc < 0) {
      std::free(buffer_ring_);
      buffer_ring_ = nullptr;
      fail_with("a provided-buffer ring (kernel 5.19+)", rc);
    }
    io_uring_buf_ring_init(buffer_ring_);
    buffers_ = std::make_unique<std::uint8_t[]>(std::size_t{kBufferCount} * kBufferBytes);
    for (unsigned i = 0; i < kBufferCount; ++i)
      io_uring_buf_ring_add(buffer_ring_, buffers_.get() + std::size_t{i} * kBufferBytes, kBufferBytes,
                            static_cast<unsigned short>(i), io_uring_buf_ring_mask(kBufferCount),
                            static_cast<int>(i));
    io_uring_buf_ring_advance(buffer_ring_, kBufferCount);
  } catch (...) {
    if (wake_ >= 0) ::close(wake_);
    io_uring_queue_exit(&ring_);
    std::free(buffer_ring_);
    throw;
  }
  arm_poll(wake_, EPOLLIN, &wake_tag_, true);
}

UringLoop::~UringLoop() {
  // The ring first: the kernel ends every operation and lets go of the
  // buffers and of the sockets' files; then what they pointed at.
  io_uring_queue_exit(&ring_);
  std::free(buffer_ring_);
  ::close(wake_);
}

io_uring_sqe* UringLoop::sqe() noexcept {
  io_uring_sqe* e = io_uring_get_sqe(&ring_);
  if (e != nullptr) return e;
  // The queue is full within one turn (thousands of connections, or a
  // loader connecting all of them before its first turn): in with what is
  // there. Only the running thread fills a queue, so it may enable the ring.
  enable();
  io_uring_submit(&ring_);
  return io_uring_get_sqe(&ring_);
}

void UringLoop::enable() noexcept {
  if (enabled_) return;
  enabled_ = true;
  // (liburing 2.3 declares io_uring_enable_rings but its library lacks it: the register call itself.)
  if (support().single_issuer)
    syscall(__NR_io_uring_register, ring_.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0);
}

void UringLoop::wait(int timeout_ms) noexcept {
  enable();
  io_uring_cqe* cqe = nullptr;
  if (timeout_ms < 0) {
    io_uring_submit_and_wait(&ring_, 1);
    return;
  }
  __kernel_timespec ts{};
  ts.tv_sec = timeout_ms / 1000;
  ts.tv_nsec = static_cast<long long>(timeout_ms % 1000) * 1'000'000;
  io_uring_submit_and_wait_timeout(&ring_, &cqe, 1, &ts, nullptr);
}

void UringLoop::arm_poll(int fd, std::uint32_t events, Pollable* p, bool multishot) noexcept {
  io_uring_sqe* e = sqe();
  if (e == nullptr) return;
  if (multishot)
    io_uring_prep_poll_multishot(e, fd, events);
  else
    io_uring_prep_poll_add(e, fd, events);
  const std::uint16_t generation =
      p->kind == Pollable::Kind::connection ? static_cast<Connection*>(p)->ring.generation : 0;
  io_uring_sqe_set_data64(e, tag(p, kOpPoll, generation));
  if (p->kind == Pollable::Kind::connection) {
    ++static_cast<Connection*>(p)->ring.in_flight;
    static_cast<Connection*>(p)->ring.poll_armed = true;
  }
}

void UringLoop::arm_recv(Connection& c) noexcept {
  io_uring_sqe* e = sqe();
  if (e == nullptr) return;
  if (multishot_)
    io_uring_prep_recv_multishot(e, c.fd, nullptr, 0, 0);
  else
    io_uring_prep_recv(e, c.fd, nullptr, 0, 0);
  e->flags |= IOSQE_BUFFER_SELECT;
  e->buf_group = kBufferGroup;
  io_uring_sqe_set_data64(e, tag(&c, kOpRecv, c.ring.generation));
  c.ring.recv_armed = true;
  c.ring.recv_cancelled = false;
  ++c.ring.in_flight;
}

void UringLoop::cancel(std::uint64_t user_data) noexcept {
  io_uring_sqe* e = sqe();
  if (e == nullptr) return;
  io_uring_prep_cancel64(e, user_data, 0);
  io_uring_sqe_set_data64(e, kOpNone);
}

void UringLoop::recycle(unsigned buffer_id) noexcept {
  io_uring_buf_ring_add(buffer_ring_, buffers_.get() + std::size_t{buffer_id} * kBufferBytes, kBufferBytes,
                        static_cast<unsigned short>(buffer_id), io_uring_buf_ring_mask(kBufferCount),
                        static_cast<int>(buffers_added_));
  ++buffers_added_;
}

void UringLoop::add(int fd, std::uint32_t events, Pollable* p) {
  if (!try_add(fd, events, p)) throw std::runtime_error("io_uring: no submission entry for a listener");
}

bool UringLoop::try_add(int fd, std::uint32_t events, Pollable* p) noexcept {
  if (p->kind != Pollable::Kind::connection) {
    arm_poll(fd, events, p, true);
    return true;
  }
  auto& c = *static_cast<Connection*>(p);
  c.ring = RingState{.generation = c.ring.generation, .in_flight = c.ring.in_flight};
  c.events = events;
  if ((events & EPOLLIN) != 0)
    arm_recv(c);
  else
    arm_poll(fd, events, p, false);  // a connect in progress: told once
  return true;
}

void UringLoop::set_interest(Connection& c, std::uint32_t want) noexcept {
  c.events = want;
  if ((want & EPOLLIN) != 0) {
    // Armed again here, or by the cancelled receive's last completion.
    if (!c.ring.recv_armed && !c.ring.eof && c.ring.read_error == 0) arm_recv(c);
  } else if (c.ring.recv_armed && !c.ring.recv_cancelled) {
    c.ring.recv_cancelled = true;
    cancel(tag(&c, kOpRecv, c.ring.generation));
  }
}

ReadResult UringLoop::read(Connection& c, std::size_t) noexcept {
  if (c.ring.received_bytes != 0) {
    const std::size_t n = c.ring.received_bytes;
    c.ring.received_bytes = 0;
    return {n, 0, ReadResult::Status::data};
  }
  if (c.ring.read_error != 0) return {0, c.ring.read_error, ReadResult::Status::failed};
  if (c.ring.eof) return {0, 0, ReadResult::Status::eof};
  return {0, 0, ReadResult::Status::again};
}

ReadResult UringLoop::discard(Connection& c, void*, std::size_t) noexcept {
  const ReadResult r = read(c, 0);
  c.in.clear();
  return r;
}

FlushResult UringLoop::flush(Connection& c) noexcept {
  FlushResult r{FlushResult::Status::drained};
  r.sent_bytes = c.ring.sent_bytes;
  c.ring.sent_bytes = 0;
  if (c.ring.send_error != 0) {
    r.status = FlushResult::Status::failed;
    r.error = c.ring.send_error;
    return r;
  }
  if (c.out.empty()) return r;
  r.status = FlushResult::Status::blocked;
  if (c.ring.send_in_flight) return r;
  io_uring_sqe* e = sqe();
  if (e == nullptr) return r;  // never with a ring of kRingEntries submitted as it fills
  const auto data = c.out.readable();
  io_uring_prep_send(e, c.fd, data.data(), data.size(), MSG_NOSIGNAL);
  io_uring_sqe_set_data64(e, tag(&c, kOpSend, c.ring.generation));
  c.out.pin();
  c.ring.send_in_flight = true;
  ++c.ring.in_flight;
  return r;
}

bool UringLoop::close(Connection& c) noexcept {
  if (c.ring.recv_armed && !c.ring.recv_cancelled) cancel(tag(&c, kOpRecv, c.ring.generation));
  if (c.ring.send_in_flight) cancel(tag(&c, kOpSend, c.ring.generation));
  // A connect's poll is cancelled too: the ring's poll holds a reference to
  // the socket's file, so close(fd) alone does not end it, and a socket that
  // never becomes writable (a peer that does not read, a connect that hangs)
  // would keep its slot from on_closed (net_uring_loop_test found it).
  if (c.ring.poll_armed) cancel(tag(&c, kOpPoll, c.ring.generation));
  // What is queued for this socket goes in before its descriptor closes: the
  // kernel finds a queued operation's file by the descriptor's number when it
  // is submitted, so a send queued in this turn and submitted after the close
  // would go out on whatever socket is accepted next under the same number
  // (tests/server/hostile_test.cpp's resetters: a ZAP-HTTP connection's
  // answers read on the next connection, a ZAP-RPC one). Closes are rare, so
  // this costs one io_uring_enter per close with work queued.
  if (io_uring_sq_ready(&ring_) > 0) {
    enable();
    io_uring_submit(&ring_);
  }
  ::close(c.fd);
  ++c.ring.generation;
  if (c.ring.in_flight == 0) return true;
  c.ring.closed = true;
  link_closing(&c);
  return false;
}

std::uint32_t UringLoop::apply(Connection& c, Op op, std::uint16_t generation, int res, unsigned flags,
                               bool more) noexcept {
  const bool stale = generation != c.ring.generation;
  if (!more) --c.ring.in_flight;
  switch (op) {
    case kOpRecv: {
      if ((flags & IORING_CQE_F_BUFFER) != 0) {
        const unsigned id = flags >> IORING_CQE_BUFFER_SHIFT;
        if (!stale && res > 0) c.in.append(buffer(id), static_cast<std::size_t>(res));
        recycle(id);
      }
      if (stale) return 0;
      if (!more) c.ring.recv_armed = false;
      if (res > 0) {
        c.ring.received_bytes += static_cast<std::uint32_t>(res);
        // A receive that ended with data (single-shot, or the kernel ended the
        // multishot) is armed again while the handler reads.
        if (!more && (c.events & EPOLLIN) != 0) arm_recv(c);
        return EPOLLIN;
      }
      if (res == 0) {
        c.ring.eof = true;
        return EPOLLIN | EPOLLRDHUP;
      }
      if (res == -ENOBUFS || res == -ECANCELED) {  // out of buffers for now; or the handler stopped reading
        if ((c.events & EPOLLIN) != 0) arm_recv(c);
        return 0;
      }
      c.ring.read_error = -res;
      return EPOLLIN | EPOLLERR;
    }
    case kOpSend:
      if (more) return 0;  // (a send does not come in parts; zero-copy sends are not used)
      c.out.unpin();
      if (stale) return 0;
      c.ring.send_in_flight = false;
      if (res >= 0) {
        c.out.consume(static_cast<std::size_t>(res));
        c.out.compact();  // the next send starts at the front, and appends have the rest
        c.ring.sent_bytes += static_cast<std::uint32_t>(res);
      } else if (res != -ECANCELED) {
        c.ring.send_error = -res;
      }
      return EPOLLOUT;
    case kOpPoll:
      if (!more) c.ring.poll_armed = false;
      if (stale) return 0;
      return res > 0 ? static_cast<std::uint32_t>(res) : EPOLLERR;
    case kOpNone:
      break;
  }
  return 0;
}

void UringLoop::link_closing(Connection* c) noexcept {
  c->prev = nullptr;
  c->next = closing_;
  if (closing_ != nullptr) closing_->prev = c;
  closing_ = c;
}

void UringLoop::unlink_closing(Connection* c) noexcept {
  if (c->prev != nullptr)
    c->prev->next = c->next;
  else
    closing_ = c->next;
  if (c->next != nullptr) c->next->prev = c->prev;
  c->prev = c->next = nullptr;
}

void UringLoop::stop() noexcept {
  set_stop();
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(wake_, &one, sizeof one);
}

void UringLoop::quiet_wake() noexcept {
  quiet_ = true;
  cancel(tag(&wake_tag_, kOpPoll, 0));
}

}  // namespace net
