// load/calls.hpp — one loader connection's calls in flight, for every wire:
// a ring in send order, each call numbered by a per-connection sequence that
// counts from 1 (u32, modular) and is the PromiseID a multiplexed wire sends
// (docs/spec/zap-rpc.md §4). An in-order wire (HTTP/1.1, ZAP-HTTP, the floor)
// completes the oldest call; a multiplexed one (ZAP-RPC) answers any call by
// its sequence in O(1), and the front then moves past the answered ones, so
// the front is always the oldest unanswered call (what a timeout looks at).
// Owns the bookkeeping only: times, ids and validation are the engine's.
//
// The ring's capacity is a power of two of at least max(64, 4 x pipeline),
// allocated once: a connection never allocates in steady state. A call left
// unanswered at the front while later ones are answered keeps its slot and
// every slot after it, so once the ring is full no further call is sent on
// that connection until the front is answered or times out (§4: the bound on
// a connection's call table).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace load {

struct Call {
  std::int64_t intended_ns = 0;  // when the schedule meant to send it (latency counts from here)
  std::int64_t sent_ns = 0;      // when it was sent
  std::uint64_t id = 0;          // the record id its request carries
  bool answered = false;
};

class CallTable {
 public:
  // The capacity for a pipeline depth: the smallest power of two >= max(64, 4 x pipeline).
  [[nodiscard]] static std::size_t capacity_for(unsigned pipeline) noexcept {
    const std::size_t want = std::max<std::size_t>(64, std::size_t{4} * std::max(1u, pipeline));
    std::size_t c = 1;
    while (c < want) c <<= 1;
    return c;
  }

  explicit CallTable(unsigned pipeline = 1) : ring_(capacity_for(pipeline)), mask_(ring_.size() - 1) {}

  // Empties the table for a new connection; its first call gets `first` (1
  // per the spec; a test starts near the u32 wrap).
  void reset(std::uint32_t first = 1) noexcept {
    front_seq_ = next_seq_ = first;
    outstanding_ = 0;
  }

  [[nodiscard]] std::size_t capacity() const noexcept { return ring_.size(); }
  // Calls sent and not answered (the pipeline's depth in use).
  [[nodiscard]] std::size_t outstanding() const noexcept { return outstanding_; }
  // Slots in use: from the oldest unanswered call to the newest call.
  [[nodiscard]] std::size_t span() const noexcept {
    return static_cast<std::uint32_t>(next_seq_ - front_seq_);
  }

  // A call may be sent: fewer than `pipeline` unanswered and a free slot.
  [[nodiscard]] bool can_send(unsigned pipeline) const noexcept {
    return outstanding_ < std::max(1u, pipeline) && span() < ring_.size();
  }

  // Records a call sent (can_send() must hold); returns its sequence (its PromiseID).
  std::uint32_t push(std::int64_t intended_ns, std::int64_t sent_ns, std::uint64_t id) noexcept {
    const std::uint32_t seq = next_seq_++;
    ring_[seq & mask_] = Call{intended_ns, sent_ns, id, false};
    ++outstanding_;
    return seq;
  }

  // The oldest unanswered call; null when none is.
  [[nodiscard]] const Call* front() const noexcept {
    return outstanding_ == 0 ? nullptr : &ring_[front_seq_ & mask_];
  }
  [[nodiscard]] std::uint32_t front_seq() const noexcept { return front_seq_; }

  // Answers call `seq`: false (nothing changes) when it is not in flight —
  // never sent, or answered already; else `out` is the call.
  bool answer(std::uint32_t seq, Call& out) noexcept {
    const std::uint32_t at = seq - front_seq_;  // modular: a sequence before the front is far out of range
    if (at >= span()) return false;
    Call& c = ring_[seq & mask_];
    if (c.answered) return false;
    c.answered = true;
    out = c;
    --outstanding_;
    // The front moves past every answered call, to the oldest unanswered one
    // (or to next_seq_ when none is left).
    while (front_seq_ != next_seq_ && ring_[front_seq_ & mask_].answered) ++front_seq_;
    return true;
  }

  // Answers the oldest unanswered call (an in-order wire); false when none is.
  bool answer_front(Call& out) noexcept { return outstanding_ != 0 && answer(front_seq_, out); }

  // Calls f(call) for each unanswered call, oldest first.
  template <class F>
  void for_each_unanswered(F&& f) const {
    for (std::uint32_t s = front_seq_; s != next_seq_; ++s)
      if (const Call& c = ring_[s & mask_]; !c.answered) f(c);
  }

 private:
  std::vector<Call> ring_;       // sized once
  std::size_t mask_;             // capacity - 1
  std::uint32_t front_seq_ = 1;  // the oldest unanswered call's sequence (== next_seq_ when none)
  std::uint32_t next_seq_ = 1;   // the next call's sequence
  std::size_t outstanding_ = 0;
};

}  // namespace load
