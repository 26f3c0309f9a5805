// stats/estimate.cpp — the paired and unpaired estimates, their bootstraps,
// the Mann–Whitney U test and Benjamini–Hochberg (estimate.hpp).
#include "stats/estimate.hpp"

#include <algorithm>
#include <cstdio>
#include <numbers>
#include <numeric>

#include "stats/rng.hpp"

namespace stats {
namespace {

bool usable(double v) { return std::isfinite(v) && v > 0; }

// Below 5 rounds the bootstrap has too few distinct resamples (10 at 3
// rounds) to say anything about t's tails, and a resample of nearly equal
// rounds can give a t of any size: Student's t alone.
constexpr std::size_t kMinBootstrapRounds = 5;

// The median of a non-empty v, reordering it (the bootstrap's resamples are
// scratch: no copy per resample).
double median_in_place(std::vector<double>& v) {
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  // Even count: the mean of the two middle values (the lower one is the
  // largest element left of mid after nth_element).
  return (*std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid)) + v[mid]) / 2;
}

struct MeanSe {
  double mean = 0, se = 0;
};
MeanSe mean_se(const double* v, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += v[i];
  const double mean = sum / double(n);
  double ss = 0;
  for (std::size_t i = 0; i < n; ++i) ss += (v[i] - mean) * (v[i] - mean);
  return {mean, std::sqrt(ss / double(n - 1) / double(n))};
}

// P(|T| <= t) for Student's t with `df` degrees of freedom: the finite
// series for whole df (Abramowitz & Stegun 26.7.3 and 26.7.4).
double student_central(double t, unsigned df) {
  const double theta = std::atan(t / std::sqrt(double(df)));
  const double c2 = std::cos(theta) * std::cos(theta), s = std::sin(theta);
  if (df % 2 == 1) {
    double term = std::cos(theta), sum = df > 1 ? term : 0;  // cos θ (1 + 2/3 cos²θ + (2·4)/(3·5) cos⁴θ ...)
    for (unsigned k = 3; k + 2 <= df; k += 2) {
      term *= c2 * double(k - 1) / double(k);
      sum += term;
    }
    return 2 / std::numbers::pi * (theta + s * sum);
  }
  double term = 1, sum = 1;  // 1 + 1/2 cos²θ + (1·3)/(2·4) cos⁴θ ...
  for (unsigned k = 2; k + 2 <= df; k += 2) {
    term *= c2 * double(k - 1) / double(k);
    sum += term;
  }
  return s * sum;
}

// The t with P(|T| <= t) = central, by bisection (the CDF is monotone).
double student_quantile(double central, unsigned df) {
  double lo = 0, hi = 1;
  while (student_central(hi, df) < central) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (student_central(mid, df) < central ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::string percent(double v) {
  std::string s = std::to_string(v * 100);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + "%";
}

// Fills verdict and why from the interval (and, unpaired, the test). An
// interval a double cannot hold (ratios past 1e308 or below 1e-308: a figure
// gone wrong, not a measurement) is no interval.
void conclude(Estimate& e, Better better, const Method& m, double alpha) {
  if (!(e.lo > 0 && std::isfinite(e.hi) && std::isfinite(e.ratio) && e.ratio > 0)) {
    e.lo = e.hi = NAN;
    e.verdict = Verdict::undecided;
    e.why = "the ratio is beyond what a double holds";
    return;
  }
  e.verdict = decide(e.lo, e.hi, better, m.margin);
  const bool differs = e.verdict == Verdict::ahead || e.verdict == Verdict::behind;
  if (differs && !e.paired && !(e.p <= alpha)) {
    // The interval says different, the rank test does not: no difference is decided.
    e.verdict = e.lo >= 1 - m.margin && e.hi <= 1 + m.margin ? Verdict::equivalent : Verdict::undecided;
    if (e.verdict == Verdict::undecided) {
      char p[32];
      std::snprintf(p, sizeof p, "%.2g", e.p);
      e.why =
          std::string("the interval excludes 1 but the Mann–Whitney test does not decide (p = ") + p + ")";
    }
  } else if (e.verdict == Verdict::undecided) {
    e.why = "the interval crosses 1 and reaches beyond ±" + percent(m.margin);
  }
}

std::string too_few(unsigned n, unsigned min_n, bool paired) {
  return std::to_string(n) + (paired ? (n == 1 ? " round" : " rounds") : (n == 1 ? " sample" : " samples")) +
         ": the method needs " + std::to_string(min_n);
}

}  // namespace

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return NAN;
  const double pos = q * double(sorted.size() - 1);
  const auto i = std::size_t(pos);
  if (i + 1 >= sorted.size()) return sorted.back();
  const double f = pos - double(i);
  // Interpolating towards an infinite neighbour would give NaN (inf * 0).
  if (f == 0) return sorted[i];
  return sorted[i] + f * (sorted[i + 1] - sorted[i]);
}

