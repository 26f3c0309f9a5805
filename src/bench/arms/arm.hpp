// bench/arms/arm.hpp — what an arm is to a run: the cells it serves (and why
// one cannot run), which of them quick's chosen cells keep (and copy onto
// io_uring, for the arms whose server has it), and the server of one of its
// cells as a launch (launch.hpp). Every arm — zapbench's own
// server, the floor, the Go reference's three, nginx, grpc++ — is one row of
// one table (arms.cpp), its hooks in its own file; the run, local or over
// hosts, goes through the row and never branches on the arm.
#pragma once

#include <string>

#include "matrix/matrix.hpp"

namespace bench {

class CellPlanner;  // bench/run/cells.hpp
struct CellPlan;    // bench/run/plan.hpp
struct RunPlan;
struct ServerLaunch;  // bench/arms/launch.hpp

struct ArmRow {
  matrix::Arm arm;
  // Adds the arm's cells of the run (planner.add for each), the run having the arm.
  void (*cells)(CellPlanner& planner, matrix::Arm arm);
  // Whether quick's chosen cells (RunPlan::chosen_cells) include this one;
  // json and peer: the fastest JSON body and the fastest binary peer.
  bool (*quick)(matrix::Arm arm, matrix::Scenario s, matrix::Framing f, const std::string& body,
                const std::string& json, const std::string& peer);
  // The server of one of its cells, `zapbench_exe` the zapbench binary where it runs.
  ServerLaunch (*launch)(const RunPlan& plan, const std::string& zapbench_exe, const CellPlan& cell);
  // Its server is zapbench's event core (`--io epoll|io_uring`): which of its
  // epoll cells get an io_uring copy — in quick's chosen cells (chosen) the
  // headline ones, else the ones that show the kernel's share move and the
  // codec's stay (`json`: the run's fastest JSON body). Null: its server is
  // not ours and has epoll only (the Go arms, nginx, grpc++).
  bool (*io_uring_copy)(matrix::Scenario s, const std::string& body, bool chosen,
                        const std::string& json) = nullptr;
};

// The arm's row (arms.cpp); every arm of matrix::kArms has one, in its order.
const ArmRow& arm_row(matrix::Arm arm) noexcept;

// A quick policy that keeps every cell of the arm (nginx, grpc++, the floor, go-nethttp).
bool every_cell(matrix::Arm, matrix::Scenario, matrix::Framing, const std::string&, const std::string&,
                const std::string&);

}  // namespace bench
