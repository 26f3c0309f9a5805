// bench/run/estimate.cpp — the first rounds' time and the budget (estimate.hpp).
#include "bench/run/estimate.hpp"

#include <algorithm>
#include <stdexcept>

#include "bench/run/calibration.hpp"
#include "bench/run/conformance.hpp"
#include "bench/run/progress.hpp"

namespace bench {

double estimated_run_s(const RunPlan& p, const std::vector<CellPlan>& cells) {
  double s = 0;
  for (const CellPlan& cp : cells)
    if (cp.cell.unavailable.empty())
      s += double(p.cfg.repeats) * (p.cfg.warmup_s + p.cfg.duration_s + kSampleOverheadS +
                                    (p.hosts.several() ? kHostsSampleOverheadS : 0));
  // h2spec against each HTTP/2 arm after the rounds (conformance.hpp): its 145 cases against a server that
  // answers as asked, its start and stop (a server that fails cases costs up to 2 s more each).
  if (p.conformance) s += kConformancePerServerS * double(conformance_servers(cells).size());
  // The calibration's ping-pongs, at the start of every round.
  s += double(p.cfg.repeats) * calibration_round_s(p);
  // The microbenchmarks: quick's filter runs some 170 of them, the full run some 470.
  if (p.micro)
    s += double(p.cfg.micro_repetitions) * p.cfg.micro_min_time_s * kMicroCalibrationFactor *
         (p.micro_filter.empty() ? 470.0 : 170.0);
  return s;
}

double run_budget_s(const RunPlan& p, const std::vector<CellPlan>& cells) {
  const double first_s = estimated_run_s(p, cells);
  if (!p.budget_given) return std::max(p.cfg.budget_s, first_s);
  if (p.cfg.budget_s > 0 && p.cfg.budget_s < first_s)
    throw std::invalid_argument("--budget " + duration_text(p.cfg.budget_s) +
                                ": the first rounds alone take ~" + duration_text(first_s) +
                                "; give at least that, fewer cells or --repeats, or --budget 0 (the first "
                                "rounds only)");
  return p.cfg.budget_s;
}

}  // namespace bench
