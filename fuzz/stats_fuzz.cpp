// fuzz/stats_fuzz.cpp — libFuzzer target for the statistics every comparison
// uses (src/stats/estimate.hpp), on whatever numbers a results.json can hold:
// the input's bytes read as doubles (NaN, infinities, negatives, denormals,
// zeros, huge and tiny values), split into two samples. For any of them:
//   - paired and unpaired never crash, and an interval they compute is
//     ordered and positive, with the ratio inside it (paired) and the
//     verdict stats::decide gives it (paired);
//   - the Mann–Whitney p is NaN (a side without a number: NaN has no rank)
//     or within [0, 1], and the same with the sides swapped;
//   - Benjamini–Hochberg answers one flag per p-value, never for a NaN;
//   - precise() is false whenever the interval is not computed;
//   - modes() puts every finite positive value in exactly one mode and no
//     other value in any, its modes in increasing order of value, each as
//     large as the rule asks when there are several.
// Any crash, sanitizer report or broken invariant (a trap) is a finding.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "stats/estimate.hpp"
#include "stats/modes.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void check_estimate(const stats::Estimate& e, bool paired) {
  if (!e.computed()) {
    check(e.verdict == stats::Verdict::undecided);
    check(!stats::precise(e, 0.5));
    return;
  }
  check(e.lo > 0 && e.lo <= e.hi);
  check(e.half_width() >= 0);
  if (paired) {
    check(e.lo <= e.ratio * (1 + 1e-9) && e.ratio <= e.hi * (1 + 1e-9));
    check(e.verdict == stats::decide(e.lo, e.hi, stats::Better::higher, stats::kMethod.margin));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  // The first byte splits the doubles between the two samples.
  const std::size_t count = (size - 1) / sizeof(double);
  std::vector<double> all(count);
  if (count > 0) std::memcpy(all.data(), data + 1, count * sizeof(double));
  if (all.size() > 64) all.resize(64);  // the rounds a run gives; beyond, only slower
  const std::size_t split = all.empty() ? 0 : data[0] % (all.size() + 1);
  const std::vector<double> a(all.begin(), all.begin() + std::ptrdiff_t(split)),
      b(all.begin() + std::ptrdiff_t(split), all.end());
  stats::Method m;
  m.resamples = 200;  // the same code paths, faster
  check_estimate(stats::paired(a, b, stats::Better::higher, data[0], m), true);
  check_estimate(stats::unpaired(a, b, stats::Better::higher, data[0], m), false);
  const double p = stats::mann_whitney_p(a, b), q = stats::mann_whitney_p(b, a);
  auto ranked = [](const std::vector<double>& v) {  // NaN has no rank
    return std::any_of(v.begin(), v.end(), [](double x) { return !std::isnan(x); });
  };
  check(std::isnan(p) ? !ranked(a) || !ranked(b) : (p >= 0 && p <= 1));
  check(std::isnan(p) == std::isnan(q));
  if (!std::isnan(p)) check(std::fabs(p - q) < 1e-9);
  const std::vector<bool> d = stats::benjamini_hochberg(all, 0.05);
  check(d.size() == all.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    if (std::isnan(all[i])) check(!d[i]);
  const std::vector<std::vector<std::size_t>> modes = stats::modes(all);
  std::vector<int> seen(all.size(), 0);
  double below = -INFINITY;
  for (const std::vector<std::size_t>& mode : modes) {
    check(!mode.empty() && std::is_sorted(mode.begin(), mode.end()));
    if (modes.size() > 1) check(mode.size() >= stats::kModeRule.min_values);
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t i : mode) {
      ++seen[i];
      lo = std::min(lo, all[i]);
      hi = std::max(hi, all[i]);
    }
    check(lo >= below);
    below = hi;
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    check(seen[i] == (std::isfinite(all[i]) && all[i] > 0 ? 1 : 0));
  return 0;
}
