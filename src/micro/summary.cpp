// micro/summary.cpp — the summary tables printed after `zapbench micro` (the calibration's rows in their
// own): each built as report's table (report/document.hpp) and printed by report's plain-text writer
// (report/text.cpp, doc::text_table), the fastest of a family chosen by report (report/select.hpp).
#include "micro/summary.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdlib>
#include <map>
#include <optional>

#include "calibrate/calibrate.hpp"
#include "record/registry.hpp"
#include "report/document.hpp"
#include "report/gbench.hpp"
#include "report/select.hpp"

namespace micro {

void CollectingReporter::ReportRuns(const std::vector<Run>& runs) {
  benchmark::ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    const bool aggregate = run.run_type == Run::RT_Aggregate;
    if (aggregate && run.aggregate_name != "median") continue;
    // Logs/<op>/<codec> is registered with N as its argument: the name ends in /N.
    const std::string name =
        run.run_name.function_name + (run.run_name.args.empty() ? "" : "/" + run.run_name.args);
    const auto slash = name.find('/');
    Result r;
    r.op = name.substr(0, slash);
    r.codec = slash == std::string::npos ? "" : name.substr(slash + 1);
    if (run.error_occurred) r.error = run.error_message;
    // CPU time: on a shared machine it excludes time the process was not
    // running; these benchmarks are single-threaded and never block.
    r.ns_per_op = run.GetAdjustedCPUTime() * 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
    auto counter = [&](const char* key) {
      auto it = run.counters.find(key);
      return it == run.counters.end() ? 0.0 : it->second.value;
    };
    r.allocs_per_op = counter("allocs/op");
    r.wire_bytes = counter("wire_bytes");
    // A median replaces the repetitions' individual runs of the same name.
    std::erase_if(results_, [&](const Result& x) { return x.op == r.op && x.codec == r.codec; });
    results_.push_back(std::move(r));
  }
}

