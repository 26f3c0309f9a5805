// report/compare.cpp — `zapbench compare A B`: per cell (requests/s, p99) and
// per microbenchmark (ns/op), run B against run A, unpaired (two runs share
// no rounds): the ratio of medians B ÷ A with its 95% bootstrap interval and
// a Mann–Whitney U test per figure, the tests' false-discovery rate held at
// q by Benjamini–Hochberg across every figure compared (hundreds are: at a
// per-figure 5%, a tenth of an identical pair's figures would "change"). Each
// figure is judged against how the whole run moved for its kind (RunShift:
// the machine between two runs moves every figure alike; measured here,
// 9% between two quick runs ten minutes apart), unless --absolute. A figure
// is improved or regressed only when it is a discovery and its interval
// excludes 1; held when its interval lies within ±margin; undecided
// otherwise. A side with too few samples for the test (results of
// runs before verdicts had 3) falls back to the rule of those runs — beyond
// both runs' spreads — labelled as such. Cells that did not run
// (unavailable or without samples) count as absent on that side.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "report/document.hpp"
#include "stats/rng.hpp"

namespace report {
namespace {

bool usable(const Cell& c) { return c.unavailable.empty() && !c.samples.empty(); }

Change change(const std::string& key, const std::string& figure, stats::Better better, const Samples& a,
              const Samples& b) {
  Change c;
  c.key = key;
  c.figure = figure;
  c.better = better;
  c.a = a.median();
  c.b = b.median();
  c.samples_a = unsigned(a.values.size());
  c.samples_b = unsigned(b.values.size());
  c.a_samples = a;
  c.b_samples = b;
  return c;
}

std::string value(const Change& c, double v) {
  if (c.figure == "requests/s") return doc::grouped(v) + " req/s";
  return doc::with_unit(v * 1e-9, "s");  // p99 and ns/op: ns
}

std::string percent(double v) { return doc::fixed(v * 100, v * 100 < 10 ? 1 : 0) + "%"; }

// The run shift of one kind of figure: the median over the figures of that
// kind the test will judge of log(B ÷ A), a percentile bootstrap over them.
// Those figures, not all: in a run whose later rounds went to the findings'
// cells, the figures with enough samples to test were sampled in those
// rounds, and share that moment of the machine (measured: the findings'
// cells of one quick run 9% slower than another's, the other cells not).
stats::Estimate run_shift(const std::vector<Change>& changes, const std::string& figure,
                          const stats::Method& m) {
  std::vector<double> x;
  for (const Change& c : changes)
    if (c.figure == figure && c.tested && c.a > 0 && c.b > 0 && std::isfinite(c.a) && std::isfinite(c.b))
      x.push_back(std::log(c.b / c.a));
  stats::Estimate e;
  e.n = unsigned(x.size());
  if (x.size() < kMinShiftFigures) {
    e.why = std::to_string(x.size()) + " figures: a shift needs " + std::to_string(kMinShiftFigures);
    return e;
  }
  e.ratio = std::exp(stats::median(x));
  stats::Rng rng(stats::seed_of("run shift " + figure));
  std::vector<double> medians(m.resamples), r(x.size());
  for (double& med : medians) {
    for (double& v : r) v = x[rng.below(std::uint32_t(x.size()))];
    med = stats::median(r);
  }
  std::sort(medians.begin(), medians.end());
  e.lo = std::exp(stats::quantile(medians, (1 - m.confidence) / 2));
  e.hi = std::exp(stats::quantile(medians, 1 - (1 - m.confidence) / 2));
  e.verdict = stats::decide(e.lo, e.hi, stats::Better::higher, m.margin);
  return e;
}

}  // namespace

std::string_view to_string(Change::Verdict v) noexcept {
  switch (v) {
    case Change::Verdict::improved:
      return "improved";
    case Change::Verdict::regressed:
      return "regressed";
    case Change::Verdict::held:
      return "held";
    case Change::Verdict::undecided:
      break;
  }
  return "undecided";
}

Comparison compare(const Results& a, const Results& b, const CompareOptions& o) {
  Comparison out;
  out.options = o;
  std::map<std::string, const Cell*> cells_b;
  for (const Cell& c : b.cells)
    if (usable(c)) cells_b.emplace(c.id(), &c);
  std::map<std::string, bool> seen_in_a;
  for (const Cell& ca : a.cells) {
    if (!usable(ca) || seen_in_a[ca.id()]) continue;
    seen_in_a[ca.id()] = true;
    const auto it = cells_b.find(ca.id());
    if (it == cells_b.end()) {
      out.only_in_a.push_back(ca.id());
      continue;
    }
    out.changes.push_back(
        change(ca.id(), "requests/s", stats::Better::higher, ca.rate(), it->second->rate()));
    out.changes.push_back(change(ca.id(), "p99", stats::Better::lower, ca.p99(), it->second->p99()));
  }
  std::map<std::string, const MicroFigure*> micro_b;
  for (const MicroFigure& f : b.micro.figures) micro_b.emplace(f.name, &f);
  for (const MicroFigure& f : a.micro.figures) {
    if (seen_in_a["micro/" + f.name]) continue;
    seen_in_a["micro/" + f.name] = true;
    const auto it = micro_b.find(f.name);
    if (it == micro_b.end())
      out.only_in_a.push_back("micro/" + f.name);
    else
      out.changes.push_back(
          change("micro/" + f.name, "ns/op", stats::Better::lower, f.ns_per_op, it->second->ns_per_op));
  }
  for (const Cell& c : b.cells)
    if (usable(c) && !seen_in_a.count(c.id()) &&
        std::find(out.only_in_b.begin(), out.only_in_b.end(), c.id()) == out.only_in_b.end())
      out.only_in_b.push_back(c.id());
  for (const MicroFigure& f : b.micro.figures)
    if (!seen_in_a.count("micro/" + f.name) &&
        std::find(out.only_in_b.begin(), out.only_in_b.end(), "micro/" + f.name) == out.only_in_b.end())
      out.only_in_b.push_back("micro/" + f.name);

  // Each kind's run shift; then the tests, over every figure both runs can
  // test, of A against B with its kind's shift divided out; then each
  // figure's interval and verdict, a difference decided only for a discovery.
  stats::Method m;
  m.margin = o.margin;
  const unsigned need = m.min_samples;
  for (Change& c : out.changes) c.tested = c.samples_a >= need && c.samples_b >= need;
  std::map<std::string, double> divide;
  for (const char* figure : {"requests/s", "p99", "ns/op"}) {
    RunShift s{figure, run_shift(out.changes, figure, m), false};
    if (s.estimate.n == 0) continue;
    s.applied = !o.absolute && s.estimate.computed();
    divide[figure] = s.applied ? s.estimate.ratio : 1;
    out.shifts.push_back(std::move(s));
  }
  std::vector<double> p;
  for (Change& c : out.changes) {
    c.shift = divide.count(c.figure) ? divide[c.figure] : 1;
    for (double& v : c.b_samples.values) v /= c.shift;
    p.push_back(c.tested ? stats::mann_whitney_p(c.a_samples.values, c.b_samples.values) : NAN);
  }
  const std::vector<bool> discovery = stats::benjamini_hochberg(p, o.fdr);
  for (std::size_t i = 0; i < out.changes.size(); ++i) {
    Change& c = out.changes[i];
    if (!c.tested) {
      // The rule of runs before verdicts: beyond the spread (max - min) / median of A and of B.
      const double change = c.a != 0 ? c.b / c.a - 1 : 0;
      const bool spreads = c.samples_a >= 2 && c.samples_b >= 2;
      c.verdict = Change::Verdict::undecided;
      c.fallback =
          spreads && std::fabs(change) > c.a_samples.spread() && std::fabs(change) > c.b_samples.spread()
              ? "beyond noise"
          : spreads ? "within noise"
                    : "no noise estimate";
      c.estimate.ratio = c.a != 0 ? c.b / c.a : NAN;
      continue;
    }
    // A figure that is no discovery gets an alpha no p can meet: its interval alone can only say held.
    c.estimate = stats::unpaired(c.b_samples.values, c.a_samples.values, c.better,
                                 stats::seed_of(c.key + "|" + c.figure), m, discovery[i] ? 1.0 : -1.0);
    c.estimate.p = p[i];
    switch (c.estimate.verdict) {
      case stats::Verdict::ahead:
        c.verdict = Change::Verdict::improved;
        break;
      case stats::Verdict::behind:
        c.verdict = Change::Verdict::regressed;
        break;
      case stats::Verdict::equivalent:
        c.verdict = Change::Verdict::held;
        break;
      case stats::Verdict::undecided:
        c.verdict = Change::Verdict::undecided;
        break;
    }
  }
  return out;
}

std::string compare_text(const Comparison& c) {
  const CompareOptions& o = c.options;
  // Text columns left-aligned, numbers right-aligned.
  doc::Table table{{"key", "figure", "A", "B", "B ÷ A",
                    o.absolute ? "95% interval" : "÷ run shift (95% interval)", "p", "verdict"},
                   "llrrrrrl",
                   {}};
  std::size_t improved = 0, regressed = 0, held = 0, undecided = 0, fallback = 0;
  for (const Change& ch : c.changes) {
    const std::string raw = ch.a > 0 ? doc::fixed(ch.b / ch.a, 3) + "×" : "n/a";
    std::string judged = "—", p = "—", verdict(to_string(ch.verdict));
    if (!ch.fallback.empty()) {
      ++fallback;
      const unsigned n = std::min(ch.samples_a, ch.samples_b);
      verdict = "undecided: " + std::to_string(n) + (n == 1 ? " sample" : " samples") + ", the test needs " +
                std::to_string(stats::kMethod.min_samples) +
                " (the spread rule of older runs: " + ch.fallback + ")";
    } else {
      if (ch.estimate.computed())
        judged = doc::fixed(ch.estimate.ratio, 3) + "× (" + doc::fixed(ch.estimate.lo, 3) + "–" +
                 doc::fixed(ch.estimate.hi, 3) + ")";
      if (std::isfinite(ch.estimate.p)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2g", ch.estimate.p);
        p = buf;
      }
      switch (ch.verdict) {
        case Change::Verdict::improved:
          ++improved;
          break;
        case Change::Verdict::regressed:
          ++regressed;
          break;
        case Change::Verdict::held:
          ++held;
          break;
        case Change::Verdict::undecided:
          ++undecided;
          break;
      }
    }
    table.rows.push_back({ch.key, ch.figure, value(ch, ch.a), value(ch, ch.b), raw, judged, p, verdict});
  }
  std::string out =
      "Unpaired, each figure: B ÷ A = median B / median A" +
      std::string(o.absolute ? ", with its 95% bootstrap interval"
                             : "; ÷ run shift = B ÷ A with its kind's run shift\n(below) divided out, with "
                               "its 95% bootstrap interval") +
      "; p = the two-sided Mann–Whitney U test's.\nBenjamini–Hochberg holds the false-discovery rate of the "
      "tests at " +
      percent(o.fdr) +
      ". improved / regressed: a\ndiscovery whose interval excludes 1 (requests/s up, p99 and ns/op down is "
      "improved); held: the\ninterval lies within ±" +
      percent(o.margin) + "; undecided: neither (more samples, or a quieter machine, could decide).\n\n";
  out += doc::text_table(table);
  out += "\n" + std::to_string(c.changes.size()) + " figures: " + std::to_string(improved + regressed) +
         " changed (" + std::to_string(improved) + " improved, " + std::to_string(regressed) +
         " regressed), " + std::to_string(held) + " held, " + std::to_string(undecided) + " undecided";
  if (fallback > 0)
    out += ", " + std::to_string(fallback) +
           " with too few samples for the test (undecided; the spread rule beside)";
  out += ".\n";
  if (!c.shifts.empty()) {
    out +=
        "Run shifts, how the whole of B moved against A (the median of a kind's tested figures' B ÷ A, 95% "
        "interval\nover them); " +
        std::string(o.absolute ? "each figure above is judged against 1 (--absolute):\n"
                               : "each figure above is judged against its kind's shift:\n");
    for (const RunShift& sh : c.shifts) {
      const stats::Estimate& e = sh.estimate;
      out += "  " + sh.figure + ": ";
      if (!e.computed()) {
        out += e.why + " tested (its figures judged against 1)\n";
        continue;
      }
      out += doc::fixed(e.ratio, 3) + "× (" + doc::fixed(e.lo, 3) + "–" + doc::fixed(e.hi, 3) + "×) over " +
             std::to_string(e.n) + " tested figures: ";
      if (e.lo > 1 + o.margin || e.hi < 1 - o.margin)
        out += "the whole run moved beyond ±" + percent(o.margin) +
               " (the machine, or the whole build, changed between the runs)\n";
      else if (e.verdict == stats::Verdict::equivalent)
        out += "within ±" + percent(o.margin) + "\n";
      else
        out += "not decided beyond ±" + percent(o.margin) + "\n";
    }
  }
  for (const auto& [title, keys] :
       {std::pair{"only in A", &c.only_in_a}, std::pair{"only in B", &c.only_in_b}}) {
    if (keys->empty()) continue;
    out += std::string(title) + " (" + std::to_string(keys->size()) + "):\n";
    for (const std::string& k : *keys) out += "  " + k + "\n";
  }
  return out;
}

}  // namespace report
