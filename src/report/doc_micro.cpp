// report/doc_micro.cpp — the microbenchmark sections: per op and codec, the
// request path (Server/<framing>/<body>), the logs record as N grows. A
// figure whose rounds fall in separate modes is marked, its modes named.

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

// Server/<framing>/<body>: the server's own per-request code on in-memory
// bytes, beside its codec's share (Handler/<body>) and, when the run measured
// the same cell end to end at depth 16, the server's CPU per request there:
// what is left is the kernel's and the event loop's.
void request_path(const Results& r, Out& out) {
  const Micro& m = r.micro;
  auto find = [&](const std::string& name) -> const MicroFigure* {
    for (const MicroFigure& f : m.figures)
      if (f.name == name) return &f;
    return nullptr;
  };
  // The end-to-end cell of a path: zapbench on epoll (io_uring against it is a finding of its own),
  // depth 16, 16 connections (else the fewest measured).
  auto cell_of = [&](const std::string& framing, const std::string& body) -> const Cell* {
    const bool hello = body == "hello";
    // Server/<framing>/...: the framing as benchmark names spell it (matrix::bench_name).
    const std::optional<matrix::Framing> f = matrix::framing_from_bench_name(framing);
    if (!f) return nullptr;
    const Cell* best = nullptr;
    for (const Cell& c : r.cells) {
      if (c.arm != matrix::Arm::zapbench || c.io != matrix::Io::epoll || c.framing != *f ||
          c.pipeline != 16 || c.samples.empty() ||
          c.scenario != (hello ? matrix::Scenario::hello : matrix::Scenario::rpc) ||
          c.body != (hello ? "" : body))
        continue;
      if (best == nullptr || c.connections == 16 ||
          (best->connections != 16 && c.connections < best->connections))
        best = &c;
    }
    return best;
  };
  const Instructions& ins = m.instructions;
  auto instructions_of = [&](const std::string& name) -> const InstructionFigure* {
    for (const InstructionFigure& f : ins.figures)
      if (f.name == name) return &f;
    return nullptr;
  };
  std::vector<Runs> notes;  // on modes, and a share its medians do not divide to
  Table t{{"request path", "ns/request", "instructions/request", "codec: Handler ns",
           "framing, routing, answer ns", "codec's share", "allocs", "end to end: server CPU ns/request",
           "kernel and event loop ns", "end to end ÷ in memory"},
          "lrrrrrrrrr",
          {}};
  for (const MicroFigure& f : m.figures) {
    if (f.op != "Server") continue;
    const std::string framing = f.codec.substr(0, f.codec.find('/'));
    const std::string body = f.codec.substr(f.codec.find('/') + 1);
    const double path_ns = f.ns_per_op.median();
    const MicroFigure* handler = body == "hello" ? nullptr : find("Handler/" + body);
    std::vector<Text> row{f.name,
                          with_modes(med_range(f.ns_per_op, 1, false), f.ns_per_op, f.name, ns_text, notes)};
    const InstructionFigure* counted = instructions_of(f.name);
    row.emplace_back(counted && std::isfinite(counted->callgrind_ir) ? grouped(counted->callgrind_ir) : "—");
    // The codec's part: Handler's median over the rounds the path ran (those its share pairs; all of
    // Handler's in a run without rounds), so that it and the path's median are over the same rounds.
    const Paired both = handler ? paired_rounds(handler->ns_per_op, f.ns_per_op) : Paired{};
    const Samples& codec_rounds = both.subject.values.empty() && handler ? handler->ns_per_op : both.subject;
    const double handler_ns = handler ? codec_rounds.median() : 0;
    row.emplace_back(handler           ? with_modes(sig(handler_ns), codec_rounds,
                                                    handler->name + " in the path's rounds", ns_text, notes)
                     : body == "hello" ? "0"
                                       : "—");
    row.emplace_back(handler || body == "hello" ? sig(path_ns - handler_ns) : "—");
    // The codec's share of the path, paired by round (both are microbenchmarks of the same process): the
    // geometric mean of the per-round shares, which the two medians beside it divide to only nearly; where
    // their quotient falls outside its interval, the row says so, with the figures the share is of.
    if (handler) {
      const stats::Estimate share = paired(handler->ns_per_op, f.ns_per_op, stats::Better::lower, r.config);
      std::string cell = interval_text(share, true);
      const double medians = handler_ns / path_ns;
      if (share.computed() && !(share.lo <= medians && medians <= share.hi)) {
        cell += std::string(" ") + kOutsideMark;
        notes.push_back({std::string(kOutsideMark) + " " + f.name +
                         ": the medians beside the share divide to " + fixed(medians * 100, 0) +
                         "%, outside its interval — the share is the geometric mean "
                         "of the rounds' shares over " +
                         rounds_text(both.subject.rounds) + ", Handler " +
                         ns_text(geometric_mean(both.subject)) + " against the path's " +
                         ns_text(geometric_mean(both.baseline)) + " (their geometric means there)"});
      }
      row.emplace_back(std::move(cell));
    } else {
      row.emplace_back(body == "hello" ? "0%" : "—");
    }
    row.emplace_back(count(f.allocs_per_op));
    if (const Cell* c = cell_of(framing, body)) {
      const Samples e2e = c->server_cpu_per_request_ns(r.config);
      row.emplace_back(sig(e2e.median()) + " (c " + std::to_string(c->connections) + ")");
      row.emplace_back(sig(e2e.median() - path_ns));
      // Two kinds of measurement (a sample end to end, a microbenchmark round): unpaired.
      row.emplace_back(interval_text(unpaired(e2e, f.ns_per_op, stats::Better::lower, r.config), false));
    } else {
      row.emplace_back("—");
      row.emplace_back("—");
      row.emplace_back("—");
    }
    t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) return;
  out.heading(3, "The server's request path");
  out.para(
      {"Server/<framing>/<body> runs the server's own per-request code — the framing's scan, the "
       "route, the codec, the answer written into the connection's output buffer — on 16 pipelined "
       "requests at a time in memory, with no syscalls; ns per request (" +
           std::string(rounds_recorded(r) ? "median of its rounds" : "median of the repetitions") +
           ", min–max). Beside it the codec's part (Handler/<body>: decode, compute, encode; its median over "
           "the rounds the path ran), the rest (framing, routing, the answer's head) and the codec's share "
           "of "
           "the path (Handler ÷ path, paired by round: the geometric mean of the rounds' shares, with its "
           "95% "
           "interval); and, where this run measured the same cell end to end "
           "at pipeline depth 16, the server's CPU per request there: the difference is the kernel's and "
           "the event loop's, and end to end ÷ in memory says how many times the request costs in a real "
           "server (unpaired: two kinds of measurement, with its 95% interval; ? with the samples there were "
           "where the end-to-end cell has fewer than the " +
           std::to_string(method(r.config).min_samples) + " the unpaired interval needs). ",
       code("zapbench instructions"), " counts the same paths' instructions per request (callgrind, ",
       ins.requests > 0 ? grouped(static_cast<double>(ins.requests)) + " requests each" : "not run",
       ins.tools.empty() ? "" : ", " + ins.tools,
       "): a figure that does not move with the machine's noise."});
  out.table(std::move(t));
  if (!notes.empty()) out.bullets(std::move(notes));
  std::vector<Runs> unavailable;
  if (!ins.callgrind_unavailable.empty()) unavailable.push_back({"callgrind: " + ins.callgrind_unavailable});
  if (!ins.perf_unavailable.empty()) unavailable.push_back({ins.perf_unavailable});
  bool perf = false;
  for (const InstructionFigure& f : ins.figures) perf = perf || std::isfinite(f.perf_instructions);
  if (perf) {
    Table p{{"request path", "instructions/request (perf stat)"}, "lr", {}};
    for (const InstructionFigure& f : ins.figures)
      p.rows.push_back({f.name, std::isfinite(f.perf_instructions) ? grouped(f.perf_instructions) : "—"});
    out.table(std::move(p));
  }
  if (!unavailable.empty()) out.bullets(std::move(unavailable));
}

