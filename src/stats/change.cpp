// stats/change.cpp — a figure's change between two runs, the moderated
// variance and the yardstick's random-effects move (change.hpp).
#include "stats/change.hpp"

#include <algorithm>
#include <limits>
#include <numbers>

#include "stats/estimate.hpp"

namespace stats {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNoDifference = 1e-9;  // on the log scale

bool usable(double v) { return std::isfinite(v) && v > 0; }

// The continued fraction of the regularized incomplete beta function I_x(a, b)
// (its even and odd terms, evaluated by the modified Lentz method), for
// x < (a + 1) / (a + b + 2), where it converges quickly.
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300, eps = 1e-15;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double f = d;
  for (int m = 1; m <= 400; ++m) {
    const double dm = double(m);
    // even step: m (b - m) x / ((a + 2m - 1)(a + 2m))
    double num = dm * (b - dm) * x / ((a + 2 * dm - 1) * (a + 2 * dm));
    d = 1 + num * d;
    c = 1 + num / c;
    if (std::fabs(d) < tiny) d = tiny;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    f *= d * c;
    // odd step: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
    num = -(a + dm) * (a + b + dm) * x / ((a + 2 * dm) * (a + 2 * dm + 1));
    d = 1 + num * d;
    c = 1 + num / c;
    if (std::fabs(d) < tiny) d = tiny;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double step = d * c;
    f *= step;
    if (std::fabs(step - 1) < eps) break;
  }
  return f;
}

// I_x(a, b), a, b > 0, x in [0, 1].
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

}  // namespace

