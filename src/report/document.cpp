// report/document.cpp — what the report says, in order: when and where, how
// it was measured, the fairness contract, the microbenchmarks, the end-to-end
// matrix with its ratios, the command lines and the caveats. It decides every
// number's formatting and every mark (⚠ noisy, ‡ errors, unavailable) once;
// markdown.cpp and html.cpp only render the blocks.
#include "report/document.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "report/gbench.hpp"

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

const char* const kOps[] = {"Decode", "Encode", "Serde", "Handler"};

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

// The three families every table groups codecs by: by content type when the
// run recorded the codec, by name otherwise (runs before the binary peers had
// ZAP and JSON codecs only).
enum class Family { zap, json, peer };
Family family(const Results& r, const std::string& name) {
  for (const Codec& c : r.codecs)
    if (c.name == name)
      return c.content_type == "application/zap"    ? Family::zap
             : c.content_type == "application/json" ? Family::json
                                                    : Family::peer;
  return name == "zap" || name == "zap-fresh" ? Family::zap : Family::json;
}
bool is_json(const Results& r, const std::string& name) {
  return !name.empty() && family(r, name) == Family::json;
}
bool trusted_input_only(const Results& r, const std::string& name) {
  for (const Codec& c : r.codecs)
    if (c.name == name) return c.trusted_input_only;
  return false;
}
// "text" (JSON) or "binary" (ZAP and the binary peers): the groups of every table.
const char* format_of(const Results& r, const std::string& name) {
  return is_json(r, name) ? "text" : "binary";
}

std::size_t codec_rank(const Results& r, const std::string& name) {
  for (std::size_t i = 0; i < r.codecs.size(); ++i)
    if (r.codecs[i].name == name) return i;
  return r.codecs.size();
}

// The figure of `op` on `codec`, or null.
const MicroFigure* find_figure(const Micro& m, std::string_view op, std::string_view codec) {
  for (const MicroFigure& f : m.figures)
    if (f.op == op && f.codec == codec) return &f;
  return nullptr;
}

// The fastest C++ codec of family `fam` for `op` by median, ties to the codec
// the registry lists first; null when none ran. The Go reference's rows are
// not C++ codecs; a decoder for trusted input only is not a peer a server
// could use, so it is never "the fastest binary peer" (its rows still show).
const MicroFigure* fastest_of(const Results& r, std::string_view op, Family fam) {
  const MicroFigure* best = nullptr;
  for (const MicroFigure& f : r.micro.figures) {
    if (f.op != op || is_go_codec(f.codec) || family(r, f.codec) != fam || trusted_input_only(r, f.codec))
      continue;
    const double ns = f.ns_per_op.median();
    if (!best || ns < best->ns_per_op.median() ||
        (ns == best->ns_per_op.median() && codec_rank(r, f.codec) < codec_rank(r, best->codec)))
      best = &f;
  }
  return best;
}
const MicroFigure* fastest_json(const Results& r, std::string_view op) {
  return fastest_of(r, op, Family::json);
}
const MicroFigure* fastest_peer(const Results& r, std::string_view op) {
  return fastest_of(r, op, Family::peer);
}

// --- building blocks -----------------------------------------------------------

struct Out {
  std::vector<Block> blocks;
  void heading(int level, std::string text, std::string anchor = "") {
    Block b;
    b.kind = Block::Kind::heading;
    b.level = level;
    b.anchor = std::move(anchor);
    b.runs = {Text(std::move(text))};
    blocks.push_back(std::move(b));
  }
  void para(Runs runs) {
    Block b;
    b.runs = std::move(runs);
    blocks.push_back(std::move(b));
  }
  void bullets(std::vector<Runs> items) {
    Block b;
    b.kind = Block::Kind::bullets;
    b.items = std::move(items);
    blocks.push_back(std::move(b));
  }
  void table(Table t) {
    Block b;
    b.kind = Block::Kind::table;
    b.table = std::move(t);
    blocks.push_back(std::move(b));
  }
  void code(std::string summary, std::string text) {
    Block b;
    b.kind = Block::Kind::code;
    b.summary = std::move(summary);
    b.text = std::move(text);
    blocks.push_back(std::move(b));
  }
  void chart(Chart c) {
    Block b;
    b.kind = Block::Kind::chart;
    b.chart = std::move(c);
    blocks.push_back(std::move(b));
  }
};

// --- when, where, how ------------------------------------------------------------

void found(const Results& r, Out& out);

void when_where(const Results& r, Out& out) {
  const Environment& e = r.env;
  out.heading(1, "zapbench results");
  out.para(
      {"ZAP (zero-copy binary wire) against HTTP + JSON with several C++ JSON libraries, and against the "
       "binary formats one would otherwise pick (Protocol Buffers, FlatBuffers, Cap'n Proto, MessagePack, "
       "Thrift), on the same record and the same work: per operation in-process, and end to end over " +
           transport(e) + ". Measured by ",
       code("zapbench run"), " and written from its results.json alone."});
  found(r, out);  // the report opens with what it found
  out.heading(2, "The run", "run");
  Table t{{"run", ""}, "ll", {}};
  t.rows.push_back({"started (UTC)", e.started_utc});
  t.rows.push_back({"host", e.hostname});
  t.rows.push_back({"CPU", e.cpu_model + " × " + std::to_string(e.cpu_count)});
  t.rows.push_back({"kernel", e.kernel});
  t.rows.push_back({"compiler", e.compiler});
  t.rows.push_back({"build flags", code(e.build_flags)});
  t.rows.push_back({"git commit", code(e.git_commit)});
  t.rows.push_back({"command", code(e.command_line)});
  t.rows.push_back({"mode", r.config.mode});
  t.rows.push_back({"wall time", seconds(e.wall_s)});
  out.table(std::move(t));
  if (!e.libraries.empty()) {
    Table libs{{"library", "version"}, "ll", {}};
    for (const auto& [name, version] : e.libraries) libs.rows.push_back({name, version});
    out.table(std::move(libs));
  }
}

void how_measured(const Results& r, Out& out) {
  const Config& c = r.config;
  const Environment& env = r.env;
  out.heading(2, "How it was measured");
  const std::string noisy_pct = fixed(c.noisy_spread * 100, 0) + "%";
  // Several hosts: the loader CPUs are each loader host's, and each cell's load is the exact merge of the
  // loader hosts' results (docs/spec/hosts.md §5).
  const std::string where =
      one_host(env)
          ? "Server pinned to CPUs " + cpu_list(c.server_cpus) + ", loader to CPUs " +
                cpu_list(c.loader_cpus) + "; both on this machine. Link: loopback."
          : "Server pinned to CPUs " + cpu_list(c.server_cpus) +
                " on its host, each loader host's loader "
                "to CPUs " +
                cpu_list(c.loader_cpus) +
                " on its own; every figure of a cell is the exact "
                "merge of the loader hosts' results (histograms added, percentiles of the sum). Link: " +
                link_of(env) + ".";
  out.bullets({
      {where},
      {"End to end: every cell is run " + std::to_string(c.repeats) + " times, " + seconds(c.duration_s) +
       " measured after " + seconds(c.warmup_s) +
       " of warm-up; each cell a fresh server process and a fresh loader process."},
      {"Repeats are interleaved across arms: round k of every cell runs before round k+1 of any, so a slow "
       "phase of the machine hits every arm alike."},
      {"Every figure is the median of its samples, with min–max beside it. A cell whose requests/s spread "
       "(max − min) / median exceeds " +
       noisy_pct + " is flagged ⚠ noisy — flagged, never hidden."},
      {"Every response is timed by the loader (no sampling); p99 is taken per sample and its median shown, "
       "in µs."},
      {"Depth is requests in flight per connection: pipelined in order on HTTP/1.1 and ZAP-HTTP, concurrent "
       "streams on HTTP/2 and gRPC (h2c, libnghttp2 on both sides), calls answered in any order on ZAP-RPC. "
       "HTTP/2's flow-control windows are 16 MiB per stream and 2^31 − 1 per connection both ways, consumed "
       "as read, so no cell is bound by a window (docs/spec/http2-grpc.md)."},
      {"Microbenchmarks: Google Benchmark in one process, CPU time per op, " +
       std::to_string(c.micro_repetitions) + " repetitions of at least " + seconds(c.micro_min_time_s) +
       " each; heap allocations counted by a replaced global operator new."},
  });
  if (!env.hosts.empty()) {
    out.para({"Hosts, as their preflight found them (the same build on each):"});
    Table hosts{{"role", "host", "CPU", "CPUs", "commit"}, "lllrl", {}};
    for (const HostRow& h : env.hosts)
      hosts.rows.push_back(
          {h.role, h.host, h.cpu_model, std::to_string(h.cpu_count), code(version_commit(h.version))});
    out.table(std::move(hosts));
  }
  bool load_recorded = false;
  for (const Cell& cell : r.cells)
    for (const E2ESample& e : cell.samples) load_recorded = load_recorded || std::isfinite(e.load_avg_1m);
  if (load_recorded)
    out.para(
        {"Load gate: the machine's 1-minute load average is read before every sample. The run's own "
         "processes keep at most one thread runnable per CPU they are pinned to, so a load average above "
         "the " +
         fixed(busy_load_threshold(r), 0) +
         " CPUs online means other work wanted more than the CPUs the run left free and competed with "
         "it: such a sample is marked ⚑ busy."});
}

