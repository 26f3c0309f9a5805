// fuzz/zap_reader_fuzz.cpp — the libFuzzer entry point for the ZAP reader: every input is handed to the
// shared walk in zap_walk.hpp (parse, every accessor, model checks). Built and run by fuzz/CMakeLists.txt.
#include <cstddef>
#include <cstdint>

#include "zap_walk.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  zapfuzz::walk_input(data, size);
  return 0;
}