// How many rounds the microbenchmarks got: the first rounds every one had,
// and those a finding gave more (the Go reference's and the logs record's
// too). Empty for runs without rounds.
Runs micro_rounds_note(const Results& r) {
  if (!rounds_recorded(r)) return {};
  std::size_t least = SIZE_MAX;
  for (const MicroFigure& f : r.micro.figures)
    if (!f.ns_per_op.values.empty()) least = std::min(least, f.ns_per_op.values.size());
  if (least == SIZE_MAX) return {};
  std::string more;
  for (const MicroFigure& f : r.micro.figures)
    if (f.ns_per_op.values.size() > least)
      more += (more.empty() ? "" : "; ") + f.name + ": " + std::to_string(f.ns_per_op.values.size());
  return {"Rounds: " + std::to_string(least) + " for every microbenchmark" +
          (more.empty() ? "." : "; more where a finding needed them — " + more + ".")};
}

// Every codec against its op's limit (<op>/limit, micro/limit_codec.hpp): the
// limit's ns/op ÷ the codec's, paired by round, with its interval — how much
// of the machine's limit for the op the codec reaches (1× = at the limit).
void against_limit(const Results& r, const std::vector<std::string>& codecs, Out& out) {
  const Micro& m = r.micro;
  Table t{{"format", "codec"}, "ll", {}};
  Runs limits{
      "Against the limit: the limit's ns/op ÷ the codec's, paired by round (the geometric mean of the "
      "ratios of the rounds both ran), with its 95% interval: how much of the machine's limit for "
      "the op the codec reaches (1× = at the limit, 0.50× = twice its time). The limit of each op "
      "(docs/methodology.md, \"The limits\") does the least work any codec of this record must do, "
      "on ZAP's bytes with the layout known in advance:"};
  bool any = false;
  for (const char* op : kOps) {
    t.header.push_back(std::string(op) + " ÷ limit");
    t.align += "r";
    if (const MicroFigure* l = find_figure(m, op, kLimitCodec)) {
      limits.push_back(std::string(any ? "; " : " ") + op + " " + sig(l->ns_per_op.median()) + " ns");
      any = true;
    }
  }
  if (!any) return;
  limits.push_back(" (medians).");
  for (const std::string& codec : codecs) {
    if (is_limit(codec)) continue;
    std::vector<Text> row{format_of(r, codec), codec};
    for (const char* op : kOps) {
      const MicroFigure* f = find_figure(m, op, codec);
      const MicroFigure* l = find_figure(m, op, kLimitCodec);
      row.push_back(f && l ? verdict_cell(paired(f->ns_per_op, l->ns_per_op, stats::Better::lower, r.config),
                                          stats::Better::lower)
                           : "—");
    }
    t.rows.push_back(std::move(row));
  }
  out.para(std::move(limits));
  out.table(std::move(t));
  out.para(mark_legend(r));
}