void fairness(const Results& r, Out& out) {
  out.heading(2, "Fairness");
  out.para(
      {"Every codec does the same logical work on the same record: the same request and response fields, "
       "the same compute, the same behaviour on malformed input (",
       code("docs/fairness.md"), ", enforced by ", code("tests/record/record_codec_test.cpp"),
       " on every codec alike). End to end, the loader parses and validates every response — status, body "
       "decoded with the same codec, request id echoed, computed balance — so a fast wrong answer counts as "
       "an error, not as a request. Each JSON library and each binary format runs on its fastest idiomatic "
       "path for a known, flat record, with its objects and buffers reused; where a format's own authors "
       "dispute what is fair (arenas, verifying untrusted input, packing), each variant is its own row, and "
       "a decoder for trusted input only is never served nor taken as the fastest binary peer. What each "
       "allocates is measured, not assumed. A codec whose library was missing at build time is listed as "
       "unavailable with the reason."});
  if (r.codecs.empty()) return;
  Table t{{"format", "codec", "content type", "encode path", "decode path"}, "lllll", {}};
  std::vector<const Codec*> rows;
  for (const Codec& c : r.codecs) rows.push_back(&c);
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Codec* a, const Codec* b) { return is_json(r, a->name) > is_json(r, b->name); });
  for (const Codec* c : rows) {
    const std::string decode = c->decode_path + (c->trusted_input_only ? " (trusted input only)" : "");
    if (c->available)
      t.rows.push_back({format_of(r, c->name), c->name, c->content_type, c->encode_path, decode});
    else
      t.rows.push_back(
          {format_of(r, c->name), c->name, c->content_type, "unavailable: " + c->unavailable_reason, "—"});
  }
  out.table(std::move(t));
}

// --- microbenchmarks ---------------------------------------------------------------

