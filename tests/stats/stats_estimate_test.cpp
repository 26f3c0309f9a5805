// tests/stats/stats_estimate_test.cpp — stats::paired / unpaired /
// mann_whitney_p / benjamini_hochberg: exact values, degenerate inputs, and
// the method's claims checked on seeded synthetic data (families of 1,000
// comparisons): A/A called ahead or behind in at most 5%, a 5% shift found in
// at least 80% at the rounds a quick run gives a finding, 95% intervals
// covering the true ratio in 95% ± the simulation's error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "stats/estimate.hpp"
#include "stats/rng.hpp"

namespace {

using stats::Better;
using stats::Verdict;
using V = std::vector<double>;

// --- Mann–Whitney U --------------------------------------------------------------

TEST(mann_whitney, exact_p_of_complete_separation) {
  // U = 0 has probability 1 / C(n+k, n) on each side.
  EXPECT_NEAR(stats::mann_whitney_p(V{1.0, 2, 3}, V{4.0, 5, 6}), 2.0 / 20, 1e-12);
  EXPECT_NEAR(stats::mann_whitney_p(V{1.0, 2, 3, 4}, V{5.0, 6, 7, 8}), 2.0 / 70, 1e-12);
  EXPECT_NEAR(stats::mann_whitney_p(V{6.0, 7, 8, 9, 10}, V{1.0, 2, 3, 4, 5}), 2.0 / 252, 1e-12);
}

TEST(mann_whitney, exact_p_in_the_middle) {
  // a = {1, 4}, b = {2, 3}: U(a) = 2 of 4 = nk, the centre: every arrangement is at least as extreme.
  EXPECT_DOUBLE_EQ(stats::mann_whitney_p(V{1.0, 4}, V{2.0, 3}), 1.0);
  // a = {1, 2, 5}, b = {3, 4, 6}: U(a) = 2 (5 beats 3 and 4); of the 20 arrangements of 3 and 3, U = 0,
  // 1, 2 take 1, 1 and 2: P(U <= 2) = 4/20, two-sided 0.4.
  EXPECT_NEAR(stats::mann_whitney_p(V{1.0, 2, 5}, V{3.0, 4, 6}), 0.4, 1e-12);
}

TEST(mann_whitney, is_symmetric_in_its_sides) {
  const V a{1.0, 3, 3, 7, 9, 12}, b{2.0, 3, 8, 10, 11, 14, 15};
  EXPECT_DOUBLE_EQ(stats::mann_whitney_p(a, b), stats::mann_whitney_p(b, a));
}

TEST(mann_whitney, ties_use_the_normal_approximation) {
  // Every value tied: no evidence either way.
  EXPECT_DOUBLE_EQ(stats::mann_whitney_p(V{5.0, 5, 5}, V{5.0, 5, 5}), 1.0);
  // Large separated samples with ties: small p, still a probability.
  std::vector<double> a, b;
  for (int i = 0; i < 60; ++i) {
    a.push_back(i % 10);
    b.push_back(20 + i % 10);
  }
  const double p = stats::mann_whitney_p(a, b);
  EXPECT_GT(p, 0);
  EXPECT_LT(p, 1e-10);
}

TEST(mann_whitney, empty_side_is_nan) { EXPECT_TRUE(std::isnan(stats::mann_whitney_p(V{}, V{1.0}))); }

// --- Benjamini–Hochberg ------------------------------------------------------------

TEST(benjamini_hochberg, the_papers_example) {
  // Benjamini & Hochberg (1995), §4: 15 p-values; at q = 0.05 the four smallest are discoveries.
  const V p{0.0201, 0.0001, 0.0004, 0.0019, 0.0095, 0.0278, 0.0298, 0.0344,
            0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000};
  const std::vector<bool> d = stats::benjamini_hochberg(p, 0.05);
  std::vector<bool> want(p.size(), false);
  for (int i : {1, 2, 3, 4}) want[std::size_t(i)] = true;
  EXPECT_EQ(d, want);
}

TEST(benjamini_hochberg, a_larger_p_can_carry_smaller_ones) {
  // The step-up rule: p_(2) = 0.04 <= 2 x 0.05 / 2, so both are discoveries, though p_(1) = 0.03 is
  // above 1 x 0.05 / 2.
  EXPECT_EQ(stats::benjamini_hochberg(V{0.04, 0.03}, 0.05), (std::vector<bool>{true, true}));
  EXPECT_EQ(stats::benjamini_hochberg(V{0.06, 0.03}, 0.05), (std::vector<bool>{false, false}));
}

TEST(benjamini_hochberg, nan_is_not_a_test) {
  const double nan = std::nan("");
  // One real test at 0.04: m = 1, so 0.04 <= 0.05 passes; the NaN never does.
  EXPECT_EQ(stats::benjamini_hochberg(V{nan, 0.04, nan}, 0.05), (std::vector<bool>{false, true, false}));
  EXPECT_TRUE(stats::benjamini_hochberg(V{}, 0.05).empty());
}

// --- verdicts ------------------------------------------------------------------------

TEST(decide, by_the_interval) {
  EXPECT_EQ(stats::decide(1.02, 1.10, Better::higher, 0.03), Verdict::ahead);
  EXPECT_EQ(stats::decide(1.02, 1.10, Better::lower, 0.03), Verdict::behind);
  EXPECT_EQ(stats::decide(0.90, 0.99, Better::lower, 0.03), Verdict::ahead);
  EXPECT_EQ(stats::decide(0.98, 1.02, Better::higher, 0.03), Verdict::equivalent);
  EXPECT_EQ(stats::decide(0.95, 1.02, Better::higher, 0.03), Verdict::undecided);
  // Excluding 1 wins over lying within the margin: a decided, small difference.
  EXPECT_EQ(stats::decide(1.005, 1.01, Better::higher, 0.03), Verdict::ahead);
  EXPECT_EQ(stats::decide(NAN, 1.01, Better::higher, 0.03), Verdict::undecided);
}

TEST(paired, too_few_rounds_is_undecided_with_the_reason) {
  const stats::Estimate e = stats::paired(V{2.0, 2.1}, V{1.0, 1.0}, Better::higher, 1);
  EXPECT_EQ(e.verdict, Verdict::undecided);
  EXPECT_EQ(e.n, 2u);
  EXPECT_FALSE(e.computed());
  EXPECT_EQ(e.why, "2 rounds: the method needs 3");
  EXPECT_NEAR(e.ratio, std::sqrt(2.0 * 2.1), 1e-12);  // the estimate is still there
  EXPECT_TRUE(std::isinf(e.half_width()));
}

TEST(paired, failed_rounds_are_left_out) {
  const double nan = std::nan("");
  const V s{2.0, 0.0, 2.0, nan, 2.0, 2.0}, b{1.0, 1.0, 1.0, 1.0, -1.0, 1.0};
  const stats::Estimate e = stats::paired(s, b, Better::higher, 1);
  EXPECT_EQ(e.n, 3u);  // rounds 0, 2 and 5
  EXPECT_DOUBLE_EQ(e.ratio, 2);
  EXPECT_DOUBLE_EQ(e.lo, 2);
  EXPECT_EQ(stats::paired(V{}, V{}, Better::higher, 1).why, "no round measured both");
}

TEST(paired, identical_ratios_give_a_point_interval) {
  const stats::Estimate e = stats::paired(V{2.0, 4, 6, 8, 10}, V{1.0, 2, 3, 4, 5}, Better::lower, 1);
  EXPECT_DOUBLE_EQ(e.ratio, 2);
  EXPECT_DOUBLE_EQ(e.lo, 2);
  EXPECT_DOUBLE_EQ(e.hi, 2);
  EXPECT_EQ(e.verdict, Verdict::behind);  // twice the time
  EXPECT_DOUBLE_EQ(e.half_width(), 0);
}

TEST(paired, the_same_samples_give_the_same_interval) {
  const V s{10.0, 11, 9.5, 10.2, 10.8, 9.9}, b{9.0, 10.1, 9.2, 9.6, 10.0, 9.4};
  const stats::Estimate x = stats::paired(s, b, Better::higher, 42),
                        y = stats::paired(s, b, Better::higher, 42);
  EXPECT_EQ(x.lo, y.lo);
  EXPECT_EQ(x.hi, y.hi);
  EXPECT_LT(x.lo, x.ratio);
  EXPECT_GT(x.hi, x.ratio);
}

TEST(unpaired, ratio_of_medians_and_the_rank_test) {
  const stats::Estimate e =
      stats::unpaired(V{20.0, 21, 19, 22, 18}, V{10.0, 10.5, 9.5, 11, 9}, Better::lower, 7);
  EXPECT_DOUBLE_EQ(e.ratio, 2);
  EXPECT_NEAR(e.p, 2.0 / 252, 1e-12);
  EXPECT_EQ(e.verdict, Verdict::behind);
  EXPECT_FALSE(e.paired);
}

TEST(unpaired, a_test_that_does_not_decide_leaves_it_undecided) {
  // Complete separation of 5 against 5 has p = 0.0079: above an alpha of 0.001 (a strict FDR threshold).
  const stats::Estimate e =
      stats::unpaired(V{20.0, 21, 19, 22, 18}, V{10.0, 10.5, 9.5, 11, 9}, Better::lower, 7, {}, 0.001);
  EXPECT_EQ(e.verdict, Verdict::undecided);
  EXPECT_NE(e.why.find("Mann–Whitney"), std::string::npos) << e.why;
}

TEST(unpaired, too_few_samples) {
  const stats::Estimate e = stats::unpaired(V{1.0}, V{1.0, 2, 3, 4, 5}, Better::lower, 7);
  EXPECT_EQ(e.why, "1 sample: the method needs 5");
  EXPECT_EQ(stats::unpaired(V{}, V{1.0}, Better::lower, 7).why, "no sample on one side");
}

// --- the method's claims, on synthetic data ----------------------------------------------

// One round of two arms: each sample its arm's true value × a phase of the
// machine both share in that round × the sample's own lognormal noise; with
// probability `slow`, a sample is disturbed (30% slower). `quiet` is what
// this project's samples show on a quiet 2-core VM (a sample's log-sd 5–8%,
// docs/methodology: measured in issue 31's note); `disturbed` adds the
// neighbour's bursts seen on a busy one.
struct Noise {
  double round_sd = 0.05;
  double sample_sd = 0.05;
  double slow = 0;
};
constexpr Noise kQuiet{};
constexpr Noise kDisturbed{0.05, 0.05, 0.05};

struct Pair {
  std::vector<double> a, b;
  void add(stats::Rng& rng, double true_ratio, const Noise& n) {
    const double phase = std::exp(n.round_sd * rng.normal());
    auto sample = [&](double truth) {
      double v = truth * phase * std::exp(n.sample_sd * rng.normal());
      if (rng.uniform() < n.slow) v *= 0.7;
      return v;
    };
    a.push_back(sample(100 * true_ratio));
    b.push_back(sample(100));
  }
};

Pair draw(stats::Rng& rng, unsigned rounds, double true_ratio, const Noise& n) {
  Pair p;
  for (unsigned r = 0; r < rounds; ++r) p.add(rng, true_ratio, n);
  return p;
}

struct Tally {
  unsigned called = 0, right = 0, covered = 0, computed = 0;
};

// The family's figures, for the record (the suite's log; issue notes quote them).
void show(const char* what, const Tally& t) {
  std::printf("[ figures  ] %s: %u of 1000 called different, %u in the right direction, %u covered\n", what,
              t.called, t.right, t.covered);
}

void count(Tally& t, const stats::Estimate& e, double truth) {
  const bool differs = e.verdict == Verdict::ahead || e.verdict == Verdict::behind;
  t.computed += e.computed();
  t.called += differs;
  t.right += e.verdict == (truth > 1 ? Verdict::ahead : Verdict::behind);
  t.covered += e.lo <= truth && truth <= e.hi;
}

Tally family(bool is_paired, unsigned rounds, double truth, const Noise& n, std::uint64_t seed) {
  stats::Rng rng(seed);
  Tally t;
  for (unsigned k = 0; k < 1000; ++k) {
    const Pair p = draw(rng, rounds, truth, n);
    count(t,
          is_paired ? stats::paired(p.a, p.b, Better::higher, seed + k)
                    : stats::unpaired(p.a, p.b, Better::higher, seed + k),
          truth);
  }
  return t;
}

// What `zapbench run --quick` does with a finding (bench's adaptive rounds):
// the first rounds, then one more at a time until stats::precise or the
// rounds reach the cap the budget allows. Student's t alone (no resamples)
// is a lower bound of the interval's width: only when it passes is the whole
// interval computed.
constexpr unsigned kFirstRounds = 3, kMaxRounds = 40;
constexpr double kPrecision = 0.03;
constexpr stats::Method kStudentOnly{.resamples = 0};

Tally sequential(double truth, const Noise& n, std::uint64_t seed) {
  stats::Rng rng(seed);
  Tally t;
  for (unsigned k = 0; k < 1000; ++k) {
    Pair p = draw(rng, kFirstRounds, truth, n);
    stats::Estimate e;
    for (;;) {
      const bool cap = p.a.size() >= kMaxRounds;
      if (cap || stats::precise(stats::paired(p.a, p.b, Better::higher, k, kStudentOnly), kPrecision)) {
        e = stats::paired(p.a, p.b, Better::higher, seed + k);
        if (cap || stats::precise(e, kPrecision)) break;
      }
      p.add(rng, truth, n);
    }
    count(t, e, truth);
  }
  return t;
}

TEST(precise, needs_the_interval_within_the_precision_with_room_for_the_spread) {
  stats::Estimate e;
  e.n = 30;
  e.lo = 1 / 1.02;
  e.hi = 1.02;  // half-width 2%
  EXPECT_TRUE(stats::precise(e, 0.03));
  EXPECT_FALSE(stats::precise(e, 0.02));  // exactly 2%: the spread's bound widens it past
  e.n = 3;                                // the same interval from 3 rounds: their spread is barely known
  EXPECT_FALSE(stats::precise(e, 0.03));
  EXPECT_FALSE(stats::precise(stats::Estimate{}, 0.5));  // no interval: never precise
}

// 1,000 comparisons: a rate of 5% has a standard error of 0.7%, coverage of
// 95% the same. What the method claims (at most 5% called different, 95%
// covered) is checked to 3 standard errors: a family is one draw of the
// simulation, and the bounds must hold for any seed, not for this one.
constexpr unsigned kCalledHigh = 71, kCoverLow = 929, kCoverHigh = 971;

class Family : public ::testing::TestWithParam<unsigned> {};

TEST_P(Family, paired_aa_is_rarely_called_different) {
  for (const Noise& n : {kQuiet, kDisturbed}) {
    const Tally t = family(true, GetParam(), 1.0, n, 1000 + GetParam());
    show(("paired A/A, " + std::to_string(GetParam()) + " rounds, slow " + std::to_string(n.slow)).c_str(),
         t);
    EXPECT_EQ(t.computed, 1000u);
    EXPECT_LE(t.called, kCalledHigh) << "A/A called ahead or behind in " << t.called << " of 1000 (slow "
                                     << n.slow << ")";
  }
}

TEST_P(Family, paired_intervals_cover_the_true_ratio) {
  for (double truth : {1.0, 1.05, 0.5}) {
    const Tally t = family(true, GetParam(), truth, kQuiet, 2000 + GetParam());
    show(("paired, " + std::to_string(GetParam()) + " rounds, truth " + std::to_string(truth)).c_str(), t);
    EXPECT_GE(t.covered, kCoverLow) << "truth " << truth;
    EXPECT_LE(t.covered, kCoverHigh) << "truth " << truth;
  }
}

TEST_P(Family, paired_intervals_stay_at_least_as_wide_as_claimed_when_disturbed) {
  // Rare disturbed samples fatten the tails: Student's t, the interval's
  // floor, is then conservative (97–99% at these sizes), never below 95%.
  const Tally t = family(true, GetParam(), 1.05, kDisturbed, 2500 + GetParam());
  EXPECT_GE(t.covered, kCoverLow);
}

INSTANTIATE_TEST_SUITE_P(rounds, Family, ::testing::Values(3u, 5u, 10u, 20u, 40u));

class UnpairedFamily : public ::testing::TestWithParam<unsigned> {};

TEST_P(UnpairedFamily, aa_is_rarely_called_different) {
  for (const Noise& n : {kQuiet, kDisturbed}) {
    const Tally t = family(false, GetParam(), 1.0, n, 3000 + GetParam());
    show(("unpaired A/A, " + std::to_string(GetParam()) + " samples, slow " + std::to_string(n.slow)).c_str(),
         t);
    EXPECT_LE(t.called, kCalledHigh) << "A/A called different in " << t.called << " of 1000 (slow " << n.slow
                                     << ")";
  }
}

// compare's sample counts: a quick run's cells (5) to an extended finding's (20).
INSTANTIATE_TEST_SUITE_P(samples, UnpairedFamily, ::testing::Values(5u, 10u, 20u));

TEST(quick_run, finds_a_five_percent_shift) {
  // A 5% shift either way, under the quick run's rule, is called in the
  // right direction in at least 80% of 1,000 findings.
  for (double truth : {1.05, 1 / 1.05}) {
    const Tally t = sequential(truth, kQuiet, 77);
    show(("quick rule, truth " + std::to_string(truth)).c_str(), t);
    EXPECT_GE(t.right, 800u) << "truth " << truth;
  }
}

TEST(quick_run, aa_is_rarely_called_different) {
  for (const Noise& n : {kQuiet, kDisturbed}) {
    const Tally t = sequential(1.0, n, 78);
    show(("quick rule A/A, slow " + std::to_string(n.slow)).c_str(), t);
    EXPECT_LE(t.called, kCalledHigh) << "slow " << n.slow;
    EXPECT_GE(t.covered, kCoverLow) << "slow " << n.slow;
  }
}

TEST(family, unpaired_intervals_cover_the_true_ratio) {
  // Unpaired, the shared round effect is noise too; the median ratio's truth
  // is still the true ratio (both sides have the same noise).
  const Tally t = family(false, 10, 1.05, kQuiet, 4000);
  EXPECT_GE(t.covered, kCoverLow);
  EXPECT_LE(t.covered, 1000u);  // percentile intervals of medians are conservative, never too narrow
}

}  // namespace
