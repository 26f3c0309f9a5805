// calibrate/calibrate.hpp — the calibration: a yardstick of the machine that no change to zapbench's
// product code can move. `zapbench compare` tells "the machine moved between the two runs" from "our
// build moved" by how these figures moved; so this component shares no code with the product (it
// includes and links nothing of net, load, server, record, zap or proc: only libc, libstdc++ and
// pthreads), and what it measures is fixed here, versioned by kVersion.
//
//   - CPU and memory work (work.cpp): an integer dependency chain (spin), a memcpy, a dependent
//     pointer chase over a buffer larger than L2; the micro rows Calibrate/<work> and
//     `zapbench calibrate` time them.
//   - The ping-pong (ping_pong.cpp): one TCP connection over loopback between two pinned threads,
//     `depth` small messages in flight, echoed; round trips per second, latency percentiles and each
//     side's CPU per round trip. The kernel's wake-up and loopback path, as every arm's sample meets
//     it, without any of our server or loader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace calibrate {

// The calibration's own version. Two runs' calibrations can only be compared when their versions are
// equal: bump it whenever anything here that decides what is measured changes — the work's code, its
// sizes and step counts, the ping-pong's protocol, its defaults, how a figure is computed.
inline constexpr std::string_view kVersion = "2";

// ---------------------------------------------------------------- CPU and memory work (work.cpp)

// One op of each work, as the micro rows (Calibrate/<name>) and measure_work() time it.
inline constexpr std::uint64_t kSpinStepsPerOp = 1024;
inline constexpr std::size_t kCopySmallBytes = 4 * 1024;      // Calibrate/memcpy-4KiB: in L1
inline constexpr std::size_t kCopyLargeBytes = 1024 * 1024;   // Calibrate/memcpy-1MiB: L2 and beyond
inline constexpr std::size_t kChaseBytes = 16 * 1024 * 1024;  // Calibrate/chase-16MiB: memory latency
inline constexpr std::uint64_t kChaseStepsPerOp = 1024;

// `steps` steps of a fixed integer dependency chain (xorshift, then a multiply by an odd constant)
// from `seed`; the same seed and steps always give the same value. Each step needs the previous one's
// result, so the chain can neither be vectorised nor overlapped; compiled in its own translation
// unit and its result returned, it cannot be folded either. It measures the core's clock and its
// integer latency, nothing else.
std::uint64_t spin(std::uint64_t seed, std::uint64_t steps) noexcept;

// std::memcpy, out of line: the caller's compiler sees neither the bytes nor where they go, so the copy
// is always made, with libc's memcpy (the one this machine's CPU selects).
void copy(void* dst, const void* src, std::size_t bytes) noexcept;

// The work's buffers: anonymous memory of its own mapping (mmap), page-aligned, on small pages
// (MADV_NOHUGEPAGE), written once (its pages faulted in). Where a heap allocation lands, and so its
// alignment and whether it shares a huge page, depends on what the process allocated before (the
// product's benchmarks) and on the system's transparent-huge-page setting; memcpy's and the chase's
// times depend on both (here, a 4 KiB copy to a destination 16 bytes off the source's alignment took
// over ten times as long). A mapping of its own depends on neither.
class Pages {
 public:
  Pages(std::size_t bytes, unsigned char fill);  // throws std::bad_alloc when it cannot map them
  Pages(const Pages&) = delete;
  Pages& operator=(const Pages&) = delete;
  ~Pages();
  unsigned char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return bytes_; }

 private:
  unsigned char* data_;
  std::size_t bytes_;
};

// What Calibrate/memcpy-* copy: `bytes` from one set of Pages to another, both at the start of a page.
class Copy {
 public:
  explicit Copy(std::size_t bytes) : from_(bytes, 1), to_(bytes, 0) {}
  void run() const noexcept { copy(to_.data(), from_.data(), from_.size()); }
  const unsigned char* to() const noexcept { return to_.data(); }

 private:
  Pages from_, to_;
};