Samples server_cpu_per_request_ns(const Results& r, const Cell& c);

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
  // The end-to-end cell of a path: zapbench, depth 16, 16 connections (else the fewest measured).
  auto cell_of = [&](const std::string& framing, const std::string& body) -> const Cell* {
    const bool hello = body == "hello";
    // Server/<framing>/...: micro's names (micro/request_path.hpp) for the matrix's framings.
    // micro spells HTTP/1.1 and ZAP-HTTP "http1" and "zap-http"; the others as the matrix does.
    const std::optional<bench::Framing> f = framing == "http1"      ? bench::Framing::http1
                                            : framing == "zap-http" ? bench::Framing::zap_http
                                                                    : bench::framing_from(framing);
    if (!f) return nullptr;
    const Cell* best = nullptr;
    for (const Cell& c : r.cells) {
      if (c.arm != bench::Arm::zapbench || c.framing != *f || c.pipeline != 16 || c.samples.empty() ||
          c.scenario != (hello ? bench::Scenario::hello : bench::Scenario::rpc) ||
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
  Table t{{"request path", "ns/request", "instructions/request", "codec: Handler ns",
           "framing, routing, answer ns", "allocs", "end to end: server CPU ns/request",
           "kernel and event loop ns"},
          "lrrrrrrr",
          {}};
  for (const MicroFigure& f : m.figures) {
    if (f.op != "Server") continue;
    const std::string framing = f.codec.substr(0, f.codec.find('/'));
    const std::string body = f.codec.substr(f.codec.find('/') + 1);
    const double path_ns = f.ns_per_op.median();
    const MicroFigure* handler = body == "hello" ? nullptr : find("Handler/" + body);
    std::vector<Text> row{f.name, med_range(f.ns_per_op, 1, false)};
    const InstructionFigure* counted = instructions_of(f.name);
    row.emplace_back(counted && std::isfinite(counted->callgrind_ir) ? grouped(counted->callgrind_ir) : "—");
    row.emplace_back(handler ? sig(handler->ns_per_op.median()) : body == "hello" ? "0" : "—");
    row.emplace_back(handler || body == "hello" ? sig(path_ns - (handler ? handler->ns_per_op.median() : 0))
                                                : "—");
    row.emplace_back(count(f.allocs_per_op));
    if (const Cell* c = cell_of(framing, body)) {
      const double e2e_ns = server_cpu_per_request_ns(r, *c).median();
      row.emplace_back(sig(e2e_ns) + " (c " + std::to_string(c->connections) + ")");
      row.emplace_back(sig(e2e_ns - path_ns));
    } else {
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
       "requests at a time in memory, with no syscalls; ns per request (median of the repetitions, "
       "min–max). Beside it the codec's share (Handler/<body>: decode, compute, encode), the rest "
       "(framing, routing, the answer's head), and, where this run measured the same cell end to end "
       "at pipeline depth 16, the server's CPU per request there: the difference is the kernel's and "
       "the event loop's. ",
       code("zapbench instructions"), " counts the same paths' instructions per request (callgrind, ",
       ins.requests > 0 ? grouped(static_cast<double>(ins.requests)) + " requests each" : "not run",
       ins.tools.empty() ? "" : ", " + ins.tools,
       "): a figure that does not move with the machine's noise."});
  out.table(std::move(t));
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

// What the Go reference published for its own stack (../shared/design/reference.md):
// GB10 arm64, go1.26, median of 3 — another machine, quoted for orientation only.
struct Published {
  const char* codec;  // our row name
  const char* op;
  const char* figure;
};
constexpr Published kPublished[] = {
    {"go/zap", "Decode", "13.4 ns, 0 allocs"},
    {"go/zap", "Encode", "629 ns, 12 allocs"},
    {"go/zap", "Serde", "648 ns"},
    {"go/zap", "Handler", "271 ns, 5 allocs"},
    {"go/goccy", "Decode", "473 ns, 4 allocs"},
    {"go/goccy", "Encode", "424 ns, 4 allocs"},
    {"go/goccy", "Serde", "904 ns"},
    {"go/goccy", "Handler", "431 ns, 4 allocs"},
    {"go/sonic", "Decode", "845 ns, 8 allocs"},
    {"go/sonic", "Serde", "1,509 ns"},
    {"go/sonic", "Handler", "736 ns, 7 allocs"},
    {"go/stdlib", "Decode", "2,334 ns, 13 allocs"},
    {"go/stdlib", "Serde", "3,107 ns"},
    {"go/stdlib", "Handler", "1,444 ns, 9 allocs"},
};

// The Go reference's own stack measured in this run (zapbench-go micro), each
// op beside its C++ counterpart: go/zap against zap (go/zap-reset against the
// reused builder, go/zap with Go's fresh builder per message against
// zap-fresh); a Go JSON codec against the fastest C++ JSON codec of the op.
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
  out.para({"The Go reference's own codecs (", code("go/"),
            " in this repository: encoding/json, goccy/go-json, "
            "bytedance/sonic, and zap-proto/go when the build has it) on the same record, the same values "
            "and the same compute, each result checked before it is timed; Go's testing.Benchmark, pinned to "
            "one CPU like the C++ micro, GOMAXPROCS=1, default GOGC. C++ ÷ Go = the Go figure ÷ its C++ "
            "counterpart's (above 1× = C++ faster): a Go JSON codec against the fastest C++ JSON codec of "
            "the op, go/zap against zap. Published: the reference's own figures, measured elsewhere on "
            "other hardware (GB10 arm64), for orientation only. Command: ",
            code(m.go_command.empty() ? "not run" : m.go_command)});
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
        t.rows.push_back(
            {codec, op, med_range(g->ns_per_op, 1, false), count(g->allocs_per_op), c ? c->codec : "—",
             c ? sig(c->ns_per_op.median()) : "—",
             c && c->ns_per_op.median() > 0 ? times(g->ns_per_op.median() / c->ns_per_op.median()) : "—",
             published});
      }
    out.table(std::move(t));
  }
  if (!go_missing.empty()) {
    std::vector<Runs> items;
    for (const Unavailable* u : go_missing) items.push_back({strong(u->name), ": unavailable: " + u->reason});
    out.bullets(std::move(items));
  }
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
  // zap-fresh (a benchmark variant, not a codec of the registry) right after zap.
  auto rank = [&](const std::string& c) { return codec_rank(r, c == "zap-fresh" ? "zap" : c); };
  std::stable_sort(codecs.begin(), codecs.end(), [&](const std::string& a, const std::string& b) {
    return std::make_tuple(!is_json(r, a), rank(a), a == "zap-fresh") <
           std::make_tuple(!is_json(r, b), rank(b), b == "zap-fresh");
  });
  auto find = [&](const std::string& op, const std::string& codec) { return find_figure(m, op, codec); };

  if (!codecs.empty()) {
    out.para(
        {"CPU time per op in ns, median of the repetitions (min–max); allocs = heap allocations per op; "
         "wire bytes = the request plus the response as the codec encodes them. Command: ",
         code(m.command)});
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
        row.emplace_back(f ? med_range(f->ns_per_op, 1, false) : "—");
        row.emplace_back(f ? count(f->allocs_per_op) : "—");
      }
      row.emplace_back(wire > 0 ? count(wire) : "—");
      t.rows.push_back(std::move(row));
    }
    out.table(std::move(t));

    // Against the fastest JSON codec and the fastest binary peer of each op (by median).
    Table ratios{{"format", "codec"}, "ll", {}};
    Runs fastest{
        "Speed against the fastest JSON codec and the fastest binary peer of each op: their ns/op ÷ this "
        "codec's (above 1× = faster than the best of them; a decoder for trusted input only is never the "
        "best peer). Fastest:"};
    std::map<std::string, double> best_json_ns, best_peer_ns;
    bool first = true;
    for (const char* op : kOps) {
      ratios.header.push_back(std::string(op) + " ÷ JSON");
      ratios.header.push_back(std::string(op) + " ÷ binary");
      ratios.align += "rr";
      const MicroFigure* bj = fastest_json(r, op);
      const MicroFigure* bp = fastest_peer(r, op);
      if (bj) best_json_ns[op] = bj->ns_per_op.median();
      if (bp) best_peer_ns[op] = bp->ns_per_op.median();
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
    auto ratio = [&](const std::map<std::string, double>& best, const char* op,
                     const MicroFigure* f) -> Text {
      const auto b = best.find(op);
      return f && b != best.end() && f->ns_per_op.median() > 0 ? times(b->second / f->ns_per_op.median())
                                                               : "—";
    };
    for (const std::string& codec : codecs) {
      std::vector<Text> row{format_of(r, codec), codec};
      for (const char* op : kOps) {
        const MicroFigure* f = find(op, codec);
        row.push_back(ratio(best_json_ns, op, f));
        row.push_back(ratio(best_peer_ns, op, f));
      }
      ratios.rows.push_back(std::move(row));
    }
    if (!best_json_ns.empty() || !best_peer_ns.empty()) {
      out.para(std::move(fastest));
      out.table(std::move(ratios));
    }

    for (const char* op : kOps) {
      Chart c{std::string("micro-") + op,
              std::string(op) + ": ns per op (median, whisker min–max)",
              "ns per op — log scale (shorter is faster)",
              "",
              true,
              {},
              {}};
      for (const std::string& codec : codecs)
        if (const MicroFigure* f = find(op, codec))
          c.bars.push_back(
              {codec, f->ns_per_op.median(), f->ns_per_op.min(), f->ns_per_op.max(), !is_json(r, codec)});
      if (!c.bars.empty()) out.chart(std::move(c));
    }
  }

  go_reference(r, out);
  request_path(r, out);
  logs_micro(r, out);

  Table other{{"benchmark", "ns/op", "allocs/op", "wire bytes"}, "lrrr", {}};
  for (const MicroFigure& f : m.figures)
    if (!is_main_op(f.op) && f.op != "Server" && f.op != "Logs" && !is_go_codec(f.codec))
      other.rows.push_back({f.name, med_range(f.ns_per_op, 1, false), count(f.allocs_per_op),
                            f.wire_bytes > 0 ? count(f.wire_bytes) : "—"});
  if (!other.rows.empty()) {
    out.heading(3, "Other microbenchmarks");
    out.table(std::move(other));
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

const char* const kLogOps[] = {"Encode", "DecodeAll", "AccessOne", "ScanField"};

// One Logs/<op>/<codec>/<N> figure, its name taken apart. The limits are
// Logs/Copy/memcpy/<N> and Logs/ScanField/structs/<N>: not codecs.
struct LogFigure {
  std::string op, codec;
  double n = 0;
  const MicroFigure* f = nullptr;
};
bool is_log_limit(std::string_view codec) { return codec == "memcpy" || codec == "structs"; }

std::vector<LogFigure> log_figures(const Micro& m) {
  std::vector<LogFigure> out;
  for (const MicroFigure& f : m.figures) {
    if (f.op != "Logs") continue;
    const auto a = f.codec.find('/'), b = f.codec.rfind('/');
    if (a == std::string::npos || b == a) continue;
    LogFigure lf{f.codec.substr(0, a), f.codec.substr(a + 1, b - a - 1), 0, &f};
    try {
      lf.n = std::stod(f.codec.substr(b + 1));
    } catch (const std::exception&) {
      continue;
    }
    if (lf.n > 0 && f.ns_per_op.median() > 0) out.push_back(std::move(lf));
  }
  return out;
}

struct LogTable {
  std::vector<LogFigure> figs;
  std::vector<double> ns;           // every N measured, ascending
  std::vector<std::string> codecs;  // grouped: text, then binary, each in registry order
  const LogFigure* find(std::string_view op, std::string_view codec, double n) const {
    for (const LogFigure& f : figs)
      if (f.op == op && f.codec == codec && f.n == n) return &f;
    return nullptr;
  }
  // The slope of ln(ns/op) against ln(N) over every N measured (least squares).
  double slope(std::string_view op, std::string_view codec) const {
    double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;
    for (double n : ns)
      if (const LogFigure* f = find(op, codec, n)) {
        const double x = std::log(n), y = std::log(f->f->ns_per_op.median());
        sx += x, sy += y, sxx += x * x, sxy += x * y, k += 1;
      }
    if (k < 2 || k * sxx - sx * sx <= 0) return NAN;
    return (k * sxy - sx * sy) / (k * sxx - sx * sx);
  }
  // The fastest codec of a family for op at N (a trusted-input decoder never counts as a peer).
  const LogFigure* fastest(const Results& r, std::string_view op, double n, Family fam) const {
    const LogFigure* best = nullptr;
    for (const LogFigure& f : figs)
      if (f.op == op && f.n == n && !is_log_limit(f.codec) && family(r, f.codec) == fam &&
          !trusted_input_only(r, f.codec) && (!best || f.f->ns_per_op.median() < best->f->ns_per_op.median()))
        best = &f;
    return best;
  }
};

LogTable log_table(const Results& r) {
  LogTable t;
  t.figs = log_figures(r.micro);
  for (const LogFigure& f : t.figs) {
    if (std::find(t.ns.begin(), t.ns.end(), f.n) == t.ns.end()) t.ns.push_back(f.n);
    if (!is_log_limit(f.codec) && std::find(t.codecs.begin(), t.codecs.end(), f.codec) == t.codecs.end())
      t.codecs.push_back(f.codec);
  }
  std::sort(t.ns.begin(), t.ns.end());
  std::stable_sort(t.codecs.begin(), t.codecs.end(), [&](const std::string& a, const std::string& b) {
    return std::make_tuple(!is_json(r, a), codec_rank(r, a)) <
           std::make_tuple(!is_json(r, b), codec_rank(r, b));
  });
  return t;
}

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

  for (const char* op : kLogOps) {
    Table tab{{"format", "codec"}, "ll", {}};
    for (double n : t.ns) {
      tab.header.push_back("N=" + n_label(n) + " ns");
      tab.align += "r";
    }
    tab.header.push_back("GB/s @" + n_label(n_max));
    tab.header.push_back("allocs @" + n_label(n_max));
    tab.align += "rr";
    Chart c{std::string("logs-") + op,
            std::string("Logs/") + op + ": ns per op against N (log–log; dashed: the machine's limit)",
            "N logs (log scale)",
            "ns per op (log scale)",
            true,
            {},
            {},
            "N"};
    auto add = [&](const std::string& codec, std::string_view fig_op, std::string_view fmt, bool limit) {
      std::vector<Text> row{std::string(fmt), codec};
      Series se{codec, {}, limit};
      for (double n : t.ns) {
        const LogFigure* f = t.find(fig_op, codec, n);
        row.emplace_back(f ? med_range(f->f->ns_per_op, 1, false) : "—");
        if (f)
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
              ": ns per op (min–max), GB/s of wire bytes and heap "
              "allocations per op at the largest N."});
    out.table(std::move(tab));
    out.chart(std::move(c));
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
           "N"};
  for (const std::string& codec : t.codecs) {
    std::vector<Text> row{format_of(r, codec), codec};
    Series se{codec, {}, false};
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
    out.chart(std::move(wc));
  }
}

