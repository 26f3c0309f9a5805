// stats/estimate.hpp — how one arm compares with another: the ratio of a
// figure with its 95% confidence interval, and a verdict. The one statistics
// every comparison zapbench prints goes through (report's tables and "What it
// found", compare, and the run's decision to sample more); below report and
// bench, it knows numbers only, never cells or figures. The method, and why:
//   paired (two arms measured in the same interleaved rounds): the geometric
//     mean of the per-round ratios, its interval a studentized bootstrap
//     (bootstrap-t) of the mean log ratio, never narrower than Student's t
//     (and Student's t alone below 5 rounds):
//     round-to-round drift cancels in the ratio, and at the 3 to 30 rounds a
//     run takes this keeps its 95% where the plain percentile bootstrap
//     covers 85–90%;
//   unpaired (two runs, in compare): the ratio of the medians, its interval a
//     percentile bootstrap resampling each side, and a Mann–Whitney U test.
// Every bootstrap is seeded (rng.hpp): the same samples give the same
// interval, so a report re-rendered from its results.json prints the same.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stats {

// Which way a figure improves: requests/s and MB/s higher, ns and µs lower.
enum class Better : std::uint8_t { higher, lower };

// ahead / behind: the interval excludes 1 (the subject is better / worse);
// equivalent: the interval lies within 1 ± the margin; undecided: neither,
// or too few samples to tell.
enum class Verdict : std::uint8_t { ahead, behind, equivalent, undecided };
std::string_view to_string(Verdict v) noexcept;

struct Method {
  double margin = 0.03;      // δ: "equivalent" is an interval within 1 ± δ
  double confidence = 0.95;  // of every interval
  // Bootstrap resamples; 0: Student's t alone, a lower bound of the paired
  // interval's width, which is all a check of precision needs.
  unsigned resamples = 2000;
  // Fewer rounds than this (paired): no interval. Student's t, the floor of
  // the paired interval, holds from 3 (2 degrees of freedom).
  unsigned min_rounds = 3;
  // Fewer samples on a side than this (unpaired): no interval. Below 5 the
  // percentile bootstrap of a median covers far less than it claims, and no
  // Mann–Whitney test of 4 against 4 gets below p = 0.029.
  unsigned min_samples = 5;
};
inline constexpr Method kMethod{};

struct Estimate {
  double ratio = NAN;         // subject ÷ baseline
  double lo = NAN, hi = NAN;  // its interval; NaN when not computed
  double p = NAN;             // unpaired: Mann–Whitney U, two-sided; NaN when paired
  unsigned n = 0;             // paired: the rounds both arms have; unpaired: the smaller side
  bool paired = false;
  Verdict verdict = Verdict::undecided;
  std::string why;  // undecided: what was missing, in words
  [[nodiscard]] bool computed() const { return std::isfinite(lo) && std::isfinite(hi); }
  // The interval's relative half-width on the log scale, sqrt(hi / lo) - 1
  // (0.05: the ratio known within ×/÷ 1.05); +inf when not computed.
  [[nodiscard]] double half_width() const;
};

// subject[i] and baseline[i] are the same round's. Pairs with a value that
// is not a finite positive number are left out (a failed sample). ratio is
// the geometric mean of subject[i] / baseline[i].
Estimate paired(std::span<const double> subject, std::span<const double> baseline, Better better,
                std::uint64_t seed, const Method& m = kMethod);

// Two independent samples (each side's values not finite and positive left
// out). ratio = median(subject) / median(baseline). A difference is decided
// only when the interval excludes 1 and the Mann–Whitney p is at most
// `alpha` (compare passes the Benjamini–Hochberg threshold; NaN: 1 − confidence).
Estimate unpaired(std::span<const double> subject, std::span<const double> baseline, Better better,
                  std::uint64_t seed, const Method& m = kMethod, double alpha = NAN);

// The rule that ends adaptive sampling (zapbench run --precision): whether a
// paired estimate is known well enough to stop adding rounds. Not its
// half-width alone: stopping when the rounds so far happen to agree more
// than they will (a spread estimated low) leaves intervals that cover 92%,
// not 95% (measured on the tests' synthetic families). So the interval must
// be within ±precision even with the rounds' spread at the upper 90%
// confidence bound of its estimate; then coverage stays 95%, at some 40%
// more rounds. Stops on precision only, never on the verdict.
bool precise(const Estimate& e, double precision);

// The median of v (the mean of the two middle values for an even count);
// NaN for none. The one median of the project: report's figures and compare's
// shift use it too.
double median(std::vector<double> v);

// The q-quantile (0..1) of sorted values, interpolated between order
// statistics (Hyndman & Fan's type 7, R's default); NaN for none.
double quantile(const std::vector<double>& sorted, double q);

// The verdict of an interval [lo, hi] of subject ÷ baseline.
Verdict decide(double lo, double hi, Better better, double margin) noexcept;

// The two-sided p of the Mann–Whitney U test (Wilcoxon rank-sum) of a against
// b: exact without ties for sides up to 50, otherwise the normal
// approximation with the tie correction and a continuity correction. NaN
// values are left out; NaN when a side is then empty.
double mann_whitney_p(std::span<const double> a, std::span<const double> b);

// Benjamini–Hochberg at false-discovery rate q: which of the p-values are
// discoveries. NaN p-values are not tests: never discoveries, not counted.
std::vector<bool> benjamini_hochberg(std::span<const double> p, double q);

}  // namespace stats
