// bench/run/instructions.hpp — instructions per request of the server's request
// path and per op of the codecs, figures that do not move with the machine's
// noise: each case of micro/request_path.hpp and micro/codec_case.hpp runs as a
// child (`zapbench instructions --one CASE`) under `valgrind --tool=callgrind`,
// collecting only inside its loop (exact: Ir ÷ requests or ops), and under `perf stat -e instructions:u`
// where the machine exposes the counter (two request counts, their difference ÷ the difference of requests,
// so start-up cancels). A tool that is missing or refused is reported with the reason, never as a number.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "report/model.hpp"

namespace bench {

struct InstructionOptions {
  std::string self;                 // this zapbench binary
  std::vector<std::string> cases;   // names, as micro::path_cases() and micro::codec_cases() give them
  std::uint64_t requests = 16'000;  // per case, a multiple of the batch
  std::filesystem::path work_dir;   // callgrind's output and the children's logs
  bool perf = true;                 // also try perf stat
};

// Runs every case into `counts` (reset first, then a figure per case as it
// is counted: a failure or an interrupt leaves the cases counted before it);
// `progress` hears one line per case. Throws std::runtime_error when a child
// fails (its log's tail in the message), proc::Interrupted on an interrupt.
void count_instructions(const InstructionOptions& o, report::Instructions& counts,
                        const std::function<void(const std::string&)>& progress);

// The table `zapbench instructions` prints.
std::string instructions_markdown(const report::Instructions& c);

}  // namespace bench
