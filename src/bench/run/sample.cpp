// bench/run/sample.cpp — one e2e sample and the microbenchmarks, in child
// processes (sample.hpp).
#include "bench/run/sample.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "bench/arms/launch.hpp"
#include "bench/arms/nginx.hpp"
#include "bench/children/load_command.hpp"
#include "bench/children/load_result.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/hosts/loaders.hpp"
#include "bench/hosts/remote_child.hpp"
#include "bench/run/host.hpp"
#include "bench/run/instructions.hpp"
#include "report/gbench.hpp"

namespace bench {
namespace {

namespace fs = std::filesystem;

// A sample that failed (why is the caller's `failure`): one run_failed error, no figures.
report::E2ESample failed_sample() {
  report::E2ESample s;
  s.errors = 1;
  s.errors_by_kind["run_failed"] = 1;
  return s;
}

// The figures of one sample from the loader's result file.
report::E2ESample sample_of(const load::Result& r) {
  report::E2ESample s;
  s.requests_per_s = r.rate_per_s();
  s.responses = r.responses;
  const load::Histogram& h = r.latency;
  s.p50_ns = double(h.value_at_percentile(50));
  s.p90_ns = double(h.value_at_percentile(90));
  s.p99_ns = double(h.value_at_percentile(99));
  s.p999_ns = double(h.value_at_percentile(99.9));
  s.max_ns = double(h.max());
  s.mean_ns = h.mean();
  for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k) {
    if (r.errors[k] != 0) s.errors_by_kind[std::string(load::describe(load::ErrorKind(k)))] = r.errors[k];
    s.errors += r.errors[k];
  }
  if (r.requests > 0) s.bytes_sent_per_request = double(r.bytes_sent) / double(r.requests);
  if (r.responses > 0) s.bytes_received_per_response = double(r.bytes_received) / double(r.responses);
  s.received_mb_per_s = r.received_mb_per_s();
  s.loader_cpu_s = r.cpu_user_s + r.cpu_sys_s;
  return s;
}

// The server of a cell, started here from its launch (arms/launch.hpp) and
// ready: its port, or 0 with `failure` set. `command`: how a reader reruns
// it, paths relative to the run folder. A launch with files gets the run
// folder's directory named after the arm (nginx/) for {tmpdir}.
std::uint16_t start_server(const SampleContext& ctx, const CellPlan& cp, const fs::path& log,
                           std::optional<Child>& server, std::string& command, std::string& failure) {
  const std::string log_name = ctx.folder.portable(log.string());
  ServerLaunch l = server_launch(ctx.plan, ctx.zapbench_exe, cp);
  fs::path dir;
  if (l.tmpdir) {
    dir = ctx.folder.file(std::string(matrix::to_string(cp.cell.arm)));
    fs::create_directories(dir);
  }
  const int port = mentions_port(l.spec.argv, l.files) ? free_port() : -1;
  if (const std::string error = materialize(l.spec.argv, l.files, l.tmpdir ? &dir : nullptr, port);
      !error.empty()) {
    failure = "the server's launch: " + error;
    return 0;
  }
  l.spec.log_path = log.string();
  command = command_text(ctx.folder.portable(l.spec.argv), l.spec.cpus, l.spec.env);
  server.emplace(l.spec);
  if (l.wait_accepting) {
    if (port > 0 && wait_accepting(std::uint16_t(port), kStartTimeoutS)) return std::uint16_t(port);
    failure = "the server did not start listening (see " + log_name + ")";
    return 0;
  }
  const std::vector<proc::ReadyListener> ready = server->wait_ready(kStartTimeoutS);
  if (ready.empty() || ready.front().port == 0) {
    failure = "the server did not start (see " + log_name + ")";
    return 0;
  }
  return ready.front().port;
}

// A loader host's row of a multi-host sample.
report::LoaderHostRow host_row(const LoaderHostResult& h) {
  report::LoaderHostRow row;
  row.host = h.host;
  row.failure = h.failure;
  if (h.report) {
    const report::E2ESample s = sample_of(h.report->result);
    row.responses = s.responses;
    row.requests_per_s = s.requests_per_s;
    row.errors = s.errors;
    row.p50_ns = s.p50_ns;
    row.p99_ns = s.p99_ns;
    row.max_ns = s.max_ns;
  }
  if (h.go_to_first_send_ns >= 0) row.go_to_first_send_ns = double(h.go_to_first_send_ns);
  if (h.go_rtt_ns >= 0) row.go_rtt_ns = double(h.go_rtt_ns);
  return row;
}

// One sample with the server on its host and the load over the loader hosts.
report::E2ESample measure_hosts(const SampleContext& ctx, CellPlan& cp, unsigned round,
                                std::string& failure) {
  const RunPlan& p = ctx.plan;
  const std::string id = cp.cell.id();
  report::E2ESample s;
  // The namespace mode's hosts are this machine: its load average is theirs.
  const double load_avg = p.hosts.netns > 0 ? load_average_1m() : NAN;
  // The same launch as here, with the remote zapbench (nginx's config written there).
  ServerLaunch rs = server_launch(p, remote_zapbench(p.hosts.ssh), cp);
  const fs::path server_log = ctx.folder.sample_file(id, round + 1, ".server.log");
  rs.spec.log_path = server_log.string();
  cp.cell.server_command =
      "on " + p.hosts.server_host + ": " + command_text(rs.spec.argv, rs.spec.cpus, rs.spec.env);
  std::optional<RemoteChild> server;
  server.emplace(p.hosts.ssh, p.hosts.server_host, rs);
  const std::vector<proc::ReadyListener> ready = server->wait_ready(kStartTimeoutS);
  MultiLoad ml;
  if (ready.empty() || ready.front().port == 0) {
    failure = "the server did not start on " + p.hosts.server_host + " (see " +
              ctx.folder.portable(server_log.string()) + ")";
  } else {
    LoaderRun lr;
    lr.ssh = p.hosts.ssh;
    lr.hosts = p.hosts.loader_hosts;
    lr.options = load_options(p, cp, ready.front().port);
    lr.log_prefix = ctx.folder.sample_file(id, round + 1, ".load-host").string();
    lr.stop = ctx.stop;
    const std::vector<std::string> argv = load_argv(remote_zapbench(p.hosts.ssh), lr.options, "");
    cp.cell.loader_command =
        "spread over " + std::to_string(lr.hosts.size()) +
        " loader hosts (connections and rate shared out): " + command_text(argv, p.cfg.loader_cpus);
    ml = run_loaders(lr);
    // Every host's result file and the merged one, kept beside the logs: what
    // a reader (or `zapbench load --merge`) checks the merge with.
    for (std::size_t i = 0; i < ml.hosts.size(); ++i)
      if (ml.hosts[i].report)
        std::ofstream(lr.log_prefix + std::to_string(i + 1) + ".json", std::ios::trunc)
            << load_result_json(ml.hosts[i].report->options, ml.hosts[i].report->result);
    if (ml.merged)
      std::ofstream(ctx.folder.sample_file(id, round + 1, ".load.json"), std::ios::trunc)
          << load_result_json(ml.merged->options, ml.merged->result);
    if (!ml.failure.empty()) {
      failure = ml.failure + " (see " + ctx.folder.portable(lr.log_prefix) + "*.log)";
    } else if (!ml.merged) {
      failure = "the loaders gave no result";
    } else {
      s = sample_of(ml.merged->result);
    }
  }
  const ExitStatus server_exit = server->stop(kHangS);
  if (failure.empty() && !server_exit.lost.empty()) failure = "the server's host: " + server_exit.lost;
  if (!failure.empty()) s = failed_sample();
  // Every host's row, a failed sample's too: what the others measured is kept.
  for (const LoaderHostResult& h : ml.hosts) s.loader_hosts.push_back(host_row(h));
  if (ml.start_skew_ns >= 0) s.start_skew_ns = double(ml.start_skew_ns);
  s.server_cpu_s = server_exit.cpu_s;
  s.load_avg_1m = load_avg;
  return s;
}

report::E2ESample measure(const SampleContext& ctx, CellPlan& cp, unsigned round, std::string& failure) {
  if (ctx.plan.hosts.several()) return measure_hosts(ctx, cp, round, failure);
  const RunPlan& p = ctx.plan;
  const std::string id = cp.cell.id();
  report::E2ESample s;
  // Read before anything of this sample runs: the load gate (report/model.hpp).
  const double load_avg = load_average_1m();
  std::optional<Child> server;
  const std::uint16_t port = start_server(ctx, cp, ctx.folder.sample_file(id, round + 1, ".server.log"),
                                          server, cp.cell.server_command, failure);
  if (failure.empty()) {
    const fs::path json_out = ctx.folder.sample_file(id, round + 1, ".load.json");
    const fs::path load_log = ctx.folder.sample_file(id, round + 1, ".load.log");
    const load::Options o = load_options(p, cp, port);
    const std::vector<std::string> argv = load_argv(ctx.zapbench_exe, o, json_out.string());
    cp.cell.loader_command = command_text(ctx.folder.portable(argv), p.cfg.loader_cpus);
    Child loader(ChildSpec{argv, p.cfg.loader_cpus, load_log.string(), false, {}});
    // Warm-up, window, the drain (at most the loader's response timeout),
    // connection set-up: anything far beyond is a hang.
    const ExitStatus st = loader.wait(p.cfg.warmup_s + p.cfg.duration_s + o.timeout_ms / 1000.0 + kHangS);
    if (!st.ok()) {
      failure =
          "the loader failed (" + st.describe() + "; see " + ctx.folder.portable(load_log.string()) + ")";
    } else {
      try {
        s = sample_of(parse_load_result(proc::read_file(json_out)).result);
      } catch (const std::exception& e) {
        failure = std::string("the loader's result is unreadable: ") + e.what();
      }
    }
  }
  // SIGTERM: zapbench servers stop gracefully; nginx's master stops its workers
  // and reaps them, so the CPU time below covers the workers too.
  const ExitStatus server_exit = server ? server->stop(kHangS) : ExitStatus{};
  if (!failure.empty()) s = failed_sample();
  s.server_cpu_s = server_exit.cpu_s;
  s.load_avg_1m = load_avg;
  return s;
}

}  // namespace

