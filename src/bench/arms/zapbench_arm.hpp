// bench/arms/zapbench_arm.hpp — zapbench's own server as an arm: every
// scenario × framing × body of the run (logs also × N), served by
// `zapbench serve`. Its row of the arm table (arm.hpp).
#pragma once

#include <string>

#include "bench/plan/arm.hpp"

namespace bench {

// The serve flag that listens on a framing ("--http", "--http2" (also gRPC's), "--zap", "--zap-rpc").
const char* serve_flag(matrix::Framing f) noexcept;

void zapbench_cells(CellPlanner& planner, matrix::Arm arm);
// quick: every framing on hello; on rpc the body axis on HTTP/1.1 (JSON, ZAP,
// the fastest peer), gRPC and ZAP-RPC with protobuf and with ZAP, ZAP-HTTP
// with ZAP; logs on HTTP/1.1 + JSON and ZAP-HTTP + ZAP.
bool zapbench_quick(matrix::Arm arm, matrix::Scenario s, matrix::Framing f, const std::string& body,
                    const std::string& json, const std::string& peer);
// quick's io_uring copies: the rpc cells with a ZAP body (the headline cells, on each framing quick runs).
bool zapbench_io_uring_copy(matrix::Scenario s, const std::string& body, bool chosen,
                            const std::string& json);
// `zapbench serve <flag> HOST:0 --threads N --cpus LIST [--codec BODY] [--io io_uring]`.
ServerLaunch zapbench_launch(const RunPlan& plan, const std::string& zapbench_exe, const CellPlan& cell);

}  // namespace bench
