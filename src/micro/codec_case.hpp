// micro/codec_case.hpp — the codec ops as `zapbench instructions` counts them
// (as it counts the request paths, request_path.hpp): <op>/<codec> for every
// available codec and the limit (limit_codec.hpp), run n times by the same
// CodecOps the benchmarks time (codec_ops.hpp), checked first.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "micro/codec_ops.hpp"

namespace micro {

struct CodecCase {
  CodecOp op = CodecOp::decode;
  std::string codec;                       // a codec of the table, or "limit"
  [[nodiscard]] std::string name() const;  // "Encode/zap", as the benchmark is named
};

// Every case this build can run: each op × every available codec (codecs.table's order), then the limit.
std::vector<CodecCase> codec_cases();
// By name ("Encode/zap"); false if there is no such case.
bool find_codec_case(std::string_view name, CodecCase& out);

class CodecRun {
 public:
  explicit CodecRun(const CodecCase& c);  // the case from codec_cases()
  ~CodecRun();
  CodecRun(const CodecRun&) = delete;
  CodecRun& operator=(const CodecRun&) = delete;

  // Empty when the op gives the sample (or its computed answer) back; else what is wrong.
  std::string check();
  // n ops: the function callgrind collects in (bench/run/instructions.cpp).
  [[gnu::noinline]] void run_ops(std::uint64_t n);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace micro
