// report/doc_go.cpp — the Go reference's own stack measured in this run,
// each op beside its C++ counterpart (both figures over the rounds their ratio
// pairs), and what the reference published (report/published.hpp).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "report/document_parts.hpp"
#include "report/findings.hpp"
#include "report/gbench.hpp"
#include "report/published.hpp"
#include "report/select.hpp"

namespace report::doc {

// The Go reference's own stack measured in this run (zapbench-go micro), each
// op beside its C++ counterpart: go/zap against zap (go/zap-reset against the
// reused builder, go/zap with Go's fresh builder per message against
// zap-fresh, and its Encode against zap too: the pair the encode
// target names); a Go JSON codec against the fastest C++ JSON codec of the op.
void go_reference(const Results& r, Out& out) {
  const Micro& m = r.micro;
  std::vector<std::string> go_codecs;
  for (const MicroFigure& f : m.figures)
    if (is_go_codec(f.codec) && std::find(go_codecs.begin(), go_codecs.end(), f.codec) == go_codecs.end())
      go_codecs.push_back(f.codec);
  std::vector<const Unavailable*> go_missing;
  for (const Unavailable& u : m.unavailable_codecs)
    if (is_go_codec(u.name)) go_missing.push_back(&u);
  if (go_codecs.empty() && go_missing.empty()) return;
  auto find = [&](const std::string& op, const std::string& codec) { return find_figure(m, op, codec); };
  auto counterpart = [&](const std::string& op, const std::string& go) -> const MicroFigure* {
    const std::string cpp = go_counterpart(op, go);
    return cpp.empty() ? fastest_json(r, op) : find(op, cpp);
  };
  out.heading(3, "The Go reference, measured here");
  out.para(
      {"The Go reference's own codecs (", code("go/"),
       " in this repository: encoding/json, goccy/go-json, "
       "bytedance/sonic, and zap-proto/go when the build has it) on the same record, the same values "
       "and the same compute, each result checked before it is timed; Go's testing.Benchmark, pinned to "
       "one CPU like the C++ micro, GOMAXPROCS=1, default GOGC, each round beside the C++ round of the same "
       "number. C++ ÷ Go = the Go figure ÷ its C++ counterpart's, paired by round (above 1× = C++ "
       "faster), and the two figures beside it are over the rounds it pairs (their geometric means there, "
       "the Go one with its min–max there), so they divide to it: a Go JSON codec against the fastest C++ "
       "JSON codec of the op; go/zap (Go's fresh builder "
       "per message) against zap-fresh (ours, fresh per message too) and its Decode against zap, go/zap's "
       "Encode also against zap (our reused builder: the pair the encode target names); go/zap-reset "
       "against zap; "
       "the logs record's reads on zap-proto/go's accessors (List.Object(k, 88)) against zap's at the same "
       "N. "
       "Published: the reference's own figures, measured elsewhere on "
       "other hardware (GB10 arm64), for orientation only. Command: ",
       code(m.go_command.empty() ? "not run" : m.go_command)});
  std::vector<Runs> notes;  // on figures whose rounds fall in separate modes
  // A row's Go figure, its C++ counterpart's and their ratio, both figures over the rounds the ratio pairs
  // (their geometric means there, the Go one with its min–max there): they divide to the ratio.
  auto compared = [&](const MicroFigure& g, const MicroFigure* c, std::vector<Text>& row,
                      std::string cpp_label) {
    if (!c) {
      row.insert(row.end(),
                 {with_modes(med_range(g.ns_per_op, 1, false), g.ns_per_op, g.name, ns_text, notes),
                  count(g.allocs_per_op), "—", "—", "—"});
      return;
    }
    const PairedFigures p = paired_figures(c->ns_per_op, g.ns_per_op);
    const Samples& go = p.rounds.empty() ? g.ns_per_op : p.baseline;
    auto f = [&](double v) { return fixed(v, sig_decimals(p.baseline_value)); };
    std::string go_cell = go.values.size() < 2
                              ? f(p.baseline_value)
                              : f(p.baseline_value) + " (" + f(go.min()) + "–" + f(go.max()) + ")";
    row.insert(row.end(), {with_modes(std::move(go_cell), go, g.name, ns_text, notes), count(g.allocs_per_op),
                           std::move(cpp_label),
                           with_modes(sig(p.subject_value), p.rounds.empty() ? c->ns_per_op : p.subject,
                                      c->name + " (beside " + g.name + ")", ns_text, notes),
                           verdict_cell(paired(c->ns_per_op, g.ns_per_op, stats::Better::lower, r.config),
                                        stats::Better::lower)});
  };
  if (!go_codecs.empty()) {
    Table t{{"Go codec", "op", "Go ns/op", "allocs", "C++ counterpart", "C++ ns/op", "C++ ÷ Go",
             "published (elsewhere)"},
            "llrrlrrl",
            {}};
    for (const std::string& codec : go_codecs)
      for (const char* op : kOps) {
        const MicroFigure* g = find(op, codec);
        if (!g) continue;
        const MicroFigure* c = counterpart(op, codec);
        std::string published = "—";
        for (const Published& p : kPublished)
          if (codec == p.codec && std::string_view(op) == p.op) published = p.figure;
        std::vector<Text> row{codec, op};
        compared(*g, c, row, c ? c->codec : "—");
        row.emplace_back(published);
        t.rows.push_back(std::move(row));
        // The encode target (C++ ZAP encode ≥ 25× go/zap, Go's fresh builder) names this pair:
        // our encoder as it runs (zap, a reused builder) against go/zap; the row above is the like-for-like
        // one (zap-fresh, a fresh builder each message too). Both shown, neither instead of the other.
        if (const MicroFigure* zap = find(op, "zap"); codec == "go/zap" && std::string_view(op) == "Encode" &&
                                                      c != nullptr && c->codec != "zap" && zap) {
          std::vector<Text> row{codec, op};
          compared(*g, zap, row, "zap (reused builder: the encode target's pair)");
          row.emplace_back("—");
          t.rows.push_back(std::move(row));
        }
      }
    // The logs record's reads on zap-proto/go (Logs/<op>/go/zap/<N>), beside the C++ zap row of the
    // same op and N.
    for (const MicroFigure& g : m.figures) {
      const auto at = g.op == "Logs" ? g.codec.find("/go/") : std::string::npos;
      const auto last = g.codec.rfind('/');
      if (at == std::string::npos || last <= at + 1) continue;
      const std::string op = g.codec.substr(0, at), codec = g.codec.substr(at + 1, last - at - 1),
                        n = g.codec.substr(last + 1);
      const MicroFigure* c = find("Logs", op + "/" + codec.substr(3) + "/" + n);
      std::vector<Text> row{codec, "Logs/" + op + ", N = " + n};
      compared(g, c, row, c ? codec.substr(3) : "—");
      row.emplace_back("—");
      t.rows.push_back(std::move(row));
    }
    out.table(std::move(t));
    if (!notes.empty()) out.bullets(std::move(notes));
  }
  if (!go_missing.empty()) {
    std::vector<Runs> items;
    for (const Unavailable* u : go_missing) items.push_back({strong(u->name), ": unavailable: " + u->reason});
    out.bullets(std::move(items));
  }
}

}  // namespace report::doc
