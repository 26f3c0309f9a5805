// bench/arms/floor_arm.hpp — the floor as an arm: per scenario (and per N for
// logs) the smallest exchange's byte counts (exchange.hpp) over raw TCP,
// served by `zapbench floor`. Its row of the arm table (arm.hpp).
#pragma once

#include <string>

#include "bench/plan/arm.hpp"

namespace bench {

void floor_cells(CellPlanner& planner, matrix::Arm arm);
// quick's io_uring copies: the rpc cells (the headline cells' floor).
bool floor_io_uring_copy(matrix::Scenario s, const std::string& body, bool chosen, const std::string& json);
// `zapbench floor --listen HOST:0 --request-bytes R --response-bytes A --threads N --cpus LIST
// [--io io_uring]`.
ServerLaunch floor_launch(const RunPlan& plan, const std::string& zapbench_exe, const CellPlan& cell);

}  // namespace bench
