// load/window.hpp — a loader thread's clock: when the warm-up ends and the
// recorded window starts and ends, the start barrier (Options::go) that may
// hold the window's start until every loader host is warm, and the open
// loop's one rebase of its schedule onto the window. Owns times only; the
// connections that act on them are the thread's (load/thread.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "load/engine.hpp"
#include "net/clock.hpp"

namespace load {

class Window {
 public:
  // Before the run starts: the schedule from t0_ns (Options::warmup_s, duration_s, go).
  void arm(const Options& opt, std::int64_t t0_ns) {
    t0_ns_ = t0_ns;
    duration_ns_ = static_cast<std::int64_t>(opt.duration_s * net::kNsPerS);
    start_ns_ = t0_ns + static_cast<std::int64_t>(opt.warmup_s * net::kNsPerS);
    end_ns_ = start_ns_ + duration_ns_;
    if (opt.go != nullptr) {
      // A start barrier: the window starts when *go is seen (start_at), not
      // at the warm-up's end. Until then both ends lie beyond any time, so
      // nothing is recorded (far from INT64_MAX so that end_ns() + the drain
      // bound cannot overflow); past the warm-up's time, sends pause.
      warmup_done_ns_ = start_ns_;
      start_ns_ = end_ns_ = kNotYetNs;
      waiting_go_ = true;
    }
  }

  [[nodiscard]] std::int64_t t0_ns() const { return t0_ns_; }
  [[nodiscard]] std::int64_t start_ns() const { return start_ns_; }
  [[nodiscard]] std::int64_t end_ns() const { return end_ns_; }
  // The window as it ran (a stop may have shortened it).
  [[nodiscard]] std::int64_t length_ns() const { return end_ns_ - start_ns_; }
  // A request intended at t is recorded: it belongs to the window.
  [[nodiscard]] bool recorded(std::int64_t t) const { return t >= start_ns_ && t < end_ns_; }
  // Before the window's end: requests may still be sent.
  [[nodiscard]] bool sending(std::int64_t t) const { return t < end_ns_; }

  // The window ends at t (a stop, a refused run), and starts no later.
  void end_at(std::int64_t t) {
    start_ns_ = std::min(start_ns_, t);
    end_ns_ = std::min(end_ns_, t);
  }

  // Options::go: past the warm-up's time and the window not started yet.
  [[nodiscard]] bool awaiting_go(std::int64_t now) const { return waiting_go_ && now >= warmup_done_ns_; }
  // The first time awaiting_go() holds: true once, and sends pause from then
  // until start_at or give_up_go.
  bool pause_once() {
    if (paused_) return false;
    paused_ = true;
    return true;
  }
  [[nodiscard]] bool paused() const { return paused_ && waiting_go_; }
  // *go was seen at now: the window starts now and lasts Options::duration_s.
  void start_at(std::int64_t now) {
    waiting_go_ = false;
    start_ns_ = now;
    end_ns_ = now + duration_ns_;
  }
  // A stop came while waiting for go: the window stays empty (end_at follows).
  void give_up_go() { waiting_go_ = false; }

  // The open loop's schedule starts at the window's own beginning, once: true
  // the first time it is asked at or past the start.
  bool rebase_due(std::int64_t t) {
    if (rebased_ || t < start_ns_) return false;
    rebased_ = true;
    return true;
  }

 private:
  static constexpr std::int64_t kNotYetNs = std::numeric_limits<std::int64_t>::max() / 4;
  std::int64_t t0_ns_ = 0, start_ns_ = 0, end_ns_ = 0, duration_ns_ = 0;
  std::int64_t warmup_done_ns_ = 0;  // Options::go: when the warm-up time passes
  bool waiting_go_ = false;
  bool paused_ = false;
  bool rebased_ = false;
};

}  // namespace load
