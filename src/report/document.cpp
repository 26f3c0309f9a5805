// report/document.cpp — what the report says, in order: when and where, how
// it was measured, the fairness contract, the microbenchmarks, the end-to-end
// matrix with its ratios, the command lines and the caveats (build(), each
// section in its own doc_*.cpp, document_parts.hpp). Here: every number's
// formatting and every verdict's, decided once; markdown.cpp and html.cpp
// only render the blocks.
#include "report/document.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "report/document_parts.hpp"
#include "report/findings.hpp"
#include "report/gbench.hpp"
#include "report/select.hpp"

namespace report::doc {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

int sig_decimals(double v) {
  const double a = std::fabs(v);
  return a < 10 ? 2 : a < 1000 ? 1 : 0;
}

std::string sig(double v) { return fixed(v, sig_decimals(v)); }

std::string grouped(double v) {
  if (!std::isfinite(v)) return fixed(v, 0);
  std::string digits = fixed(std::fabs(v), 0), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 && digits != "0" ? "-" : "") + out;
}

namespace {

struct Prefix {
  double scale;
  const char* name;
};
constexpr Prefix kPrefixes[] = {{1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},
                                {1, ""},     {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};

// x in three significant figures: 0.500, 6.26, 68.8, 572.
std::string three_figures(double x) {
  const double a = std::fabs(x);
  int decimals = a < 1 ? 3 : a < 10 ? 2 : a < 100 ? 1 : 0;
  // 0.9997 rounds to "1.000": one figure too many once rounded.
  if (decimals > 0 && std::fabs(std::stod(fixed(x, decimals))) >= std::pow(10.0, 3 - decimals)) --decimals;
  return fixed(x, decimals);
}

// The prefix v is said in: the largest that leaves it at least 1; 999.7 (which
// rounds to "1000") the next one up ("1.00 µs"). A count has no milli-requests:
// its smallest prefix is none.
std::size_t prefix_of(double v, std::string_view unit) {
  const std::size_t last = unit.empty() ? 4 : std::size(kPrefixes) - 1;
  std::size_t i = 0;
  while (i < last && std::fabs(v) < kPrefixes[i].scale) ++i;
  if (i > 0 && std::fabs(std::stod(three_figures(v / kPrefixes[i].scale))) >= 1000) --i;
  return i;
}

std::string unit_text(std::size_t prefix, std::string_view unit) {
  return unit.empty() ? kPrefixes[prefix].name
                      : " " + std::string(kPrefixes[prefix].name) + std::string(unit);
}

}  // namespace

std::string with_unit(double v, std::string_view unit, bool trim) {
  if (!std::isfinite(v)) return "—";
  if (v == 0) return unit.empty() ? "0" : "0 " + std::string(unit);
  const std::size_t i = prefix_of(v, unit);
  std::string number = three_figures(v / kPrefixes[i].scale);
  if (trim && number.find('.') != std::string::npos) {
    while (number.back() == '0') number.pop_back();
    if (number.back() == '.') number.pop_back();
  }
  return number + unit_text(i, unit);
}

std::string med_range_in(const Samples& s, double to_base, std::string_view unit) {
  const double m = s.median() * to_base;
  if (!std::isfinite(m) || m == 0 || s.values.size() < 2) return with_unit(m, unit);
  const std::size_t i = prefix_of(m, unit);
  auto f = [&](double v) { return three_figures(v * to_base / kPrefixes[i].scale); };
  return f(s.median()) + " (" + f(s.min()) + "–" + f(s.max()) + ")" + unit_text(i, unit);
}

std::size_t display_width(std::string_view s) {
  return std::size_t(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

Chart bars_if_one_x(Chart c, std::string title) {
  std::set<double> xs;
  for (const Series& se : c.series)
    for (const Point& p : se.points) xs.insert(p.x);
  if (xs.size() != 1) return c;
  for (const Series& se : c.series)
    for (const Point& p : se.points)
      c.bars.push_back({se.label, p.median, p.lo, p.hi, se.family, se.limit, ""});
  c.series.clear();
  c.title = std::move(title);
  // The value axis is the line chart's y axis: its title names the figure.
  c.x_title = c.y_title;
  c.y_title.clear();
  return c;
}

// "median (min–max)", each number formatted like the median; one sample: the value alone.
std::string med_range(const Samples& s, double scale, bool group) {
  const double m = s.median() / scale, lo = s.min() / scale, hi = s.max() / scale;
  auto f = [&](double v) { return group ? grouped(v) : fixed(v, sig_decimals(m)); };
  if (s.values.size() < 2) return f(m);
  return f(m) + " (" + f(lo) + "–" + f(hi) + ")";
}

std::string times(double ratio) { return std::isfinite(ratio) ? fixed(ratio, 2) + "×" : "—"; }

std::string count(double v) { return v == std::floor(v) ? fixed(v, 0) : fixed(v, 2); }

std::string cpu_list(const std::vector<int>& cpus) {
  if (cpus.empty()) return "not pinned";
  std::string s;
  for (int c : cpus) {
    if (!s.empty()) s += ',';
    s += std::to_string(c);
  }
  return s;
}

std::string seconds(double s) {
  if (s < 120) return sig(s) + " s";
  const long total = std::lround(s);
  return sig(s) + " s (" + std::to_string(total / 60) + " min " + std::to_string(total % 60) + " s)";
}

// What joins the server and the loaders (Environment::link): runs before
// several hosts recorded none, and ran on one machine over loopback.
std::string link_of(const Environment& e) { return e.link.empty() ? "loopback" : e.link; }
bool one_host(const Environment& e) { return e.hosts.empty() && link_of(e) == "loopback"; }
// "loopback TCP", "TCP between hosts (ssh hosts)": what the end-to-end figures went over.
std::string transport(const Environment& e) {
  return one_host(e) ? "loopback TCP" : "TCP between hosts (" + link_of(e) + ")";
}

// The commit of a `zapbench --version` line ("zapbench 0.1.0 commit 0123456789ab (Release: ...)");
// the whole line when it names none.
std::string version_commit(const std::string& version) {
  const std::string tag = " commit ";
  const auto at = version.find(tag);
  if (at == std::string::npos) return version;
  const auto from = at + tag.size();
  return version.substr(from, version.find(' ', from) - from);
}

// --- figures beside a ratio, and modes ---------------------------------------------

std::string rounds_text(std::vector<unsigned> rounds) {
  std::sort(rounds.begin(), rounds.end());
  rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
  std::string s = rounds.size() == 1 ? "round " : "rounds ";
  for (std::size_t i = 0; i < rounds.size();) {
    std::size_t j = i;  // a run of consecutive rounds: "5–7" (two: "5, 6")
    while (j + 1 < rounds.size() && rounds[j + 1] == rounds[j] + 1) ++j;
    s += (i == 0 ? "" : ", ") + std::to_string(rounds[i]);
    if (j >= i + 2)
      s += "–" + std::to_string(rounds[j]);
    else if (j == i + 1)
      s += ", " + std::to_string(rounds[j]);
    i = j + 1;
  }
  return s;
}

std::string modes_text(const std::vector<Mode>& modes, const std::function<std::string(double)>& value) {
  static const char* const kCount[] = {"no", "one", "two", "three", "four", "five"};
  std::string s =
      (modes.size() < std::size(kCount) ? std::string(kCount[modes.size()]) : std::to_string(modes.size())) +
      " modes: ";
  for (std::size_t i = 0; i < modes.size(); ++i)
    s += (i == 0 ? "" : "; ") + value(modes[i].median) + " in " + rounds_text(modes[i].rounds);
  return s;
}

std::string modes_mark(const std::vector<Mode>& modes) {
  return modes.size() > 1 ? std::string(" ") + kModesMark : "";
}

std::string with_modes(std::string cell, const Samples& s, const std::string& what,
                       const std::function<std::string(double)>& value, std::vector<Runs>& notes) {
  const std::vector<Mode> modes = modes_of(s);
  if (modes.size() < 2) return cell;
  notes.push_back({std::string(kModesMark) + " " + what + ": " + modes_text(modes, value)});
  return cell + modes_mark(modes);
}

std::string ns_text(double ns) { return with_unit(ns * 1e-9, "s"); }

// --- building blocks -----------------------------------------------------------

// --- verdicts ---------------------------------------------------------------------
// Every comparison the report prints goes through stats (model.hpp: paired
// by round; unpaired where two kinds of measurement meet) and is shown the
// same way: how many times better the first is than the second (above 1× =
// better: its requests/s ÷ the other's, or the other's time ÷ its own), the
// 95% interval of that, and the verdict.

Shown shown(const stats::Estimate& e, stats::Better better) {
  if (better == stats::Better::higher) return {e.ratio, e.lo, e.hi, &e};
  return {1 / e.ratio, 1 / e.hi, 1 / e.lo, &e};
}

// The marks of the tables' ÷ columns; the legend is mark_legend().
const char* mark(stats::Verdict v) {
  switch (v) {
    case stats::Verdict::ahead:
      return "▲";
    case stats::Verdict::behind:
      return "▼";
    case stats::Verdict::equivalent:
      return "≈";
    case stats::Verdict::undecided:
      break;
  }
  return "?";
}

// Whether the run recorded rounds at all: results.json of runs before
// verdicts did not, and their comparisons fall back to ratios of medians.
bool rounds_recorded(const Results& r) {
  for (const Cell& c : r.cells)
    for (const E2ESample& e : c.samples)
      if (e.round) return true;
  for (const MicroFigure& f : r.micro.figures)
    if (!f.ns_per_op.rounds.empty()) return true;
  return false;
}

std::string margin_text(const Results& r) { return fixed(method(r.config).margin * 100, 0) + "%"; }

// "1.24× (1.15–1.33) ▲" in a table; too few rounds: "1.24× ? (2 rounds)";
// no rounds recorded (older results): the ratio of medians alone.
std::string verdict_cell(const stats::Estimate& e, stats::Better better) {
  const Shown s = shown(e, better);
  if (!std::isfinite(s.x)) return "—";
  if (!e.computed()) {
    if (e.n == 0 && e.why.starts_with("no rounds")) return times(s.x);
    return times(s.x) + " ? (" + std::to_string(e.n) + (e.n == 1 ? " round)" : " rounds)");
  }
  return times(s.x) + " (" + fixed(s.lo, 2) + "–" + fixed(s.hi, 2) + ") " + mark(e.verdict);
}

// "ahead, 1.24× (1.15–1.33×), 12 rounds" in a sentence.
std::string verdict_text(const stats::Estimate& e, stats::Better better) {
  const Shown s = shown(e, better);
  const std::string rounds = std::to_string(e.n) + (e.paired ? (e.n == 1 ? " round" : " rounds")
                                                             : (e.n == 1 ? " sample each" : " samples each"));
  if (!e.computed()) return "undecided, " + times(s.x) + " (no interval: " + e.why + ")";
  return std::string(stats::to_string(e.verdict)) + ", " + times(s.x) + " (" + fixed(s.lo, 2) + "–" +
         fixed(s.hi, 2) + "×), " + rounds;
}

// A ratio that is a proportion, not a contest: "41% (39–43%)" or "24× (21–27×)"
// with its interval, no verdict; without an interval, the ratio, "?" and why
// in brief: "24× ? (3 samples)" (the table's text says how many the method needs).
std::string interval_text(const stats::Estimate& e, bool percent) {
  if (!std::isfinite(e.ratio)) return "—";
  auto f = [&](double v) { return percent ? fixed(v * 100, 0) : fixed(v, v < 10 ? 2 : 1); };
  const std::string unit = percent ? "%" : "×";
  if (!e.computed()) {
    if (e.why.starts_with("no rounds")) return f(e.ratio) + unit;
    return f(e.ratio) + unit + " ? (" + e.why.substr(0, e.why.find(':')) + ")";
  }
  return f(e.ratio) + unit + " (" + f(e.lo) + "–" + f(e.hi) + unit + ")";
}

// The legend under a table with ÷ columns.
Runs mark_legend(const Results& r) {
  if (!rounds_recorded(r))
    return {
        "This results.json records no rounds (a run from before verdicts): ratios of medians only, no "
        "interval and no verdict."};
  return {
      "In brackets the 95% confidence interval; ▲ ahead (the interval lies above 1×), ▼ behind (below "
      "1×), ≈ equivalent (within ±" +
      margin_text(r) +
      "), ? undecided (neither; with too few rounds, their count) — How it was measured says how."};
}

std::vector<Block> build(const Results& r) {
  Out out;
  when_where(r, out);
  how_measured(r, out);
  fairness(r, out);
  micro(r, out);
  end_to_end(r, out);
  loader_hosts(r, out);
  conformance(r, out);
  c100k(r, out);
  commands(r, out);
  caveats(r, out);
  return std::move(out.blocks);
}

}  // namespace report::doc
