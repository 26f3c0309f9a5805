// stats/change.hpp — how a figure changed between two runs, and how much of
// that is the machine's: the statistics of `zapbench compare` (numbers only;
// report/compare.cpp knows the figures). Two runs share no rounds, so every
// figure is unpaired; the method, and why:
//   - on the log scale: a figure's samples are its log values, a change is a
//     difference of their means (a ratio of geometric means), and a machine
//     that moved moves every figure by a factor;
//   - the variance moderated (Smyth 2004, limma's empirical Bayes): a kind of
//     figure (requests/s, ns/op, ...) has a typical within-run variance, fitted
//     as a scaled inverse-chi-square prior over all its figures, so a figure
//     with 3 samples a side borrows the degrees of freedom of hundreds (its
//     own 4 alone make a t test nearly powerless), but never reads quieter
//     than its own samples say (the larger of its own and the moderated
//     variance: a figure truly noisier than its kind keeps its own);
//   - the machine's move, a random-effects mean (DerSimonian & Laird 1986) of
//     the moves of the yardstick's figures — those a change to the code
//     cannot touch — with tau², how much the machine moved figures unevenly:
//     each of our figures is judged against that move, its variance the sum
//     of its own, the move's and tau² (a machine that moved figures by ±3%
//     leaves no 3% change of one figure decidable);
//   - Welch–Satterthwaite degrees of freedom for that sum, Student's t with
//     real degrees of freedom for the p-value and the interval; the p-values
//     of many figures go to Benjamini–Hochberg (estimate.hpp).
#pragma once

#include <cmath>
#include <map>
#include <span>
#include <vector>

namespace stats {

// Student's t with `df` > 0 real degrees of freedom (+inf: the normal).
// The two-sided tail P(|T| >= |t|), and the t with P(|T| <= t) = central.
double student_two_sided(double t, double df);
double student_central_quantile(double central, double df);

// ψ, ψ' and ψ'' (x > 0), and the x > 0 with ψ'(x) = y (y > 0).
double digamma(double x);
double trigamma(double x);
double tetragamma(double x);
double trigamma_inverse(double y);

// Within one run, each round's effect on every figure measured in it: a
// slow phase of the machine, or (microbenchmarks, a process per round) a
// process's layout, moves every figure of the round together. Tukey's median
// polish of the figures' log values (a figure's level, a round's effect, a
// residual): each round's effect the median over its figures of their
// deviation from their level, each level the mean of its figure's values less
// the effects, five times; the effects centred to a mean of 0 over the rounds,
// so a figure measured in every round keeps its mean, and one measured only
// in some is put on the level of the whole run. What no build can move: one
// build runs every round of a run, so its effect is in every level and in no
// round's. A round with fewer than 3 figures gets no effect (0).
struct RoundSeries {
  std::vector<unsigned> rounds;  // parallel to logs
  std::vector<double> logs;
};
std::map<unsigned, double> round_effects(std::span<const RoundSeries> figures);

// One figure's samples of one run on the log scale: values that are not a
// finite positive number (a failed sample) are left out.
struct LogSample {
  unsigned n = 0;
  double mean = NAN;  // of the logs: log of the geometric mean
  double ss = 0;      // sum of squared deviations of the logs from their mean
};
LogSample log_sample(std::span<const double> values);

// A figure's within-run variance on the log scale, from both runs' samples
// pooled: ss over n_a + n_b - 2 degrees of freedom (0 df: none).
struct Spread {
  double var = NAN;
  double df = 0;
};
Spread pooled(const LogSample& a, const LogSample& b);

// The prior of a kind's within-figure variance: var0 on df0 degrees of
// freedom (df0 = +inf: every figure's variance is var0; 0: no prior, each
// figure has its own alone). Fitted by moments of log s² (limma's fitFDist);
// figures with no spread (0 df, or a variance of 0: exact or repeated values)
// are left out; fewer than 3 figures give no prior.
struct VariancePrior {
  double var = NAN;
  double df = 0;
  unsigned figures = 0;  // the figures it was fitted on
};
VariancePrior fit_prior(std::span<const Spread> spreads);
// The variance a figure is judged with: the moderated (df0 var0 + df s²) /
// (df0 + df) on df0 + df degrees of freedom, or its own s² on its own df when
// that is larger (never quieter than its own samples say). No spread and no
// prior: NaN.
Spread moderated(const Spread& own, const VariancePrior& prior);

// The move of one figure between run A and run B: log(B) - log(A) (the log
// of the ratio of geometric means), the variance of that estimate and its
// degrees of freedom.
struct Move {
  double log_ratio = NAN;
  double var = NAN;
  double df = 0;
  [[nodiscard]] bool known() const { return std::isfinite(log_ratio) && std::isfinite(var) && df > 0; }
};
Move move(const LogSample& a, const LogSample& b, const Spread& judged_with);

// Several figures' moves combined into one (the yardstick): the
// random-effects mean, the variance of that mean, tau² (the figures'
// unevenness beyond their own noise), and the degrees of freedom the two
// carry together (the figures less one when tau² > 0, else their own
// variances'). Moves that are not known are left out; none: not known.
struct Combined {
  Move mean;
  double tau2 = 0;
  unsigned figures = 0;
};
Combined combine(std::span<const Move> moves);

// A figure's move judged against a yardstick's (`against` not known: against
// 1): the log ratio less the yardstick's, its variance the sum of the three
// (the figure's, the yardstick mean's, tau²), Satterthwaite's degrees of
// freedom; the two-sided p of t, and the interval at `confidence`, as ratios.
struct Judged {
  double ratio = NAN, lo = NAN, hi = NAN;
  double p = NAN;
  double log_ratio = NAN, se = NAN, df = 0;
  [[nodiscard]] bool computed() const { return std::isfinite(lo) && std::isfinite(hi); }
};
Judged judge(const Move& figure, const Combined& against, double confidence);

// The smallest relative change (0.05: 5%) that a judged figure would be found
// with probability `power` by a two-sided test at level `alpha`: (t(alpha) +
// t(power)) se on the log scale. +inf when not computed.
double resolution(const Judged& j, double alpha, double power);

}  // namespace stats