// --- end to end ----------------------------------------------------------------------

using bench::Arm;
using bench::Framing;
using bench::Scenario;

struct RowKey {
  Arm arm;
  Framing framing;
  std::string body;
  auto operator<=>(const RowKey&) const = default;
};

bool row_before(const Results& r, const RowKey& a, const RowKey& b) {
  auto key = [&](const RowKey& k) {
    // Within a framing: no body (hello) first, then the text bodies (JSON), then the binary ones (ZAP, then
    // the binary peers), each in registry order.
    const int body_kind = k.body.empty() ? 0 : is_json(r, k.body) ? 1 : 2;
    return std::make_tuple(k.arm, k.framing, body_kind, codec_rank(r, k.body), k.body);
  };
  return key(a) < key(b);
}

bool usable(const Cell& c) { return c.unavailable.empty() && !c.samples.empty(); }

// "1 connection", "16 connections".
std::string connections_text(unsigned n) {
  return std::to_string(n) + (n == 1 ? " connection" : " connections");
}

std::string row_label(const Results& r, const RowKey& k, const std::vector<const Cell*>& cells) {
  if (k.arm == Arm::floor) {
    for (const Cell* c : cells)
      if (usable(*c))
        return "floor (raw TCP echo, " + count(std::round(c->samples[0].bytes_sent_per_request)) + " B → " +
               count(std::round(c->samples[0].bytes_received_per_response)) + " B)";
    return "floor (raw TCP echo)";
  }
  std::string label =
      std::string(bench::to_string(k.arm)) + " " + std::string(bench::display_name(k.framing));
  if (k.body.empty()) return label;
  const std::string server_codec = cells.empty() ? "" : cells.front()->server_codec;
  if (!server_codec.empty() && is_json(r, k.body))
    return label + " + JSON (" + server_codec.substr(server_codec.find('/') + 1) + "; loader " + k.body + ")";
  if (is_json(r, k.body)) return label + " + JSON (" + k.body + ")";
  if (k.body == "zap") return label + " + ZAP";
  if (family(r, k.body) == Family::peer) return label + " + " + k.body;
  return label + " + ZAP (" + k.body + ")";
}

struct Group;
std::string group_anchor(const Group& g);

struct Group {
  Scenario scenario = Scenario::hello;
  unsigned logs = 0;  // logs: N (one group per N and depth)
  unsigned pipeline = 1;
  std::vector<const Cell*> cells;
  std::vector<RowKey> rows;
  std::vector<unsigned> connections;  // of the cells that ran

  [[nodiscard]] std::vector<const Cell*> row_cells(const RowKey& k) const {
    std::vector<const Cell*> v;
    for (const Cell* c : cells)
      if (RowKey{c->arm, c->framing, c->body} == k) v.push_back(c);
    return v;
  }
  [[nodiscard]] const Cell* find(const RowKey& k, unsigned conns) const {
    for (const Cell* c : cells)
      if (c->connections == conns && RowKey{c->arm, c->framing, c->body} == k) return c;
    return nullptr;
  }
};

// "rpc", "logs N=100".
std::string group_scenario(const Group& g) {
  std::string s(bench::to_string(g.scenario));
  if (g.scenario == Scenario::logs) s += " N=" + std::to_string(g.logs);
  return s;
}

// "e2e-rpc-p16", "e2e-logs-100-p1".
std::string group_id(const Group& g) {
  std::string s = "e2e-" + std::string(bench::to_string(g.scenario));
  if (g.scenario == Scenario::logs) s += "-" + std::to_string(g.logs);
  return s + "-p" + std::to_string(g.pipeline);
}

std::string group_anchor(const Group& g) { return group_id(g); }

std::vector<Group> groups(const Results& r) {
  std::vector<Group> gs;
  for (const Cell& c : r.cells) {
    auto it = std::find_if(gs.begin(), gs.end(), [&](const Group& g) {
      return g.scenario == c.scenario && g.logs == c.logs && g.pipeline == c.pipeline;
    });
    if (it == gs.end()) it = gs.insert(gs.end(), Group{c.scenario, c.logs, c.pipeline, {}, {}, {}});
    it->cells.push_back(&c);
  }
  std::stable_sort(gs.begin(), gs.end(), [](const Group& a, const Group& b) {
    return std::make_tuple(a.scenario, a.logs, a.pipeline) < std::make_tuple(b.scenario, b.logs, b.pipeline);
  });
  for (Group& g : gs) {
    std::set<unsigned> conns;
    for (const Cell* c : g.cells) {
      RowKey k{c->arm, c->framing, c->body};
      if (std::find(g.rows.begin(), g.rows.end(), k) == g.rows.end()) g.rows.push_back(k);
      if (c->unavailable.empty()) conns.insert(c->connections);
    }
    std::stable_sort(g.rows.begin(), g.rows.end(),
                     [&](const RowKey& a, const RowKey& b) { return row_before(r, a, b); });
    g.connections.assign(conns.begin(), conns.end());
  }
  return gs;
}

std::uint64_t errors(const Cell& c) {
  std::uint64_t n = 0;
  for (const E2ESample& s : c.samples) n += s.errors;
  return n;
}

// The reason when every cell of the row is unavailable for the same reason.
std::string whole_row_unavailable(const std::vector<const Cell*>& cells) {
  if (cells.empty() || cells[0]->unavailable.empty()) return "";
  for (const Cell* c : cells)
    if (c->unavailable != cells[0]->unavailable) return "";
  return cells[0]->unavailable;
}

// The server's CPU time per request, ns: its CPU time over the whole sample
// (warm-up and window; nginx's workers included, as its master reaps them)
// over the requests it served at the measured rate in that time. Approximate
// by the server's start-up and the drain (milliseconds), exact enough to show
// where the server, not the loader, is the cost.
Samples server_cpu_per_request_ns(const Results& r, const Cell& c) {
  Samples out;
  const double seconds = r.config.warmup_s + r.config.duration_s;
  for (const E2ESample& e : c.samples)
    if (e.requests_per_s > 0 && seconds > 0)
      out.values.push_back(e.server_cpu_s * 1e9 / (e.requests_per_s * seconds));
  return out;
}

enum class Figure { rate, p99, server_cpu, mb_per_s };