double student_two_sided(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return NAN;
  if (std::isinf(t)) return 0;
  if (std::isinf(df) || df > 1e7) return std::erfc(std::fabs(t) / std::sqrt(2.0));
  return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double student_central_quantile(double central, double df) {
  if (!(central > 0 && central < 1) || !(df > 0)) return NAN;
  const double tail = 1 - central;
  const bool normal = std::isinf(df) || df > 1e7;
  // The density's constant; the two-sided tail g(t) falls with slope -2 f(t).
  const double log_c =
      normal ? -0.5 * std::log(2 * std::numbers::pi)
             : std::lgamma((df + 1) / 2) - std::lgamma(df / 2) - 0.5 * std::log(df * std::numbers::pi);
  auto density = [&](double t) {
    return normal ? std::exp(log_c - t * t / 2) : std::exp(log_c - (df + 1) / 2 * std::log1p(t * t / df));
  };
  // A bracket, then Newton's steps kept inside it (bisection when one would leave it).
  double lo = 0, hi = 1;
  while (student_two_sided(hi, df) > tail && hi < 1e12) hi *= 2;
  double t = hi / 2 > 1 ? hi * 0.75 : 0.5 * hi + 0.25 * lo;
  for (int i = 0; i < 100; ++i) {
    const double g = student_two_sided(t, df) - tail;
    if (g > 0)
      lo = t;
    else
      hi = t;
    double next = t + g / (2 * density(t));
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (std::fabs(next - t) <= 1e-12 * std::max(1.0, t)) return next;
    t = next;
  }
  return t;
}

// ψ, ψ' and ψ'' by their recurrences up to x >= 10, then their asymptotic
// series (the first omitted term below 1e-13 there).
double digamma(double x) {
  if (!(x > 0)) return NAN;
  double shift = 0;
  while (x < 10) {
    shift -= 1 / x;
    x += 1;
  }
  const double r = 1 / x, r2 = r * r;
  return shift + std::log(x) - r / 2 -
         r2 * (1.0 / 12 -
               r2 * (1.0 / 120 - r2 * (1.0 / 252 - r2 * (1.0 / 240 - r2 * (1.0 / 132 - r2 * 691 / 32760)))));
}

double trigamma(double x) {
  if (!(x > 0)) return NAN;
  double shift = 0;
  while (x < 10) {
    shift += 1 / (x * x);
    x += 1;
  }
  const double r = 1 / x, r2 = r * r;
  return shift + r + r2 / 2 +
         r * r2 * (1.0 / 6 - r2 * (1.0 / 30 - r2 * (1.0 / 42 - r2 * (1.0 / 30 - r2 * 5 / 66))));
}

double tetragamma(double x) {
  if (!(x > 0)) return NAN;
  double shift = 0;
  while (x < 10) {
    shift -= 2 / (x * x * x);
    x += 1;
  }
  const double r = 1 / x, r2 = r * r;
  return shift - r2 - r * r2 -
         r2 * r2 * (0.5 - r2 * (1.0 / 6 - r2 * (1.0 / 6 - r2 * (3.0 / 10 - r2 * 5 / 6))));
}

// Newton's method on 1 / ψ'(x), which is nearly linear in x (Smyth 2004's
// choice of start and step); ψ' decreases from +inf to 0 on x > 0.
double trigamma_inverse(double y) {
  if (!(y > 0)) return NAN;
  if (y > 1e7) return 1 / std::sqrt(y);
  if (y < 1e-6) return 1 / y;
  double x = 0.5 + 1 / y;
  for (int i = 0; i < 50; ++i) {
    const double tri = trigamma(x);
    const double step = tri * (1 - tri / y) / tetragamma(x);
    x += step;
    if (-step / x < 1e-8) break;
  }
  return x;
}

std::map<unsigned, double> round_effects(std::span<const RoundSeries> figures) {
  std::map<unsigned, double> effect;
  std::map<unsigned, unsigned> members;
  for (const RoundSeries& f : figures)
    for (unsigned r : f.rounds) ++members[r];
  for (const auto& [r, n] : members) effect[r] = 0;
  std::vector<double> level(figures.size(), 0);
  std::map<unsigned, std::vector<double>> deviations;
  for (int pass = 0; pass < 5; ++pass) {
    for (std::size_t i = 0; i < figures.size(); ++i) {
      const RoundSeries& f = figures[i];
      double sum = 0;
      for (std::size_t k = 0; k < f.logs.size(); ++k) sum += f.logs[k] - effect[f.rounds[k]];
      level[i] = f.logs.empty() ? 0 : sum / double(f.logs.size());
    }
    deviations.clear();
    for (std::size_t i = 0; i < figures.size(); ++i)
      for (std::size_t k = 0; k < figures[i].logs.size(); ++k)
        deviations[figures[i].rounds[k]].push_back(figures[i].logs[k] - level[i]);
    double sum = 0;
    unsigned counted = 0;
    for (auto& [r, e] : effect) {
      const std::vector<double>& d = deviations[r];
      e = d.size() >= 3 ? median(d) : 0;
      sum += e;
      counted += d.size() >= 3;
    }
    for (auto& [r, e] : effect)
      if (deviations[r].size() >= 3) e -= sum / double(counted);
  }
  return effect;
}

LogSample log_sample(std::span<const double> values) {
  LogSample s;
  double sum = 0;
  for (double v : values)
    if (usable(v)) {
      sum += std::log(v);
      ++s.n;
    }
  if (s.n == 0) return s;
  s.mean = sum / double(s.n);
  for (double v : values)
    if (usable(v)) s.ss += (std::log(v) - s.mean) * (std::log(v) - s.mean);
  return s;
}

Spread pooled(const LogSample& a, const LogSample& b) {
  Spread s;
  if (a.n == 0 || b.n == 0 || a.n + b.n < 3) return s;
  s.df = double(a.n + b.n - 2);
  s.var = (a.ss + b.ss) / s.df;
  return s;
}

VariancePrior fit_prior(std::span<const Spread> spreads) {
  // Under the model a figure's s² is its true variance times chi²(df)/df,
  // and the true variances are var0 / (chi²(df0)/df0): log s², less its
  // expectation's part from sampling, varies by ψ'(df/2) from sampling alone,
  // and by ψ'(df0/2) more from how the true variances differ.
  std::vector<double> e, t;
  for (const Spread& s : spreads)
    if (s.df > 0 && std::isfinite(s.var) && s.var > 0) {
      e.push_back(std::log(s.var) - digamma(s.df / 2) + std::log(s.df / 2));
      t.push_back(trigamma(s.df / 2));
    }
  VariancePrior p;
  p.figures = unsigned(e.size());
  if (e.size() < 3) return p;
  double mean = 0, mean_t = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    mean += e[i];
    mean_t += t[i];
  }
  mean /= double(e.size());
  mean_t /= double(e.size());
  double var = 0;
  for (double v : e) var += (v - mean) * (v - mean);
  var = var / double(e.size() - 1) - mean_t;
  if (var > 0) {
    p.df = 2 * trigamma_inverse(var);
    p.var = std::exp(mean + digamma(p.df / 2) - std::log(p.df / 2));
  } else {
    p.df = kInf;
    p.var = std::exp(mean);
  }
  return p;
}

