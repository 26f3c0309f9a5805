// bench/run/estimate.hpp — how long a run will take, said before it starts:
// the first rounds' samples, the calibration's ping-pongs and the
// microbenchmarks, and the budget the run will keep to.
#pragma once

#include <vector>

#include "bench/plan/plan.hpp"

namespace bench {

// The time the first rounds will take, estimated before the run starts:
// every cell that runs × repeats × (warm-up + window + the per-sample start
// and stop), plus the microbenchmarks' rounds. The run itself takes its
// budget when that is larger: what `zapbench run` prints first.
double estimated_run_s(const RunPlan& plan, const std::vector<CellPlan>& cells);
// The budget as it will be: --budget as given (std::invalid_argument when the
// first rounds alone would not fit it: "--budget 1m: the first rounds alone
// take ~4m30s ..."), or the mode's default, grown to fit the first rounds.
double run_budget_s(const RunPlan& plan, const std::vector<CellPlan>& cells);

}  // namespace bench