namespace {

using report::doc::Table;
using report::doc::Text;

const Result* find(const std::vector<Result>& rs, const std::string& op, const std::string& codec) {
  for (const Result& r : rs)
    if (r.op == op && r.codec == codec && r.error.empty()) return &r;
  return nullptr;
}

// The run's figures as report's results model, a round each (a row that skipped itself left out), with
// the registry's codecs: what report's fastest of a family (report/select.hpp) chooses among.
report::Results model_of(const std::vector<Result>& rs) {
  report::Results m;
  for (const record::CodecInfo& c : record::all_codecs())
    m.codecs.push_back({std::string(c.name), std::string(c.content_type), c.available,
                        std::string(c.unavailable_reason), std::string(c.encode_path),
                        std::string(c.decode_path), c.trusted_input_only, c.family()});
  for (const Result& r : rs)
    if (r.error.empty())
      m.micro.figures.push_back(
          {r.op + "/" + r.codec, r.op, r.codec, {{r.ns_per_op}, {}}, r.allocs_per_op, r.wire_bytes});
  return m;
}

// One figure as a cell, printf's way ("%.1f", "%.2g").
Text cell(const char* format, ...) __attribute__((format(printf, 1, 2)));
Text cell(const char* format, ...) {
  char buf[64];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return Text(std::string(buf));
}
const Text kNone = Text("—");

// A table in aligned columns under a rule (report/text.cpp).
void print_table(std::FILE* out, const Table& t) {
  std::fputs(report::doc::text_table(t, true).c_str(), out);
}

// The server's request path beside its codec's share (Handler/<body>).
void print_request_paths(std::FILE* out, const std::vector<Result>& rs) {
  Table t{{"request path", "ns", "codec ns", "framing, routing, answer ns", "allocs"}, "lrrrr", {}};
  for (const Result& r : rs) {
    if (r.op != "Server" || !r.error.empty()) continue;
    const std::string body = r.codec.substr(r.codec.find('/') + 1);
    const Result* h = body == "hello" ? nullptr : find(rs, "Handler", body);
    const double codec_ns = h != nullptr ? h->ns_per_op : 0;
    if (h == nullptr && body != "hello")
      t.rows.push_back(
          {"Server/" + r.codec, cell("%.1f", r.ns_per_op), kNone, kNone, cell("%.2g", r.allocs_per_op)});
    else
      t.rows.push_back({"Server/" + r.codec, cell("%.1f", r.ns_per_op), cell("%.1f", codec_ns),
                        cell("%.1f", r.ns_per_op - codec_ns), cell("%.2g", r.allocs_per_op)});
  }
  if (t.rows.empty()) return;
  std::fprintf(
      out,
      "\nRequest path (Server/<framing>/<body>, ns per request; the codec's share is Handler/<body>):\n\n");
  print_table(out, t);
}

// Cost against work (Logs/<op>/<codec>/<N>): ns/op per codec at every N,
// then the figures: ZAP's AccessOne growth, DecodeAll against the
// fastest JSON codec and the fastest binary peer, Encode against memcpy.
void print_logs(std::FILE* out, const std::vector<Result>& rs, const report::Results& model) {
  struct Log {
    std::string op, codec;
    long n;
    const Result* r;
  };
  std::vector<Log> logs;
  std::vector<long> ns;
  for (const Result& r : rs) {
    if (r.op != "Logs" || !r.error.empty()) continue;
    const auto a = r.codec.find('/'), b = r.codec.rfind('/');
    if (a == std::string::npos || a == b) continue;
    const long n = std::strtol(r.codec.c_str() + b + 1, nullptr, 10);
    logs.push_back({r.codec.substr(0, a), r.codec.substr(a + 1, b - a - 1), n, &r});
    if (std::find(ns.begin(), ns.end(), n) == ns.end()) ns.push_back(n);
  }
  if (logs.empty()) return;
  std::sort(ns.begin(), ns.end());
  const auto at = [&](const std::string& op, const std::string& codec, long n) -> const Result* {
    for (const Log& l : logs)
      if (l.op == op && l.codec == codec && l.n == n) return l.r;
    return nullptr;
  };
  std::fprintf(out, "\nCost against work: eth_getLogs, N logs (CPU ns/op; allocs/op at N = %ld)\n\n",
               ns.back());
  Table t{{"op", "codec"}, "ll", {}};
  for (long n : ns) t.header.push_back("N=" + std::to_string(n));
  t.header.push_back("allocs");
  t.align.append(ns.size() + 1, 'r');
  std::vector<std::pair<std::string, std::string>> rows;  // (op, codec) in first-seen order
  for (const Log& l : logs)
    if (std::find(rows.begin(), rows.end(), std::pair{l.op, l.codec}) == rows.end())
      rows.emplace_back(l.op, l.codec);
  for (const auto& [op, codec] : rows) {
    std::vector<Text> row{op, codec};
    for (long n : ns)
      if (const Result* r = at(op, codec, n))
        row.push_back(cell("%.1f", r->ns_per_op));
      else
        row.push_back(kNone);
    const Result* top = at(op, codec, ns.back());
    row.push_back(top ? cell("%.2g", top->allocs_per_op) : kNone);
    t.rows.push_back(std::move(row));
  }
  print_table(out, t);
  // The fastest of a family for op at N (never trusted-input only): report's (report/select.hpp).
  const report::doc::LogTable table = report::doc::log_table(model);
  std::fprintf(out, "\n");
  if (const Result* a1 = at("AccessOne", "zap", ns.front()), *an = at("AccessOne", "zap", ns.back());
      a1 && an && a1->ns_per_op > 0)
    std::fprintf(out, "- AccessOne: zap at N=%ld takes %.2fx its time at N=%ld\n", ns.back(),
                 an->ns_per_op / a1->ns_per_op, ns.front());
  const long mid = std::find(ns.begin(), ns.end(), 1000L) != ns.end() ? 1000L : ns.back();
  if (const Result* z = at("DecodeAll", "zap", mid); z && z->ns_per_op > 0)
    for (auto [family, what] :
         {std::pair{matrix::Family::json, "JSON"}, std::pair{matrix::Family::peer, "binary"}})
      if (const report::doc::LogFigure* b = table.fastest(model, "DecodeAll", double(mid), family))
        std::fprintf(out, "- DecodeAll at N=%ld: zap %.0f ns vs %s %s %.0f ns: %.1fx\n", mid, z->ns_per_op,
                     what, b->codec.c_str(), b->f->ns_per_op.median(),
                     b->f->ns_per_op.median() / z->ns_per_op);
  if (const Result* e = at("Encode", "zap", ns.back()), *c = at("Copy", "memcpy", ns.back());
      e && c && e->ns_per_op > 0 && c->ns_per_op > 0)
    std::fprintf(out, "- Encode at N=%ld: zap %.1f GB/s, memcpy of the same bytes %.1f GB/s (%.0f%%)\n",
                 ns.back(), e->wire_bytes / e->ns_per_op, c->wire_bytes / c->ns_per_op,
                 100 * (e->wire_bytes / e->ns_per_op) / (c->wire_bytes / c->ns_per_op));
}

// The calibration's rows (Calibrate/<work>), apart: the machine's yardstick, not a codec.
void print_calibration(std::FILE* out, const std::vector<Result>& rs) {
  Table t{{"work", "ns/op"}, "lr", {}};
  for (const Result& r : rs)
    if (r.op == "Calibrate" && r.error.empty()) t.rows.push_back({r.codec, cell("%.1f", r.ns_per_op)});
  if (t.rows.empty()) return;
  std::fprintf(out,
               "\nCalibration v%.*s (Calibrate/<work>, CPU ns/op: the machine's yardstick, no product "
               "code)\n\n",
               int(calibrate::kVersion.size()), calibrate::kVersion.data());
  print_table(out, t);
}

}  // namespace

