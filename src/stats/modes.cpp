// stats/modes.cpp — the modes of a figure's values (modes.hpp): the sorted
// logarithms cut at their widest gaps while every cut stays wide against the
// spread within the modes it leaves.
#include "stats/modes.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace stats {

std::vector<std::vector<std::size_t>> modes(std::span<const double> values, const ModeRule& rule) {
  struct Logged {
    double log;
    std::size_t index;
  };
  std::vector<Logged> v;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::isfinite(values[i]) && values[i] > 0) v.push_back({std::log(values[i]), i});
  if (v.empty()) return {};
  std::stable_sort(v.begin(), v.end(), [](const Logged& a, const Logged& b) { return a.log < b.log; });
  const std::size_t n = v.size();
  const auto share = std::size_t(std::ceil(rule.min_share * double(n) - 1e-9));
  const std::size_t min_size = std::max<std::size_t>({1, rule.min_values, share});

  // Sums and sums of squares of the logs from the left, centred on their mean
  // so that a mode's variance does not cancel away: any mode's sum of squares
  // in O(1).
  const double mean =
      std::accumulate(v.begin(), v.end(), 0.0, [](double s, const Logged& l) { return s + l.log; }) /
      double(n);
  std::vector<double> s1(n + 1, 0), s2(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double d = v[i].log - mean;
    s1[i + 1] = s1[i] + d;
    s2[i + 1] = s2[i] + d * d;
  }
  auto ss = [&](std::size_t a, std::size_t b) {  // of positions [a, b)
    const double t = s1[b] - s1[a];
    return std::max(0.0, s2[b] - s2[a] - t * t / double(b - a));
  };

  // The candidate cuts (a cut at k: between positions k - 1 and k), widest first.
  const double min_gap = std::log1p(rule.min_gap);
  std::vector<std::size_t> candidates;
  for (std::size_t k = 1; k < n; ++k)
    if (v[k].log - v[k - 1].log >= min_gap) candidates.push_back(k);
  auto gap = [&](std::size_t k) { return v[k].log - v[k - 1].log; };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](std::size_t a, std::size_t b) { return gap(a) > gap(b); });

  std::vector<std::size_t> cuts, passed;  // passed: the cuts of the most that pass
  for (std::size_t k : candidates) {
    std::vector<std::size_t> trial = cuts;
    trial.insert(std::upper_bound(trial.begin(), trial.end(), k), k);
    bool sizes = true;
    double within = 0;
    for (std::size_t i = 0, from = 0; i <= trial.size(); ++i) {
      const std::size_t to = i < trial.size() ? trial[i] : n;
      sizes = sizes && to - from >= min_size;
      if (sizes) within += ss(from, to);
      from = to;
    }
    if (!sizes) continue;
    cuts = std::move(trial);
    // The narrowest cut is the latest: the others were wider.
    const std::size_t modes_now = cuts.size() + 1;
    const double sd = n > modes_now ? std::sqrt(within / double(n - modes_now)) : 0;
    if (sd == 0 || gap(k) >= rule.min_gap_sds * sd) passed = cuts;  // no spread within: any gap separates
  }

  std::vector<std::vector<std::size_t>> out;
  for (std::size_t i = 0, from = 0; i <= passed.size(); ++i) {
    const std::size_t to = i < passed.size() ? passed[i] : n;
    std::vector<std::size_t> mode;
    for (std::size_t p = from; p < to; ++p) mode.push_back(v[p].index);
    std::sort(mode.begin(), mode.end());
    out.push_back(std::move(mode));
    from = to;
  }
  return out;
}

}  // namespace stats
