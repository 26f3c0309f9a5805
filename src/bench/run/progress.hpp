// bench/run/progress.hpp — what a run prints while it runs: a bar with the cell
// in progress and an ETA on a terminal (redrawn in place), one line per
// finished sample always ("[  2/12] hello zapbench http c1 p1  52100 req/s
// ..."; tests and logs read these), refined as samples finish. Owns the
// wording of progress only; the figures are the sample's.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "report/model.hpp"

namespace bench {

// "45s", "3m07s", "9h42m".
std::string duration_text(double s);

class Progress {
 public:
  // `total` samples, each expected to take about `per_sample_s` until measured.
  Progress(std::size_t total, double per_sample_s, bool tty);

  [[nodiscard]] std::size_t total() const { return total_; }
  [[nodiscard]] double eta_s() const { return double(total_ - done_) * per_sample_s_; }

  void starting(const report::Cell& c, unsigned round);  // the bar (terminal only); round 0-based
  // More samples than planned: the rounds added until the findings are precise.
  void extend(std::size_t more) { total_ += more; }
  // The line of a finished sample; `failure` empty when it measured.
  void finished(const report::Cell& c, const report::E2ESample& s, const std::string& failure);

 private:
  std::size_t total_, done_ = 0;
  double per_sample_s_;
  bool tty_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace bench
