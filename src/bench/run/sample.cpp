// bench/run/sample.cpp — one e2e sample and the microbenchmarks, in child
// processes (sample.hpp).
#include "bench/run/sample.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "bench/children/launch.hpp"
#include "bench/children/load_command.hpp"
#include "bench/children/load_result.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/hosts/loaders.hpp"
#include "bench/hosts/remote_child.hpp"
#include "bench/plan/arm.hpp"
#include "bench/run/calibration.hpp"
#include "bench/run/host.hpp"
#include "bench/run/instructions.hpp"
#include "bench/run/progress.hpp"
#include "proc/machine.hpp"
#include "proc/ports.hpp"
#include "proc/syscalls.hpp"
#include "report/gbench.hpp"
#include "report/select.hpp"

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

// A sample's server, started from its launch (children/launch.hpp) here or on
// the server host under `zapbench child`, and ready; stop() ends it. A launch
// with files gets, here, the run folder's directory named after the arm
// (nginx/) for {tmpdir}.
class SampleServer {
 public:
  // port() is its port once ready, 0 with `failure` set otherwise; `command`:
  // how a reader reruns it (paths relative to the run folder; "on HOST: ...").
  SampleServer(const SampleContext& ctx, const CellPlan& cp, const fs::path& log, std::string& command,
               std::string& failure) {
    const RunPlan& p = ctx.plan;
    const std::string log_name = ctx.folder.portable(log.string());
    if (p.hosts.several()) {
      // The same launch as here, with the remote zapbench (nginx's config written there).
      ServerLaunch l = server_launch(p, remote_zapbench(p.hosts.ssh), cp);
      l.spec.log_path = log.string();
      command = "on " + p.hosts.server_host + ": " + command_text(l.spec.argv, l.spec.cpus, l.spec.env);
      remote_.emplace(p.hosts.ssh, p.hosts.server_host, l);
      const std::vector<proc::ReadyListener> ready = remote_->wait_ready(kStartTimeoutS);
      if (!ready.empty()) port_ = ready.front().port;
      if (port_ == 0)
        failure = "the server did not start on " + p.hosts.server_host + " (see " + log_name + ")";
      return;
    }
    ServerLaunch l = server_launch(p, ctx.zapbench_exe, cp);
    fs::path dir;
    if (l.tmpdir) {
      dir = ctx.folder.file(std::string(matrix::to_string(cp.cell.arm)));
      fs::create_directories(dir);
    }
    const int port = mentions_port(l.spec.argv, l.files) ? proc::free_port() : -1;
    if (const std::string error = materialize(l.spec.argv, l.files, l.tmpdir ? &dir : nullptr, port);
        !error.empty()) {
      failure = "the server's launch: " + error;
      return;
    }
    l.spec.log_path = log.string();
    command = command_text(ctx.folder.portable(l.spec.argv), l.spec.cpus, l.spec.env);
    local_.emplace(l.spec);
    if (l.wait_accepting) {
      if (port > 0 && proc::wait_accepting(std::uint16_t(port), kStartTimeoutS, local_->pid()))
        port_ = std::uint16_t(port);
      if (port_ == 0)
        failure = proc::child_ended(local_->pid())
                      ? "the server exited before it listened"  // its end and its log: the stop's
                      : "the server did not start listening within " + duration_text(kStartTimeoutS) +
                            " (see " + log_name + ")";
      return;
    }
    const std::vector<proc::ReadyListener> ready = local_->wait_ready(kStartTimeoutS);
    if (!ready.empty()) port_ = ready.front().port;
    if (port_ == 0) failure = "the server did not start (see " + log_name + ")";
  }

  [[nodiscard]] std::uint16_t port() const { return port_; }
  // The server's process when it is a child here (0 over ssh and in the
  // namespace mode, whose server runs under `zapbench child` behind ssh).
  [[nodiscard]] pid_t local_pid() const { return local_ ? local_->pid() : 0; }

  // SIGTERM, then reaped with its CPU time: zapbench servers stop gracefully;
  // nginx's master stops its workers and reaps them, so the CPU time covers
  // the workers too. Over ssh, `lost` says when the session died first.
  ExitStatus stop() {
    if (remote_) return remote_->stop(kHangS);
    return local_ ? local_->stop(kHangS) : ExitStatus{};
  }