// Instructions per op of the codec ops `zapbench instructions` counted (the
// run counts ZAP's, the fastest JSON codec's, the fastest binary peer's and the
// limit's of each op): where a ratio's time goes, in a figure the machine's
// noise does not move.
void codec_instructions(const Results& r, const std::vector<std::string>& codecs, Out& out) {
  const Instructions& ins = r.micro.instructions;
  auto counted = [&](const std::string& name) -> const InstructionFigure* {
    for (const InstructionFigure& f : ins.figures)
      if (f.name == name && std::isfinite(f.callgrind_ir)) return &f;
    return nullptr;
  };
  Table t{{"format", "codec"}, "ll", {}};
  for (const char* op : kOps) {
    t.header.push_back(std::string(op) + " instructions");
    t.align += "r";
  }
  for (const std::string& codec : codecs) {
    std::vector<Text> row{format_of(r, codec), codec};
    bool any = false;
    for (const char* op : kOps) {
      const InstructionFigure* f = counted(std::string(op) + "/" + codec);
      row.emplace_back(f ? grouped(f->callgrind_ir) : "—");
      any = any || f != nullptr;
    }
    if (any) t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) return;
  out.para(
      {"Instructions per op (callgrind, ", grouped(static_cast<double>(ins.requests)),
       " ops each, collecting only inside the loop of the same code the benchmarks time: ",
       code("zapbench instructions --filter '^(Decode|Encode|Serde|Handler)/'"),
       " counts every codec): where each op's time goes, in a figure the machine's noise does not move."});
  out.table(std::move(t));
}

