// tests/stats/stats_modes_test.cpp — stats::modes: which values fall in which
// mode on small exact cases (two and three modes, a lone slow round and two
// of them, ties, failed samples, too few values), and the rule's rates on
// seeded synthetic figures (families of 1,000): one mode at this machine's
// noise, with and without rare 30%-slow rounds, flagged rarely; the issue's
// two modes (32 and 52 ns over 17 rounds, the machine's state changing after
// round 3) found nearly always, with their rounds. Deterministic (seeded).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "stats/modes.hpp"
#include "stats/rng.hpp"

namespace {

using V = std::vector<double>;
using Modes = std::vector<std::vector<std::size_t>>;

std::vector<std::size_t> range(std::size_t from, std::size_t to) {
  std::vector<std::size_t> v;
  for (std::size_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

// --- exact cases ---------------------------------------------------------------------

// The issue's Encode: ZAP at 32 ns in rounds 0–3, 52 ns in rounds 4–16 (the machine changed state).
const V kIssue{32.1, 31.8, 32.4, 32.0, 52.3, 51.7, 52.0, 52.6, 51.9,
               52.2, 51.5, 52.8, 52.1, 51.6, 52.4, 52.0, 51.8};

TEST(modes, two_levels_are_two_modes_with_their_values) {
  EXPECT_EQ(stats::modes(kIssue), (Modes{range(0, 4), range(4, 17)}));
  // The order of the values does not matter, only their levels: the modes list indices in order.
  const V interleaved{23.7, 25.2, 25.4, 23.7, 25.2, 23.8, 23.7, 23.6};  // a code layout per process
  EXPECT_EQ(stats::modes(interleaved), (Modes{{0, 3, 5, 6, 7}, {1, 2, 4}}));
}

TEST(modes, one_level_with_noise_is_one_mode) {
  const V v{100, 103, 98, 101, 97, 104, 99, 102, 100, 96, 101, 103};
  EXPECT_EQ(stats::modes(v), (Modes{range(0, v.size())}));
}

TEST(modes, a_lone_slow_round_or_two_is_not_a_mode) {
  V v{100,   101,  99,    100.5, 130,   99.5,  100.2, 101.1, 98.9,
      100.4, 99.8, 100.9, 99.2,  100.1, 100.6, 99.7,  100.3};
  EXPECT_EQ(stats::modes(v).size(), 1u) << "one round 30% slow";
  v[9] = 131;
  EXPECT_EQ(stats::modes(v).size(), 1u) << "two of 17: fewer than the 3 a mode needs";
  v[12] = 129.5;
  EXPECT_EQ(stats::modes(v), (Modes{{0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 13, 14, 15, 16}, {4, 9, 12}}))
      << "three of 17, apart from the rest: a level the machine was in";
}

TEST(modes, a_small_step_is_not_a_mode) {
  // Two tight levels 2% apart: separate by far against their spread, but closer than the rule's 3%.
  const V v{100, 100.1, 99.9, 100, 102, 102.1, 101.9, 102};
  EXPECT_EQ(stats::modes(v).size(), 1u);
  stats::ModeRule rule;
  rule.min_gap = 0.01;
  EXPECT_EQ(stats::modes(v, rule), (Modes{{0, 1, 2, 3}, {4, 5, 6, 7}}));
}

TEST(modes, three_levels_are_three_modes) {
  const V v{10, 10.1, 9.9, 10.05, 20, 20.2, 19.8, 20.1, 40, 40.3, 39.7, 40.1};
  EXPECT_EQ(stats::modes(v), (Modes{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}}));
}

TEST(modes, ties_without_spread_are_separated_by_any_step) {
  EXPECT_EQ(stats::modes(V{5, 5, 5, 8, 8, 8}), (Modes{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(stats::modes(V{5, 5, 5, 5, 5, 5}), (Modes{range(0, 6)}));
}

TEST(modes, failed_samples_are_in_no_mode) {
  V v = kIssue;
  v.insert(v.begin() + 2, std::nan(""));
  v.push_back(0);
  v.push_back(-3);
  v.push_back(INFINITY);
  Modes want{{0, 1, 3, 4}, range(5, 18)};
  EXPECT_EQ(stats::modes(v), want);
  EXPECT_TRUE(stats::modes(V{}).empty());
  EXPECT_TRUE(stats::modes(V{std::nan(""), 0}).empty());
}

TEST(modes, fewer_values_than_two_modes_need_are_one) {
  // 3 values a mode: 5 values cannot hold two, however far apart.
  EXPECT_EQ(stats::modes(V{32, 32, 52, 52, 52}).size(), 1u);
  EXPECT_EQ(stats::modes(V{7}), (Modes{{0}}));
}

// --- the rule's rates, on synthetic figures ---------------------------------------------------

// A figure's value in one round: its level × lognormal noise of log-sd `sd`
// (this machine: 1–2% in process, 5–7% end to end, round and sample together);
// with probability `slow` the round is disturbed, 30% slower (a neighbour's burst).
struct Figure {
  double sd = 0.05;
  double slow = 0;
};

double draw(stats::Rng& rng, double level, const Figure& f) {
  double v = level * std::exp(f.sd * rng.normal());
  if (rng.uniform() < f.slow) v /= 0.7;
  return v;
}

// Of 1,000 figures of `rounds` rounds at one level, how many the rule splits.
unsigned flagged_one_mode(unsigned rounds, const Figure& f, std::uint64_t seed) {
  stats::Rng rng(seed);
  unsigned flagged = 0;
  for (unsigned k = 0; k < 1000; ++k) {
    V v;
    for (unsigned r = 0; r < rounds; ++r) v.push_back(draw(rng, 32, f));
    flagged += stats::modes(v).size() > 1;
  }
  return flagged;
}

struct Found {
  unsigned two = 0;    // found two modes
  unsigned exact = 0;  // and with exactly the rounds of each
};

// Of 1,000 figures at 32 ns in rounds [0, change) and 52 ns after, how often
// the rule finds the two modes.
Found found_two_modes(unsigned rounds, unsigned change, const Figure& f, std::uint64_t seed) {
  stats::Rng rng(seed);
  Found found;
  for (unsigned k = 0; k < 1000; ++k) {
    V v;
    for (unsigned r = 0; r < rounds; ++r) v.push_back(draw(rng, r < change ? 32 : 52, f));
    const Modes m = stats::modes(v);
    found.two += m.size() == 2;
    found.exact += m == Modes{range(0, change), range(change, rounds)};
  }
  return found;
}

// 1,000 trials: a rate of 3% has a standard error of 0.54%, of 95% 0.69%.
// What the rule claims is checked to 3 standard errors, so that the bounds
// hold for any seed, not only for this one.
constexpr unsigned kOneModeHigh = 46;    // one mode flagged in at most 3%
constexpr unsigned kDisturbedHigh = 71;  // ... with rare 30%-slow rounds: at most 5%
constexpr unsigned kFoundLow = 929;      // two modes found in at least 95%

class OneMode : public ::testing::TestWithParam<unsigned> {};

TEST_P(OneMode, is_rarely_split) {
  const unsigned rounds = GetParam();
  for (const Figure& f : {Figure{0.05, 0}, Figure{0.01, 0}}) {
    const unsigned n = flagged_one_mode(rounds, f, 100 + rounds);
    std::printf("[ figures  ] one mode, %u rounds, log-sd %.2f: %u of 1000 flagged\n", rounds, f.sd, n);
    EXPECT_LE(n, kOneModeHigh) << rounds << " rounds, log-sd " << f.sd;
  }
}

TEST_P(OneMode, with_rare_slow_rounds_is_rarely_split) {
  // 2% of rounds 30% slow (occasional), and 5% (the disturbed family of
  // stats_estimate_test): a lone slow round is never a mode; three or more of
  // them in one run are a level of their own, and are flagged as one.
  const unsigned rounds = GetParam();
  for (const Figure& f : {Figure{0.05, 0.02}, Figure{0.05, 0.05}}) {
    const unsigned n = flagged_one_mode(rounds, f, 200 + rounds);
    std::printf("[ figures  ] one mode, %u rounds, log-sd %.2f, %.0f%% slow: %u of 1000 flagged\n", rounds,
                f.sd, f.slow * 100, n);
    EXPECT_LE(n, f.slow <= 0.02 ? kOneModeHigh : kDisturbedHigh) << rounds << " rounds, slow " << f.slow;
  }
}

// 6: the fewest that can hold two modes; 17 and 22: a finding's rounds in a quick run.
INSTANTIATE_TEST_SUITE_P(rounds, OneMode, ::testing::Values(6u, 8u, 12u, 17u, 22u, 40u));

TEST(two_modes, the_issues_32_and_52_ns_over_17_rounds_are_found_with_their_rounds) {
  const Found f = found_two_modes(17, 4, Figure{0.05, 0}, 300);
  std::printf(
      "[ figures  ] 32 vs 52 ns, 17 rounds (4 + 13), log-sd 0.05: %u of 1000 found, %u with their rounds\n",
      f.two, f.exact);
  EXPECT_GE(f.two, kFoundLow);
  EXPECT_GE(f.exact, kFoundLow);
  // The state changing after round 2 (3 + 14: the smallest mode the rule allows at 17 rounds).
  const Found late = found_two_modes(17, 3, Figure{0.05, 0}, 301);
  std::printf("[ figures  ] 32 vs 52 ns, 17 rounds (3 + 14), log-sd 0.05: %u of 1000 found\n", late.two);
  EXPECT_GE(late.two, kFoundLow);
}

TEST(two_modes, noisier_or_disturbed_rounds_are_still_found_mostly) {
  // Not a claim of the rule's, a record of where it weakens: at 7% noise (end
  // to end), or with a 30%-slow round landing between the two levels or
  // stretching one of them, the gap shrinks against the spread.
  const Found noisy = found_two_modes(17, 4, Figure{0.07, 0}, 302);
  const Found disturbed = found_two_modes(17, 4, Figure{0.05, 0.02}, 303);
  std::printf("[ figures  ] 32 vs 52 ns, 17 rounds, log-sd 0.07: %u of 1000 found\n", noisy.two);
  std::printf("[ figures  ] 32 vs 52 ns, 17 rounds, log-sd 0.05, 2%% slow: %u of 1000 found\n",
              disturbed.two);
  EXPECT_GE(noisy.two, 500u);
  EXPECT_GE(disturbed.two, 500u);
}

}  // namespace
