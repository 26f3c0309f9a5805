// report/paired_figures.cpp — the rounds two figures share, each side's
// geometric mean over them, and a figure's modes by round
// (paired_figures.hpp).
#include "report/paired_figures.hpp"

#include <algorithm>
#include <map>

#include "stats/change.hpp"
#include "stats/modes.hpp"

namespace report {
namespace {

bool usable(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

Paired paired_rounds(const Samples& subject, const Samples& baseline) {
  Paired p;
  if (!has_rounds(subject) || !has_rounds(baseline)) return p;
  std::map<unsigned, double> by_round;
  for (std::size_t i = 0; i < baseline.values.size(); ++i) by_round[baseline.rounds[i]] = baseline.values[i];
  for (std::size_t i = 0; i < subject.values.size(); ++i) {
    const auto it = by_round.find(subject.rounds[i]);
    if (it == by_round.end() || !usable(subject.values[i]) || !usable(it->second)) continue;
    p.subject.values.push_back(subject.values[i]);
    p.baseline.values.push_back(it->second);
    p.subject.rounds.push_back(subject.rounds[i]);
    p.baseline.rounds.push_back(subject.rounds[i]);
  }
  return p;
}

double geometric_mean(const Samples& s) {
  // compare's A and B are the same geometric means (stats/change.hpp's log_sample).
  const stats::LogSample l = stats::log_sample(s.values);
  return l.n == 0 ? NAN : std::exp(l.mean);
}

std::vector<Mode> modes_of(const Samples& s) {
  std::vector<Mode> out;
  if (!has_rounds(s)) return out;
  const std::vector<std::vector<std::size_t>> groups = stats::modes(s.values);
  if (groups.size() < 2) return out;
  for (const std::vector<std::size_t>& g : groups) {
    Mode m;
    std::vector<double> values;
    for (std::size_t i : g) {
      values.push_back(s.values[i]);
      m.rounds.push_back(s.rounds[i]);
    }
    m.median = stats::median(values);
    std::sort(m.rounds.begin(), m.rounds.end());
    out.push_back(std::move(m));
  }
  return out;
}

PairedFigures paired_figures(const Samples& subject, const Samples& baseline) {
  PairedFigures f;
  Paired p = paired_rounds(subject, baseline);
  if (p.subject.values.empty()) {
    f.subject_value = subject.values.empty() ? NAN : subject.median();
    f.baseline_value = baseline.values.empty() ? NAN : baseline.median();
    return f;
  }
  f.rounds = p.subject.rounds;
  std::sort(f.rounds.begin(), f.rounds.end());
  f.subject_value = geometric_mean(p.subject);
  f.baseline_value = geometric_mean(p.baseline);
  f.subject_modes = modes_of(p.subject);
  f.baseline_modes = modes_of(p.baseline);
  f.subject = std::move(p.subject);
  f.baseline = std::move(p.baseline);
  return f;
}

}  // namespace report
