// bench/arms/grpc_arm.cpp — finding and starting the grpc++ reference arm (grpc_arm.hpp).
#include "bench/arms/grpc_arm.hpp"

#include <unistd.h>

#include <cstdlib>

#include "bench/children/launch.hpp"
#include "bench/plan/cells.hpp"
#include "bench/plan/plan.hpp"

namespace bench {

GrpcArm find_grpc_arm() {
  GrpcArm arm;
  std::string binary;
  if (const char* env = std::getenv("ZAPBENCH_GRPC"); env != nullptr && *env != '\0') {
    binary = env;
  } else {
#if defined(ZAPBENCH_GRPC_UNAVAILABLE)
    arm.unavailable = ZAPBENCH_GRPC_UNAVAILABLE;
    return arm;
#elif defined(ZAPBENCH_GRPC_BINARY)
    binary = ZAPBENCH_GRPC_BINARY;
#else
    arm.unavailable = "this zapbench was built without the grpc++ arm";
    return arm;
#endif
  }
  if (access(binary.c_str(), X_OK) != 0) {
    arm.unavailable =
        binary + " does not exist (built from src/grpc_ref/: cmake --build --target zapbench-grpc)";
    return arm;
  }
  arm.binary = binary;
  return arm;
}

std::vector<std::string> grpc_server_argv(const GrpcArm& arm, const std::vector<int>& cpus,
                                          const std::string& listen_host) {
  return {arm.binary, "serve", "--listen",  listen_host + ":0",
          "--api",    "async", "--threads", std::to_string(cpus.empty() ? 1 : cpus.size())};
}

ChildSpec grpc_server_spec(const GrpcArm& arm, const std::vector<int>& cpus, const std::string& listen_host) {
  ChildSpec s;
  s.argv = grpc_server_argv(arm, cpus, listen_host);
  s.cpus = cpus;
  s.ready_channel = true;
  return s;
}

void grpc_cpp_cells(CellPlanner& planner, Arm arm) {
  if (!planner.scenario_on(Scenario::rpc) || !planner.framing_on(Framing::grpc)) return;
  const FoundArm& found = planner.plan().arm(arm);
  std::string why = found.unavailable;
  if (why.empty() && found.binary.empty()) why = "zapbench-grpc not found";
  if (why.empty()) why = codec_unavailable("protobuf");
  planner.add(arm, Scenario::rpc, Framing::grpc, "protobuf", why);
}

ServerLaunch grpc_cpp_launch(const RunPlan& p, const std::string&, const CellPlan& cp) {
  const FoundArm& found = p.arm(cp.cell.arm);
  ServerLaunch l;
  l.spec = grpc_server_spec(GrpcArm{found.binary, found.unavailable}, p.cfg.server_cpus, p.listen_host);
  return l;
}

namespace {

constexpr ArmFlag kGrpcFlags[] = {
    {"--grpc-cpp", "PATH", "the grpc++ arm's binary (zapbench-grpc)", "zapbench-grpc beside zapbench", ""}};

FoundArm grpc_find(const std::map<std::string, std::string>& flags) {
  const auto given = flags.find("--grpc-cpp");
  const GrpcArm arm = given != flags.end() ? GrpcArm{given->second, ""} : find_grpc_arm();
  return {arm.binary, arm.unavailable, {}, {}, {}};
}

}  // namespace

extern const ArmHooks grpc_arm_hooks{kGrpcFlags,      grpc_find, grpc_cpp_cells, every_cell,
                                     grpc_cpp_launch, nullptr,   nullptr};

}  // namespace bench
