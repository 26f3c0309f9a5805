// bench/plan/cells.hpp — the cells of one run, made arm by arm: each arm's
// row (bench/plan/arm.hpp) asks what the run has (its scenarios, framings,
// bodies) and adds its cells; add() makes each for every connection count and
// depth (quick's chosen cells: depth 16 on one connection only, 16
// connections at depth 1) and I/O interface (zapbench's server and the floor:
// each of the run's; quick: io_uring for the headline cells only) and keeps
// only quick's chosen ones. Also why a body or a logs cell cannot run, which
// every arm says the same way.
#pragma once

#include <string>
#include <vector>

#include "bench/plan/plan.hpp"

namespace bench {

// Why this build cannot use the body codec `name` ("" when it can).
std::string codec_unavailable(const std::string& name);
// Why a logs cell of body `name` cannot run ("" when it can): the codec's
// reason, or the lack of the logs record.
std::string logs_unavailable(const std::string& name);

class CellPlanner {
 public:
  // floor_bytes_of: how the floor's byte counts are measured (exchange.hpp; a test may fake it).
  CellPlanner(const RunPlan& plan, std::vector<CellPlan>& cells,
              ExchangeBytes (*floor_bytes_of)(Scenario, unsigned));

  [[nodiscard]] const RunPlan& plan() const { return p_; }
  // The cells added so far, in order (an arm describes its own after adding them).
  [[nodiscard]] std::vector<CellPlan>& cells() { return out_; }
  [[nodiscard]] bool arm_on(Arm a) const;
  [[nodiscard]] bool scenario_on(Scenario s) const;
  [[nodiscard]] bool framing_on(Framing f) const;
  // The I/O interfaces a cell of this arm is planned on (plan_cells): epoll
  // alone for an arm whose server is not ours; else the run's, but with epoll
  // too only the cells its row names get an io_uring copy (ArmRow::io_uring_copy).
  [[nodiscard]] std::vector<Io> ios(Arm arm, Scenario scenario, const std::string& body) const;
  [[nodiscard]] ExchangeBytes floor_bytes(Scenario s, unsigned logs) const {
    return floor_bytes_of_(s, logs);
  }

  // quick's chosen cells (the arm's quick policy), or every combination.
  [[nodiscard]] bool chosen(Arm a, Scenario s, Framing f, const std::string& body) const;
  // The cell at every connection count and depth of the run, on each I/O
  // interface of the run its arm's server has (plan_cells); unavailable: why
  // it cannot run ("" when it can); floor: the floor's byte counts; logs: N;
  // server_codec: the codec the server decodes the body with, when not the body's.
  void add(Arm arm, Scenario scenario, Framing framing, const std::string& body,
           const std::string& unavailable, ExchangeBytes floor = {}, unsigned logs = 0,
           const std::string& server_codec = "");

 private:
  const RunPlan& p_;
  std::vector<CellPlan>& out_;
  ExchangeBytes (*floor_bytes_of_)(Scenario, unsigned);
  std::string json_body_, peer_body_;
};

}  // namespace bench