void logs_micro(const Results& r, Out& out);
void micro(const Results& r, Out& out) {
  out.heading(2, "Microbenchmarks", "micro");
  const Micro& m = r.micro;
  if (m.figures.empty() && m.unavailable_codecs.empty()) {
    out.para({"No microbenchmarks in this run."});
    return;
  }
  auto is_main_op = [](const std::string& op) {
    return std::find(std::begin(kOps), std::end(kOps), op) != std::end(kOps);
  };
  std::vector<std::string> codecs;
  for (const MicroFigure& f : m.figures)
    if (is_main_op(f.op) && !is_go_codec(f.codec) &&
        std::find(codecs.begin(), codecs.end(), f.codec) == codecs.end())
      codecs.push_back(f.codec);
  // Grouped: the text codecs (JSON), then the binary ones (ZAP, then the peers), each in registry order;
  // zap-fresh (a benchmark variant, not a codec of the registry) right after zap; the limit last.
  auto rank = [&](const std::string& c) { return codec_rank(r, c == "zap-fresh" ? "zap" : c); };
  std::stable_sort(codecs.begin(), codecs.end(), [&](const std::string& a, const std::string& b) {
    return std::make_tuple(is_limit(a), !is_json(r, a), rank(a), a == "zap-fresh") <
           std::make_tuple(is_limit(b), !is_json(r, b), rank(b), b == "zap-fresh");
  });
  auto find = [&](const std::string& op, const std::string& codec) { return find_figure(m, op, codec); };

  if (!codecs.empty()) {
    out.para(
        {"CPU time per op in ns, " +
             std::string(rounds_recorded(r) ? "median of its rounds (min–max; a round is a process of its "
                                              "own, and its figure that process's repetitions)"
                                            : "median of the repetitions (min–max)") +
             "; allocs = heap allocations per op; wire bytes = the "
             "request plus the response as the codec encodes them. Command: ",
         code(m.command)});
    std::vector<Runs> notes;  // on figures whose rounds fall in separate modes
    Table t{{"format", "codec"}, "ll", {}};
    for (const char* op : kOps) {
      t.header.push_back(std::string(op) + " ns");
      t.header.push_back("allocs");
      t.align += "rr";
    }
    t.header.push_back("wire bytes");
    t.align += "r";
    for (const std::string& codec : codecs) {
      std::vector<Text> row{format_of(r, codec), codec};
      double wire = 0;
      for (const char* op : {"Encode", "Decode", "Serde", "Handler"})
        if (const MicroFigure* f = find(op, codec); f && wire == 0) wire = f->wire_bytes;
      for (const char* op : kOps) {
        const MicroFigure* f = find(op, codec);
        row.emplace_back(
            f ? with_modes(med_range(f->ns_per_op, 1, false), f->ns_per_op, f->name, ns_text, notes) : "—");
        row.emplace_back(f ? count(f->allocs_per_op) : "—");
      }
      row.emplace_back(wire > 0 ? count(wire) : "—");
      t.rows.push_back(std::move(row));
    }
    out.table(std::move(t));
    if (Runs note = micro_rounds_note(r); !note.empty()) out.para(std::move(note));
    if (!notes.empty()) out.bullets(std::move(notes));

    // Against the fastest JSON codec and the fastest binary peer of each op (by median).
    Table ratios{{"format", "codec"}, "ll", {}};
    Runs fastest{
        "Speed against the fastest JSON codec and the fastest binary peer of each op: their ns/op ÷ this "
        "codec's, paired by round — the geometric mean of the ratios of the rounds both ran, which can "
        "differ from the quotient of the medians above, each over its own codec's rounds (above 1× = "
        "faster than the best of them; a decoder for trusted input only is never the best peer). "
        "Fastest, by median:"};
    std::map<std::string, const MicroFigure*> best_json, best_peer;
    bool first = true;
    for (const char* op : kOps) {
      ratios.header.push_back(std::string(op) + " ÷ JSON");
      ratios.header.push_back(std::string(op) + " ÷ binary");
      ratios.align += "rr";
      const MicroFigure* bj = fastest_json(r, op);
      const MicroFigure* bp = fastest_peer(r, op);
      if (bj) best_json[op] = bj;
      if (bp) best_peer[op] = bp;
      if (!bj && !bp) continue;
      std::string what = std::string(first ? " " : "; ") + op + ":";
      if (bj) what += " JSON " + bj->codec + " (" + sig(bj->ns_per_op.median()) + " ns)";
      if (bp)
        what +=
            std::string(bj ? "," : "") + " binary " + bp->codec + " (" + sig(bp->ns_per_op.median()) + " ns)";
      fastest.push_back(what);
      first = false;
    }
    fastest.push_back(".");
    auto ratio = [&](const std::map<std::string, const MicroFigure*>& best, const char* op,
                     const MicroFigure* f) -> Text {
      const auto b = best.find(op);
      if (!f || b == best.end()) return "—";
      if (b->second == f) return "1× (itself)";
      return verdict_cell(paired(f->ns_per_op, b->second->ns_per_op, stats::Better::lower, r.config),
                          stats::Better::lower);
    };
    for (const std::string& codec : codecs) {
      if (is_limit(codec)) continue;  // not a codec: against the limit below
      std::vector<Text> row{format_of(r, codec), codec};
      for (const char* op : kOps) {
        const MicroFigure* f = find(op, codec);
        row.push_back(ratio(best_json, op, f));
        row.push_back(ratio(best_peer, op, f));
      }
      ratios.rows.push_back(std::move(row));
    }
    if (!best_json.empty() || !best_peer.empty()) {
      out.para(std::move(fastest));
      out.table(std::move(ratios));
      out.para(mark_legend(r));
    }
    against_limit(r, codecs, out);
    codec_instructions(r, codecs, out);

    for (const char* op : kOps) {
      Chart c{std::string("micro-") + op,
              std::string(op) + ": time per op (median, whisker min–max)",
              "time per op — log scale (shorter is faster)",
              "",
              true,
              {},
              {}};
      for (const std::string& codec : codecs)
        if (const MicroFigure* f = find(op, codec))
          c.bars.push_back({codec, f->ns_per_op.median(), f->ns_per_op.min(), f->ns_per_op.max(),
                            family(r, codec), is_limit(codec), ""});
      if (!c.bars.empty()) out.chart(std::move(c));
    }
  }

  go_reference(r, out);
  request_path(r, out);
  logs_micro(r, out);

  Table other{{"benchmark", "ns/op", "allocs/op", "wire bytes"}, "lrrr", {}};
  std::vector<Runs> other_notes;  // on figures whose rounds fall in separate modes
  for (const MicroFigure& f : m.figures)
    if (!is_main_op(f.op) && f.op != "Server" && f.op != "Logs" && !is_go_codec(f.codec) &&
        !f.name.starts_with(kCalibrationMicroPrefix))  // How it was measured shows those
      other.rows.push_back(
          {f.name, with_modes(med_range(f.ns_per_op, 1, false), f.ns_per_op, f.name, ns_text, other_notes),
           count(f.allocs_per_op), f.wire_bytes > 0 ? count(f.wire_bytes) : "—"});
  if (!other.rows.empty()) {
    out.heading(3, "Other microbenchmarks");
    out.table(std::move(other));
    if (!other_notes.empty()) out.bullets(std::move(other_notes));
  }
  if (!m.unavailable_codecs.empty()) {
    std::vector<Runs> items;
    for (const Unavailable& u : m.unavailable_codecs)
      if (!is_go_codec(u.name)) items.push_back({strong(u.name), ": unavailable: " + u.reason});
    if (!items.empty()) {
      out.para({"Codecs not measured:"});
      out.bullets(std::move(items));
    }
  }
}