double median(std::vector<double> v) { return v.empty() ? NAN : median_in_place(v); }

std::string_view to_string(Verdict v) noexcept {
  switch (v) {
    case Verdict::ahead:
      return "ahead";
    case Verdict::behind:
      return "behind";
    case Verdict::equivalent:
      return "equivalent";
    case Verdict::undecided:
      break;
  }
  return "undecided";
}

double Estimate::half_width() const { return computed() && lo > 0 ? std::sqrt(hi / lo) - 1 : INFINITY; }

bool precise(const Estimate& e, double precision) {
  if (!e.computed() || e.n < 2) return false;
  // The spread's upper 90% bound: s · sqrt(k / χ²(0.10; k)), k = n - 1, with
  // the chi-square quantile from the Wilson–Hilferty approximation (within 7%
  // of the exact one at k = 2, within 1% from k = 10).
  const double k = double(e.n - 1), a = 2 / (9 * k), z10 = -1.2815515655446004;
  const double root = 1 - a + z10 * std::sqrt(a);
  const double chi2 = k * root * root * root;
  const double widen = std::sqrt(k / chi2);
  return std::log1p(e.half_width()) * widen <= std::log1p(precision);
}

Verdict decide(double lo, double hi, Better better, double margin) noexcept {
  if (!(std::isfinite(lo) && std::isfinite(hi))) return Verdict::undecided;
  const bool above = lo > 1, below = hi < 1;
  if (above || below) return (above == (better == Better::higher)) ? Verdict::ahead : Verdict::behind;
  if (lo >= 1 - margin && hi <= 1 + margin) return Verdict::equivalent;
  return Verdict::undecided;
}

Estimate paired(std::span<const double> subject, std::span<const double> baseline, Better better,
                std::uint64_t seed, const Method& m) {
  Estimate e;
  e.paired = true;
  std::vector<double> d;
  for (std::size_t i = 0; i < std::min(subject.size(), baseline.size()); ++i)
    if (usable(subject[i]) && usable(baseline[i])) d.push_back(std::log(subject[i] / baseline[i]));
  e.n = unsigned(d.size());
  if (d.empty()) {
    e.why = "no round measured both";
    return e;
  }
  const std::size_t n = d.size();
  const MeanSe whole = n > 1 ? mean_se(d.data(), n) : MeanSe{d[0], 0};
  e.ratio = std::exp(whole.mean);
  if (e.n < m.min_rounds) {
    e.why = too_few(e.n, m.min_rounds, true);
    return e;
  }
  const double student = student_quantile(m.confidence, e.n - 1);
  if (!std::isfinite(whole.se)) {  // log ratios past what a double sums: no interval (conclude says so)
    e.lo = e.hi = NAN;
  } else if (whole.se == 0) {  // every round gave the same ratio: no spread at all
    e.lo = e.hi = e.ratio;
  } else if (n < kMinBootstrapRounds || m.resamples == 0) {
    e.lo = std::exp(whole.mean - student * whole.se);
    e.hi = std::exp(whole.mean + student * whole.se);
  } else {
    // Bootstrap-t: the distribution of (mean* - mean) / se* over resamples of
    // the rounds stands in for Student's t, skew and tails included.
    Rng rng(seed);
    std::vector<double> t, resample(n);
    t.reserve(m.resamples);
    for (unsigned b = 0; b < m.resamples; ++b) {
      for (double& r : resample) r = d[rng.below(std::uint32_t(n))];
      const MeanSe s = mean_se(resample.data(), n);
      // A resample of one repeated round has no spread and no t: left out
      // (at 3 rounds, 1 in 9 of them; beyond 10, practically none).
      if (s.se > 0) t.push_back((s.mean - whole.mean) / s.se);
    }
    std::sort(t.begin(), t.end());
    const double tail = (1 - m.confidence) / 2;
    // Never narrower than Student's t: a run of rounds that missed the rare
    // disturbed sample (a neighbour's burst on a shared machine) resamples
    // into tails too light, and bootstrap-t alone then covers 89–91% at 10
    // to 30 rounds; Student's t keeps its 95% there, bootstrap-t keeps the
    // skew where the rounds show one (tests/stats: the synthetic families).
    const double t_hi = t.empty() ? student : std::max(quantile(t, 1 - tail), student);
    const double t_lo = t.empty() ? -student : std::min(quantile(t, tail), -student);
    e.lo = std::exp(whole.mean - t_hi * whole.se);
    e.hi = std::exp(whole.mean - t_lo * whole.se);
  }
  conclude(e, better, m, NAN);
  return e;
}

