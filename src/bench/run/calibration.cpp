// bench/run/calibration.cpp — the calibration each round (calibration.hpp).
#include "bench/run/calibration.hpp"

#include "calibrate/calibrate.hpp"

namespace bench {
namespace {

// The ping-pongs of a round: the parameters are the calibration's own (its
// version names them); the run's samples' lengths do not change them, so
// two runs of different settings still share a yardstick.
constexpr auto& kDepths = calibrate::kRunDepths;
constexpr unsigned kMessageBytes = calibrate::kRunMessageBytes;
constexpr double kWarmupS = calibrate::kRunWarmupS, kWindowS = calibrate::kRunWindowS;
// Thread start, connect, join: measured well under this.
constexpr double kOverheadS = 0.05;

}  // namespace

double calibration_round_s(const RunPlan& p) {
  if (p.hosts.several()) return 0;
  return double(std::size(kDepths)) * (kWarmupS + kWindowS + kOverheadS);
}

void start_calibration(const RunPlan& p, report::Results& res) {
  res.calibration.version = std::string(calibrate::kVersion);
  if (p.hosts.several())
    res.calibration.unavailable =
        "the run's server and loaders are on other hosts: a ping-pong here would measure this machine, not "
        "theirs (the machine's move is estimated from the reference arms alone)";
}

void run_calibration(const RunPlan& p, report::Results& res, unsigned round) {
  if (p.hosts.several()) return;
  report::Calibration& cal = res.calibration;
  if (cal.ping_pongs.empty())
    for (unsigned depth : kDepths) {
      report::PingPong pp;
      pp.depth = depth;
      pp.message_bytes = kMessageBytes;
      cal.ping_pongs.push_back(std::move(pp));
    }
  for (report::PingPong& pp : cal.ping_pongs) {
    calibrate::PingPongOptions o;
    o.server_cpus = p.cfg.server_cpus;
    o.client_cpus = p.cfg.loader_cpus;
    o.depth = pp.depth;
    o.message_bytes = pp.message_bytes;
    o.warmup_s = kWarmupS;
    o.duration_s = kWindowS;
    const calibrate::PingPongResult r = calibrate::ping_pong(o);
    if (!r.ok)
      res.notes.push_back("calibration, round " + std::to_string(round + 1) + ", ping-pong at depth " +
                          std::to_string(pp.depth) + ": " + r.error);
    pp.round_trips_per_s.values.push_back(r.ok ? r.round_trips_per_s : 0);
    pp.p99_ns.values.push_back(r.ok ? r.p99_ns : 0);
    pp.server_cpu_ns.values.push_back(r.ok ? r.server_cpu_ns_per_round_trip : 0);
    for (report::Samples* s : {&pp.round_trips_per_s, &pp.p99_ns, &pp.server_cpu_ns})
      s->rounds.push_back(round);
  }
}

std::string with_calibration_rows(const std::string& filter) {
  if (filter.empty()) return filter;
  return "^Calibrate/|" + filter;
}

}  // namespace bench
