// bench/run/calibration.hpp — the calibration in `zapbench run`: the loopback
// ping-pong of src/calibrate measured at the start of every end-to-end round,
// its server and client pinned as a sample's server and loader are, into
// res.calibration (its microbenchmark rows, "Calibrate/...", run in every
// `zapbench micro` round: run_micro adds them to any filter). What compare
// estimates the machine's move from (report/compare.hpp); the parameters are
// part of calibrate::kVersion: two runs compare only equal calibrations.
#pragma once

#include <string>

#include "bench/plan/plan.hpp"
#include "report/model.hpp"

namespace bench {

// What one round's ping-pongs take, warm-ups included: the estimate's and the budget's share.
double calibration_round_s(const RunPlan& p);

// Records the calibration's version in res (or, over several hosts, why the
// run has no ping-pong: it would measure this machine, not the server's).
void start_calibration(const RunPlan& p, report::Results& res);

// One round of the ping-pongs (depth 1 and 16) into res.calibration as round
// `round`'s; a ping-pong that fails records zeros (no figure: compare leaves
// them out) and a note saying why. Nothing over several hosts.
void run_calibration(const RunPlan& p, report::Results& res, unsigned round);

// `filter` (a Google Benchmark regex; "" for every row) with the
// calibration's microbenchmark rows added.
std::string with_calibration_rows(const std::string& filter);

}  // namespace bench
