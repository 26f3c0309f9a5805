// bench/arms/grpc_arm.hpp — the grpc++ reference arm (`zapbench-grpc`, built from
// src/grpc_ref/ when Debian's libgrpc++-dev and protobuf-compiler-grpc are
// installed): where its binary is, or why there is none, and the command line
// of its server, pinned. It announces its listener on the ready channel
// ("grpc 127.0.0.1:PORT") as zapbench serve does, and prints it too.
// Owns grpc++ arm specifics only; starting and stopping it is the supervisor's.
#pragma once

#include <string>
#include <vector>

#include "bench/children/supervisor.hpp"
#include "bench/plan/arm.hpp"

namespace bench {

struct GrpcArm {
  std::string binary;       // the zapbench-grpc executable; "" when the arm cannot run
  std::string unavailable;  // why not ("" when it can): the build's reason, or the binary is missing
  [[nodiscard]] bool runs() const { return unavailable.empty() && !binary.empty(); }
};

// $ZAPBENCH_GRPC when set, else the one this build tree made (next to
// zapbench, src/cli/zapbench-grpc); when this build could not make it, the
// reason CMake recorded ("libgrpc++-dev / protobuf-compiler-grpc not installed").
GrpcArm find_grpc_arm();

// `zapbench-grpc serve --listen 127.0.0.1:0 --api async --threads N`: one
// completion queue thread per server CPU (N = cpus.size(), 1 when unpinned).
std::vector<std::string> grpc_server_argv(const GrpcArm& arm, const std::vector<int>& cpus,
                                          const std::string& listen_host = "127.0.0.1");

// The same as a child of the run: pinned to `cpus`, with the ready channel
// (the supervisor appends --ready-fd N; the line's kind is "grpc").
ChildSpec grpc_server_spec(const GrpcArm& arm, const std::vector<int>& cpus,
                           const std::string& listen_host = "127.0.0.1");

// The grpc++ arm's row of the arm table (arm.hpp): rpc over gRPC with
// protobuf, its generated service's only body, when the run has both.
void grpc_cpp_cells(CellPlanner& planner, matrix::Arm arm);
// grpc_server_spec on the run's server CPUs.
ServerLaunch grpc_cpp_launch(const RunPlan& plan, const std::string& zapbench_exe, const CellPlan& cell);

}  // namespace bench