 private:
  std::optional<Child> local_;
  std::optional<RemoteChild> remote_;
  std::uint16_t port_ = 0;
};

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

// The load of a sample from the loader CPUs here: `zapbench load` as a
// child, its result file read back. The figures, or `failure` set.
report::E2ESample load_here(const SampleContext& ctx, CellPlan& cp, unsigned round, std::uint16_t port,
                            std::string& failure) {
  const RunPlan& p = ctx.plan;
  const std::string id = cp.cell.id();
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
    failure = "the loader failed (" + st.describe() + "; see " + ctx.folder.portable(load_log.string()) + ")";
    return {};
  }
  try {
    return sample_of(parse_load_result(proc::read_file(json_out)).result);
  } catch (const std::exception& e) {
    failure = std::string("the loader's result is unreadable: ") + e.what();
  }
  return {};
}

// The load of a sample spread over the loader hosts (hosts/loaders.hpp): the
// merged figures, or `failure` set; every host's row and the start skew
// either way (what the others measured is kept).
report::E2ESample load_on_hosts(const SampleContext& ctx, CellPlan& cp, unsigned round, std::uint16_t port,
                                std::string& failure) {
  const RunPlan& p = ctx.plan;
  const std::string id = cp.cell.id();
  LoaderRun lr;
  lr.ssh = p.hosts.ssh;
  lr.hosts = p.hosts.loader_hosts;
  lr.options = load_options(p, cp, port);
  lr.log_prefix = ctx.folder.sample_file(id, round + 1, ".load-host").string();
  const std::vector<std::string> argv = load_argv(remote_zapbench(p.hosts.ssh), lr.options, "");
  cp.cell.loader_command =
      "spread over " + std::to_string(lr.hosts.size()) +
      " loader hosts (connections and rate shared out): " + command_text(argv, p.cfg.loader_cpus);
  const MultiLoad ml = run_loaders(lr);
  // Every host's result file and the merged one, kept beside the logs: what
  // a reader (or `zapbench load --merge`) checks the merge with.
  for (std::size_t i = 0; i < ml.hosts.size(); ++i)
    if (ml.hosts[i].report)
      std::ofstream(lr.log_prefix + std::to_string(i + 1) + ".json", std::ios::trunc)
          << load_result_json(ml.hosts[i].report->options, ml.hosts[i].report->result);
  if (ml.merged)
    std::ofstream(ctx.folder.sample_file(id, round + 1, ".load.json"), std::ios::trunc)
        << load_result_json(ml.merged->options, ml.merged->result);
  report::E2ESample s;
  if (!ml.failure.empty())
    failure = ml.failure + " (see " + ctx.folder.portable(lr.log_prefix) + "*.log)";
  else if (!ml.merged)
    failure = "the loaders gave no result";
  else
    s = sample_of(ml.merged->result);
  for (const LoaderHostResult& h : ml.hosts) s.loader_hosts.push_back(host_row(h));
  if (ml.start_skew_ns >= 0) s.start_skew_ns = double(ml.start_skew_ns);
  return s;
}

// One sample: the cell's server started and ready, the load here or over
// the loader hosts, the server stopped with its CPU time and, for a server
// here, its system calls from ready to stop.
report::E2ESample measure(const SampleContext& ctx, CellPlan& cp, unsigned round, std::string& failure) {
  const RunPlan& p = ctx.plan;
  // Read before anything of this sample runs: the load gate (report/model.hpp).
  // Hosts of their own have their own load; the namespace mode's are this machine.
  const double load_avg = !p.hosts.several() || p.hosts.netns > 0 ? proc::load_average_1m() : NAN;
  const fs::path server_log = ctx.folder.sample_file(cp.cell.id(), round + 1, ".server.log");
  SampleServer server(ctx, cp, server_log, cp.cell.server_command, failure);
  // Opened once the server is ready: its worker threads exist then, or start
  // while it opens (proc/syscalls.hpp). Where perf cannot count, or a thread
  // started later, the sample simply has no count.
  std::optional<proc::SyscallCounter> syscalls;
  if (failure.empty() && server.local_pid() > 0) syscalls.emplace(server.local_pid());
  report::E2ESample s;
  if (failure.empty())
    s = p.hosts.several() ? load_on_hosts(ctx, cp, round, server.port(), failure)
                          : load_here(ctx, cp, round, server.port(), failure);
  const std::optional<std::uint64_t> syscall_count = syscalls ? syscalls->read() : std::nullopt;
  syscalls.reset();
  const ExitStatus server_exit = server.stop();
  if (failure.empty() && !server_exit.lost.empty()) failure = "the server's host: " + server_exit.lost;
  // A server that ended by itself (crashed, killed) fails the sample with its
  // own exit, whatever the loader made of it (connection errors, a failure).
  if (server_exit.ended_before_stop)
    failure = "the server ended before it was stopped (" + server_exit.describe() + "; see " +
              ctx.folder.portable(server_log.string()) + ")" + (failure.empty() ? "" : "; " + failure);
  if (!failure.empty()) {
    report::E2ESample failed = failed_sample();
    failed.loader_hosts = std::move(s.loader_hosts);  // a failed sample keeps what the hosts measured
    failed.start_skew_ns = s.start_skew_ns;
    s = std::move(failed);
  }
  s.server_cpu_s = server_exit.cpu_s;
  if (failure.empty() && syscall_count) s.server_syscalls = double(*syscall_count);
  s.load_avg_1m = load_avg;
  return s;
}

}  // namespace

