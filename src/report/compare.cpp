// report/compare.cpp — `zapbench compare A B`: per cell (requests/s, p99) and
// per microbenchmark (ns/op), the change of the median from run A to run B
// and whether it exceeds the noise of both runs. Noise is a run's own spread,
// (max − min) / median of its samples. A change is "beyond noise" only when
// |change| exceeds the spread of A and of B; with fewer than two samples on
// either side there is no noise estimate, so it is never called significant
// and the table says "no noise estimate". Cells that did not run (unavailable
// or without samples) count as absent on that side.
#include <algorithm>
#include <cmath>
#include <map>

#include "report/document.hpp"

namespace report {
namespace {

bool usable(const Cell& c) { return c.unavailable.empty() && !c.samples.empty(); }

Change change(const std::string& key, const std::string& figure, const Samples& a, const Samples& b) {
  Change c;
  c.key = key;
  c.figure = figure;
  c.a = a.median();
  c.b = b.median();
  c.change = c.a != 0 ? c.b / c.a - 1 : c.b == 0 ? 0 : INFINITY;
  c.noise = std::max(a.spread(), b.spread());
  c.samples_a = unsigned(a.values.size());
  c.samples_b = unsigned(b.values.size());
  c.significant = c.samples_a >= 2 && c.samples_b >= 2 && std::fabs(c.change) > a.spread() &&
                  std::fabs(c.change) > b.spread();
  return c;
}

bool has_estimate(const Change& c) { return c.samples_a >= 2 && c.samples_b >= 2; }

std::string value(const Change& c, double v) {
  if (c.figure == "requests/s") return doc::grouped(v) + " req/s";
  if (c.figure == "p99") return doc::sig(v / 1000) + " µs";
  return doc::sig(v) + " ns";
}

// Columns are padded by displayed characters, not bytes ("µ" is two bytes).
std::size_t display_width(const std::string& s) {
  return std::size_t(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

}  // namespace

Comparison compare(const Results& a, const Results& b) {
  Comparison out;
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
    out.changes.push_back(change(ca.id(), "requests/s", ca.rate(), it->second->rate()));
    out.changes.push_back(change(ca.id(), "p99", ca.p99(), it->second->p99()));
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
      out.changes.push_back(change("micro/" + f.name, "ns/op", f.ns_per_op, it->second->ns_per_op));
  }
  for (const Cell& c : b.cells)
    if (usable(c) && !seen_in_a.count(c.id()) &&
        std::find(out.only_in_b.begin(), out.only_in_b.end(), c.id()) == out.only_in_b.end())
      out.only_in_b.push_back(c.id());
  for (const MicroFigure& f : b.micro.figures)
    if (!seen_in_a.count("micro/" + f.name) &&
        std::find(out.only_in_b.begin(), out.only_in_b.end(), "micro/" + f.name) == out.only_in_b.end())
      out.only_in_b.push_back("micro/" + f.name);
  return out;
}

std::string compare_text(const Comparison& c) {
  std::vector<std::vector<std::string>> rows = {{"key", "figure", "A", "B", "change", "noise", "verdict"}};
  std::size_t beyond = 0, within = 0, unknown = 0;
  for (const Change& ch : c.changes) {
    std::string verdict;
    if (!has_estimate(ch)) {
      verdict = "no noise estimate (" + std::to_string(std::min(ch.samples_a, ch.samples_b)) + " sample" +
                (std::min(ch.samples_a, ch.samples_b) == 1 ? ")" : "s)");
      ++unknown;
    } else if (ch.significant) {
      verdict = "beyond noise";
      ++beyond;
    } else {
      verdict = "within noise";
      ++within;
    }
    rows.push_back({ch.key, ch.figure, value(ch, ch.a), value(ch, ch.b),
                    std::isfinite(ch.change)
                        ? (ch.change >= 0 ? "+" : "") + doc::fixed(ch.change * 100, 1) + "%"
                        : "n/a",
                    has_estimate(ch) ? doc::fixed(ch.noise * 100, 1) + "%" : "—", verdict});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], display_width(row[i]));
  std::string out =
      "change = median B / median A - 1; noise = the larger spread (max - min) / median of A and B;\n"
      "beyond noise = |change| exceeds the spread of A and the spread of B.\n\n";
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - display_width(row[i]), ' ');
      // Text columns left-aligned, numbers right-aligned.
      line += i < 2 || i == 6 ? row[i] + pad : pad + row[i];
      if (i + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += "\n" + std::to_string(c.changes.size()) + " figures: " + std::to_string(beyond) + " beyond noise, " +
         std::to_string(within) + " within noise, " + std::to_string(unknown) +
         " without a noise estimate.\n";
  for (const auto& [title, keys] :
       {std::pair{"only in A", &c.only_in_a}, std::pair{"only in B", &c.only_in_b}}) {
    if (keys->empty()) continue;
    out += std::string(title) + " (" + std::to_string(keys->size()) + "):\n";
    for (const std::string& k : *keys) out += "  " + k + "\n";
  }
  return out;
}

}  // namespace report
