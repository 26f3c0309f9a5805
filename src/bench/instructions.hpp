// bench/instructions.hpp — instructions per request of the server's request
// path, a figure that does not move with the machine's noise: each case of
// micro/request_path.hpp runs as a child (`zapbench instructions --one CASE`)
// under `valgrind --tool=callgrind`, collecting only inside the batch loop
// (exact: Ir ÷ requests), and under `perf stat -e instructions:u` where the
// machine exposes the counter (two request counts, their difference ÷ the
// difference of requests, so start-up cancels). A tool that is missing or
// refused is reported with the reason, never as a number.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bench {

struct InstructionFigure {
  std::string name;                 // "Server/zap-http/zap"
  std::optional<double> callgrind;  // Ir per request
  std::optional<double> perf;       // instructions:u per request
};

struct InstructionCounts {
  std::vector<InstructionFigure> figures;
  std::uint64_t requests = 0;         // per case under callgrind
  std::string callgrind_unavailable;  // empty when callgrind ran
  std::string perf_unavailable;       // empty when perf ran
  std::string valgrind_version;       // e.g. "valgrind-3.19.0"
};

struct InstructionOptions {
  std::string self;                 // this zapbench binary
  std::vector<std::string> cases;   // names, as micro::path_cases() gives them
  std::uint64_t requests = 16'000;  // per case, a multiple of the batch
  std::filesystem::path work_dir;   // callgrind's output and the children's logs
  bool perf = true;                 // also try perf stat
};

// Runs every case; `progress` hears one line per case. Throws
// std::runtime_error when a child fails (its log's tail in the message).
InstructionCounts count_instructions(const InstructionOptions& o,
                                     const std::function<void(const std::string&)>& progress);

// The table `zapbench instructions` prints and the README shows.
std::string instructions_markdown(const InstructionCounts& c);

}  // namespace bench