void print_summary(std::FILE* out, const std::vector<Result>& rs) {
  static const char* const kOps[] = {"Decode", "Encode", "Serde", "Handler"};
  std::vector<std::string> codecs;
  for (const Result& r : rs) {
    if (std::find(std::begin(kOps), std::end(kOps), r.op) == std::end(kOps)) continue;  // e.g. Http/...
    if (std::find(codecs.begin(), codecs.end(), r.codec) == codecs.end()) codecs.push_back(r.codec);
  }
  const report::Results model = model_of(rs);
  if (codecs.empty()) {
    print_request_paths(out, rs);
    print_logs(out, rs, model);
    print_calibration(out, rs);
    return;
  }
  // zap-fresh right after zap, whatever order the benchmarks ran in.
  if (auto f = std::find(codecs.begin(), codecs.end(), "zap-fresh"); f != codecs.end()) {
    codecs.erase(f);
    auto z = std::find(codecs.begin(), codecs.end(), "zap");
    codecs.insert(z == codecs.end() ? codecs.begin() : z + 1, "zap-fresh");
  }

  std::fprintf(
      out,
      "\nSummary (CPU ns/op, allocs/op; zap = builders reused, zap-fresh = a new builder per message)\n\n");
  Table t{
      {"codec", "decode ns", "allocs", "encode ns", "allocs", "serde ns", "allocs", "handler ns", "allocs"},
      "lrrrrrrrr",
      {}};
  for (const std::string& c : codecs) {
    std::vector<Text> row{c};
    for (const char* op : kOps)
      if (const Result* r = find(rs, op, c)) {
        row.push_back(cell("%.1f", r->ns_per_op));
        row.push_back(cell("%.2g", r->allocs_per_op));
      } else {
        row.push_back(kNone);
        row.push_back(kNone);
      }
    t.rows.push_back(std::move(row));
  }
  print_table(out, t);
  for (const record::CodecInfo& info : record::all_codecs())
    if (!info.available)
      std::fprintf(out, "- %.*s: unavailable: %.*s\n", int(info.name.size()), info.name.data(),
                   int(info.unavailable_reason.size()), info.unavailable_reason.data());

  std::fprintf(out, "\nWire bytes (request + response):");
  for (const std::string& c : codecs)
    if (const Result* r = find(rs, "Encode", c)) std::fprintf(out, " %s %.0f;", c.c_str(), r->wire_bytes);
  std::fprintf(out, "\n");

  std::fprintf(
      out,
      "\nZAP against the fastest JSON codec and the fastest binary peer (ratio of ns/op, higher = ZAP "
      "faster):\n\n");
  for (const char* op : kOps) {
    const Result* z = find(rs, op, "zap");
    if (z == nullptr || z->ns_per_op <= 0) continue;
    for (auto [family, what] :
         {std::pair{matrix::Family::json, "JSON"}, std::pair{matrix::Family::peer, "binary"}})
      if (const report::MicroFigure* b = report::doc::fastest_of(model, op, family))
        std::fprintf(out, "- %s: zap %.1f ns vs %s %s %.1f ns: %.1fx\n", op, z->ns_per_op, what,
                     b->codec.c_str(), b->ns_per_op.median(), b->ns_per_op.median() / z->ns_per_op);
    // Its limit (micro/limit_codec.hpp): how close ZAP comes, as limit ns ÷ ZAP ns (1 = at the limit).
    if (const Result* l = find(rs, op, "limit"))
      std::fprintf(out, "- %s: zap %.1f ns vs its limit %.1f ns: %.2fx of the limit's speed\n", op,
                   z->ns_per_op, l->ns_per_op, l->ns_per_op / z->ns_per_op);
  }
  print_request_paths(out, rs);
  print_logs(out, rs, model);
  print_calibration(out, rs);
  for (const Result& r : rs)
    if (!r.error.empty())
      std::fprintf(out, "- %s/%s skipped: %s\n", r.op.c_str(), r.codec.c_str(), r.error.c_str());
}