Estimate unpaired(std::span<const double> subject, std::span<const double> baseline, Better better,
                  std::uint64_t seed, const Method& m, double alpha) {
  Estimate e;
  std::vector<double> s, b;
  for (double v : subject)
    if (usable(v)) s.push_back(v);
  for (double v : baseline)
    if (usable(v)) b.push_back(v);
  e.n = unsigned(std::min(s.size(), b.size()));
  if (s.empty() || b.empty()) {
    e.why = "no sample on one side";
    return e;
  }
  e.p = mann_whitney_p(s, b);
  {
    std::vector<double> s2 = s, b2 = b;
    e.ratio = median_in_place(s2) / median_in_place(b2);
  }
  if (e.n < m.min_samples) {
    e.why = too_few(e.n, m.min_samples, false);
    return e;
  }
  Rng rng(seed);
  std::vector<double> ratios(m.resamples), rs(s.size()), rb(b.size());
  for (double& r : ratios) {
    for (double& v : rs) v = s[rng.below(std::uint32_t(s.size()))];
    for (double& v : rb) v = b[rng.below(std::uint32_t(b.size()))];
    r = median_in_place(rs) / median_in_place(rb);
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - m.confidence) / 2;
  e.lo = quantile(ratios, tail);
  e.hi = quantile(ratios, 1 - tail);
  conclude(e, better, m, std::isnan(alpha) ? 1 - m.confidence : alpha);
  return e;
}

double mann_whitney_p(std::span<const double> a, std::span<const double> b) {
  // NaN has no rank: left out (infinities rank as the extremes they are).
  std::vector<std::pair<double, bool>> pooled;
  pooled.reserve(a.size() + b.size());
  for (double v : a)
    if (!std::isnan(v)) pooled.emplace_back(v, true);
  for (double v : b)
    if (!std::isnan(v)) pooled.emplace_back(v, false);
  const auto n =
      std::size_t(std::count_if(pooled.begin(), pooled.end(), [](const auto& x) { return x.second; }));
  const std::size_t k = pooled.size() - n;
  if (n == 0 || k == 0) return NAN;
  // Midranks of the pooled sample; U of a = its rank sum - n(n+1)/2.
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double midrank = double(i + j + 1) / 2;  // ranks i+1 .. j
    for (std::size_t t = i; t < j; ++t)
      if (pooled[t].second) rank_sum_a += midrank;
    const double tied = double(j - i);
    if (tied > 1) {
      ties = true;
      tie_term += tied * tied * tied - tied;
    }
    i = j;
  }
  const double u = rank_sum_a - double(n) * double(n + 1) / 2;
  const double nn = double(n), kk = double(k);
  if (!ties && n <= 50 && k <= 50) {
    // The exact null distribution of U: the coefficients of the Gaussian
    // binomial [n+k choose n]_q = prod_{i=1..n} (1 - q^(k+i)) / (1 - q^i).
    const std::size_t top = n * k;
    std::vector<double> c(top + 1, 0);
    c[0] = 1;
    for (std::size_t i = 1; i <= n; ++i) {
      for (std::size_t d = top; d >= k + i; --d) c[d] -= c[d - k - i];  // × (1 - q^(k+i))
      for (std::size_t d = i; d <= top; ++d) c[d] += c[d - i];          // ÷ (1 - q^i)
    }
    const double total = std::accumulate(c.begin(), c.end(), 0.0);
    const auto at = std::size_t(std::llround(u));
    double le = 0, ge = 0;
    for (std::size_t d = 0; d <= top; ++d) {
      if (d <= at) le += c[d];
      if (d >= at) ge += c[d];
    }
    return std::min(1.0, 2 * std::min(le, ge) / total);
  }
  const double mean = nn * kk / 2;
  const double var = nn * kk / 12 * ((nn + kk + 1) - tie_term / ((nn + kk) * (nn + kk - 1)));
  if (var <= 0) return 1;  // every value tied: no evidence either way
  const double z = std::max(0.0, std::fabs(u - mean) - 0.5) / std::sqrt(var);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

std::vector<bool> benjamini_hochberg(std::span<const double> p, double q) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!std::isnan(p[i])) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
  const double tests = double(order.size());
  std::size_t last = 0;  // the largest rank k with p_(k) <= k q / m (1-based; 0: none)
  for (std::size_t r = 0; r < order.size(); ++r)
    if (p[order[r]] <= double(r + 1) * q / tests) last = r + 1;
  std::vector<bool> out(p.size(), false);
  for (std::size_t r = 0; r < last; ++r) out[order[r]] = true;
  return out;
}

}  // namespace stats
