// net/uring.hpp — what this kernel's io_uring offers the event core, asked once per process before
// `--io io_uring` is accepted: whether a ring can be set up at all (and, when not, the kernel's
// reason: no io_uring, kernel.io_uring_disabled, a seccomp filter, the memlock limit), which setup
// flags it takes (SINGLE_ISSUER, DEFER_TASKRUN, COOP_TASKRUN), and whether receives can be multishot
// into a provided-buffer ring — each found by trying it, not by the kernel's version.
#pragma once

#include <string>

namespace net {

struct UringSupport {
  bool available = false;
  std::string unavailable_reason;  // the kernel's answer when !available, one line
  bool single_issuer = false;      // IORING_SETUP_SINGLE_ISSUER (6.0)
  bool defer_taskrun = false;      // IORING_SETUP_DEFER_TASKRUN (6.1; with SINGLE_ISSUER)
  bool coop_taskrun = false;       // IORING_SETUP_COOP_TASKRUN (5.19)
  bool recv_multishot = false;     // a multishot recv into a provided-buffer ring delivered with F_MORE
  // "io_uring: single_issuer defer_taskrun recv_multishot ..." or "io_uring unavailable: <reason>".
  [[nodiscard]] std::string describe() const;
};

// Sets up and tears down small rings and one socketpair; no state is kept. Never throws.
[[nodiscard]] UringSupport probe_uring() noexcept;

}  // namespace net