// --- cost against work: Logs/<op>/<codec>/<N> --------------------------------------

std::string n_label(double n) { return grouped(n); }

// A slope to two decimals, never "-0.00".
std::string slope_text(double v) { return std::isfinite(v) ? fixed(std::fabs(v) < 0.005 ? 0.0 : v, 2) : "—"; }
// ns per log: sig() above 1 ns, three decimals below (AccessOne's is a
// fraction of a nanosecond at large N).
std::string per_log(double ns) { return ns >= 1 ? sig(ns) : fixed(ns, ns >= 0.1 ? 3 : 4); }

// GB/s of wire bytes: bytes per ns.
std::string gbps(const LogFigure* f) {
  if (!f || f->f->wire_bytes <= 0) return "—";
  return sig(f->f->wire_bytes / f->f->ns_per_op.median());
}

// ZAP against the fastest binary peer and the fastest JSON codec of each logs
// op at each N: the peer's ns/op ÷ ZAP's, paired by round, with its verdict
// (a decoder for trusted input only is never the fastest).
void zap_against_peers(const Results& r, const LogTable& t, Out& out) {
  // The N ZAP was measured at (the limits' rows may have more).
  std::vector<double> ns;
  for (double n : t.ns)
    for (const char* op : kLogOps)
      if (t.find(op, "zap", n) && std::find(ns.begin(), ns.end(), n) == ns.end()) ns.push_back(n);
  Table v{{"op", "against"}, "ll", {}};
  for (double n : ns) {
    v.header.push_back("N=" + n_label(n));
    v.align += "r";
  }
  for (const char* op : kLogOps)
    for (Family fam : {Family::peer, Family::json}) {
      std::vector<Text> row{op, fam == Family::peer ? "the fastest binary peer" : "the fastest JSON"};
      bool any = false;
      for (double n : ns) {
        const LogFigure* z = t.find(op, "zap", n);
        const LogFigure* b = t.fastest(r, op, n, fam);
        if (!z || !b) {
          row.emplace_back("—");
          continue;
        }
        row.emplace_back(
            b->codec + " " +
            verdict_cell(paired(z->f->ns_per_op, b->f->ns_per_op, stats::Better::lower, r.config),
                         stats::Better::lower));
        any = true;
      }
      if (any) v.rows.push_back(std::move(row));
    }
  if (v.rows.empty()) return;
  out.para(
      {"ZAP against the fastest binary peer and the fastest JSON codec of each op at each N (by median "
       "at that N; a decoder for trusted input only is never the fastest): their ns/op ÷ ZAP's, paired "
       "by round, with its 95% interval (above 1× = ZAP faster)."});
  out.table(std::move(v));
  out.para(mark_legend(r));
}