void print_go_summary(std::FILE* out, const std::vector<Result>& cpp, const std::vector<Result>& go,
                      const std::vector<report::Unavailable>& unavailable) {
  static const char* const kOps[] = {"Decode", "Encode", "Serde", "Handler"};
  if (!go.empty()) {
    const report::Results model = model_of(cpp);
    Table t{{"Go codec", "op", "Go ns", "allocs", "C++ counterpart", "C++ ns", "C++ ÷ Go"}, "llrrlrr", {}};
    for (const Result& g : go)
      for (const char* op : kOps) {
        if (g.op != op || !g.error.empty()) continue;
        const std::string want = report::go_counterpart(op, g.codec);
        const report::MicroFigure* fastest = want.empty() ? report::doc::fastest_json(model, op) : nullptr;
        const Result* c = !want.empty()        ? find(cpp, op, want)
                          : fastest != nullptr ? find(cpp, op, fastest->codec)
                                               : nullptr;
        if (c == nullptr || c->ns_per_op <= 0)
          t.rows.push_back(
              {g.codec, op, cell("%.1f", g.ns_per_op), cell("%.3g", g.allocs_per_op), kNone, kNone, kNone});
        else
          t.rows.push_back({g.codec, op, cell("%.1f", g.ns_per_op), cell("%.3g", g.allocs_per_op), c->codec,
                            cell("%.1f", c->ns_per_op), cell("%.2fx", g.ns_per_op / c->ns_per_op)});
      }
    std::fprintf(
        out,
        "\nThe Go reference (zapbench-go micro; C++ ÷ Go = Go ns ÷ the C++ counterpart's, above 1 = C++ "
        "faster)\n\n");
    print_table(out, t);
  }
  for (const report::Unavailable& m : unavailable)
    std::fprintf(out, "- %s: unavailable: %s\n", m.name.c_str(), m.reason.c_str());
}

}  // namespace micro
