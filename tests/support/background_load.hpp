// tests/support/background_load.hpp — the load engine in process (load::run in a
// thread of the test), its window ended by the test when the event it needs
// has happened (Options::stop) instead of after a fixed time; waits as in
// await.hpp. For suites that link the `load` library.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "load/engine.hpp"
#include "support/await.hpp"

namespace zaptest {

// load::run in a thread of the test, its window open until finish() (or the
// hang bound: Options::duration_s is replaced by kHang). The test waits on
// progress() for what it needs, then ends the window; the drain then waits
// for the requests in flight as in any run.
class BackgroundLoad {
 public:
  explicit BackgroundLoad(load::Options o) : opt_(std::move(o)) {
    opt_.duration_s = std::chrono::duration<double>(kHang).count();
    opt_.stop = &stop_;
    thread_ = std::thread([this] {
      try {
        result_ = load::run(opt_, &progress_);
      } catch (const std::exception& e) {  // reported by finish(), on the test's thread
        error_ = e.what();
      }
    });
  }
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;
  ~BackgroundLoad() { finish(); }

  [[nodiscard]] const load::Progress& progress() const { return progress_; }

  // Waits until done(progress()) holds; a failure naming `what` if it does
  // not within `limit` (the hang bound by default).
  bool await(const std::function<bool(const load::Progress&)>& done, const std::string& what,
             std::chrono::milliseconds limit = kHang) {
    const bool ok = zaptest::await([&] { return done(progress_); }, limit);
    if (!ok)
      ADD_FAILURE() << "awaited " << what << " for " << limit.count() << " ms; the load saw "
                    << progress_.responses.load() << " responses, " << progress_.errors.load() << " errors";
    return ok;
  }
  // At least n valid window responses in all, counted from the run's start.
  bool await_responses(std::uint64_t n, const std::string& what) {
    return await([n](const load::Progress& p) { return p.responses.load() >= n; }, what);
  }

  // Ends the window (if still open), waits for the drain, returns the result.
  const load::Result& finish() {
    stop_ = true;
    if (thread_.joinable()) {
      thread_.join();
      if (!error_.empty()) ADD_FAILURE() << "load::run threw: " << error_;
    }
    return result_;
  }

 private:
  load::Options opt_;
  std::atomic<bool> stop_{false};
  load::Progress progress_;
  load::Result result_;
  std::string error_;
  std::thread thread_;
};

}  // namespace zaptest