// One e2e table: rows = arm/framing/body, columns = connections.
Table e2e_table(const Results& r, const Group& g, Figure fig, std::vector<std::string>* error_notes,
                bool* any_noisy, std::vector<std::string>* busy_notes) {
  Table t{{fig == Figure::rate       ? "requests/s"
           : fig == Figure::p99      ? "p99 µs"
           : fig == Figure::mb_per_s ? "MB/s of responses"
                                     : "server CPU µs/request"},
          "l",
          {}};
  for (unsigned c : g.connections) {
    t.header.push_back("c " + std::to_string(c));
    t.align += "r";
  }
  if (g.connections.empty()) {
    t.header.push_back("");
    t.align += "l";
  }
  for (const RowKey& k : g.rows) {
    const std::vector<const Cell*> cells = g.row_cells(k);
    const std::string label = row_label(r, k, cells);
    std::vector<Text> row{label};
    if (const std::string reason = whole_row_unavailable(cells); !reason.empty()) {
      row.emplace_back("unavailable: " + reason);
      while (row.size() < t.header.size()) row.emplace_back("unavailable");
      t.rows.push_back(std::move(row));
      continue;
    }
    for (unsigned conns : g.connections) {
      const Cell* c = g.find(k, conns);
      if (!c) {
        row.emplace_back("—");
      } else if (!c->unavailable.empty()) {
        row.emplace_back("unavailable: " + c->unavailable);
      } else if (c->samples.empty()) {
        row.emplace_back("no samples");
      } else if (fig == Figure::p99) {
        row.emplace_back(med_range(c->p99(), 1000, false));
      } else if (fig == Figure::server_cpu) {
        row.emplace_back(med_range(server_cpu_per_request_ns(r, *c), 1000, false));
      } else if (fig == Figure::mb_per_s) {
        row.emplace_back(med_range(c->mb_per_s(), 1, false));
      } else {
        std::string s = med_range(c->rate(), 1, true);
        if (c->noisy(r.config.noisy_spread)) {
          s += " ⚠";
          *any_noisy = true;
        }
        bool busy_mark = false;
        for (std::size_t i = 0; i < c->samples.size(); ++i)
          if (busy(c->samples[i], busy_load_threshold(r))) {
            busy_mark = true;
            busy_notes->push_back(label + ", c " + std::to_string(conns) + ", sample " +
                                  std::to_string(i + 1) + ": load average " +
                                  fixed(c->samples[i].load_avg_1m, 2));
          }
        if (busy_mark) s += " ⚑";
        if (const std::uint64_t n = errors(*c); n > 0) {
          s += " ‡ " + std::to_string(n) + " errors";
          std::map<std::string, std::uint64_t> kinds;
          for (const E2ESample& e : c->samples)
            for (const auto& [kind, m] : e.errors_by_kind) kinds[kind] += m;
          std::string by;
          for (const auto& [kind, m] : kinds)
            if (m > 0) by += (by.empty() ? "" : ", ") + kind + " " + std::to_string(m);
          error_notes->push_back(label + ", c " + std::to_string(conns) + ": " + std::to_string(n) +
                                 " errors over " + std::to_string(c->samples.size()) + " samples" +
                                 (by.empty() ? "" : " (" + by + ")"));
        }
        row.emplace_back(std::move(s));
      }
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

double median_rate(const Cell* c) { return c && usable(*c) ? c->rate().median() : NAN; }

// The zapbench cell of the group whose body is of family `fam`, on `framing` at `conns` connections, with
// the highest median requests/s (ties to the first); null when none ran.
const Cell* fastest_body(const Results& r, const Group& g, Family fam, Framing framing, unsigned conns) {
  const Cell* best = nullptr;
  for (const Cell* c : g.cells)
    if (c->arm == Arm::zapbench && c->framing == framing && c->connections == conns && !c->body.empty() &&
        family(r, c->body) == fam && usable(*c) && (!best || c->rate().median() > best->rate().median()))
      best = c;
  return best;
}

void ratios(const Results& r, const Group& g, Out& out) {
  // Which comparisons this group has at all.
  bool has_json = false, has_peer = false, has_floor = false;
  for (const Cell* c : g.cells) {
    if (!usable(*c)) continue;
    const bool rpc = c->arm == Arm::zapbench && g.scenario != Scenario::hello;
    has_json |= rpc && is_json(r, c->body);
    has_peer |= rpc && !c->body.empty() && family(r, c->body) == Family::peer;
    has_floor |= c->arm == Arm::floor;
  }
  if (!has_json && !has_peer && !has_floor) return;
  // logs: the floor's comparison is of MB/s (it carries ZAP's byte counts at
  // that N; another body's answers are larger or smaller than its).
  const bool by_bytes = g.scenario == Scenario::logs;
  Table t{{std::string(bench::to_string(Arm::zapbench))}, "l", {}};
  for (unsigned conns : g.connections) {
    for (auto [on, what] : {std::pair{has_json, " ÷ best JSON"}, std::pair{has_peer, " ÷ best binary"},
                            std::pair{has_floor, by_bytes ? " MB/s ÷ floor" : " ÷ floor"}}) {
      if (!on) continue;
      t.header.push_back("c " + std::to_string(conns) + what);
      t.align += "r";
    }
  }
  auto floor_rate = [&](unsigned conns) {
    for (const Cell* c : g.cells)
      if (c->arm == Arm::floor && c->connections == conns && usable(*c))
        return by_bytes ? c->mb_per_s().median() : c->rate().median();
    return double(NAN);
  };
  auto median_bytes = [&](const Cell* c) { return c && usable(*c) ? c->mb_per_s().median() : NAN; };
  for (const RowKey& k : g.rows) {
    if (k.arm != Arm::zapbench) continue;
    std::vector<Text> row{row_label(r, k, g.row_cells(k))};
    for (unsigned conns : g.connections) {
      const double mine = median_rate(g.find(k, conns));
      if (has_json)
        row.emplace_back(times(mine / median_rate(fastest_body(r, g, Family::json, k.framing, conns))));
      if (has_peer)
        row.emplace_back(times(mine / median_rate(fastest_body(r, g, Family::peer, k.framing, conns))));
      if (has_floor)
        row.emplace_back(times((by_bytes ? median_bytes(g.find(k, conns)) : mine) / floor_rate(conns)));
    }
    t.rows.push_back(std::move(row));
  }
  Runs caption{"Ratios of median requests/s: "};
  if (has_json)
    caption.push_back(
        "÷ best JSON divides by the fastest zapbench JSON body on the same framing, connections and depth; ");
  if (has_peer)
    caption.push_back(
        "÷ best binary divides by the fastest binary peer body on the same framing, connections and depth; ");
  if (has_floor)
    caption.push_back(by_bytes
                          ? "MB/s ÷ floor divides the row's MB/s of responses by the raw TCP echo's, at the "
                            "same connections and depth (the echo carries ZAP's byte counts at this N); "
                          : "÷ floor divides by the raw TCP echo at the same connections and depth; ");
  caption.push_back("— where there is nothing to compare with.");
  out.para(std::move(caption));
  out.table(std::move(t));
}

// Our server against the Go reference's on the cells both served: the same
// framing, the same body on the wire (the loader's codec), the same
// connections and depth — requests/s ÷ requests/s, and the server CPU per
// request of the Go arm ÷ ours (above 1× = ours faster / cheaper).
void go_ratios(const Results& r, const Group& g, Out& out) {
  std::set<Arm> go_arms;  // in report order
  for (const Cell* c : g.cells)
    if (bench::is_go_arm(c->arm) && usable(*c)) go_arms.insert(c->arm);
  if (go_arms.empty()) return;
  Table t{{"zapbench against the Go reference"}, "l", {}};
  for (Arm a : go_arms)
    for (unsigned conns : g.connections) {
      t.header.push_back(std::string(bench::to_string(a)) + " c " + std::to_string(conns) + ": rate, CPU");
      t.align += "r";
    }
  for (const RowKey& k : g.rows) {
    if (k.arm != Arm::zapbench) continue;
    std::vector<Text> row{row_label(r, k, g.row_cells(k))};
    bool any = false;
    for (Arm a : go_arms)
      for (unsigned conns : g.connections) {
        const Cell* mine = g.find(k, conns);
        const Cell* go = g.find(RowKey{a, k.framing, k.body}, conns);
        if (!mine || !go || !usable(*mine) || !usable(*go)) {
          row.emplace_back("—");
          continue;
        }
        any = true;
        row.emplace_back(
            times(mine->rate().median() / go->rate().median()) + ", " +
            times(server_cpu_per_request_ns(r, *go).median() / server_cpu_per_request_ns(r, *mine).median()));
      }
    if (any) t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) return;
  out.para(
      {"Against the Go reference's servers on the same cells: zapbench's median requests/s ÷ the Go "
       "arm's, then the Go arm's server CPU per request ÷ zapbench's (above 1× = zapbench faster, "
       "cheaper). The body on the wire is the same JSON; the Go arm decodes it with its own codec."});
  out.table(std::move(t));
}

void charts(const Results& r, const Group& g, const std::string& where, Out& out) {
  const std::string id = group_id(g);
  Chart rate{id + "-rate",
             "requests/s against connections — " + where,
             "connections (log scale)",
             "requests/s (median, whisker min–max)",
             false,
             {},
             {}};
  Chart p99{id + "-p99",
            "p99 latency against connections — " + where,
            "connections (log scale)",
            "p99 µs (log scale)",
            true,
            {},
            {}};
  for (const RowKey& k : g.rows) {
    const std::vector<const Cell*> cells = g.row_cells(k);
    Series sr{row_label(r, k, cells), {}}, sp{sr.label, {}};
    for (unsigned conns : g.connections) {
      const Cell* c = g.find(k, conns);
      if (!c || !usable(*c)) continue;
      const Samples rs = c->rate(), ps = c->p99();
      sr.points.push_back({double(conns), rs.median(), rs.min(), rs.max()});
      sp.points.push_back({double(conns), ps.median() / 1000, ps.min() / 1000, ps.max() / 1000});
    }
    if (!sr.points.empty()) {
      rate.series.push_back(std::move(sr));
      p99.series.push_back(std::move(sp));
    }
  }
  if (rate.series.empty()) return;
  out.chart(std::move(rate));
  out.chart(std::move(p99));
}

// --- what it found: the summary the report opens with ----------------------------------

// "23.1× (20.5–25.0×)": how many times `other` takes ZAP's `zap` — the ratio of
// medians, and the extremes the min–max ranges allow.
std::string ratio_with_spread(const Samples& other, const Samples& zap) {
  if (other.values.empty() || zap.values.empty() || zap.median() <= 0 || zap.min() <= 0) return "—";
  return times(other.median() / zap.median()) + " (" + fixed(other.min() / zap.max(), 2) + "–" +
         fixed(other.max() / zap.min(), 2) + "×)";
}

void found(const Results& r, Out& out) {
  std::vector<Runs> items, e2e_items;
  for (const char* op : kOps) {
    const MicroFigure* z = find_figure(r.micro, op, "zap");
    if (!z) continue;
    Runs item{strong(op), ": ZAP " + sig(z->ns_per_op.median()) + " ns;"};
    for (auto [best, what] : {std::pair{fastest_json(r, op), " the fastest JSON, "},
                              std::pair{fastest_peer(r, op), " the fastest binary peer, "}}) {
      if (!best) continue;
      item.push_back(std::string(item.size() > 2 ? ";" : "") + what + best->codec + " (" +
                     sig(best->ns_per_op.median()) + " ns), takes " +
                     ratio_with_spread(best->ns_per_op, z->ns_per_op) + " ZAP's time");
    }
    item.push_back(" — ");
    item.push_back(link("table", "micro"));
    item.push_back(".");
    items.push_back(std::move(item));
  }

  // End to end: rpc at the deepest pipeline (where the body's cost shows most), ZAP's best connection count.
  const std::vector<Group> gs = groups(r);
  const Group* deepest = nullptr;
  for (const Group& g : gs)
    if (g.scenario == Scenario::rpc && (!deepest || g.pipeline > deepest->pipeline)) deepest = &g;
  if (deepest) {
    const Group& g = *deepest;
    for (Framing framing : bench::kFramings) {
      const Cell* zap = nullptr;
      for (const Cell* c : g.cells)
        if (c->arm == Arm::zapbench && c->framing == framing && c->body == "zap" && usable(*c) &&
            (!zap || c->rate().median() > zap->rate().median()))
          zap = c;
      if (!zap) continue;
      const Samples zap_cpu = server_cpu_per_request_ns(r, *zap);
      Runs item{strong(std::string(bench::display_name(framing)) + ", rpc, depth " +
                       std::to_string(g.pipeline) + ", " + connections_text(zap->connections)),
                ": ZAP " + grouped(zap->rate().median()) + " requests/s at " + sig(zap_cpu.median() / 1000) +
                    " µs server CPU per request;"};
      bool any = false;
      for (auto [fam, what] : {std::pair{Family::json, " the fastest JSON body, "},
                               std::pair{Family::peer, " the fastest binary peer, "}}) {
        const Cell* b = fastest_body(r, g, fam, framing, zap->connections);
        if (!b) continue;
        item.push_back(std::string(any ? ";" : "") + what + b->body + ", serves " +
                       ratio_with_spread(b->rate(), zap->rate()) + " ZAP's requests/s at " +
                       ratio_with_spread(server_cpu_per_request_ns(r, *b), zap_cpu) +
                       " its server CPU per request");
        any = true;
      }
      if (!any) continue;
      item.push_back(" — ");
      item.push_back(link("tables", group_anchor(g)));
      item.push_back(".");
      e2e_items.push_back(std::move(item));
    }
  }
  // Multiplexing against in-order pipelining: ZAP-RPC's calls against ZAP-HTTP's requests, the ZAP body,
  // one connection, the deepest depth (all the calls of one connection in flight at once).
  if (deepest) {
    const Group& g = *deepest;
    auto one_connection = [&](Framing f) -> const Cell* {
      for (const Cell* c : g.cells)
        if (c->arm == Arm::zapbench && c->framing == f && c->body == "zap" && c->connections == 1 &&
            usable(*c))
          return c;
      return nullptr;
    };
    const Cell* rpc = one_connection(Framing::zap_rpc);
    const Cell* http = one_connection(Framing::zap_http);
    if (rpc && http)
      e2e_items.push_back(
          {strong("ZAP-RPC against ZAP-HTTP, rpc, depth " + std::to_string(g.pipeline) + ", 1 connection"),
           ": " + grouped(rpc->rate().median()) +
               " calls/s multiplexed (answers matched by PromiseID) against " +
               grouped(http->rate().median()) + " requests/s pipelined in order: " +
               ratio_with_spread(rpc->rate(), http->rate()) + " the rate at " +
               ratio_with_spread(server_cpu_per_request_ns(r, *rpc), server_cpu_per_request_ns(r, *http)) +
               " the server CPU per request — ",
           link("tables", group_anchor(g)), "."});
  }
  // ZAP against what binary RPC runs on, at every depth: ZAP-RPC + ZAP against the grpc++ arm (gRPC +
  // protobuf) in server CPU per request, and on zapbench's own server the four corners of body x framing, so
  // the reader sees which share of the saving is the body (gRPC + ZAP) and which the framing (ZAP-RPC +
  // protobuf).
  for (const Group& g : gs) {
    if (g.scenario != Scenario::rpc) continue;
    const Cell* ref = nullptr;
    for (const Cell* c : g.cells)
      if (c->arm == Arm::grpc_cpp && usable(*c) && (!ref || c->connections < ref->connections)) ref = c;
    if (!ref) continue;
    auto ours = [&](Framing f, const char* body) -> const Cell* {
      for (const Cell* c : g.cells)
        if (c->arm == Arm::zapbench && c->framing == f && c->body == body &&
            c->connections == ref->connections && usable(*c))
          return c;
      return nullptr;
    };
    const Cell* zap = ours(Framing::zap_rpc, "zap");
    if (!zap) continue;
    const Samples ref_cpu = server_cpu_per_request_ns(r, *ref), zap_cpu = server_cpu_per_request_ns(r, *zap);
    Runs item{strong("ZAP-RPC + ZAP against gRPC C++ (grpc++, protobuf), rpc, depth " +
                     std::to_string(g.pipeline) + ", " + connections_text(ref->connections)),
              ": " + sig(zap_cpu.median() / 1000) + " µs of server CPU per request against grpc++'s " +
                  sig(ref_cpu.median() / 1000) + " µs, " + ratio_with_spread(zap_cpu, ref_cpu) +
                  " of it, at " + ratio_with_spread(zap->rate(), ref->rate()) + " its requests/s"};
    // Above the floor (the raw TCP echo at the same connections and depth): what is left when the
    // kernel's and the machine's share of a request, which no server can shed, is taken out.
    for (const Cell* c : g.cells)
      if (c->arm == Arm::floor && c->connections == ref->connections && usable(*c)) {
        const double floor_ns = server_cpu_per_request_ns(r, *c).median();
        // The floor is its own process, measured in its own samples: where ours costs no more than it,
        // ours is within the floor's noise, and a difference below zero would mean nothing.
        if (zap_cpu.median() > floor_ns)
          item.push_back("; above the floor (a raw TCP echo, " + sig(floor_ns / 1000) + " µs), " +
                         sig((zap_cpu.median() - floor_ns) / 1000) + " µs against " +
                         sig((ref_cpu.median() - floor_ns) / 1000) + " µs");
        else
          item.push_back("; the floor (a raw TCP echo) takes " + sig(floor_ns / 1000) +
                         " µs: ZAP-RPC + ZAP costs no more than it, grpc++ " +
                         sig((ref_cpu.median() - floor_ns) / 1000) + " µs above it");
        break;
      }
    std::string corners;
    for (auto [f, body, what] :
         {std::tuple{Framing::grpc, "protobuf", "gRPC + protobuf"},
          std::tuple{Framing::grpc, "zap", "gRPC + ZAP (the body changed)"},
          std::tuple{Framing::zap_rpc, "protobuf", "ZAP-RPC + protobuf (the framing changed)"}})
      if (const Cell* c = ours(f, body))
        corners += std::string(corners.empty() ? "" : ", ") + what + " " +
                   sig(server_cpu_per_request_ns(r, *c).median() / 1000) + " µs";
    if (!corners.empty()) item.push_back("; on zapbench's own server " + corners);
    item.push_back(" — ");
    item.push_back(link("tables", group_anchor(g)));
    item.push_back(".");
    e2e_items.push_back(std::move(item));
  }
  // logs at the largest N (where bytes dominate), depth 1: ZAP's best MB/s against the floor's at the same
  // connections (the floor carries ZAP's byte counts at that N).
  const Group* largest = nullptr;
  for (const Group& g : gs)
    if (g.scenario == Scenario::logs &&
        (!largest || g.logs > largest->logs || (g.logs == largest->logs && g.pipeline < largest->pipeline)))
      largest = &g;
  if (largest) {
    const Group& g = *largest;
    const Cell* floor = nullptr;
    for (Framing framing : bench::kFramings) {
      const Cell* zap = nullptr;
      for (const Cell* c : g.cells)
        if (c->arm == Arm::zapbench && c->framing == framing && c->body == "zap" && usable(*c) &&
            (!zap || c->mb_per_s().median() > zap->mb_per_s().median()))
          zap = c;
      if (!zap) continue;
      floor = nullptr;
      for (const Cell* c : g.cells)
        if (c->arm == Arm::floor && c->connections == zap->connections && usable(*c)) floor = c;
      if (!floor) continue;
      e2e_items.push_back(
          {strong(std::string(bench::display_name(framing)) + ", " + group_scenario(g) + ", depth " +
                  std::to_string(g.pipeline) + ", " + connections_text(zap->connections)),
           ": ZAP " + sig(zap->mb_per_s().median()) + " MB/s of responses, " +
               ratio_with_spread(zap->mb_per_s(), floor->mb_per_s()) +
               " the floor's (a raw TCP echo of the same bytes) — ",
           link("tables", group_anchor(g)), "."});
    }
  }
  // Cost against work: DecodeAll at N = 1 000 (or the largest N measured) against the fastest of each
  // family; AccessOne's growth; Encode's GB/s against memcpy's at the largest N.
  std::vector<Runs> logs_items;
  {
    const LogTable t = log_table(r);
    if (!t.ns.empty()) {
      const double n_max = t.ns.back();
      const double n_mid = std::find(t.ns.begin(), t.ns.end(), 1000.0) != t.ns.end() ? 1000.0 : n_max;
      if (const LogFigure* z = t.find("DecodeAll", "zap", n_mid)) {
        Runs item{strong("DecodeAll, N = " + n_label(n_mid)),
                  ": ZAP " + sig(z->f->ns_per_op.median()) + " ns;"};
        bool any = false;
        for (auto [fam, what] : {std::pair{Family::json, " the fastest JSON, "},
                                 std::pair{Family::peer, " the fastest binary peer, "}})
          if (const LogFigure* b = t.fastest(r, "DecodeAll", n_mid, fam)) {
            item.push_back(std::string(any ? ";" : "") + what + b->codec + " (" +
                           sig(b->f->ns_per_op.median()) + " ns), takes " +
                           ratio_with_spread(b->f->ns_per_op, z->f->ns_per_op) + " ZAP's time");
            any = true;
          }
        item.push_back(" — ");
        item.push_back(link("table", "logs"));
        item.push_back(".");
        logs_items.push_back(std::move(item));
      }
      const LogFigure* a1 = t.find("AccessOne", "zap", t.ns.front());
      const LogFigure* an = t.find("AccessOne", "zap", n_max);
      if (a1 && an && n_max > t.ns.front()) {
        Runs item{strong("AccessOne"), ": ZAP reads log N/2 of " + n_label(n_max) + " logs in " +
                                           sig(an->f->ns_per_op.median()) + " ns, " +
                                           times(an->f->ns_per_op.median() / a1->f->ns_per_op.median()) +
                                           " its time at N = " + n_label(t.ns.front())};
        if (const LogFigure* b = t.fastest(r, "AccessOne", n_max, Family::json))
          item.push_back("; the fastest JSON, " + b->codec + ", takes " + sig(b->f->ns_per_op.median()) +
                         " ns");
        if (const LogFigure* b = t.fastest(r, "AccessOne", n_max, Family::peer))
          item.push_back("; the fastest binary peer, " + b->codec + ", " + sig(b->f->ns_per_op.median()) +
                         " ns");
        item.push_back(".");
        logs_items.push_back(std::move(item));
      }
      const LogFigure* e = t.find("Encode", "zap", n_max);
      const LogFigure* c = t.find("Copy", "memcpy", n_max);
      if (e && c && e->f->wire_bytes > 0 && c->f->wire_bytes > 0) {
        const double e_gbps = e->f->wire_bytes / e->f->ns_per_op.median();
        const double c_gbps = c->f->wire_bytes / c->f->ns_per_op.median();
        logs_items.push_back(
            {strong("Encode, N = " + n_label(n_max)), ": ZAP writes " + sig(e_gbps) + " GB/s of answer, " +
                                                          fixed(100 * e_gbps / c_gbps, 0) + "% of memcpy's " +
                                                          sig(c_gbps) + " GB/s on the same bytes."});
      }
    }
  }

  if (items.empty() && e2e_items.empty() && logs_items.empty()) return;
  out.heading(2, "What it found", "found");
  out.para(
      {"Generated from this run's figures: ratios of medians, with the extremes the min–max ranges "
       "allow in brackets. \"Takes N× ZAP's time\" and \"N× its server CPU\": above 1× ZAP is ahead; "
       "\"serves N× ZAP's requests/s\": below 1× ZAP is ahead."});
  if (!items.empty()) {
    out.para({"Per op, in process (ns per op):"});
    out.bullets(std::move(items));
  }
  if (!logs_items.empty()) {
    out.para({"Cost against work, in process (the eth_getLogs answer of N logs):"});
    out.bullets(std::move(logs_items));
  }
  if (!e2e_items.empty()) {
    out.para(
        {"End to end over " + transport(r.env) +
         ", at the connection count where ZAP peaks: rpc at the deepest pipeline "
         "(where the body's cost shows most), logs at the largest N and the shallowest pipeline (where the "
         "bytes do):"});
    out.bullets(std::move(e2e_items));
  }
}

void end_to_end(const Results& r, Out& out) {
  out.heading(2, "End to end");
  if (r.cells.empty()) {
    out.para({"No end-to-end runs in this run."});
    return;
  }
  out.para(
      {"Rows: server arm, framing and body codec; columns: concurrent connections. Each figure: median of "
       "the "
       "cell's samples (min–max)."});
  for (const Group& g : groups(r)) {
    const std::string where = group_scenario(g) + ", pipeline depth " + std::to_string(g.pipeline);
    out.heading(3, where, group_anchor(g));
    std::vector<std::string> error_notes, busy_notes;
    bool any_noisy = false;
    Table rate = e2e_table(r, g, Figure::rate, &error_notes, &any_noisy, &busy_notes);
    std::vector<std::string> unused_notes_mb;
    bool unused_noisy_mb = false;
    out.para({strong("Requests per second")});
    out.table(std::move(rate));
    if (any_noisy)
      out.para({"⚠ noisy: requests/s spread (max − min) / median above " +
                fixed(r.config.noisy_spread * 100, 0) +
                "% across the samples; shown, not hidden — read with care."});
    if (!busy_notes.empty()) {
      std::vector<Runs> items;
      for (std::string& n : busy_notes) items.push_back({std::move(n)});
      out.para({"⚑ busy machine: samples taken while the 1-minute load average was above " +
                fixed(busy_load_threshold(r), 0) +
                " (see How it was measured); shown, not hidden — other work competed with them:"});
      out.bullets(std::move(items));
    }
    if (!error_notes.empty()) {
      std::vector<Runs> items;
      for (std::string& n : error_notes) items.push_back({std::move(n)});
      out.para({"‡ responses the loader counted as errors (failed, late or invalid), by kind:"});
      out.bullets(std::move(items));
    }
    if (g.scenario == Scenario::logs) {
      // A workload that grows: bytes per second say what requests per second cannot.
      out.para({strong("MB/s of responses"),
                " — response bytes received per second of the window (10^6 bytes), framing included."});
      out.table(e2e_table(r, g, Figure::mb_per_s, &unused_notes_mb, &unused_noisy_mb, &unused_notes_mb));
    }
    out.para({strong("p99 latency, µs")});
    std::vector<std::string> unused_notes;
    bool unused_noisy = false;
    out.table(e2e_table(r, g, Figure::p99, &unused_notes, &unused_noisy, &unused_notes));
    out.para({strong("Server CPU per request, µs"),
              " — the server process's CPU time (user + system, all its threads or workers) over the sample "
              "÷ the requests it served at the measured rate; the cost that stays when the loader is the "
              "bottleneck."});
    out.table(e2e_table(r, g, Figure::server_cpu, &unused_notes, &unused_noisy, &unused_notes));
    ratios(r, g, out);
    go_ratios(r, g, out);
    charts(r, g, where, out);
  }
}

// --- loader hosts ----------------------------------------------------------------------

bool has_loader_hosts(const Cell& c) {
  for (const E2ESample& s : c.samples)
    if (!s.loader_hosts.empty()) return true;
  return false;
}

// Several loader hosts: per cell, each host's own requests/s, the bound on how far apart their windows
// started, and the hosts that delivered no result. Only when some sample has loader hosts.
void loader_hosts(const Results& r, Out& out) {
  std::vector<std::string> hosts;  // in order of first appearance
  for (const Cell& c : r.cells)
    for (const E2ESample& s : c.samples)
      for (const LoaderHostRow& h : s.loader_hosts)
        if (std::find(hosts.begin(), hosts.end(), h.host) == hosts.end()) hosts.push_back(h.host);
  if (hosts.empty()) return;
  out.heading(2, "Loader hosts", "loader-hosts");
  out.para(
      {"Per cell: each loader host's requests/s (median of its samples, min–max), the largest start "
       "skew over the cell's samples (a bound on how far apart the hosts' windows started, ms; "
       "docs/spec/hosts.md §5) and the host results that never came (failures, with the first reason). "
       "The cell's figures in End to end are the exact merge of its hosts' results."});
  Table t{{"cell"}, "l", {}};
  for (const std::string& h : hosts) {
    t.header.push_back(h + " requests/s");
    t.align += "r";
  }
  t.header.insert(t.header.end(), {"start skew ms (max)", "failures"});
  t.align += "rl";
  for (const Group& g : groups(r))
    for (const RowKey& k : g.rows)
      for (unsigned conns : g.connections) {
        const Cell* c = g.find(k, conns);
        if (!c || !has_loader_hosts(*c)) continue;
        std::vector<Text> row{row_label(r, k, g.row_cells(k)) + ", " + group_scenario(g) + ", depth " +
                              std::to_string(g.pipeline) + ", c " + std::to_string(conns)};
        for (const std::string& host : hosts) {
          Samples rate;  // the samples this host delivered
          for (const E2ESample& s : c->samples)
            for (const LoaderHostRow& h : s.loader_hosts)
              if (h.host == host && h.failure.empty()) rate.values.push_back(h.requests_per_s);
          row.emplace_back(rate.values.empty() ? "—" : med_range(rate, 1, true));
        }
        double skew_ns = NAN;
        std::size_t failures = 0;
        std::string first_failure;
        for (const E2ESample& s : c->samples) {
          if (std::isfinite(s.start_skew_ns) && !(skew_ns >= s.start_skew_ns)) skew_ns = s.start_skew_ns;
          for (const LoaderHostRow& h : s.loader_hosts) {
            if (h.failure.empty()) continue;
            if (failures++ == 0)
              first_failure =
                  h.failure.starts_with("host " + h.host + ":") ? h.failure : h.host + ": " + h.failure;
          }
        }
        row.emplace_back(std::isfinite(skew_ns) ? fixed(skew_ns / 1e6, 2) : "—");
        row.emplace_back(failures == 0 ? "0" : std::to_string(failures) + " (first: " + first_failure + ")");
        t.rows.push_back(std::move(row));
      }
  out.table(std::move(t));
}

// --- commands and caveats ------------------------------------------------------------

void commands(const Results& r, Out& out) {
  out.heading(2, "Command lines");
  if (!r.micro.command.empty()) out.code("microbenchmarks", r.micro.command);
  // One representative cell per arm/framing/body: the first that ran, in report order.
  std::vector<const Cell*> cells;
  for (const Cell& c : r.cells) cells.push_back(&c);
  std::stable_sort(cells.begin(), cells.end(), [](const Cell* a, const Cell* b) {
    return std::make_tuple(a->scenario, a->pipeline, a->connections) <
           std::make_tuple(b->scenario, b->pipeline, b->connections);
  });
  std::vector<RowKey> keys;
  for (const Cell* c : cells)
    if (RowKey k{c->arm, c->framing, c->body}; std::find(keys.begin(), keys.end(), k) == keys.end())
      keys.push_back(k);
  std::stable_sort(keys.begin(), keys.end(),
                   [&](const RowKey& a, const RowKey& b) { return row_before(r, a, b); });
  for (const RowKey& k : keys) {
    std::vector<const Cell*> row;
    for (const Cell* c : cells)
      if (RowKey{c->arm, c->framing, c->body} == k) row.push_back(c);
    const Cell* rep = nullptr;
    for (const Cell* c : row)
      if (!rep && usable(*c) && !(c->server_command.empty() && c->loader_command.empty())) rep = c;
    const std::string label = row_label(r, k, row);
    if (!rep) continue;  // unavailable everywhere: its reason is in the tables
    out.code(label + " — as run for " + rep->scenario_label() + ", c " + std::to_string(rep->connections) +
                 ", p " + std::to_string(rep->pipeline),
             "server: " + rep->server_command + "\nloader: " + rep->loader_command);
  }
}

void caveats(const Results& r, Out& out) {
  out.heading(2, "Caveats");
  const std::string link = link_of(r.env);
  std::vector<Runs> items = {
      {one_host(r.env)
           ? "Loader and server run on the same machine over loopback: no NIC, no wire latency, and they "
             "compete for memory bandwidth, caches and the kernel."
       : link.starts_with("netns")
           ? "The hosts are network namespaces of this one machine (" + link +
                 "): real network stacks between them, but every host shares this machine's CPUs, memory "
                 "bandwidth and kernel — read the server's CPU per request, not only the rate."
           : "The server and the loaders run on separate hosts joined by " + link +
                 ": the figures include that network's latency and bandwidth."},
      {"On a virtual machine, other guests steal CPU time at random; the min–max ranges and the ⚠ marks show "
       "how much that moved the figures, and interleaved repeats spread it over every arm."},
      {"With " + std::to_string(r.env.cpu_count) + " CPUs (" + cpu_list(r.config.server_cpus) +
       " for the server, " + cpu_list(r.config.loader_cpus) +
       " for the loader), a fast server can be loader-bound: at high rates the loader's own cost per request "
       "caps what is measured, which compresses the gap between fast arms. Absolute numbers are this "
       "machine's; "
       "ratios travel better."},
      {"Microbenchmarks measure the codec alone in a hot loop with warm caches; end to end, syscalls and the "
       "network stack dominate, so codec differences shrink there."},
  };
  for (const std::string& n : r.notes) items.push_back({n});
  out.bullets(std::move(items));
}

}  // namespace

std::vector<Block> build(const Results& r) {
  Out out;
  when_where(r, out);
  how_measured(r, out);
  fairness(r, out);
  micro(r, out);
  end_to_end(r, out);
  loader_hosts(r, out);
  commands(r, out);
  caveats(r, out);
  return std::move(out.blocks);
}

}  // namespace report::doc
