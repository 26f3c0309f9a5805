// bench/arms/arms.cpp — the one table of arms (arm.hpp): a row per arm of
// matrix::kArms, in its order, each naming its own file's hooks.
#include <array>

#include "bench/arms/arm.hpp"
#include "bench/arms/floor_arm.hpp"
#include "bench/arms/go_arm.hpp"
#include "bench/arms/grpc_arm.hpp"
#include "bench/arms/launch.hpp"
#include "bench/arms/nginx.hpp"
#include "bench/arms/zapbench_arm.hpp"

namespace bench {

bool every_cell(Arm, Scenario, Framing, const std::string&, const std::string&, const std::string&) {
  return true;
}

namespace {

constexpr std::array<ArmRow, matrix::kArms.size()> kArmRows{{
    {Arm::zapbench, zapbench_cells, zapbench_quick, zapbench_launch, zapbench_io_uring_copy},
    {Arm::go_zip, go_cells, go_quick, go_launch},
    {Arm::go_fasthttp, go_cells, go_quick, go_launch},
    {Arm::go_nethttp, go_cells, every_cell, go_launch},
    {Arm::nginx, nginx_cells, every_cell, nginx_launch},
    {Arm::grpc_cpp, grpc_cpp_cells, every_cell, grpc_cpp_launch},
    {Arm::floor, floor_cells, every_cell, floor_launch, floor_io_uring_copy},
}};

constexpr bool rows_in_order() {
  for (std::size_t i = 0; i < kArmRows.size(); ++i)
    if (kArmRows[i].arm != matrix::kArms[i]) return false;
  return true;
}
static_assert(rows_in_order(), "a row per arm of matrix::kArms, in its order");

}  // namespace

const ArmRow& arm_row(Arm arm) noexcept { return kArmRows[static_cast<std::size_t>(arm)]; }

}  // namespace bench
