// tests/stats/stats_change_test.cpp — stats/change.hpp: Student's t with real
// degrees of freedom against its closed forms and tables, the polygamma
// functions against their known values, the variance prior recovered from
// seeded draws, the moderated variance never below a figure's own, the
// random-effects combination and the judged move; every degenerate input.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "stats/change.hpp"
#include "stats/rng.hpp"

namespace {

using V = std::vector<double>;
constexpr double kEuler = 0.57721566490153286;

TEST(student, two_sided_tails_match_closed_forms_and_tables) {
  // df = 1 (Cauchy): P(|T| >= t) = 1 - 2/pi atan(t); df = 2: 1 - t / sqrt(2 + t²).
  for (double t : {0.1, 0.5, 1.0, 3.0, 12.0}) {
    EXPECT_NEAR(stats::student_two_sided(t, 1), 1 - 2 / std::numbers::pi * std::atan(t), 1e-12) << t;
    EXPECT_NEAR(stats::student_two_sided(t, 2), 1 - t / std::sqrt(2 + t * t), 1e-12) << t;
  }
  EXPECT_NEAR(stats::student_two_sided(2.228138852, 10), 0.05, 1e-9);
  EXPECT_NEAR(stats::student_two_sided(2.0, 10), 0.0733880347, 1e-9);
  EXPECT_NEAR(stats::student_two_sided(1.959963985, INFINITY), 0.05, 1e-9);
  EXPECT_NEAR(stats::student_two_sided(-2.0, 10), stats::student_two_sided(2.0, 10), 1e-15);
  EXPECT_DOUBLE_EQ(stats::student_two_sided(0, 5), 1);
  EXPECT_DOUBLE_EQ(stats::student_two_sided(INFINITY, 5), 0);
  EXPECT_TRUE(std::isnan(stats::student_two_sided(NAN, 5)));
  EXPECT_TRUE(std::isnan(stats::student_two_sided(1, 0)));
  // Real degrees of freedom lie between their whole neighbours.
  const double p = stats::student_two_sided(2.5, 4.5);
  EXPECT_LT(p, stats::student_two_sided(2.5, 4));
  EXPECT_GT(p, stats::student_two_sided(2.5, 5));
}

TEST(student, the_quantile_inverts_the_tail) {
  EXPECT_NEAR(stats::student_central_quantile(0.95, 10), 2.228138852, 1e-8);
  EXPECT_NEAR(stats::student_central_quantile(0.95, 2), 4.302652730, 1e-8);
  EXPECT_NEAR(stats::student_central_quantile(0.95, INFINITY), 1.959963985, 1e-8);
  EXPECT_NEAR(stats::student_central_quantile(0.99, 1), std::tan(0.99 * std::numbers::pi / 2), 1e-6);
  for (double df : {1.0, 2.7, 7.3, 40.0, 1e4})
    for (double c : {0.5, 0.9, 0.95, 0.999}) {
      const double t = stats::student_central_quantile(c, df);
      EXPECT_NEAR(stats::student_two_sided(t, df), 1 - c, 1e-9 * std::max(1.0, 1 - c)) << df << " " << c;
    }
  EXPECT_TRUE(std::isnan(stats::student_central_quantile(1, 5)));
  EXPECT_TRUE(std::isnan(stats::student_central_quantile(0.95, -1)));
}

TEST(polygamma, known_values) {
  EXPECT_NEAR(stats::digamma(1), -kEuler, 1e-12);
  EXPECT_NEAR(stats::digamma(0.5), -kEuler - 2 * std::log(2.0), 1e-12);
  EXPECT_NEAR(stats::digamma(10), 2.251752589066721, 1e-12);  // H_9 - γ
  EXPECT_NEAR(stats::trigamma(1), std::numbers::pi * std::numbers::pi / 6, 1e-12);
  EXPECT_NEAR(stats::trigamma(0.5), std::numbers::pi * std::numbers::pi / 2, 1e-12);
  EXPECT_NEAR(stats::tetragamma(1), -2 * 1.2020569031595942, 1e-11);
  for (double x : {0.05, 0.5, 1.0, 3.3, 40.0, 2e4})
    EXPECT_NEAR(stats::trigamma_inverse(stats::trigamma(x)), x, 1e-6 * x);
  EXPECT_TRUE(std::isnan(stats::digamma(0)));
  EXPECT_TRUE(std::isnan(stats::trigamma_inverse(0)));
}

TEST(log_sample, leaves_out_what_is_no_measurement) {
  const stats::LogSample s =
      stats::log_sample(V{1.0, std::exp(1.0), 0.0, -1.0, NAN, INFINITY, std::exp(2.0)});
  EXPECT_EQ(s.n, 3u);
  EXPECT_NEAR(s.mean, 1, 1e-12);
  EXPECT_NEAR(s.ss, 2, 1e-12);
  EXPECT_EQ(stats::log_sample(V{}).n, 0u);
  EXPECT_EQ(stats::pooled(s, stats::log_sample(V{})).df, 0);  // a side without samples: no spread
}

// Seeded draws of s² on `df` degrees of freedom whose true variances are
// var0 / (chi²(df0) / df0): fit_prior recovers var0 and df0.
std::vector<stats::Spread> draws(double var0, double df0, double df, unsigned n, std::uint64_t seed) {
  stats::Rng rng(seed);
  auto chi2 = [&](double k) {  // a whole k: a sum of squared normals
    double sum = 0;
    for (int i = 0; i < int(k); ++i) {
      const double z = rng.normal();
      sum += z * z;
    }
    return sum;
  };
  std::vector<stats::Spread> out;
  for (unsigned i = 0; i < n; ++i) {
    const double truth = std::isinf(df0) ? var0 : var0 / (chi2(df0) / df0);
    out.push_back({truth * chi2(df) / df, df});
  }
  return out;
}

TEST(fit_prior, recovers_a_known_prior) {
  const auto s = draws(0.0025, 8, 4, 4000, 7);
  const stats::VariancePrior p = stats::fit_prior(s);
  EXPECT_EQ(p.figures, 4000u);
  EXPECT_NEAR(p.var, 0.0025, 0.0025 * 0.1);
  EXPECT_NEAR(p.df, 8, 2);
}

TEST(fit_prior, equal_variances_give_an_infinite_prior) {
  // Every figure's true variance the same: the s² vary by sampling alone.
  const stats::VariancePrior p = stats::fit_prior(draws(0.0016, INFINITY, 4, 4000, 9));
  EXPECT_GT(p.df, 100);
  EXPECT_NEAR(p.var, 0.0016, 0.0016 * 0.1);
}

TEST(fit_prior, too_few_figures_or_no_spread_give_none) {
  EXPECT_EQ(stats::fit_prior(std::vector<stats::Spread>{{0.01, 4}, {0.02, 4}}).df, 0);
  const stats::VariancePrior p =
      stats::fit_prior(std::vector<stats::Spread>{{0, 4}, {0.01, 0}, {NAN, 4}, {0.01, 4}});
  EXPECT_EQ(p.figures, 1u);
  EXPECT_EQ(p.df, 0);
}

TEST(moderated, is_never_quieter_than_the_figures_own_samples) {
  const stats::VariancePrior prior{0.0025, 10, 100};
  // Quieter than the prior: pulled up towards it, with the prior's degrees of freedom.
  const stats::Spread quiet = stats::moderated({0.0001, 4}, prior);
  EXPECT_NEAR(quiet.var, (10 * 0.0025 + 4 * 0.0001) / 14, 1e-15);
  EXPECT_EQ(quiet.df, 14);
  // Noisier: its own, on its own degrees of freedom.
  const stats::Spread noisy = stats::moderated({0.04, 4}, prior);
  EXPECT_EQ(noisy.var, 0.04);
  EXPECT_EQ(noisy.df, 4);
  // No spread of its own: the prior alone.
  EXPECT_EQ(stats::moderated({NAN, 0}, prior).var, 0.0025);
  // No prior: its own; neither: none.
  EXPECT_EQ(stats::moderated({0.01, 4}, {}).var, 0.01);
  EXPECT_EQ(stats::moderated({NAN, 0}, {}).df, 0);
  // An infinite prior: its variance, unless the figure's own is larger.
  EXPECT_EQ(stats::moderated({0.0001, 4}, {0.0025, INFINITY, 50}).var, 0.0025);
}

TEST(combine, equal_moves_have_no_unevenness_and_spread_ones_do) {
  const std::vector<stats::Move> same(8, stats::Move{0.1, 0.0004, 20});
  const stats::Combined c = stats::combine(same);
  EXPECT_EQ(c.figures, 8u);
  EXPECT_NEAR(c.mean.log_ratio, 0.1, 1e-12);
  EXPECT_EQ(c.tau2, 0);
  EXPECT_NEAR(c.mean.var, 0.0004 / 8, 1e-15);
  std::vector<stats::Move> spread;
  for (int i = 0; i < 8; ++i) spread.push_back({0.1 + (i % 2 ? 0.1 : -0.1), 0.0004, 20});
  const stats::Combined u = stats::combine(spread);
  EXPECT_NEAR(u.mean.log_ratio, 0.1, 1e-12);
  EXPECT_GT(u.tau2, 0.005);  // figures 0.2 apart, each known to ±0.02: uneven
  EXPECT_GT(u.mean.var, c.mean.var);
  EXPECT_NEAR(u.mean.df, 7, 1);  // the unevenness dominates: the figures less one
  // Unknown moves are left out; none known: nothing.
  EXPECT_EQ(stats::combine(std::vector<stats::Move>{{NAN, 0.1, 4}}).figures, 0u);
  // Exact moves (no spread at all): their plain mean.
  const stats::Combined e = stats::combine(std::vector<stats::Move>{{0.1, 0, 1}, {0.3, 0, 1}});
  EXPECT_NEAR(e.mean.log_ratio, 0.2, 1e-12);
}

TEST(judge, a_figure_against_the_yardstick_and_against_one) {
  const stats::Move fig{std::log(0.9), 0.0004, 20};
  const stats::Judged alone = stats::judge(fig, {}, 0.95);
  EXPECT_NEAR(alone.ratio, 0.9, 1e-12);
  EXPECT_LT(alone.hi, 1);
  EXPECT_LT(alone.p, 0.001);
  // The machine moved the same way: judged against it, nothing is left.
  stats::Combined machine;
  machine.mean = {std::log(0.9), 0.00005, 30};
  machine.figures = 10;
  const stats::Judged against = stats::judge(fig, machine, 0.95);
  EXPECT_NEAR(against.ratio, 1, 1e-12);
  EXPECT_GT(against.p, 0.5);
  EXPECT_GT(against.hi - against.lo, alone.hi - alone.lo);  // the yardstick's uncertainty adds
  // An uneven machine widens every judgement.
  machine.tau2 = 0.001;
  const stats::Judged uneven = stats::judge(fig, machine, 0.95);
  EXPECT_GT(uneven.hi - uneven.lo, against.hi - against.lo);
  EXPECT_LT(uneven.df, against.df);
  // Resolution: the larger the variance, the coarser.
  EXPECT_LT(stats::resolution(alone, 0.05, 0.8), stats::resolution(uneven, 0.05, 0.8));
  EXPECT_TRUE(std::isinf(stats::resolution(stats::Judged{}, 0.05, 0.8)));
  // No spread anywhere: exact, the interval a point.
  const stats::Judged exact = stats::judge({std::log(1.5), 0, 1}, {}, 0.95);
  EXPECT_TRUE(exact.computed());
  EXPECT_DOUBLE_EQ(exact.lo, exact.hi);
  EXPECT_NEAR(exact.ratio, 1.5, 1e-12);
  EXPECT_EQ(exact.p, 0);
}

}  // namespace
