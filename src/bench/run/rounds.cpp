// bench/run/rounds.cpp — the first rounds and the rounds until precise (rounds.hpp).
#include "bench/run/rounds.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "bench/run/calibration.hpp"
#include "report/findings.hpp"

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A process's start and the benchmark library's own set-up, beside the benchmarks of a micro round.
constexpr double kMicroProcessS = 0.5;

}  // namespace

std::string exact_filter(const std::vector<std::string>& names) {
  std::string out = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += '|';
    for (const char c : names[i]) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out + ")$";
}

RoundsHooks real_hooks(const SampleContext& ctx, Clock::time_point started) {
  RoundsHooks h;
  h.sample = [&ctx](CellPlan& cp, unsigned round, std::string& failure) {
    return run_sample(ctx, cp, round, failure);
  };
  h.micro = [&ctx](report::Results& res, unsigned round, const std::string& filter) {
    run_micro(ctx, res, round, filter);
  };
  h.arms_micro = [&ctx](report::Results& res, unsigned round) { run_arms_micro(ctx, res, round); };
  h.calibrate = [&ctx](report::Results& res, unsigned round) { run_calibration(ctx.plan, res, round); };
  h.elapsed_s = [started] { return seconds_since(started); };
  return h;
}

Rounds::Rounds(const SampleContext& ctx, std::vector<CellPlan>& cells, report::Results& res,
               RoundsHooks hooks)
    : ctx_(ctx), cells_(cells), res_(res), hooks_(std::move(hooks)) {}

double Rounds::elapsed_s() const { return hooks_.elapsed_s(); }

double Rounds::sample_s() const {
  if (e2e_samples_ > 0) return e2e_s_ / double(e2e_samples_);
  const RunPlan& p = ctx_.plan;
  return p.cfg.warmup_s + p.cfg.duration_s + kSampleOverheadS +
         (p.hosts.several() ? kHostsSampleOverheadS : 0);
}

void Rounds::micro() {
  const unsigned rounds = ctx_.plan.cfg.micro_repetitions;
  const double t0 = elapsed_s();
  for (unsigned r = 0; r < rounds; ++r) {
    std::printf("[micro] round %u/%u...\n", r + 1, rounds);
    std::fflush(stdout);
    hooks_.micro(res_, r, "");
    hooks_.arms_micro(res_, r);
    next_micro_round_ = r + 1;
  }
  std::size_t cpp = 0;
  for (const report::MicroFigure& f : res_.micro.figures) cpp += !f.codec.starts_with("go/");
  if (next_micro_round_ > 0 && cpp > 0)
    micro_s_per_benchmark_ = (elapsed_s() - t0) / double(next_micro_round_) / double(cpp);
}

void Rounds::e2e_round(const std::vector<std::size_t>& which, unsigned round) {
  if (hooks_.calibrate) hooks_.calibrate(res_, round);
  for (std::size_t k = 0; k < which.size(); ++k) {
    // Odd rounds backwards: no cell always follows the same neighbour.
    CellPlan& cp = cells_[which[round % 2 == 0 ? k : which.size() - 1 - k]];
    progress_->starting(cp.cell, round);
    std::string failure;
    const double t0 = elapsed_s();
    report::E2ESample s = hooks_.sample(cp, round, failure);
    e2e_s_ += elapsed_s() - t0;
    ++e2e_samples_;
    s.round = round;
    cp.cell.samples.push_back(std::move(s));
    progress_->finished(cp.cell, cp.cell.samples.back(), failure);
    if (!failure.empty())
      res_.notes.push_back(cell_label(cp.cell) + ", round " + std::to_string(round + 1) + ": " + failure);
  }
}

void Rounds::first() {
  std::vector<std::size_t> all;
  for (std::size_t i = 0; i < cells_.size(); ++i)
    if (cells_[i].cell.unavailable.empty()) all.push_back(i);
  progress_.emplace(all.size() * ctx_.plan.cfg.repeats, sample_s(), isatty(STDOUT_FILENO) != 0);
  std::printf("[e2e] %zu cells x %u first rounds = %zu samples, ~%s\n", all.size(), ctx_.plan.cfg.repeats,
              progress_->total(), duration_text(progress_->eta_s()).c_str());
  std::fflush(stdout);
  for (unsigned r = 0; r < ctx_.plan.cfg.repeats; ++r) {
    e2e_round(all, r);
    next_round_ = r + 1;
  }
}

void Rounds::publish() {
  res_.cells.clear();
  for (const CellPlan& cp : cells_) res_.cells.push_back(cp.cell);
}

ExtraRounds Rounds::until_precise() {
  ExtraRounds out;
  const report::Config& cfg = ctx_.plan.cfg;
  auto imprecise = [&](std::set<std::string>* keys) {
    publish();
    std::vector<std::string> names;
    for (const report::Finding& f : report::findings(res_))
      if (!stats::precise(f.estimate, cfg.precision)) {
        names.push_back(f.title + ": " + f.subject + " against " + f.baseline);
        if (keys) keys->insert(f.keys.begin(), f.keys.end());
      }
    return names;
  };
  const bool on =
      progress_ && std::isfinite(cfg.precision) && std::isfinite(cfg.budget_s) && cfg.budget_s > 0;
  while (on) {
    std::set<std::string> keys;
    if (imprecise(&keys).empty()) break;
    std::vector<std::size_t> cells;
    for (std::size_t i = 0; i < cells_.size(); ++i)
      if (keys.count(cells_[i].cell.id()) && cells_[i].cell.unavailable.empty() &&
          cells_[i].cell.samples.size() < kMaxRounds)
        cells.push_back(i);
    std::vector<std::string> micro;
    for (const report::MicroFigure& f : res_.micro.figures)
      if (keys.count(std::string(report::kMicroKey) + f.name) && f.ns_per_op.values.size() < kMaxRounds)
        micro.push_back(f.name);
    if (cells.empty() && micro.empty()) break;
    const double next_s =
        double(cells.size()) * sample_s() + (hooks_.calibrate ? calibration_round_s(ctx_.plan) : 0) +
        (micro.empty() ? 0 : kMicroProcessS + double(micro.size()) * micro_s_per_benchmark_);
    if (elapsed_s() + next_s > cfg.budget_s) {
      out.budget_spent = true;
      break;
    }
    if (!micro.empty()) {
      hooks_.micro(res_, next_micro_round_++, exact_filter(micro));
      ++out.micro_rounds;
    }
    progress_->extend(cells.size());
    e2e_round(cells, next_round_++);
    out.samples += cells.size();
    ++out.rounds;
  }
  out.imprecise = imprecise(nullptr);
  return out;
}

}  // namespace bench
