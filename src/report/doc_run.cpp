// report/doc_run.cpp — the report's sections about the run itself: when and
// where (opening with what it found), the statistics and how it was measured,
// the fairness contract, the command lines and the caveats.

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

void when_where(const Results& r, Out& out) {
  const Environment& e = r.env;
  out.heading(1, "zapbench results");
  out.para(
      {"ZAP (zero-copy binary wire) against HTTP + JSON with several C++ JSON libraries, and against the "
       "binary formats one would otherwise pick (Protocol Buffers, FlatBuffers, Cap'n Proto, MessagePack, "
       "Thrift), on the same record and the same work: per operation in-process, and end to end over " +
           transport(e) + ". Measured by ",
       code("zapbench run"), " and written from its results.json alone."});
  if (!r.interrupted.empty())  // before any figure: every one below is partial
    out.para({strong("Interrupted: " + r.interrupted + "."),
              " The run was stopped before it ended: what follows is only what was measured before, "
              "and a finding may rest on fewer rounds than the run planned."});
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
           " rounds. The two figures printed beside a paired ratio are each side's geometric mean over the "
           "rounds it pairs, so they divide to it; a figure whose rounds fall in separate modes is marked " +
           kModesMark +
           ", its modes named with their rounds. Where two kinds of measurement meet (a microbenchmark "
           "against "
           "an end-to-end sample), the comparison is unpaired: the ratio of medians and a percentile "
           "bootstrap."},
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
       " judges two runs against what no change to the code can move (the reference arms and this run's "
       "calibration, below) and controls the false-discovery rate of its verdicts (Benjamini–Hochberg)."},
  };
  out.para({"How the comparisons are made (src/stats, tested on seeded synthetic data in tests/stats):"});
  out.bullets(std::move(items));
}

// The io bullet's measured system calls: for each io_uring-against-epoll
// finding (findings.cpp picks the twins), the median system calls per request
// on both; empty when no such pair has counts (servers on other hosts, perf
// unavailable, runs before the count).
std::string syscalls_text(const Results& r) {
  // The median of the samples that have a count (a failed or uncounted one is NaN); NaN when none has.
  auto counted_median = [](const Samples& s) {
    Samples counted;
    for (const double v : s.values)
      if (std::isfinite(v)) counted.values.push_back(v);
    return counted.values.empty() ? NAN : counted.median();
  };
  std::string pairs;
  for (const Finding& f : findings(r)) {
    if (f.section != Finding::Section::io || f.keys.size() != 2) continue;
    const Cell* uring = cell_of(r, f.keys[0]);
    const Cell* epoll = cell_of(r, f.keys[1]);
    if (!uring || !epoll) continue;
    const double u = counted_median(uring->server_syscalls_per_request(r.config));
    const double e = counted_median(epoll->server_syscalls_per_request(r.config));
    if (!std::isfinite(u) || !std::isfinite(e)) continue;
    pairs += (pairs.empty() ? "" : "; ") + fixed(e, 2) + " on epoll and " + fixed(u, 2) +
             " on io_uring for " + f.title;
  }
  if (pairs.empty()) return "";
  return " System calls per request, counted (perf, raw_syscalls:sys_enter on the server's threads from "
         "ready to stop, over the requests served at the measured rate), median: " +
         pairs + ".";
}

// The calibration (src/calibrate): what no change to this repository moves,
// measured in every round, for compare's yardstick.
void calibration(const Results& r, Out& out) {
  const Calibration& cal = r.calibration;
  if (cal.version.empty()) return;
  out.para({"The calibration (version " + cal.version +
                "): figures no change to zapbench's code can move, measured in every round so that ",
            code("zapbench compare"),
            " can tell the machine's move between two runs from the build's — a fixed CPU loop and memcpy "
            "in every microbenchmark round, and a loopback ping-pong of its own (a TCP echo sharing no code "
            "with the server or the loader, pinned as they are) at the start of every end-to-end round."});
  Table t{{"calibration", "figure", "median (min–max)", "samples"}, "llrr", {}};
  for (const MicroFigure& f : r.micro.figures)
    if (f.name.starts_with(kCalibrationMicroPrefix))
      t.rows.push_back({f.name, "CPU time per op", med_range_in(f.ns_per_op, 1e-9, "s"),
                        std::to_string(f.ns_per_op.values.size())});
  for (const PingPong& p : cal.ping_pongs) {
    const std::string name = "ping-pong, depth " + std::to_string(p.depth) + ", " +
                             std::to_string(p.message_bytes) + " B each way";
    t.rows.push_back({name, "round trips/s", med_range(p.round_trips_per_s, 1, true),
                      std::to_string(p.round_trips_per_s.values.size())});
    t.rows.push_back({name, "p99 of a round trip", med_range_in(p.p99_ns, 1e-9, "s"),
                      std::to_string(p.p99_ns.values.size())});
    t.rows.push_back({name, "server CPU per round trip", med_range_in(p.server_cpu_ns, 1e-9, "s"),
                      std::to_string(p.server_cpu_ns.values.size())});
  }
  if (!t.rows.empty()) out.table(std::move(t));
  if (!cal.unavailable.empty()) out.para({"No ping-pong: " + cal.unavailable + "."});
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
  std::vector<Runs> items{
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
  };
  if (c.rate_per_s > 0)
    items.push_back(
        {"Open loop (", code("--rate"),
         "): every cell's load was sent at " + grouped(c.rate_per_s) +
             " requests/s in total, on a fixed schedule spread over its connections; latency is "
             "measured from each request's intended send time (coordinated omission corrected, as "
             "wrk2), so requests/s is the rate kept, not the server's maximum."});
  // The io axis, for a run that has it (one without io_uring cells reads as before it).
  if (std::any_of(r.cells.begin(), r.cells.end(), [](const Cell& x) { return x.io != matrix::Io::epoll; }))
    items.push_back(
        {"The server's I/O interface is an axis of its own: the rows \"on io_uring\" are the same "
         "cells with the server's event core on io_uring (completions, one enter per loop turn) "
         "instead of epoll (readiness, a read and a send call each) — zapbench's server and the "
         "floor only, whose event core has both (the other arms' servers are their own, on epoll), "
         "and the loader on epoll in both." +
         syscalls_text(r)});
  out.bullets(std::move(items));
  statistics(r, out);
  calibration(r, out);
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
    if (RowKey k{c->arm, c->framing, c->body, c->io}; std::find(keys.begin(), keys.end(), k) == keys.end())
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

}  // namespace report::doc
