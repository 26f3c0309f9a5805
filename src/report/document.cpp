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

// --- building blocks -----------------------------------------------------------

// --- verdicts ---------------------------------------------------------------------
// Every comparison the report prints goes through stats (model.hpp: paired
// by round; unpaired where two kinds of measurement meet) and is shown the
// same way: how many times better the first is than the second (above 1× =
// better: its requests/s ÷ the other's, or the other's time ÷ its own), the
// 95% interval of that, and the verdict.

// An estimate turned the way the report reads it: x above 1 = the subject better.
struct Shown {
  double x = NAN, lo = NAN, hi = NAN;
  const stats::Estimate* e = nullptr;
};
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
// with its interval, no verdict; without an interval, the ratio and "?".
std::string interval_text(const stats::Estimate& e, bool percent) {
  if (!std::isfinite(e.ratio)) return "—";
  auto f = [&](double v) { return percent ? fixed(v * 100, 0) : fixed(v, v < 10 ? 2 : 1); };
  const std::string unit = percent ? "%" : "×";
  if (!e.computed()) return f(e.ratio) + unit + (e.why.starts_with("no rounds") ? "" : " ?");
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

// How the comparisons are made: the method of src/stats, in words, with this run's settings.
void statistics(const Results& r, Out& out) {
  const Config& c = r.config;
  if (!rounds_recorded(r)) {
    out.para(
        {"Comparisons: this results.json records no rounds (a run from before verdicts), so none can be "
         "paired and none has an interval or a verdict. Ratios are ratios of medians, with the extremes "
         "the min–max ranges allow; read none as decided."});
    return;
  }
  const stats::Method m = method(c);
  std::vector<Runs> items = {
      {strong("A comparison is a verdict."),
       " Two figures measured in the same rounds are compared paired: the ratio is the geometric mean of the "
       "per-round ratios, its 95% confidence interval a studentized bootstrap (bootstrap-t, " +
           std::to_string(m.resamples) +
           " resamples of the rounds, seeded from the samples, so the same results.json prints the same "
           "interval) of the mean log ratio, never narrower than Student's t (and Student's t alone below 5 "
           "rounds). Verdicts: ahead or behind when the interval excludes 1×; equivalent when it lies within "
           "±" +
           margin_text(r) + "; undecided otherwise, or with fewer than " + std::to_string(m.min_rounds) +
           " rounds. Where two kinds of measurement meet (a microbenchmark against an end-to-end sample), "
           "the comparison is unpaired: the ratio of medians and a percentile bootstrap."},
      {strong("Rounds until decided."),
       std::isfinite(c.precision)
           ? " After the first rounds, the cells and microbenchmarks that What it found compares got more "
             "rounds, one at a time, until each finding's interval was within ±" +
                 fixed(c.precision * 100, 1) +
                 "% (with the rounds' spread at the upper 90% bound of its estimate, " +
                 "so that stopping when the rounds happen to agree does not narrow the intervals) or the run "
                 "had taken its budget of " +
                 seconds(c.budget_s) +
                 ". It stops on precision, never on a verdict. The tables say how many rounds each cell got."
           : " Every cell got the same rounds (no precision asked for)."},
      {strong("The control."),
       " One cell runs twice in every round, as two cells (the same binary and flags, at other places in the "
       "round): its comparison with itself shows what the method calls a difference where there is none."},
      {strong("Many comparisons."),
       " The tables hold hundreds of verdicts; at 95%, about 1 in 20 comparisons of two equal figures is "
       "called ahead or behind by chance. The findings are few and fixed by the plan (only which codec is "
       "the fastest JSON or binary peer, and where ZAP peaks, is taken from the medians); read a lone ▲ or "
       "▼ in a table with that in mind. ",
       code("zapbench compare"),
       " controls the false-discovery rate across every figure it compares (Benjamini–Hochberg)."},
  };
  out.para({"How the comparisons are made (src/stats, tested on seeded synthetic data in tests/stats):"});
  out.bullets(std::move(items));
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
      {rounds_recorded(r)
           ? "End to end, in rounds: every cell ran " + std::to_string(c.repeats) + " first rounds, " +
                 seconds(c.duration_s) + " measured after " + seconds(c.warmup_s) +
                 " of warm-up, each sample a fresh server process and a fresh loader process. Round k of "
                 "every cell runs before round k+1 of any, odd rounds backwards, so a slow phase of the "
                 "machine hits every arm alike and two arms' samples pair by round."
           : "End to end: every cell is run " + std::to_string(c.repeats) + " times, " +
                 seconds(c.duration_s) + " measured after " + seconds(c.warmup_s) +
                 " of warm-up; each cell a fresh server process and a fresh loader process; repeats "
                 "interleaved across arms (round k of every cell before round k+1 of any)."},
      {"Every figure is the median of its samples, with min–max beside it. A cell whose requests/s spread "
       "(max − min) / median exceeds " +
       noisy_pct + " is flagged ⚠ noisy — flagged, never hidden."},
      {"Every response is timed by the loader (no sampling); p99 is taken per sample and its median shown, "
       "in µs."},
      {"Depth is requests in flight per connection: pipelined in order on HTTP/1.1 and ZAP-HTTP, concurrent "
       "streams on HTTP/2 and gRPC (h2c, libnghttp2 on both sides), calls answered in any order on ZAP-RPC. "
       "HTTP/2's flow-control windows are 16 MiB per stream and 2^31 − 1 per connection both ways, consumed "
       "as read, so no cell is bound by a window (docs/spec/http2-grpc.md)."},
      {rounds_recorded(r)
           ? "Microbenchmarks: Google Benchmark, CPU time per op, in rounds too: each round a process of its "
             "own (a process's code layout and heap move a figure by more than its repetitions do), " +
                 std::to_string(c.micro_repetitions) + " first rounds of at least " +
                 seconds(c.micro_min_time_s) +
                 " per benchmark; heap allocations counted by a replaced global operator new."
           : "Microbenchmarks: Google Benchmark in one process, CPU time per op, " +
                 std::to_string(c.micro_repetitions) + " repetitions of at least " +
                 seconds(c.micro_min_time_s) +
                 " each; heap allocations counted by a replaced global operator new."},
  });
  statistics(r, out);
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
    // Server/<framing>/...: the framing as benchmark names spell it (matrix::bench_name).
    const std::optional<matrix::Framing> f = matrix::framing_from_bench_name(framing);
    if (!f) return nullptr;
    const Cell* best = nullptr;
    for (const Cell& c : r.cells) {
      if (c.arm != matrix::Arm::zapbench || c.framing != *f || c.pipeline != 16 || c.samples.empty() ||
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
    std::vector<Text> row{f.name, med_range(f.ns_per_op, 1, false)};
    const InstructionFigure* counted = instructions_of(f.name);
    row.emplace_back(counted && std::isfinite(counted->callgrind_ir) ? grouped(counted->callgrind_ir) : "—");
    row.emplace_back(handler ? sig(handler->ns_per_op.median()) : body == "hello" ? "0" : "—");
    row.emplace_back(handler || body == "hello" ? sig(path_ns - (handler ? handler->ns_per_op.median() : 0))
                                                : "—");
    // The codec's share of the path, paired by round (both are microbenchmarks of the same process).
    row.emplace_back(
        handler ? interval_text(paired(handler->ns_per_op, f.ns_per_op, stats::Better::lower, r.config), true)
        : body == "hello" ? "0%"
                          : "—");
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
       "requests at a time in memory, with no syscalls; ns per request (median of the repetitions, "
       "min–max). Beside it the codec's part (Handler/<body>: decode, compute, encode), the rest "
       "(framing, routing, the answer's head) and the codec's share of the path (Handler ÷ path, "
       "paired by round, with its 95% interval); and, where this run measured the same cell end to end "
       "at pipeline depth 16, the server's CPU per request there: the difference is the kernel's and "
       "the event loop's, and end to end ÷ in memory says how many times the request costs in a real "
       "server (unpaired: two kinds of measurement, with its 95% interval). ",
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
  out.para(
      {"The Go reference's own codecs (", code("go/"),
       " in this repository: encoding/json, goccy/go-json, "
       "bytedance/sonic, and zap-proto/go when the build has it) on the same record, the same values "
       "and the same compute, each result checked before it is timed; Go's testing.Benchmark, pinned to "
       "one CPU like the C++ micro, GOMAXPROCS=1, default GOGC, each round beside the C++ round of the same "
       "number. C++ ÷ Go = the Go figure ÷ its C++ counterpart's, paired by round (above 1× = C++ "
       "faster): a Go JSON codec against the fastest C++ JSON codec of the op, go/zap against zap; "
       "the logs record's reads on zap-proto/go's accessors (List.Object(k, 88)) against zap's at the same "
       "N. "
       "Published: the reference's own figures, measured elsewhere on "
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
        t.rows.push_back({codec, op, med_range(g->ns_per_op, 1, false), count(g->allocs_per_op),
                          c ? c->codec : "—", c ? sig(c->ns_per_op.median()) : "—",
                          c ? verdict_cell(paired(c->ns_per_op, g->ns_per_op, stats::Better::lower, r.config),
                                           stats::Better::lower)
                            : "—",
                          published});
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
      t.rows.push_back({codec, "Logs/" + op + ", N = " + n, med_range(g.ns_per_op, 1, false),
                        count(g.allocs_per_op), c ? codec.substr(3) : "—",
                        c ? sig(c->ns_per_op.median()) : "—",
                        c ? verdict_cell(paired(c->ns_per_op, g.ns_per_op, stats::Better::lower, r.config),
                                         stats::Better::lower)
                          : "—",
                        "—"});
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
        "codec's, paired by round (above 1× = faster than the best of them; a decoder for trusted input "
        "only is never the best peer). Fastest:"};
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

using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

std::string row_label(const Results& r, const RowKey& k, const std::vector<const Cell*>& cells) {
  if (k.arm == Arm::floor) {
    for (const Cell* c : cells)
      if (usable(*c))
        return "floor (raw TCP echo, " + count(std::round(c->samples[0].bytes_sent_per_request)) + " B → " +
               count(std::round(c->samples[0].bytes_received_per_response)) + " B)";
    return "floor (raw TCP echo)";
  }
  if (k.control) return row_label(r, {k.arm, k.framing, k.body, false}, cells) + " — control copy";
  std::string label =
      std::string(matrix::to_string(k.arm)) + " " + std::string(matrix::display_name(k.framing));
  if (k.body.empty()) return label;
  const std::string server_codec = cells.empty() ? "" : cells.front()->server_codec;
  if (!server_codec.empty() && is_json(r, k.body))
    return label + " + JSON (" + server_codec.substr(server_codec.find('/') + 1) + "; loader " + k.body + ")";
  if (is_json(r, k.body)) return label + " + JSON (" + k.body + ")";
  if (k.body == "zap") return label + " + ZAP";
  if (family(r, k.body) == Family::peer) return label + " + " + k.body;
  return label + " + ZAP (" + k.body + ")";
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
        row.emplace_back(med_range(c->server_cpu_per_request_ns(r.config), 1000, false));
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
  Table t{{std::string(matrix::to_string(Arm::zapbench))}, "l", {}};
  for (unsigned conns : g.connections) {
    for (auto [on, what] : {std::pair{has_json, " ÷ best JSON"}, std::pair{has_peer, " ÷ best binary"},
                            std::pair{has_floor, by_bytes ? " MB/s ÷ floor" : " ÷ floor"}}) {
      if (!on) continue;
      t.header.push_back("c " + std::to_string(conns) + what);
      t.align += "r";
    }
  }
  auto floor_cell = [&](unsigned conns) -> const Cell* {
    for (const Cell* c : g.cells)
      if (c->arm == Arm::floor && c->connections == conns && usable(*c)) return c;
    return nullptr;
  };
  // The row's cell against another of the group, paired by round; "itself" against itself.
  auto against = [&](const Cell* mine, const Cell* other, bool bytes) -> Text {
    if (!mine || !other || !usable(*mine)) return "—";
    if (mine == other) return "1× (itself)";
    return verdict_cell(bytes ? paired(mine->mb_per_s(), other->mb_per_s(), stats::Better::higher, r.config)
                              : paired(mine->rate(), other->rate(), stats::Better::higher, r.config),
                        stats::Better::higher);
  };
  for (const RowKey& k : g.rows) {
    if (k.arm != Arm::zapbench) continue;
    std::vector<Text> row{row_label(r, k, g.row_cells(k))};
    for (unsigned conns : g.connections) {
      const Cell* mine = g.find(k, conns);
      if (has_json) row.push_back(against(mine, fastest_body(r, g, Family::json, k.framing, conns), false));
      if (has_peer) row.push_back(against(mine, fastest_body(r, g, Family::peer, k.framing, conns), false));
      if (has_floor) row.push_back(against(mine, floor_cell(conns), by_bytes));
    }
    t.rows.push_back(std::move(row));
  }
  Runs caption{"Requests/s against the best of each kind, paired by round (above 1× = this row faster): "};
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
  out.para(mark_legend(r));
}

// Our server against the Go reference's on the cells both served: the same
// framing, the same body on the wire (the loader's codec), the same
// connections and depth — requests/s, and the server CPU per request of the
// Go arm ÷ ours (above 1× = ours faster / cheaper), paired by round.
void go_ratios(const Results& r, const Group& g, Out& out) {
  std::set<Arm> go_arms;  // in report order
  for (const Cell* c : g.cells)
    if (matrix::is_go_arm(c->arm) && usable(*c)) go_arms.insert(c->arm);
  if (go_arms.empty()) return;
  Table t{{"zapbench against the Go reference"}, "l", {}};
  for (Arm a : go_arms)
    for (unsigned conns : g.connections) {
      t.header.push_back(std::string(matrix::to_string(a)) + " c " + std::to_string(conns) + ": rate, CPU");
      t.align += "r";
    }
  for (const RowKey& k : g.rows) {
    if (k.arm != Arm::zapbench || k.control) continue;
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
            verdict_cell(paired(mine->rate(), go->rate(), stats::Better::higher, r.config),
                         stats::Better::higher) +
            ", " +
            verdict_cell(paired(mine->server_cpu_per_request_ns(r.config),
                                go->server_cpu_per_request_ns(r.config), stats::Better::lower, r.config),
                         stats::Better::lower));
      }
    if (any) t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) return;
  out.para(
      {"Against the Go reference's servers on the same cells, paired by round: zapbench's requests/s ÷ the "
       "Go arm's, then the Go arm's server CPU per request ÷ zapbench's (above 1× = zapbench faster, "
       "cheaper). The body on the wire is the same JSON; the Go arm decodes it with its own codec."});
  out.table(std::move(t));
  out.para(mark_legend(r));
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

// How many rounds the group's cells got: the first rounds every cell had,
// and the cells the findings gave more. Empty for runs without rounds.
Runs rounds_note(const Results& r, const Group& g) {
  if (!rounds_recorded(r)) return {};
  std::size_t least = SIZE_MAX;
  for (const Cell* c : g.cells)
    if (usable(*c)) least = std::min(least, c->samples.size());
  if (least == SIZE_MAX) return {};
  std::string more;
  for (const RowKey& k : g.rows)
    for (unsigned conns : g.connections)
      if (const Cell* c = g.find(k, conns); c && usable(*c) && c->samples.size() > least)
        more += (more.empty() ? "" : "; ") + row_label(r, k, g.row_cells(k)) + ", c " +
                std::to_string(conns) + ": " + std::to_string(c->samples.size());
  return {"Rounds: " + std::to_string(least) + " for every cell" +
          (more.empty() ? "." : "; more where a finding needed them — " + more + ".")};
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
    out.heading(3, where, group_id(g));
    std::vector<std::string> error_notes, busy_notes;
    bool any_noisy = false;
    Table rate = e2e_table(r, g, Figure::rate, &error_notes, &any_noisy, &busy_notes);
    std::vector<std::string> unused_notes_mb;
    bool unused_noisy_mb = false;
    out.para({strong("Requests per second")});
    out.table(std::move(rate));
    if (Runs note = rounds_note(r, g); !note.empty()) out.para(std::move(note));
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
      if (row_key(*c) == k) row.push_back(c);
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
