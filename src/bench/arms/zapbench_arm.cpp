// bench/arms/zapbench_arm.cpp — zapbench's own server as an arm (zapbench_arm.hpp).
#include "bench/arms/zapbench_arm.hpp"

#include "bench/children/launch.hpp"
#include "bench/plan/cells.hpp"
#include "net/affinity.hpp"
#include "proc/programs.hpp"

namespace bench {

const char* serve_flag(Framing f) noexcept {
  switch (f) {
    case Framing::zap_http:
      return "--zap";
    case Framing::zap_rpc:
      return "--zap-rpc";
    case Framing::http2:
    case Framing::grpc:
      return "--http2";
    default:
      return "--http";
  }
}

void zapbench_cells(CellPlanner& planner, Arm arm) {
  const RunPlan& p = planner.plan();
  for (Scenario s : p.scenarios)
    for (Framing f : p.framings) {
      // gRPC has one method, zapbench.Eth/Call: no hello, no logs (docs/spec/http2-grpc.md §2).
      if (f == Framing::grpc && s != Scenario::rpc) continue;
      if (s == Scenario::hello) {
        if (planner.chosen(arm, s, f, "")) planner.add(arm, s, f, "", "");
        continue;
      }
      if (s == Scenario::logs) {
        for (unsigned n : p.logs)
          for (const std::string& b : p.bodies)
            if (planner.chosen(arm, s, f, b)) planner.add(arm, s, f, b, logs_unavailable(b), {}, n);
        continue;
      }
      for (const std::string& b : p.bodies)
        if (planner.chosen(arm, s, f, b)) planner.add(arm, s, f, b, codec_unavailable(b));
    }
}

bool zapbench_quick(Arm, Scenario s, Framing f, const std::string& b, const std::string& json,
                    const std::string& peer) {
  if (s == Scenario::hello) return f != Framing::grpc;
  if (s == Scenario::logs)
    return (f == Framing::http1 && b == json) || (f == Framing::zap_http && b == "zap");
  switch (f) {
    case Framing::http1:
      return b == json || b == "zap" || b == peer;
    case Framing::grpc:
    case Framing::zap_rpc:
      return b == "protobuf" || b == "zap";
    case Framing::zap_http:
      return b == "zap";
    default:
      return false;
  }
}

// quick: the rpc ZAP cells (the headline). Otherwise the cells of ZAP, of the fastest JSON body and
// hello's (no body), on every framing and scenario: the two bodies' gap on each interface is what
// shows the codec's share stay while the kernel's moves, and a copy of every other body would
// double the full run (its first rounds past its 3-hour budget) to repeat it.
bool zapbench_io_uring_copy(Scenario s, const std::string& body, bool chosen, const std::string& json) {
  if (chosen) return s == Scenario::rpc && body == "zap";
  return body.empty() || body == "zap" || body == json;
}

ServerLaunch zapbench_launch(const RunPlan& p, const std::string& exe, const CellPlan& cp) {
  const report::Cell& c = cp.cell;
  ServerLaunch l;
  l.spec.cpus = p.cfg.server_cpus;
  l.spec.ready_channel = true;
  l.spec.argv = {exe,
                 "serve",
                 serve_flag(c.framing),
                 p.listen_host + ":0",
                 "--threads",
                 std::to_string(p.cfg.server_cpus.size()),
                 "--cpus",
                 net::cpu_list_text(p.cfg.server_cpus)};
  if (!c.body.empty() && c.body != "zap") l.spec.argv.insert(l.spec.argv.end(), {"--codec", c.body});
  // epoll is serve's default: an epoll cell's command line stays what it was before the io axis.
  if (c.io != Io::epoll)
    l.spec.argv.insert(l.spec.argv.end(), {"--io", std::string(matrix::to_string(c.io))});
  return l;
}

namespace {
// zapbench's own server is this binary (`zapbench serve`, started by the run's own executable).
FoundArm zapbench_find(const std::map<std::string, std::string>&) {
  return {proc::own_executable(), "", {}, {}, {}};
}
}  // namespace

extern const ArmHooks zapbench_arm_hooks{
    {}, zapbench_find, zapbench_cells, zapbench_quick, zapbench_launch, zapbench_io_uring_copy, nullptr};

}  // namespace bench
