// net/uring.cpp — probe_uring (uring.hpp): each feature tried on a throwaway ring.
#include "net/uring.hpp"

#include <liburing.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace net {
namespace {

constexpr unsigned kProbeEntries = 8;

// A ring set up with `flags`: 0 on success (the ring is torn down again), else -errno.
int try_flags(unsigned flags) noexcept {
  io_uring ring;
  io_uring_params p{};
  p.flags = flags;
  const int rc = io_uring_queue_init_params(kProbeEntries, &ring, &p);
  if (rc == 0) io_uring_queue_exit(&ring);
  return rc;
}

// Why the kernel said no: its errno, and the sysctl that most often says so.
std::string reason_of(int rc) {
  std::string why = std::string("io_uring_setup: ") + std::strerror(-rc);
  std::ifstream sysctl("/proc/sys/kernel/io_uring_disabled");
  int disabled = 0;
  if (sysctl >> disabled) why += " (kernel.io_uring_disabled = " + std::to_string(disabled) + ")";
  if (rc == -ENOSYS) why += "; the kernel has no io_uring";
  if (rc == -EPERM && disabled == 0) why += "; a seccomp filter or the container's policy refuses it";
  return why;
}

// One byte through a socketpair, received by a multishot recv into a one-buffer provided ring: the
// completion must carry the byte and IORING_CQE_F_MORE (the request stays armed).
bool try_recv_multishot() noexcept {
  io_uring ring;
  if (io_uring_queue_init(kProbeEntries, &ring, 0) != 0) return false;
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    io_uring_queue_exit(&ring);
    return false;
  }
  bool ok = false;
  constexpr unsigned kGroup = 1;
  constexpr unsigned kBufferBytes = 64;
  // The buffer ring's memory: page-aligned, from the heap (a probe, once per process; a static array
  // cast to io_uring_buf_ring trips GCC 12's -Warray-bounds inside liburing.h).
  void* ring_mem = std::aligned_alloc(4096, 4096);
  if (ring_mem == nullptr) {
    close(fds[0]);
    close(fds[1]);
    io_uring_queue_exit(&ring);
    return false;
  }
  std::memset(ring_mem, 0, 4096);
  alignas(64) unsigned char buffer[kBufferBytes] = {};
  auto* br = static_cast<io_uring_buf_ring*>(ring_mem);
  io_uring_buf_reg reg{};
  reg.ring_addr = reinterpret_cast<unsigned long>(br);
  reg.ring_entries = 1;
  reg.bgid = kGroup;
  if (io_uring_register_buf_ring(&ring, &reg, 0) == 0) {
    io_uring_buf_ring_init(br);
    io_uring_buf_ring_add(br, buffer, kBufferBytes, 0, io_uring_buf_ring_mask(1), 0);
    io_uring_buf_ring_advance(br, 1);
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    io_uring_prep_recv_multishot(sqe, fds[0], nullptr, 0, 0);
    sqe->flags |= IOSQE_BUFFER_SELECT;
    sqe->buf_group = kGroup;
    io_uring_submit(&ring);
    const char byte = 'z';
    io_uring_cqe* cqe = nullptr;
    if (write(fds[1], &byte, 1) == 1 && io_uring_wait_cqe(&ring, &cqe) == 0) {
      ok = cqe->res == 1 && (cqe->flags & IORING_CQE_F_MORE) != 0 && buffer[0] == 'z';
      io_uring_cqe_seen(&ring, cqe);
    }
    io_uring_unregister_buf_ring(&ring, kGroup);
  }
  close(fds[0]);  // also ends the armed recv
  close(fds[1]);
  io_uring_queue_exit(&ring);  // before the buffers go: the kernel lets go of them here
  std::free(ring_mem);
  return ok;
}

}  // namespace

UringSupport probe_uring() noexcept {
  UringSupport s;
  try {
    if (const int rc = try_flags(0); rc != 0) {
      s.unavailable_reason = reason_of(rc);
      return s;
    }
    s.available = true;
    s.coop_taskrun = try_flags(IORING_SETUP_COOP_TASKRUN) == 0;
    s.single_issuer = try_flags(IORING_SETUP_SINGLE_ISSUER) == 0;
    s.defer_taskrun =
        s.single_issuer && try_flags(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN) == 0;
    s.recv_multishot = try_recv_multishot();
  } catch (...) {  // reason_of's strings: out of memory only
    s.available = false;
    s.unavailable_reason = "io_uring probe: out of memory";
  }
  return s;
}

std::string UringSupport::describe() const {
  if (!available) return "io_uring unavailable: " + unavailable_reason;
  std::string out = "io_uring:";
  out += single_issuer ? " single_issuer" : " no-single_issuer";
  out += defer_taskrun ? " defer_taskrun" : " no-defer_taskrun";
  out += coop_taskrun ? " coop_taskrun" : " no-coop_taskrun";
  out += recv_multishot ? " recv_multishot" : " no-recv_multishot";
  return out;
}

}  // namespace net