report::E2ESample run_sample(const SampleContext& ctx, CellPlan& cp, unsigned round, std::string& failure) {
  try {
    return measure(ctx, cp, round, failure);
  } catch (const std::exception& e) {
    // A child that could not even be started (no fork, no log file): this
    // sample failed; the run goes on. Any child started is already stopped
    // (Child's destructor).
    failure = e.what();
    return failed_sample();
  }
}

void run_micro(const SampleContext& ctx, report::Results& res, unsigned round, const std::string& filter) {
  const RunPlan& p = ctx.plan;
  const std::string tag = "-r" + std::to_string(round + 1);
  const fs::path json_path = ctx.folder.file("micro" + tag + ".json");
  // --no-go: the Go reference's rounds are run_go_micro's, beside these.
  std::vector<std::string> argv = {ctx.zapbench_exe,
                                   "micro",
                                   "--no-go",
                                   "--repetitions",
                                   "1",
                                   "--min-time",
                                   exact_number(p.cfg.micro_min_time_s),
                                   "--cpu",
                                   std::to_string(p.micro_cpu),
                                   "--json-out",
                                   json_path.string()};
  const std::string& f = filter.empty() ? p.micro_filter : filter;
  if (!f.empty()) argv.insert(argv.end(), {"--filter", f});
  const std::vector<int> cpu = {p.micro_cpu};
  if (res.micro.command.empty()) res.micro.command = command_text(ctx.folder.portable(argv), cpu);
  try {
    Child micro(ChildSpec{argv, cpu, ctx.folder.file("micro" + tag + ".log").string(), false, {}});
    // A bound for a hang only: a round takes a minute at most, never an hour.
    const ExitStatus st = micro.wait(3600);
    if (!st.ok()) {
      res.notes.push_back("microbenchmarks, round " + std::to_string(round + 1) + ", failed (" +
                          st.describe() + "); see micro" + tag + ".log");
      return;
    }
    report::ingest_google_benchmark(proc::read_file(json_path), res.micro, res.notes, round);
  } catch (const std::exception& e) {  // not started, or its output unreadable
    res.notes.push_back(e.what());
    return;
  }
  for (const report::Codec& codec : res.codecs)
    if (!codec.available &&
        std::none_of(res.micro.unavailable_codecs.begin(), res.micro.unavailable_codecs.end(),
                     [&](const report::Unavailable& u) { return u.name == codec.name; }))
      res.micro.unavailable_codecs.push_back({codec.name, codec.unavailable_reason});
}

