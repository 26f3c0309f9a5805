// report/doc_found.cpp — what it found: the findings (report/findings.hpp)
// as the report opens with them, each with its verdict, undecided ones listed
// as such.

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

// --- what it found: the summary the report opens with ----------------------------------

// A finding's figure: "5.45 ns", "248,592" (requests/s), "2.1 µs", "412" (MB/s).
std::string value_text(const Finding& f, double v) {
  switch (f.unit) {
    case Finding::Unit::ns:
      return sig(v) + " ns";
    case Finding::Unit::requests_per_s:
      return grouped(v);  // the figure's name says the unit
    case Finding::Unit::cpu_ns:
      return sig(v / 1000) + " µs";
    case Finding::Unit::mb_per_s:
      return sig(v);
  }
  return sig(v);
}

const char* figure_text(Finding::Unit u) {
  switch (u) {
    case Finding::Unit::ns:
      return "time per op";
    case Finding::Unit::requests_per_s:
      return "requests/s";
    case Finding::Unit::cpu_ns:
      return "server CPU per request";
    case Finding::Unit::mb_per_s:
      return "MB/s of responses";
  }
  return "";
}

// "23.1× (20.5–25.0×, min–max)": a run without rounds has no interval, only
// the ratio of medians and the extremes its min–max ranges allow.
std::string legacy_text(const Finding& f, const Results& r) {
  const std::string s = f.keys.size() == 2 ? f.keys[0] : "", b = f.keys.size() == 2 ? f.keys[1] : "";
  auto samples_of = [&](const std::string& key) -> Samples {
    if (key.starts_with(kMicroKey)) {
      for (const MicroFigure& m : r.micro.figures)
        if (key.substr(kMicroKey.size()) == m.name) return m.ns_per_op;
      return {};
    }
    for (const Cell& c : r.cells)
      if (c.id() == key)
        return f.unit == Finding::Unit::requests_per_s ? c.rate()
               : f.unit == Finding::Unit::mb_per_s     ? c.mb_per_s()
                                                       : c.server_cpu_per_request_ns(r.config);
    return {};
  };
  Samples x = samples_of(s), y = samples_of(b);
  if (f.better == stats::Better::lower) std::swap(x, y);  // above 1× = the first is better
  if (x.values.empty() || y.values.empty() || y.median() <= 0 || y.min() <= 0) return "—";
  return times(x.median() / y.median()) + " (" + fixed(x.min() / y.max(), 2) + "–" +
         fixed(x.max() / y.min(), 2) + "×, min–max)";
}

Runs finding_item(const Results& r, const Finding& f, bool legacy) {
  Runs item{strong(f.title), " — " + std::string(figure_text(f.unit)) + ": " + f.subject + " (" +
                                 value_text(f, f.subject_value) + ") against " + f.baseline + " (" +
                                 value_text(f, f.baseline_value) + "): "};
  if (legacy)
    item.push_back(legacy_text(f, r) + " (no verdict: no rounds recorded)");
  else
    item.push_back(strong(verdict_text(f.estimate, f.better)));
  item.push_back(" — ");
  item.push_back(link("table", f.anchor));
  item.push_back(".");
  return item;
}

void found(const Results& r, Out& out) {
  const std::vector<Finding> all = findings(r);
  if (all.empty()) return;
  const bool legacy = !rounds_recorded(r);
  out.heading(2, "What it found", "found");
  if (legacy)
    out.para(
        {"Generated from this run's figures. This results.json records no rounds (a run from before "
         "verdicts), so no comparison has an interval or a verdict: each is the ratio of medians with "
         "the extremes the min–max ranges allow — read none of them as decided. × reads: how many "
         "times better the first named is (its rate ÷ the other's, or the other's time ÷ its own)."});
  else
    out.para(
        {"Generated from this run's figures. Each line compares two figures measured in the same rounds: "
         "× is how many times better the first named is (its rate ÷ the other's, or the other's time "
         "÷ its own; the geometric mean of the per-round ratios), with its 95% confidence interval, and "
         "the verdict — ahead or behind when the interval excludes 1×, equivalent when it lies within "
         "±" +
         margin_text(r) +
         ". What the interval did not decide is listed apart as undecided, never as a result."});
  std::vector<Runs> undecided;
  for (auto [section, what] :
       {std::pair{Finding::Section::micro, "Per op, in process (ns per op):"},
        std::pair{Finding::Section::logs,
                  "Cost against work, in process (the eth_getLogs answer of N logs):"},
        std::pair{Finding::Section::e2e, ""}, std::pair{Finding::Section::control, ""}}) {
    std::vector<Runs> items;
    for (const Finding& f : all) {
      if (f.section != section) continue;
      if (!legacy && f.estimate.verdict == stats::Verdict::undecided && section != Finding::Section::control)
        undecided.push_back(finding_item(r, f, legacy));
      else
        items.push_back(finding_item(r, f, legacy));
    }
    if (items.empty()) continue;
    if (section == Finding::Section::e2e)
      out.para({"End to end over " + transport(r.env) +
                ", at the connection count where ZAP peaks: rpc at the deepest pipeline (where the body's "
                "cost shows most), ZAP-RPC + ZAP against gRPC C++ at every depth, logs at the largest N and "
                "the shallowest pipeline (where the bytes do):"});
    else if (section == Finding::Section::control)
      out.para(
          {"The control: one cell run twice in every round, as two cells (the same binary and flags, "
           "at other places in the round). Nothing differs between them, so any verdict but equivalent "
           "or undecided here is the method's error, or drift within the rounds:"});
    else
      out.para({what});
    out.bullets(std::move(items));
  }
  if (!undecided.empty()) {
    out.para({"Undecided — the interval crosses 1× and reaches beyond ±" + margin_text(r) +
              " (more rounds, or a quieter machine, could decide them):"});
    out.bullets(std::move(undecided));
  }
}

}  // namespace report::doc