// A dependent pointer chase: the buffer's cache lines form one cycle in a fixed pseudo-random order
// (a seeded Sattolo shuffle), so each step is a load whose address is the previous load's value, on a
// line the prefetchers cannot guess. Over a buffer much larger than L2 it measures memory latency
// (with a TLB miss on most steps: the pages are small ones, everywhere).
class Chase {
 public:
  // `bytes` is rounded down to whole cache lines (at least two).
  explicit Chase(std::size_t bytes);
  // Follows the cycle `steps` times from line `from`; returns the line it ends on (walking lines()
  // steps returns to `from`).
  std::uint32_t walk(std::uint32_t from, std::uint64_t steps) const noexcept;
  std::size_t lines() const noexcept { return lines_; }

 private:
  struct alignas(64) Line {
    std::uint32_t next;
  };
  std::size_t lines_;
  Pages pages_;
  Line* line_;  // lines_ of them, in pages_
};

// ns per op of each work, on the calling thread's CPU clock (as the micro rows report CPU time).
struct WorkFigures {
  double spin_ns_per_op = 0;         // one op: spin(seed, kSpinStepsPerOp)
  double memcpy_4kib_ns_per_op = 0;  // one op: copy(kCopySmallBytes)
  double memcpy_1mib_ns_per_op = 0;  // one op: copy(kCopyLargeBytes)
  double chase_16mib_ns_per_op = 0;  // one op: kChaseStepsPerOp steps over kChaseBytes
};
// Runs each work for at least `min_time_s` of the calling thread's CPU time (the caller pins it).
WorkFigures measure_work(double min_time_s);

// ---------------------------------------------------------------- the ping-pong (ping_pong.cpp)

struct PingPongOptions {
  std::vector<int> server_cpus;  // the echo thread's CPUs; empty: the calling thread's
  std::vector<int> client_cpus;  // the client thread's; empty: the calling thread's
  unsigned depth = 1;            // messages in flight: 1 = wake-up and round-trip latency, 16 = throughput
  unsigned message_bytes = 64;   // depth × message_bytes at most kMaxInFlightBytes
  double warmup_s = 0.1;         // before the window, not recorded
  double duration_s = 0.25;      // the window
};

// What a caller may ask of one connection with blocking sockets: more could fill both directions'
// socket buffers while the client is still writing, and both sides would wait on each other.
inline constexpr std::size_t kMaxInFlightBytes = 64 * 1024;
inline constexpr unsigned kMaxDepth = 1024;
// How long one socket call may block before the ping-pong gives up: only a hang reaches it.
inline constexpr int kIoTimeoutS = 10;

struct PingPongResult {
  bool ok = false;
  std::string error;              // when !ok: what failed ("server thread: cannot pin to CPU 7: ...")
  std::uint64_t round_trips = 0;  // answers completed in the window
  double window_s = 0;            // from the answer that opened the window to the last one counted
  double round_trips_per_s = 0;
  double p50_ns = 0, p99_ns = 0;            // latency of one message, send to whole answer (within 0.4%)
  double server_cpu_ns_per_round_trip = 0;  // the echo thread's CPU over the window ÷ round_trips
  double client_cpu_ns_per_round_trip = 0;  // the client thread's
};

// One ping-pong: TCP over 127.0.0.1 on an ephemeral port, one connection, blocking sockets with
// TCP_NODELAY. A server thread pinned to server_cpus echoes every byte it reads; a client thread
// pinned to client_cpus keeps `depth` messages in flight, warms up, then measures its window. Every
// failure (a socket call, a CPU that does not exist or may not be used, a peer that closes, a
// timeout of kIoTimeoutS) is ok = false with `error` naming it; it never hangs, always joins its
// threads and closes its descriptors, and keeps no state between calls: call it as often as you like.
PingPongResult ping_pong(const PingPongOptions& options);

// The ping-pongs `zapbench run` measures at the start of every end-to-end round, compare's yardstick
// for the end-to-end figures. Four depths, not one: compare estimates how unevenly the machine moved
// its yardstick's figures (tau²) on the figures less one, and two gave it one degree of freedom, so
// that a run without reference arms could not call even a halved rate of ours (version 2).
inline constexpr unsigned kRunDepths[] = {1, 4, 16, 64};
inline constexpr unsigned kRunMessageBytes = 64;
inline constexpr double kRunWarmupS = 0.05, kRunWindowS = 0.2;

}  // namespace calibrate