void run_go_micro(const SampleContext& ctx, report::Results& res, unsigned round) {
  const RunPlan& p = ctx.plan;
  if (!p.go.runs()) {
    if (round == 0) res.micro.unavailable_codecs.push_back({"go/*", p.go.unavailable});
    return;
  }
  const std::string tag = "-r" + std::to_string(round + 1);
  const fs::path json_path = ctx.folder.file("go-micro" + tag + ".json");
  const ChildSpec spec = go_micro_spec(p.go, json_path.string(), p.cfg.micro_min_time_s, 1, p.micro_filter,
                                       {p.micro_cpu}, ctx.folder.file("go-micro" + tag + ".log").string());
  if (res.micro.go_command.empty())
    res.micro.go_command = command_text(ctx.folder.portable(spec.argv), spec.cpus, spec.env);
  measure_go_micro(spec, json_path.string(), res.micro, res.notes, round);
}

void run_instructions(const SampleContext& ctx, report::Results& res) {
  InstructionOptions o;
  o.self = ctx.zapbench_exe;
  for (const report::MicroFigure& f : res.micro.figures)
    if (f.op == "Server") o.cases.push_back(f.name);
  if (o.cases.empty()) return;
  o.work_dir = ctx.folder.file("instructions");
  std::error_code ec;
  fs::create_directories(o.work_dir, ec);
  try {
    res.micro.instructions = count_instructions(o, {});
  } catch (const std::exception& e) {
    res.notes.push_back(e.what());
  }
  fs::remove_all(o.work_dir, ec);
}

}  // namespace bench
