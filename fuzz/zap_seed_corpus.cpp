// fuzz/zap_seed_corpus.cpp — build-time helper (no sanitizers): decodes each shared/vectors/*.hex given on
// the command line into OUT_DIR/<stem>, and writes one single-bit-flip seed per bit of golden_v1 as
// OUT_DIR/flip_golden_v1_<byte>_<bit>. Used only by the seed-corpus rule in fuzz/CMakeLists.txt.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

int nibble(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

// Whitespace is skipped; anything else that is not a hex digit, or an odd digit count, is an error.
bool decode(const std::string& text, std::vector<std::uint8_t>& out) {
  int hi = -1;
  for (char ch : text) {
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
    const int v = nibble(ch);
    if (v < 0) return false;
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<std::uint8_t>(hi << 4 | v));
      hi = -1;
    }
  }
  return hi < 0 && !out.empty();
}

bool write(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR FILE.hex...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  std::size_t written = 0;
  for (int a = 2; a < argc; ++a) {
    const std::filesystem::path src = argv[a];
    std::ifstream in(src, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::uint8_t> bytes;
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "seed corpus: cannot read %s\n", argv[a]);
      return 1;
    }
    if (!decode(text, bytes)) {
      std::fprintf(stderr, "seed corpus: %s is not a hex vector\n", argv[a]);
      return 1;
    }
    const std::string stem = src.stem().string();
    if (!write(dir / stem, bytes)) return 1;
    ++written;
    if (stem != "golden_v1") continue;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      for (unsigned bit = 0; bit < 8; ++bit) {
        std::vector<std::uint8_t> flipped = bytes;
        flipped[i] = static_cast<std::uint8_t>(flipped[i] ^ (1u << bit));
        const std::string name = "flip_golden_v1_" + std::to_string(i) + "_" + std::to_string(bit);
        if (!write(dir / name, flipped)) return 1;
        ++written;
      }
    }
  }
  std::printf("seed corpus: %zu seeds in %s\n", written, dir.string().c_str());
  return 0;
}