Spread moderated(const Spread& own, const VariancePrior& prior) {
  const bool has_own = own.df > 0 && std::isfinite(own.var);
  const bool has_prior = prior.df > 0 && std::isfinite(prior.var);
  if (!has_prior) return has_own ? own : Spread{};
  Spread m;
  if (std::isinf(prior.df)) {
    m = {prior.var, kInf};
  } else {
    const double df = prior.df + (has_own ? own.df : 0);
    m = {(prior.df * prior.var + (has_own ? own.df * own.var : 0)) / df, df};
  }
  if (has_own && own.var > m.var) return own;
  return m;
}

Move move(const LogSample& a, const LogSample& b, const Spread& judged_with) {
  Move m;
  if (a.n == 0 || b.n == 0) return m;
  m.log_ratio = b.mean - a.mean;
  if (!(judged_with.df > 0) || !std::isfinite(judged_with.var)) return m;
  m.var = judged_with.var * (1 / double(a.n) + 1 / double(b.n));
  m.df = judged_with.df;
  return m;
}

Combined combine(std::span<const Move> moves) {
  std::vector<Move> k;
  for (const Move& m : moves)
    if (m.known()) k.push_back(m);
  Combined c;
  c.figures = unsigned(k.size());
  if (k.empty()) return c;
  // No figure with any spread (constant samples on both sides: exact figures,
  // or synthetic ones): nothing to weigh by, their plain mean and spread.
  if (std::none_of(k.begin(), k.end(), [](const Move& m) { return m.var > 0; })) {
    double sum = 0, sum2 = 0;
    for (const Move& m : k) {
      sum += m.log_ratio;
      sum2 += m.log_ratio * m.log_ratio;
    }
    const double n = double(k.size()), mean = sum / n;
    c.mean.log_ratio = mean;
    c.tau2 = n > 1 ? std::max(0.0, (sum2 - n * mean * mean) / (n - 1)) : 0;
    c.mean.var = c.tau2 / n;
    c.mean.df = n > 1 ? n - 1 : kInf;
    return c;
  }
  std::erase_if(k, [](const Move& m) { return !(m.var > 0); });
  c.figures = unsigned(k.size());
  // DerSimonian–Laird: tau² from Cochran's Q about the fixed-effect mean.
  double w_sum = 0, w2_sum = 0, wd = 0;
  for (const Move& m : k) {
    const double w = 1 / m.var;
    w_sum += w;
    w2_sum += w * w;
    wd += w * m.log_ratio;
  }
  const double fixed = wd / w_sum;
  double q = 0;
  for (const Move& m : k) q += (m.log_ratio - fixed) * (m.log_ratio - fixed) / m.var;
  const double dfq = double(k.size() - 1);
  if (k.size() > 1) c.tau2 = std::max(0.0, (q - dfq) / (w_sum - w2_sum / w_sum));
  // The random-effects mean and its variance Σ w² (v + tau²) / (Σ w)², its degrees
  // of freedom by Satterthwaite over its parts: each figure's own variance on its
  // df, tau² on the figures less one.
  double ws = 0, wsd = 0;
  for (const Move& m : k) {
    const double w = 1 / (m.var + c.tau2);
    ws += w;
    wsd += w * m.log_ratio;
  }
  c.mean.log_ratio = wsd / ws;
  double var = 0, den = 0, tau_part = 0;
  for (const Move& m : k) {
    const double w = 1 / (m.var + c.tau2), share = w * w / (ws * ws);
    var += share * (m.var + c.tau2);
    const double own = share * m.var;
    den += std::isinf(m.df) ? 0 : own * own / m.df;
    tau_part += share * c.tau2;
  }
  if (c.tau2 > 0) den += tau_part * tau_part / std::max(1.0, dfq);
  c.mean.var = var;
  c.mean.df = den > 0 ? var * var / den : kInf;
  // Never narrower than the figures' own scatter about the mean says
  // (Hartung–Knapp, on the figures less one): DerSimonian–Laird's tau² is an
  // estimate, often 0 where the figures share an error their variances do
  // not show; measured on the families of tests/stats, groups judged without
  // it were called changed in 6.7% of A/A comparisons at 5%.
  if (k.size() > 1) {
    double scatter = 0;
    for (const Move& m : k)
      scatter += (m.log_ratio - c.mean.log_ratio) * (m.log_ratio - c.mean.log_ratio) / (m.var + c.tau2);
    const double hk = scatter / dfq / ws;
    if (hk > c.mean.var) {
      c.mean.var = hk;
      c.mean.df = dfq;
    }
  }
  return c;
}

