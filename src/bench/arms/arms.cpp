// bench/arms/arms.cpp — the one table of arms: a row per row of
// matrix/arms.def, in its order, each the hooks its own file defines
// (`<file>_hooks`, bench/arms/<file>.cpp).
#include <array>

#include "bench/children/launch.hpp"
#include "bench/plan/arm.hpp"
#include "bench/plan/plan.hpp"

namespace bench {

#define ZAPBENCH_ARM(id, name, display, file, debian, quick, web) extern const ArmHooks file##_hooks;
#include "matrix/arms.def"
#undef ZAPBENCH_ARM

bool every_cell(Arm, Scenario, Framing, const std::string&, const std::string&, const std::string&) {
  return true;
}

namespace {

const std::array<const ArmHooks*, matrix::kArms.size()> kArmHooks{{
#define ZAPBENCH_ARM(id, name, display, file, debian, quick, web) &file##_hooks,
#include "matrix/arms.def"
#undef ZAPBENCH_ARM
}};

}  // namespace

const ArmHooks& arm_hooks(Arm arm) noexcept { return *kArmHooks[static_cast<std::size_t>(arm)]; }

ServerLaunch server_launch(const RunPlan& p, const std::string& zapbench_exe, const CellPlan& cp) {
  return arm_hooks(cp.cell.arm).launch(p, zapbench_exe, cp);
}

}  // namespace bench