std::string with_server(const SampleContext& ctx, const CellPlan& cp, const std::string& log,
                        std::string& command, const std::function<void(std::uint16_t port)>& use) {
  if (ctx.plan.hosts.several()) return "a server on another host";
  std::string failure;
  SampleServer server(ctx, cp, fs::path(log), command, failure);
  if (failure.empty()) use(server.port());
  const ExitStatus st = server.stop();
  if (failure.empty() && st.ended_before_stop)
    failure = "the server ended before it was stopped (" + st.describe() + ")";
  return failure;
}

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
  // --no-go: the Go reference's rounds are its arm's (run_arms_micro), beside these.
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
  // The calibration's rows in every round, whatever the filter.
  const std::string f = with_calibration_rows(filter.empty() ? p.micro_filter : filter);
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

void run_arms_micro(const SampleContext& ctx, report::Results& res, unsigned round) {
  const RunPlan& p = ctx.plan;
  std::vector<const ArmHooks*> done;  // rows that share hooks (the Go arms) run theirs once
  for (Arm a : matrix::kArms) {
    const ArmHooks& hooks = arm_hooks(a);
    if (hooks.micro_round == nullptr || std::find(done.begin(), done.end(), &hooks) != done.end()) continue;
    done.push_back(&hooks);
    const std::string tag = std::string(matrix::to_string(a)) + "-micro-r" + std::to_string(round + 1);
    ArmMicroRound r;
    r.json_path = ctx.folder.file(tag + ".json").string();
    r.log_path = ctx.folder.file(tag + ".log").string();
    r.round = round;
    r.command_text = [&](const ChildSpec& spec) {
      return command_text(ctx.folder.portable(spec.argv), spec.cpus, spec.env);
    };
    hooks.micro_round(p, r, res);
  }
}

void run_instructions(const SampleContext& ctx, report::Results& res) {
  InstructionOptions o;
  o.self = ctx.zapbench_exe;
  for (const report::MicroFigure& f : res.micro.figures)
    if (f.op == "Server") o.cases.push_back(f.name);
  // And the codec ops the findings compare: ZAP's, the fastest JSON codec's and the fastest binary peer's
  // of each op, and the op's limit — where their instructions go is what explains a ratio.
  for (const char* op : report::doc::kOps) {
    std::vector<const report::MicroFigure*> counted{
        report::doc::find_figure(res.micro, op, "zap"), report::doc::fastest_json(res, op),
        report::doc::fastest_peer(res, op),
        report::doc::find_figure(res.micro, op, report::doc::kLimitCodec)};
    for (const report::MicroFigure* f : counted)
      if (f != nullptr && std::find(o.cases.begin(), o.cases.end(), f->name) == o.cases.end())
        o.cases.push_back(f->name);
  }
  if (o.cases.empty()) return;
  o.work_dir = ctx.folder.file("instructions");
  // Removed however this ends: a failure, or an interrupt unwinding through.
  struct WorkDir {
    const fs::path& path;
    ~WorkDir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } work_dir{o.work_dir};
  std::error_code ec;
  fs::create_directories(o.work_dir, ec);
  try {
    count_instructions(o, res.micro.instructions, {});
  } catch (const std::exception& e) {
    res.notes.push_back(e.what());
  }
}

}  // namespace bench