void logs_micro(const Results& r, Out& out) {
  const LogTable t = log_table(r);
  if (t.figs.empty()) return;
  const double n_max = t.ns.back();
  out.heading(3, "Cost against work: eth_getLogs, N logs", "logs");
  out.para(
      {"The second record (", code("docs/spec/zap-logs.md"),
       "): an answer of N logs, most ERC-20 Transfers, the same logs on every codec. ", strong("Encode"),
       ": the server builds the answer. ", strong("DecodeAll"),
       ": every field of every log read (hex decoded) and folded into a checksum. ", strong("AccessOne"),
       ": logIndex and transactionHash of log N/2 only. ", strong("ScanField"),
       ": the sum of blockNumber over every log. The limits of the machine: ", code("memcpy"),
       " copies ZAP's answer (the same wire bytes); ", code("structs"),
       " is the ScanField loop over plain C++ structs. CPU ns per op, median of the repetitions; how each "
       "codec does each op is in docs/fairness.md."});

  // Growth: the slope, and the cost per log at the largest N.
  Table g{{"format", "codec"}, "ll", {}};
  for (const char* op : kLogOps) {
    g.header.push_back(std::string(op) + " slope");
    g.header.push_back(std::string(op) + " ns/log @" + n_label(n_max));
    g.align += "rr";
  }
  g.header.push_back("wire bytes/log @" + n_label(n_max));
  g.align += "r";
  auto growth_row = [&](const std::string& codec, std::string_view fmt) {
    std::vector<Text> row{std::string(fmt), codec};
    bool any = false;
    for (const char* op : kLogOps) {
      const std::string_view o = codec == "memcpy" ? "Copy" : op;
      const LogFigure* f = t.find(o, codec, n_max);
      const double sl = t.slope(o, codec);
      row.emplace_back(slope_text(sl));
      row.emplace_back(f ? per_log(f->f->ns_per_op.median() / n_max) : "—");
      any = any || f;
    }
    const LogFigure* w = t.find("Encode", codec, n_max);
    if (!w) w = t.find("Copy", codec, n_max);
    row.emplace_back(w && w->f->wire_bytes > 0 ? sig(w->f->wire_bytes / n_max) : "—");
    if (any) g.rows.push_back(std::move(row));
  };
  for (const std::string& codec : t.codecs) growth_row(codec, format_of(r, codec));
  growth_row("memcpy", "limit");
  growth_row("structs", "limit");
  out.para({"Growth: the slope of log(ns/op) against log(N) over N = ", n_label(t.ns.front()), " … ",
            n_label(n_max),
            " (1 = linear in N, 0 = flat), and the cost per log at the largest N. memcpy's row is the "
            "same under every op."});
  out.table(std::move(g));
  zap_against_peers(r, t, out);

  for (const char* op : kLogOps) {
    std::vector<Runs> notes;  // on figures whose rounds fall in separate modes
    Table tab{{"format", "codec"}, "ll", {}};
    for (double n : t.ns) {
      tab.header.push_back("N=" + n_label(n));
      tab.align += "r";
    }
    tab.header.push_back("GB/s @" + n_label(n_max));
    tab.header.push_back("allocs @" + n_label(n_max));
    tab.align += "rr";
    Chart c{std::string("logs-") + op,
            std::string("Logs/") + op + ": time per op against N (log–log; dashed: the machine's limit)",
            "N logs (log scale)",
            "time per op (log scale)",
            true,
            {},
            {},
            "N"};
    // The limits are charted at the N the codecs were measured at (their
    // table has every N): an N of the limits' alone would put the codecs'
    // lines across an N they were not measured at.
    std::set<double> codec_ns;
    for (const std::string& codec : t.codecs)
      for (double n : t.ns)
        if (t.find(op, codec, n)) codec_ns.insert(n);
    auto add = [&](const std::string& codec, std::string_view fig_op, std::string_view fmt, bool limit) {
      std::vector<Text> row{std::string(fmt), codec};
      Series se{codec, {}, limit, limit ? Family::json : family(r, codec)};
      for (double n : t.ns) {
        const LogFigure* f = t.find(fig_op, codec, n);
        row.emplace_back(f ? with_modes(med_range_in(f->f->ns_per_op, 1e-9, "s"), f->f->ns_per_op, f->f->name,
                                        ns_text, notes)
                           : "—");
        if (f && (!limit || codec_ns.empty() || codec_ns.count(n)))
          se.points.push_back({n, f->f->ns_per_op.median(), f->f->ns_per_op.min(), f->f->ns_per_op.max()});
      }
      const LogFigure* top = t.find(fig_op, codec, n_max);
      row.emplace_back(gbps(top));
      row.emplace_back(top ? count(top->f->allocs_per_op) : "—");
      if (se.points.empty()) return;
      tab.rows.push_back(std::move(row));
      c.series.push_back(std::move(se));
    };
    for (const std::string& codec : t.codecs) add(codec, op, format_of(r, codec), false);
    add("memcpy", "Copy", "limit", true);
    if (std::string_view(op) == "ScanField") add("structs", "ScanField", "limit", true);
    if (tab.rows.empty()) continue;
    out.para({strong(std::string("Logs/") + op),
              ": time per op (median of its " + std::string(rounds_recorded(r) ? "rounds" : "repetitions") +
                  ", min–max), GB/s of wire bytes and heap allocations per op at the largest N."});
    out.table(std::move(tab));
    if (!notes.empty()) out.bullets(std::move(notes));
    out.chart(
        bars_if_one_x(std::move(c), std::string("Logs/") + op + ": time per op at N = " + n_label(n_max)));
  }

  // Wire bytes against N.
  Table w{{"format", "codec"}, "ll", {}};
  for (double n : t.ns) {
    w.header.push_back("N=" + n_label(n));
    w.align += "r";
  }
  Chart wc{"logs-wire",
           "The answer's wire bytes against N (log–log)",
           "N logs (log scale)",
           "bytes (log scale)",
           true,
           {},
           {},
           "N",
           "B",
           1};
  for (const std::string& codec : t.codecs) {
    std::vector<Text> row{format_of(r, codec), codec};
    Series se{codec, {}, false, family(r, codec)};
    for (double n : t.ns) {
      const LogFigure* f = t.find("Encode", codec, n);
      row.emplace_back(f && f->f->wire_bytes > 0 ? grouped(f->f->wire_bytes) : "—");
      if (f && f->f->wire_bytes > 0)
        se.points.push_back({n, f->f->wire_bytes, f->f->wire_bytes, f->f->wire_bytes});
    }
    if (se.points.empty()) continue;
    w.rows.push_back(std::move(row));
    wc.series.push_back(std::move(se));
  }
  if (!w.rows.empty()) {
    out.para({"The answer's size in bytes, as each codec encodes it."});
    out.table(std::move(w));
    out.chart(bars_if_one_x(std::move(wc), "The answer's wire bytes at N = " + n_label(n_max)));
  }
}

}  // namespace report::doc