Judged judge(const Move& figure, const Combined& against, double confidence) {
  Judged j;
  if (!std::isfinite(figure.log_ratio)) return j;
  const bool yard = against.mean.known() || (std::isfinite(against.mean.log_ratio) && against.mean.var == 0);
  j.log_ratio = figure.log_ratio - (yard ? against.mean.log_ratio : 0);
  // Below a part in 10^9 a difference is rounding (figures divided out of each
  // other, round effects removed), not a measurement: none.
  if (std::fabs(j.log_ratio) < kNoDifference) j.log_ratio = 0;
  j.ratio = std::exp(j.log_ratio);
  if (!figure.known()) return j;
  const double v_own = figure.var, v_mean = yard ? against.mean.var : 0, v_tau = yard ? against.tau2 : 0;
  const double v = v_own + v_mean + v_tau;
  double den = 0;
  if (!std::isinf(figure.df)) den += v_own * v_own / figure.df;
  if (v_mean > 0 && !std::isinf(against.mean.df)) den += v_mean * v_mean / against.mean.df;
  if (v_tau > 0) den += v_tau * v_tau / std::max(1.0, double(against.figures) - 1);
  j.df = den > 0 ? v * v / den : kInf;
  j.se = std::sqrt(v);
  if (j.se == 0) {  // exact on both sides: the difference is what it is
    j.lo = j.hi = j.ratio;
    j.p = j.log_ratio == 0 ? 1 : 0;
    return j;
  }
  const double t = student_central_quantile(confidence, j.df);
  j.lo = std::exp(j.log_ratio - t * j.se);
  j.hi = std::exp(j.log_ratio + t * j.se);
  j.p = student_two_sided(j.log_ratio / j.se, j.df);
  return j;
}

double resolution(const Judged& j, double alpha, double power) {
  if (!std::isfinite(j.se) || !(j.df > 0)) return kInf;
  const double t_alpha = student_central_quantile(1 - alpha, j.df);
  // One-sided quantile of `power`: P(|T| <= q) = 2 power - 1.
  const double t_power = student_central_quantile(2 * power - 1, j.df);
  return std::expm1((t_alpha + t_power) * j.se);
}

}  // namespace stats
