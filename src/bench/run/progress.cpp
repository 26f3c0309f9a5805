// bench/run/progress.cpp — the progress bar and per-sample lines (progress.hpp).
#include "bench/run/progress.hpp"

#include <cstdio>

#include "bench/plan/plan.hpp"

namespace bench {

std::string duration_text(double s) {
  char b[32];
  if (s >= 3600)
    std::snprintf(b, sizeof b, "%dh%02dm", int(s) / 3600, int(s) / 60 % 60);
  else if (s >= 60)
    std::snprintf(b, sizeof b, "%dm%02ds", int(s) / 60, int(s) % 60);
  else
    std::snprintf(b, sizeof b, "%.0fs", s);
  return b;
}

Progress::Progress(std::size_t total, double per_sample_s, bool tty)
    : total_(total), per_sample_s_(per_sample_s), tty_(tty) {}

void Progress::starting(const report::Cell& c, unsigned round) {
  if (!tty_) return;
  constexpr int kBar = 30;
  const int fill = total_ ? int(double(done_) * kBar / double(total_)) : kBar;
  std::printf("\r\033[K[%.*s%.*s] %zu/%zu %s (round %u)  ETA %s", fill, "##############################",
              kBar - fill, "..............................", done_, total_, cell_label(c).c_str(), round + 1,
              duration_text(eta_s()).c_str());
  std::fflush(stdout);
}

void Progress::finished(const report::Cell& c, const report::E2ESample& s, const std::string& failure) {
  ++done_;
  per_sample_s_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() / double(done_);
  if (tty_) std::printf("\r\033[K");
  if (failure.empty())
    std::printf("[%3zu/%zu] %-40s %10.0f req/s  p99 %8.1f us%s  ETA %s\n", done_, total_,
                cell_label(c).c_str(), s.requests_per_s, s.p99_ns / 1000,
                s.errors ? ("  " + std::to_string(s.errors) + " errors").c_str() : "",
                duration_text(eta_s()).c_str());
  else
    std::printf("[%3zu/%zu] %-40s FAILED: %s\n", done_, total_, cell_label(c).c_str(), failure.c_str());
  std::fflush(stdout);
}

}  // namespace bench
