// cli/calibrate.cpp — `zapbench calibrate`: flags -> calibrate::measure_work and calibrate::ping_pong
// (src/calibrate) per repeat and depth -> an aligned table, or one JSON object per line. The CPUs
// default as `zapbench run`'s do (bench::allowed_cpus: the first half for the server, the second for
// the loader), so the figures are those a run's rounds would record.
#include "calibrate/calibrate.hpp"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/run/host.hpp"
#include "cli/commands.hpp"
#include "flags/flags.hpp"
#include "proc/machine.hpp"

namespace cli {
namespace {

struct Row {
  unsigned repeat, depth;
  calibrate::PingPongResult pp;
};

void print_header(const calibrate::PingPongOptions& o, const std::vector<unsigned>& depths, bool json) {
  if (json) return;
  const std::string model = proc::cpu_model();
  std::printf("zapbench calibrate: calibration v%.*s on %s\n", int(calibrate::kVersion.size()),
              calibrate::kVersion.data(), model.empty() ? "an unnamed CPU" : model.c_str());
  std::printf(
      "server CPUs %s, loader CPUs %s; ping-pong over TCP on 127.0.0.1, %u-byte messages, depth %s,\n",
      flags::cpu_list_text(o.server_cpus).c_str(), flags::cpu_list_text(o.client_cpus).c_str(),
      o.message_bytes, flags::cpu_list_text(std::vector<int>(depths.begin(), depths.end())).c_str());
  std::printf("a %s window after %s of warm-up\n\n", flags::format_duration(o.duration_s).c_str(),
              flags::format_duration(o.warmup_s).c_str());
  std::printf("%6s %6s %14s %9s %9s %17s %17s\n", "repeat", "depth", "round trips/s", "p50 us", "p99 us",
              "server CPU ns/rt", "client CPU ns/rt");
  std::fflush(stdout);
}

void print_row(const Row& r, const calibrate::PingPongOptions& o, const calibrate::WorkFigures& w,
               bool json) {
  const calibrate::PingPongResult& p = r.pp;
  if (!json) {
    std::printf("%6u %6u %14.0f %9.1f %9.1f %17.0f %17.0f\n", r.repeat, r.depth, p.round_trips_per_s,
                p.p50_ns / 1e3, p.p99_ns / 1e3, p.server_cpu_ns_per_round_trip,
                p.client_cpu_ns_per_round_trip);
    std::fflush(stdout);
    return;
  }
  nlohmann::ordered_json j;
  j["calibration"] = std::string(calibrate::kVersion);
  j["repeat"] = r.repeat;
  j["depth"] = r.depth;
  j["bytes"] = o.message_bytes;
  j["server_cpus"] = flags::cpu_list_text(o.server_cpus);
  j["loader_cpus"] = flags::cpu_list_text(o.client_cpus);
  j["round_trips"] = p.round_trips;
  j["window_s"] = p.window_s;
  j["round_trips_per_s"] = p.round_trips_per_s;
  j["p50_ns"] = p.p50_ns;
  j["p99_ns"] = p.p99_ns;
  j["server_cpu_ns_per_round_trip"] = p.server_cpu_ns_per_round_trip;
  j["client_cpu_ns_per_round_trip"] = p.client_cpu_ns_per_round_trip;
  j["spin_ns_per_op"] = w.spin_ns_per_op;
  j["memcpy_4kib_ns_per_op"] = w.memcpy_4kib_ns_per_op;
  j["memcpy_1mib_ns_per_op"] = w.memcpy_1mib_ns_per_op;
  j["chase_16mib_ns_per_op"] = w.chase_16mib_ns_per_op;
  std::printf("%s\n", j.dump().c_str());
  std::fflush(stdout);
}

void print_work(const std::vector<calibrate::WorkFigures>& work, int cpu) {
  std::printf("\nwork (CPU ns/op on CPU %d: Calibrate/<work> of zapbench micro)\n", cpu);
  std::printf("%6s %12s %12s %12s %12s\n", "repeat", "spin", "memcpy-4KiB", "memcpy-1MiB", "chase-16MiB");
  for (std::size_t i = 0; i < work.size(); ++i)
    std::printf("%6zu %12.1f %12.1f %12.1f %12.1f\n", i + 1, work[i].spin_ns_per_op,
                work[i].memcpy_4kib_ns_per_op, work[i].memcpy_1mib_ns_per_op, work[i].chase_16mib_ns_per_op);
}

}  // namespace

int cmd_calibrate(int argc, char** argv) {
  calibrate::PingPongOptions o;
  std::vector<int> server_cpus, loader_cpus;
  std::vector<unsigned> depths = {1, 16};
  unsigned repeats = 3;
  bool json = false;
  flags::Table t("calibrate");
  t.summary(std::string(summary("calibrate")));
  t.about("The calibration (src/calibrate, version " + std::string(calibrate::kVersion) +
          "): what `zapbench compare` judges the machine's\n"
          "move between two runs by. Its code shares nothing with the product (no server,\n"
          "loader, codec or event core), so no change to the product can move it.\n"
          "Per repeat: the CPU and memory work of zapbench micro's Calibrate/<work> rows\n"
          "(an integer dependency chain, memcpy of 4 KiB and 1 MiB, a pointer chase over\n"
          "16 MiB; CPU ns per op, each for a quarter of --duration, on the first loader\n"
          "CPU), then per depth a ping-pong: one TCP connection over 127.0.0.1 between an\n"
          "echo thread on the server CPUs and a client thread on the loader CPUs keeping\n"
          "DEPTH messages of --bytes in flight (depth 1: a wake-up and round trip each;\n"
          "16: small messages' throughput): round trips/s, latency p50 and p99, and each\n"
          "thread's CPU per round trip over the window. Exits 1 when a ping-pong fails.");
  t.cpu_list("--server-cpus", &server_cpus, "CPUs of the echo thread").default_text("the first half");
  t.cpu_list("--loader-cpus", &loader_cpus, "CPUs of the client thread and of the work")
      .default_text("the second half");
  t.number_list("--depth", &depths, {1, calibrate::kMaxDepth}, "messages in flight, one ping-pong each");
  t.number("--bytes", &o.message_bytes, {1, unsigned(calibrate::kMaxInFlightBytes)}, "bytes of one message");
  t.duration("-d, --duration", &o.duration_s, {0, 3600, true}, "each ping-pong's recorded window");
  t.duration("--warmup", &o.warmup_s, {0, 3600}, "unrecorded time before each window");
  t.number("-n, --repeats", &repeats, {1, 1000}, "rounds of the work and every depth");
  t.set("--json", &json, true, "one JSON object per line (repeat and depth) instead of the table");
  t.parse(argc, argv);

  // As `zapbench run` places its server and loader (bench/plan/plan.cpp): halves of the allowed CPUs.
  const std::vector<int> allowed = proc::allowed_cpus();
  const std::size_t half = std::max<std::size_t>(1, allowed.size() / 2);
  if (server_cpus.empty()) server_cpus.assign(allowed.begin(), allowed.begin() + static_cast<long>(half));
  if (loader_cpus.empty())
    loader_cpus = allowed.size() > 1
                      ? std::vector<int>(allowed.begin() + static_cast<long>(half), allowed.end())
                      : allowed;
  for (const auto& [flag, cpus] :
       {std::pair{"--server-cpus", &server_cpus}, std::pair{"--loader-cpus", &loader_cpus}})
    for (int c : *cpus)
      if (std::find(allowed.begin(), allowed.end(), c) == allowed.end())
        t.fail(std::string(flag) + ": CPU " + std::to_string(c) + " is not available to this process (" +
               flags::cpu_list_text(allowed) + ")");
  for (unsigned d : depths)
    if (std::size_t(d) * o.message_bytes > calibrate::kMaxInFlightBytes)
      t.fail("--depth " + std::to_string(d) + " x --bytes " + std::to_string(o.message_bytes) + ": at most " +
             std::to_string(calibrate::kMaxInFlightBytes) + " bytes in flight");
  o.server_cpus = server_cpus;
  o.client_cpus = loader_cpus;

  // The work runs on this thread, pinned as `zapbench run` pins its micro process (the first loader
  // CPU); the ping-pong's threads pin themselves.
  const int work_cpu = loader_cpus.front();
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(work_cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    std::fprintf(stderr, "zapbench: calibrate: cannot pin to CPU %d: %s\n", work_cpu, std::strerror(errno));
    return 1;
  }

  print_header(o, depths, json);
  std::vector<calibrate::WorkFigures> work;
  for (unsigned repeat = 1; repeat <= repeats; ++repeat) {
    work.push_back(calibrate::measure_work(o.duration_s / 4));
    for (unsigned d : depths) {
      o.depth = d;
      const Row row{repeat, d, calibrate::ping_pong(o)};
      if (!row.pp.ok) {
        std::fprintf(stderr, "zapbench: calibrate: ping-pong at depth %u: %s\n", d, row.pp.error.c_str());
        return 1;
      }
      print_row(row, o, work.back(), json);
    }
  }
  if (!json) print_work(work, work_cpu);
  return 0;
}

}  // namespace cli
