// fuzz/zap_bitflip_sweep.cpp — the fuzz.zap_bitflip_sweep test: for each binary message named on the
// command line, runs the shared walk (zap_walk.hpp) on it and on every single-bit flip of it. ASan+UBSan,
// own main, no libFuzzer. Exit 0 = all walks clean; an invariant violation traps.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "zap_walk.hpp"

namespace {

// Runs the walk on an exact-size heap copy, so ASan sees any read past the input.
zapfuzz::Stats walk_copy(const std::vector<std::uint8_t>& bytes) {
  std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[bytes.size()]);
  std::memcpy(buf.get(), bytes.data(), bytes.size());
  return zapfuzz::walk_input(buf.get(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MESSAGE.bin...\n", argv[0]);
    return 2;
  }
  for (int a = 1; a < argc; ++a) {
    std::ifstream in(argv[a], std::ios::binary);
    std::vector<std::uint8_t> msg;
    if (in) msg.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in || msg.empty()) {
      std::fprintf(stderr, "sweep: cannot read %s\n", argv[a]);
      return 1;
    }
    if (!walk_copy(msg).parsed) {
      std::fprintf(stderr, "sweep: %s does not parse as a ZAP message\n", argv[a]);
      return 1;
    }
    std::size_t flips = 0, parsed = 0;
    for (std::size_t i = 0; i < msg.size(); ++i) {
      for (unsigned bit = 0; bit < 8; ++bit) {
        msg[i] = static_cast<std::uint8_t>(msg[i] ^ (1u << bit));
        parsed += walk_copy(msg).parsed ? 1 : 0;
        msg[i] = static_cast<std::uint8_t>(msg[i] ^ (1u << bit));
        ++flips;
      }
    }
    std::printf("sweep: %s: %zu bytes, %zu single-bit flips walked, %zu still parse\n", argv[a], msg.size(),
                flips, parsed);
  }
  std::printf("sweep: ok (checksum %016llx)\n", static_cast<unsigned long long>(zapfuzz::g_sink));
  return 0;
}
