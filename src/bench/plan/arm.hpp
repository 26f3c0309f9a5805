// bench/plan/arm.hpp — what an arm is to a run, as data: its own flags, how
// its server is found (and why it cannot run), the cells it serves (and why
// one cannot), which of them quick's chosen cells keep (and copy onto
// io_uring, for the arms whose server has it), and the server of one of its
// cells as a launch (children/launch.hpp). Every arm — zapbench's own server,
// the floor, the Go reference's three, nginx, h2o, nghttpd, grpc++ — is one
// row of matrix/arms.def, its hooks in its own file (bench/arms/<file>.cpp,
// `<file>_hooks`); the table is bench/arms/arms.cpp. The plan, the run, the
// samples and the hosts go through the hooks and never name an arm.
#pragma once

#include <any>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "matrix/matrix.hpp"

namespace report {
struct Results;
}

namespace bench {

class CellPlanner;  // bench/plan/cells.hpp
struct CellPlan;    // bench/plan/plan.hpp
struct RunPlan;
struct ServerLaunch;  // bench/children/launch.hpp
struct ChildSpec;     // bench/children/supervisor.hpp

// A flag of `zapbench run` an arm owns (`--nginx PATH`, `--go-json NAME`):
// listed in run's --help under the arm's own section, its value handed to
// the arm's `find` as given.
struct ArmFlag {
  std::string_view flag;          // "--nginx"
  std::string_view meta;          // "PATH", "NAME"
  std::string_view help;          // "the nginx binary"
  std::string_view default_text;  // what --help says when the flag is not given
  std::string_view choices;       // "goccy,sonic,stdlib": one of these; "": an executable's path
};

// What a run knows of an arm's server once it has looked for it (the arm's
// `find`, in plan_run; a test may give it instead).
struct FoundArm {
  std::string binary;                          // its executable; "" when none
  std::string unavailable;                     // why none of its cells can run; "" when they can
  std::map<std::string, std::string> options;  // its flags' values, defaults filled ("--go-json" -> "goccy")
  std::map<std::string, std::string> libraries;  // what results.json's environment records of it
  std::any detail;                               // what only the arm reads (the Go arm's capabilities)
  [[nodiscard]] bool runs() const { return unavailable.empty() && !binary.empty(); }
  [[nodiscard]] std::string option(const std::string& flag) const {
    const auto it = options.find(flag);
    return it == options.end() ? "" : it->second;
  }
};

// One microbenchmark round of an arm's own (the Go reference's codecs, in Go):
// its result file and log, the run's filter and time, the CPU, the round.
struct ArmMicroRound {
  std::string json_path, log_path;
  unsigned round = 0;
  // How the run's report spells a child's command line (its paths relative to the run's folder).
  std::function<std::string(const ChildSpec& spec)> command_text;
};

struct ArmHooks {
  // The run's flags this arm owns (none: an empty span).
  std::span<const ArmFlag> flags;
  // Finds its server, given its flags' values as given (by flag); rows that
  // share hooks (the Go arms) are found once.
  FoundArm (*find)(const std::map<std::string, std::string>& flags);
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
  // not ours and has epoll only (the Go arms, the web servers, grpc++).
  bool (*io_uring_copy)(matrix::Scenario s, const std::string& body, bool chosen,
                        const std::string& json) = nullptr;
  // Its own microbenchmarks, a round of them beside zapbench's (the Go
  // reference's codecs); null: none.
  void (*micro_round)(const RunPlan& plan, const ArmMicroRound& round, report::Results& res) = nullptr;
};

// The arm's hooks (bench/arms/arms.cpp): every arm of matrix::kArms has a row.
const ArmHooks& arm_hooks(matrix::Arm arm) noexcept;

// A quick policy that keeps every cell of the arm (nginx, grpc++, the floor, go-nethttp).
bool every_cell(matrix::Arm, matrix::Scenario, matrix::Framing, const std::string&, const std::string&,
                const std::string&);

// The server of a cell, `zapbench_exe` the zapbench binary where it runs: its
// arm's launch — a zapbench, Go, grpc++ or floor server announcing itself on
// its ready channel, or a web server's config and the port it listens on
// (p.listen_host:{port}).
ServerLaunch server_launch(const RunPlan& p, const std::string& zapbench_exe, const CellPlan& cp);

}  // namespace bench
