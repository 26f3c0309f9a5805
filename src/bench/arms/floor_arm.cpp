// bench/arms/floor_arm.cpp — the floor as an arm (floor_arm.hpp).
#include "bench/arms/floor_arm.hpp"

#include "bench/children/launch.hpp"
#include "bench/plan/cells.hpp"
#include "net/affinity.hpp"
#include "proc/programs.hpp"

namespace bench {

void floor_cells(CellPlanner& planner, Arm arm) {
  const RunPlan& p = planner.plan();
  for (Scenario s : p.scenarios) {
    // logs: one floor per N, carrying ZAP's byte counts at that N.
    const std::vector<unsigned> ns = s == Scenario::logs ? p.logs : std::vector<unsigned>{0};
    for (unsigned n : ns) {
      const ExchangeBytes bytes = planner.floor_bytes(s, n);
      planner.add(arm, s, Framing::raw_tcp, "",
                  bytes.request == 0 ? "could not measure the exchange's byte counts" : "", bytes, n);
    }
  }
}

// quick: the rpc cells, beside zapbench's headline ones; otherwise every cell (the floor is the
// kernel's share alone, on each interface).
bool floor_io_uring_copy(Scenario s, const std::string&, bool chosen, const std::string&) {
  return !chosen || s == Scenario::rpc;
}

ServerLaunch floor_launch(const RunPlan& p, const std::string& exe, const CellPlan& cp) {
  ServerLaunch l;
  l.spec.cpus = p.cfg.server_cpus;
  l.spec.ready_channel = true;
  l.spec.argv = {exe,
                 "floor",
                 "--listen",
                 p.listen_host + ":0",
                 "--request-bytes",
                 std::to_string(cp.floor.request),
                 "--response-bytes",
                 std::to_string(cp.floor.response),
                 "--threads",
                 std::to_string(p.cfg.server_cpus.size()),
                 "--cpus",
                 net::cpu_list_text(p.cfg.server_cpus)};
  // epoll is floor's default: an epoll cell's command line stays what it was before the io axis.
  if (cp.cell.io != Io::epoll)
    l.spec.argv.insert(l.spec.argv.end(), {"--io", std::string(matrix::to_string(cp.cell.io))});
  return l;
}

namespace {
// The floor is `zapbench floor`, this binary.
FoundArm floor_find(const std::map<std::string, std::string>&) {
  return {proc::own_executable(), "", {}, {}, {}};
}
}  // namespace

extern const ArmHooks floor_arm_hooks{{},           floor_find,          floor_cells, every_cell,
                                      floor_launch, floor_io_uring_copy, nullptr};

}  // namespace bench
