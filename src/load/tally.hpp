// load/tally.hpp — a loader thread's accounting: its Result (requests,
// responses, bytes, errors by kind, both latency histograms) and the live
// Progress counters the terminal line and a stopping caller read. Owns what
// is counted and how, not when: the thread decides which events belong to
// the window (load/window.hpp). Nothing here allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "load/engine.hpp"

namespace load {

class Tally {
 public:
  explicit Tally(Progress* progress) : progress_(progress) {}

  [[nodiscard]] const Result& result() const { return result_; }

  // An error at t: connect errors always count (a dead server must show);
  // others from the window's start on, the drain included (it only serves
  // window requests).
  void error(ErrorKind k, std::int64_t t, std::int64_t window_start_ns) {
    if (k != ErrorKind::connect && t < window_start_ns) return;
    count(k);
  }
  // An error that is the window's whatever its time (the caller checked).
  void count(ErrorKind k) {
    ++result_.errors[static_cast<int>(k)];
    if (progress_ != nullptr) progress_->errors.fetch_add(1, std::memory_order_relaxed);
  }

  // A window request of `bytes` sent at t.
  void request(std::size_t bytes, std::int64_t t) {
    ++result_.requests;
    result_.bytes_sent += bytes;
    if (result_.window_first_send_ns < 0) result_.window_first_send_ns = t;
  }
  // Window bytes sent that belong to no request (a session's preface and control frames).
  void sent_bytes(std::size_t bytes) { result_.bytes_sent += bytes; }
  // A whole answer to a window request, valid or not.
  void received_bytes(std::size_t bytes) { result_.bytes_received += bytes; }
  // A valid answer: its latency from the intended and from the actual send;
  // first_on_slot: the first of its connection slot.
  void response(std::int64_t latency_ns, std::int64_t latency_actual_ns, bool first_on_slot) {
    result_.latency.record(static_cast<std::uint64_t>(latency_ns));
    result_.latency_actual.record(static_cast<std::uint64_t>(latency_actual_ns));
    ++result_.responses;
    if (progress_ != nullptr) {
      progress_->responses.fetch_add(1, std::memory_order_relaxed);
      if (first_on_slot) progress_->connections_answered.fetch_add(1, std::memory_order_relaxed);
    }
  }

  // Options::stop ended the window early.
  void stopped() { result_.stopped = true; }
  // Options::go: this thread is past its warm-up, waiting.
  void warm() {
    if (progress_ != nullptr) progress_->warm_threads.fetch_add(1, std::memory_order_relaxed);
  }
  // At the end: a connection slot, and whether it had a valid window response.
  void slot_done(bool answered) { result_.connections_answered += answered ? 1 : 0; }

 private:
  Progress* progress_;
  Result result_;
};

// Adds one thread's result to the run's (run_with, after join).
inline void merge_into(Result& out, const Result& r) {
  out.stopped = out.stopped || r.stopped;
  out.requests += r.requests;
  out.responses += r.responses;
  out.bytes_sent += r.bytes_sent;
  out.bytes_received += r.bytes_received;
  out.connections_answered += r.connections_answered;
  for (int k = 0; k < static_cast<int>(ErrorKind::count_); ++k) out.errors[k] += r.errors[k];
  out.latency.merge(r.latency);
  out.latency_actual.merge(r.latency_actual);
  if (r.window_first_send_ns >= 0 &&
      (out.window_first_send_ns < 0 || r.window_first_send_ns < out.window_first_send_ns))
    out.window_first_send_ns = r.window_first_send_ns;
}

}  // namespace load
