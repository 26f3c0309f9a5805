// report/doc_found.cpp — what it found: the findings (report/findings.hpp)
// as the report opens with them — first at a glance, two compact tables with
// a chart beside each (per op, ZAP against the fastest JSON and binary peer;
// end to end, server CPU per request against the floor), which are also
// findings.md and the summary `zapbench run` prints; then in words, each with
// its verdict, undecided ones listed as such. Every figure beside a ratio is
// over the rounds that ratio pairs, its modes named (paired_figures.hpp).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "report/document_parts.hpp"
#include "report/findings.hpp"
#include "report/gbench.hpp"
#include "report/select.hpp"

namespace report::doc {

// --- what it found: the summary the report opens with ----------------------------------

// A finding's figure: "5.45 ns", "572 µs", "248,592" (requests/s), "2.10 GB/s".
std::string value_text(const Finding& f, double v) {
  switch (f.unit) {
    case Finding::Unit::ns:
    case Finding::Unit::cpu_ns:
      return with_unit(v * 1e-9, "s");
    case Finding::Unit::requests_per_s:
      return grouped(v);  // the figure's name says the unit
    case Finding::Unit::mb_per_s:
      return with_unit(v * 1e6, "B/s");
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

// What a finding's key names (Finding::keys): a microbenchmark ("micro/<name>") or a cell (Cell::id).
const MicroFigure* micro_of(const Results& r, const std::string& key) {
  for (const MicroFigure& m : r.micro.figures)
    if (key == std::string(kMicroKey) + m.name) return &m;
  return nullptr;
}

const Cell* cell_of(const Results& r, const std::string& key) {
  for (const Cell& c : r.cells)
    if (c.id() == key) return &c;
  return nullptr;
}

// The samples a finding's key names, in the finding's unit; none when the key names nothing.
Samples figure_samples(const Results& r, const Finding& f, const std::string& key) {
  if (const MicroFigure* m = micro_of(r, key)) return m->ns_per_op;
  if (const Cell* c = cell_of(r, key))
    return f.unit == Finding::Unit::requests_per_s ? c->rate()
           : f.unit == Finding::Unit::mb_per_s     ? c->mb_per_s()
                                                   : c->server_cpu_per_request_ns(r.config);
  return {};
}

// A finding's two figures over the rounds its ratio pairs (paired_figures.hpp), for a chart's bars and
// whiskers; each side whole in a run without rounds.
Paired paired_samples(const Results& r, const Finding& f) {
  if (f.keys.size() != 2) return {};
  const Samples s = figure_samples(r, f, f.keys[0]), b = figure_samples(r, f, f.keys[1]);
  Paired p = paired_rounds(s, b);
  if (p.subject.values.empty()) return {s, b};
  return p;
}

// "23.1× (20.5–25.0×, min–max)": a run without rounds has no interval, only
// the ratio of medians and the extremes its min–max ranges allow.
std::string legacy_text(const Finding& f, const Results& r) {
  const std::string s = f.keys.size() == 2 ? f.keys[0] : "", b = f.keys.size() == 2 ? f.keys[1] : "";
  Samples x = figure_samples(r, f, s), y = figure_samples(r, f, b);
  if (f.better == stats::Better::lower) std::swap(x, y);  // above 1× = the first is better
  if (x.values.empty() || y.values.empty() || y.median() <= 0 || y.min() <= 0) return "—";
  return times(x.median() / y.median()) + " (" + fixed(x.min() / y.max(), 2) + "–" +
         fixed(x.max() / y.min(), 2) + "×, min–max)";
}

// How a finding's figure is said, for the notes on its modes.
std::function<std::string(double)> value_of(const Finding& f) {
  return [&f](double v) { return value_text(f, v); };
}

// Whether a finding's interval reached the precision the run asked for (its
// half-width, ×/÷ 1 + precision at most); true when the run asked for none.
// A finding beyond it keeps its verdict (the interval still decides it) and
// says that the budget ran out first.
bool within_precision(const Results& r, const Finding& f) {
  if (!std::isfinite(r.config.precision) || !f.estimate.computed()) return true;
  return f.estimate.half_width() <= r.config.precision;
}

Runs finding_item(const Results& r, const Finding& f, bool legacy) {
  Runs item{strong(f.title), " — " + std::string(figure_text(f.unit)) + ": " + f.subject + " (" +
                                 value_text(f, f.subject_value) + modes_mark(f.subject_modes) + ") against " +
                                 f.baseline + " (" + value_text(f, f.baseline_value) +
                                 modes_mark(f.baseline_modes) + "): "};
  if (legacy)
    item.push_back(legacy_text(f, r) + " (no verdict: no rounds recorded)");
  else
    item.push_back(strong(verdict_text(f.estimate, f.better)));
  // A figure whose rounds fall in separate modes is named as its modes too, never as one number alone.
  for (const auto& [who, modes] :
       {std::pair{&f.subject, &f.subject_modes}, std::pair{&f.baseline, &f.baseline_modes}})
    if (modes->size() > 1)
      item.push_back(" — " + std::string(kModesMark) + " " + *who + ": " + modes_text(*modes, value_of(f)));
  if (!legacy && !within_precision(r, f))
    item.push_back(" — not within the ±" + fixed(r.config.precision * 100, 1) + "% asked: ±" +
                   // rounded up: a half-width just past the precision never reads as equal to it
                   fixed(std::ceil(f.estimate.half_width() * 1000 - 1e-9) / 10, 1) + "%");
  item.push_back(" — ");
  item.push_back(link("table", f.anchor));
  item.push_back(".");
  return item;
}

// --- at a glance ------------------------------------------------------------------------

// Per op (and the logs record's DecodeAll): ZAP's time against the fastest
// JSON codec's and the fastest binary peer's, one row per op; beside it their
// bars. Every time is over the rounds its comparison pairs, so the two times
// of a comparison divide to its ratio: ZAP's column is over the rounds of the
// row's first comparison, and a second that pairs other rounds (a finding
// that gave one codec more rounds than the other) shows ZAP's time in those
// beside its peer's.
void glance_micro(const Results& r, const std::vector<Finding>& all, bool links, Out& out) {
  Block b;
  b.kind = Block::Kind::glance;
  Table& t = b.table;
  t = {{"in process", "ZAP", "fastest JSON", "ZAP against it", "fastest binary", "ZAP against it",
        "the limit", "ZAP against it"},
       "lrrrrrrr",
       {}};
  Chart& c = b.chart;
  c = {"findings-micro",
       "Time per op, in process",
       // The value over the rounds its comparison pairs (the caption says so; short, beside the table).
       std::string(rounds_recorded(r) ? "paired" : "median") + ", whisker min–max (log scale)",
       "",
       true,
       {},
       {}};
  c.narrow = true;
  std::vector<Runs> notes;
  std::vector<std::string> titles;
  for (const Finding& f : all)
    if ((f.section == Finding::Section::micro || f.section == Finding::Section::logs) &&
        f.against != Finding::Against::other &&
        std::find(titles.begin(), titles.end(), f.title) == titles.end())
      titles.push_back(f.title);
  bool any_limit = false;
  for (const std::string& title : titles) {
    const Finding* json = nullptr;
    const Finding* peer = nullptr;
    const Finding* limit = nullptr;
    for (const Finding& f : all)
      if (f.title == title && (f.section == Finding::Section::micro || f.section == Finding::Section::logs)) {
        if (f.against == Finding::Against::fastest_json) json = &f;
        if (f.against == Finding::Against::fastest_peer) peer = &f;
        if (f.against == Finding::Against::limit) limit = &f;
      }
    const Finding* any = json ? json : peer ? peer : limit;  // ZAP's column: over the rounds of this one
    std::vector<Text> row{title, value_text(*any, any->subject_value) + modes_mark(any->subject_modes)};
    if (any->subject_modes.size() > 1)
      notes.push_back({std::string(kModesMark) + " " + title +
                       ", ZAP: " + modes_text(any->subject_modes, value_of(*any))});
    auto bar = [&](const Samples& s, double value, const std::string& label, Family fam, bool is_limit) {
      if (!s.values.empty()) c.bars.push_back({label, value, s.min(), s.max(), fam, is_limit, title});
    };
    bar(paired_samples(r, *any).subject, any->subject_value, "ZAP", Family::zap, false);
    for (const Finding* f : {json, peer, limit}) {
      if (!f) {
        row.emplace_back("—");
        row.emplace_back("—");
        continue;
      }
      std::string baseline =
          f->baseline_codec + " " + value_text(*f, f->baseline_value) + modes_mark(f->baseline_modes);
      // ZAP's time over the rounds this comparison pairs, where it reads otherwise than its column.
      const std::string zap_here = value_text(*f, f->subject_value) + modes_mark(f->subject_modes);
      if (f != any && f->rounds != any->rounds && zap_here != row[1].s) {
        baseline += " (ZAP " + zap_here + ")";
        if (f->subject_modes.size() > 1)
          notes.push_back({std::string(kModesMark) + " " + title + ", ZAP in " + rounds_text(f->rounds) +
                           ": " + modes_text(f->subject_modes, value_of(*f))});
      }
      if (f->baseline_modes.size() > 1)
        notes.push_back({std::string(kModesMark) + " " + title + ", " + f->baseline_codec + ": " +
                         modes_text(f->baseline_modes, value_of(*f))});
      row.emplace_back(std::move(baseline));
      row.emplace_back(verdict_cell(f->estimate, f->better));
      bar(paired_samples(r, *f).baseline, f->baseline_value, f->baseline_codec,
          f == json ? Family::json : Family::peer, f == limit);
    }
    t.rows.push_back(std::move(row));
    any_limit = any_limit || limit != nullptr;
  }
  if (t.rows.empty()) return;
  if (!any_limit) {  // a run without the limit rows (before them, or filtered out): no empty columns
    t.header.resize(6);
    t.align.resize(6);
    for (std::vector<Text>& row : t.rows) row.erase(row.begin() + 6, row.end());
  }
  // A run without rounds: medians, and the ratio theirs.
  Runs what{
      rounds_recorded(r)
          ? "In process, time per op: ZAP against the fastest JSON codec and the fastest binary peer of "
            "each op, and against the op's limit (the least work any codec of the record must do, on the "
            "same bytes: docs/methodology.md, \"The limits\"); ZAP against it = how many times faster ZAP "
            "is (against the limit: the share of the limit's speed ZAP reaches). Each time is the geometric "
            "mean over "
            "the rounds its comparison pairs (those both codecs ran), so a comparison's two times divide "
            "to its ratio; ZAP's column is over the JSON comparison's rounds, and where the binary one "
            "pairs others, ZAP's time in them is beside the peer's as \"(ZAP …)\"."
          : "In process, time per op (median): ZAP against the fastest JSON codec and the fastest binary "
            "peer of each op, and against the op's limit; ZAP against it = how many times faster ZAP is."};
  if (links) what.insert(what.end(), {" ", link("Microbenchmarks", "micro"), " has every codec."});
  out.para(std::move(what));
  out.blocks.push_back(std::move(b));
  if (!notes.empty()) out.bullets(std::move(notes));  // a line per figure marked ¦, naming its modes' rounds
}

// End to end: each framing × body's server CPU per request against the
// floor's; beside it their bars, the floor's in grey. The floor's row is over
// the rounds of the first comparison; a row that pairs other rounds (a cell
// with fewer rounds than the floor) shows the floor's figure in those beside
// its own.
void glance_floor(const Results& r, const std::vector<Finding>& all, bool links, Out& out) {
  Block b;
  b.kind = Block::Kind::glance;
  Table& t = b.table;
  t = {{"framing", "body", "server CPU per request", "against the floor"}, "llrr", {}};
  Chart& c = b.chart;
  c = {"findings-e2e",
       "Server CPU per request, end to end",
       std::string(rounds_recorded(r) ? "paired" : "median") + ", whisker min–max",
       "",
       false,
       {},
       {}};
  c.narrow = true;
  std::vector<Runs> notes;
  const Finding* first = nullptr;
  for (const Finding& f : all) {
    if (f.section != Finding::Section::floor) continue;
    if (!first) first = &f;
    const std::string body =
        f.subject_codec == "zap"                           ? "ZAP"
        : f.subject_kind == Finding::Against::fastest_json ? f.subject_codec + " (fastest JSON)"
        : f.subject_kind == Finding::Against::fastest_peer ? f.subject_codec + " (fastest binary)"
                                                           : f.subject_codec;
    std::string value = value_text(f, f.subject_value) + modes_mark(f.subject_modes);
    // The floor's figure over the rounds this comparison pairs, where it reads otherwise than its row.
    const std::string floor_here = value_text(f, f.baseline_value) + modes_mark(f.baseline_modes);
    if (f.rounds != first->rounds &&
        floor_here != value_text(*first, first->baseline_value) + modes_mark(first->baseline_modes)) {
      value += " (the floor " + floor_here + ")";
      if (f.baseline_modes.size() > 1)
        notes.push_back({std::string(kModesMark) + " " + f.framing + ", " + body + ", the floor in " +
                         rounds_text(f.rounds) + ": " + modes_text(f.baseline_modes, value_of(f))});
    }
    if (f.subject_modes.size() > 1)
      notes.push_back({std::string(kModesMark) + " " + f.framing + ", " + body + ": " +
                       modes_text(f.subject_modes, value_of(f))});
    t.rows.push_back({f.framing, body, std::move(value), verdict_cell(f.estimate, f.better)});
    // The bar's colour says the body's family; its label the codec alone.
    if (const Samples s = paired_samples(r, f).subject; !s.values.empty())
      c.bars.push_back({f.subject_codec == "zap" ? "ZAP" : f.subject_codec, f.subject_value, s.min(), s.max(),
                        family(r, f.subject_codec), false, f.framing});
  }
  if (!first) return;
  t.rows.push_back({"the floor", "raw TCP echo",
                    value_text(*first, first->baseline_value) + modes_mark(first->baseline_modes), "—"});
  if (first->baseline_modes.size() > 1)
    notes.push_back(
        {std::string(kModesMark) + " the floor: " + modes_text(first->baseline_modes, value_of(*first))});
  if (const Samples s = paired_samples(r, *first).baseline; !s.values.empty())
    c.bars.push_back(
        {"echo", first->baseline_value, s.min(), s.max(), Family::json, true, "the floor (raw TCP)"});
  Runs what{
      "End to end over " + transport(r.env) + ", " + first->title +
      ": the server's CPU time per request with ZAP, the fastest JSON and the fastest binary peer body on "
      "each framing, against the floor's, a raw TCP echo of the same bytes (what no server can shed; "
      "above 1× = cheaper than the floor). " +
      (rounds_recorded(r)
           ? "Each figure is the geometric mean over the rounds its comparison with the floor pairs, so the "
             "floor's figure ÷ a row's is its ratio; the floor's row is over the first row's rounds, and "
             "where "
             "a row pairs others, the floor's figure in them is beside its own as \"(the floor …)\"."
           : "Each figure is the median of the cell's samples.")};
  if (links) what.insert(what.end(), {" ", link("End to end", first->anchor), " has every cell."});
  out.para(std::move(what));
  out.blocks.push_back(std::move(b));
  if (!notes.empty()) out.bullets(std::move(notes));  // a line per figure marked ¦, naming its modes' rounds
}

// zapbench's HTTP/1.1 and HTTP/2 servers against the web servers people deploy, on hello: a row per
// framing, server, depth and connection count both ran, in server CPU per request (requests/s is in
// the report's findings), each side over the rounds the comparison pairs.
void glance_web(const Results& r, const std::vector<Finding>& all, bool links, Out& out) {
  Table t{{"framing", "against", "hello at", "zapbench", "theirs", "zapbench against it"}, "lllrrr", {}};
  const Finding* first = nullptr;
  for (const Finding& f : all) {
    if (f.against != Finding::Against::web || f.unit != Finding::Unit::cpu_ns) continue;
    if (!first) first = &f;
    const std::size_t at = f.title.find("hello, ");
    t.rows.push_back({f.framing, f.baseline_codec, at == std::string::npos ? f.title : f.title.substr(at + 7),
                      value_text(f, f.subject_value) + modes_mark(f.subject_modes),
                      value_text(f, f.baseline_value) + modes_mark(f.baseline_modes),
                      verdict_cell(f.estimate, f.better)});
  }
  if (!first) return;
  Runs what{"End to end over " + transport(r.env) +
            ", hello (GET /health, \"ok\"): zapbench's own HTTP/1.1 and HTTP/2 servers against the web "
            "servers people deploy on the same framing, in the server's CPU time per request (above 1× = "
            "zapbench's cheaper). Each figure is the geometric mean over the rounds its comparison pairs."};
  if (links) what.insert(what.end(), {" ", link("End to end", first->anchor), " has requests/s too."});
  out.para(std::move(what));
  out.table(std::move(t));
}

// links: to the report's sections, which findings.md and the terminal do not have.
void glance(const Results& r, const std::vector<Finding>& all, bool links, Out& out) {
  const std::size_t before = out.blocks.size();
  glance_micro(r, all, links, out);
  glance_floor(r, all, links, out);
  glance_web(r, all, links, out);
  if (out.blocks.size() > before) out.para(mark_legend(r));
}

std::vector<Block> glance(const Results& r) {
  Out out;
  glance(r, findings(r), false, out);
  return std::move(out.blocks);
}

// " 14 of 16 findings are within the ±5.0% the run asked for; the others are
// listed apart, ..." (empty when the run asked for no precision).
std::string precision_count(const Results& r, const std::vector<Finding>& all) {
  if (!std::isfinite(r.config.precision)) return "";
  std::size_t n = 0, within = 0;
  for (const Finding& f : all) {
    if (f.section == Finding::Section::control) continue;
    ++n;
    within += f.estimate.computed() && within_precision(r, f) ? 1 : 0;
  }
  return " " + std::to_string(within) + " of " + std::to_string(n) + " findings are within the ±" +
         fixed(r.config.precision * 100, 1) + "% the run asked for" +
         (within < n ? "; the others are listed apart, with their intervals (the budget ran out first)."
                     : ".");
}

void found(const Results& r, Out& out) {
  const std::vector<Finding> all = findings(r);
  if (all.empty()) return;
  const bool legacy = !rounds_recorded(r);
  out.heading(2, "What it found", "found");
  glance(r, all, true, out);
  out.heading(3, "In words");
  if (legacy)
    out.para(
        {"Generated from this run's figures. This results.json records no rounds (a run from before "
         "verdicts), so no comparison has an interval or a verdict: each is the ratio of medians with "
         "the extremes the min–max ranges allow — read none of them as decided. × reads: how many "
         "times better the first named is (its rate ÷ the other's, or the other's time ÷ its own)."});
  else
    out.para(
        {"Generated from this run's figures. Each line compares two figures measured in the same rounds, "
         "each the geometric mean over the rounds both have: × is how many times better the first named "
         "is (its rate ÷ the other's, or the other's time ÷ its own; the geometric mean of the per-round "
         "ratios, and so the quotient of the two figures), with its 95% confidence interval, and the "
         "verdict — ahead or behind when the interval excludes 1×, equivalent when it lies within ±" +
         margin_text(r) + ". A figure whose rounds fall in separate modes is marked " + kModesMark +
         ", its modes named with their rounds. What the interval did not decide is listed apart as "
         "undecided, never as a result." +
         precision_count(r, all)});
  // Decided, but the interval wider than the run's precision: listed apart, after the findings that
  // reached it — a verdict that holds at 95%, with a ratio not yet known as well as the run asked.
  std::vector<Runs> wide, undecided;
  for (auto [section, what] : {std::pair{Finding::Section::micro, "Per op, in process (ns per op):"},
                               std::pair{Finding::Section::logs,
                                         "Cost against work, in process (the eth_getLogs answer of N logs):"},
                               std::pair{Finding::Section::e2e, ""}, std::pair{Finding::Section::io, ""},
                               std::pair{Finding::Section::control, ""}}) {
    std::vector<Runs> items;
    for (const Finding& f : all) {
      if (f.section != section) continue;  // the floor's: in the table above
      if (!legacy && f.estimate.verdict == stats::Verdict::undecided && section != Finding::Section::control)
        undecided.push_back(finding_item(r, f, legacy));
      else if (!legacy && section != Finding::Section::control && !within_precision(r, f))
        wide.push_back(finding_item(r, f, legacy));
      else
        items.push_back(finding_item(r, f, legacy));
    }
    if (items.empty()) continue;
    if (section == Finding::Section::e2e)
      out.para({"End to end over " + transport(r.env) +
                ", at the connection count where ZAP peaks: rpc at the deepest pipeline (where the body's "
                "cost shows most), ZAP-RPC + ZAP against gRPC C++ at every depth, logs at the largest N and "
                "the shallowest pipeline (where the bytes do):"});
    else if (section == Finding::Section::io)
      out.para({"io_uring against epoll, end to end over " + transport(r.env) +
                ": the same cell with the server's event core on io_uring (completions, one enter per loop "
                "turn) instead of epoll (readiness, a read and a send call each), the loader on epoll in "
                "both — server CPU per request on rpc at the deepest pipeline and at depth 1, each framing "
                "with ZAP at the connection count where it peaks on epoll, and the floor at the same "
                "connections. The floor is little but the kernel's work, so its ratio is the kernel's share "
                "moving; the codec does the same work on both, so a framing's ratio is that share moving "
                "against the rest:"});
    else if (section == Finding::Section::control)
      out.para(
          {"The control: one cell run twice in every round, as two cells (the same binary and flags, "
           "at other places in the round). Nothing differs between them, so any verdict but equivalent "
           "or undecided here is the method's error, or drift within the rounds:"});
    else
      out.para({what});
    out.bullets(std::move(items));
  }
  if (!wide.empty()) {
    out.para(
        {"Not within the precision asked — the interval excludes 1×, so the verdict holds at 95%, but "
         "it is wider than ±" +
         fixed(r.config.precision * 100, 1) +
         ": the budget ran out before more rounds narrowed it (the ratio is known only as well as its "
         "interval says):"});
    out.bullets(std::move(wide));
  }
  if (!undecided.empty()) {
    out.para({"Undecided — the interval crosses 1× and reaches beyond ±" + margin_text(r) +
              " (more rounds, or a quieter machine, could decide them):"});
    out.bullets(std::move(undecided));
  }
}

}  // namespace report::doc
