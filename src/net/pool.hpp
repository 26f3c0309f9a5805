// net/pool.hpp — the worker threads of the event core: one thread per worker,
// pinned to its CPU, started together, stopped through each worker's Loop
// and joined; the owner merges the workers' per-thread counters after join
// (for_each). Also Counter, a per-thread counter another thread may read.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "net/affinity.hpp"

namespace net {

// Thread i's CPU with --cpus LIST: LIST[i % size]; -1 (not pinned) without.
inline int cpu_for(const std::vector<int>& cpus, unsigned i) noexcept {
  return cpus.empty() ? -1 : cpus[i % cpus.size()];
}

// W provides run() (returns when its work ends or its loop stops) and stop()
// (any thread: its loop's stop()).
template <class W>
class Pool {
 public:
  Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    stop();
    join();
  }

  W& add(std::unique_ptr<W> w, int cpu) {
    workers_.push_back(Slot{std::move(w), cpu, {}});
    return *workers_.back().worker;
  }
  // Each worker's run() on its own thread, pinned first.
  void start() {
    for (Slot& s : workers_)
      s.thread = std::thread([&s] {
        pin_this_thread(s.cpu);
        s.worker->run();
      });
  }
  // Any thread; returns at once.
  void stop() noexcept {
    for (Slot& s : workers_) s.worker->stop();
  }
  void join() {
    for (Slot& s : workers_)
      if (s.thread.joinable()) s.thread.join();
  }
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : workers_) f(*s.worker);
  }
  [[nodiscard]] std::size_t size() const noexcept { return workers_.size(); }

 private:
  struct Slot {
    std::unique_ptr<W> worker;
    int cpu;
    std::thread thread;
  };
  std::vector<Slot> workers_;
};

// A counter one thread writes and any thread may read (relaxed): a load and a
// store are a plain add on the hot path, unlike fetch_add's locked
// instruction, and still no data race.
class Counter {
 public:
  void add(std::uint64_t n) noexcept {
    v_.store(v_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint64_t get() const noexcept { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> v_{0};
};

}  // namespace net
