// cli/matrix_choices.hpp — a matrix axis as a flag's choices: (name, value)
// pairs from its one table of names (matrix/matrix.hpp), for `--framing`,
// `--framings`, `--scenario(s)`, `--arms` and `--io` (`zapbench load
// --framing` also with the older spellings still taken).
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "matrix/matrix.hpp"

namespace cli {

template <class E, std::size_t N>
std::vector<std::pair<std::string, E>> choices(const std::array<E, N>& values) {
  std::vector<std::pair<std::string, E>> out;
  for (E v : values) out.emplace_back(std::string(matrix::to_string(v)), v);
  return out;
}

// What --io says in serve's, floor's and load's help (one text for the three).
inline constexpr const char* kIoHelp =
    "the event core's I/O interface: epoll (readiness; read and send calls) or io_uring (completions; one "
    "enter per loop turn); io_uring fails at start with the kernel's reason where it has none";

// A framing flag's choices that also takes the older spellings framing_from
// reads (matrix::older_name: "floor" for tcp), after the stable names.
inline std::vector<std::pair<std::string, matrix::Framing>> framing_choices_with_older_names() {
  std::vector<std::pair<std::string, matrix::Framing>> out = choices(matrix::kFramings);
  for (const matrix::Framing f : matrix::kFramings)
    if (!matrix::older_name(f).empty()) out.emplace_back(std::string(matrix::older_name(f)), f);
  return out;
}

}  // namespace cli
