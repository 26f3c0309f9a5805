// fuzz/zap_seed_corpus.cpp — build-time helper (no sanitizers): decodes each shared/vectors/*.hex given on
// the command line into OUT_DIR/<stem>, and writes one single-bit-flip seed per bit of golden_v1 as
// OUT_DIR/flip_golden_v1_<byte>_<bit>. Used only by the seed-corpus rules in fuzz/CMakeLists.txt.
// With --rpc-frames first, it writes ZAP-RPC frames for zap_rpc_fuzz instead (zap-transport.md §5.2,
// [u32 LE L][dir][body]): each rpc_request_* envelope as a dir 1 and a dir 3 frame, each rpc_response_*
// as a dir 2 frame, each *_frame vector (docs/spec/vectors) as it is, all of them back to back as one
// stream, and a stream message (dir 4) and a stream end (dir 5).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
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

std::vector<std::uint8_t> frame(std::uint8_t dir, const std::vector<std::uint8_t>& body) {
  const auto l = static_cast<std::uint32_t>(body.size() + 1);
  std::vector<std::uint8_t> f = {static_cast<std::uint8_t>(l), static_cast<std::uint8_t>(l >> 8),
                                 static_cast<std::uint8_t>(l >> 16), static_cast<std::uint8_t>(l >> 24), dir};
  f.insert(f.end(), body.begin(), body.end());
  return f;
}

// The --rpc-frames seeds of one vector (none for a vector that is not an rpc one); appended to `stream`.
bool write_rpc_frames(const std::filesystem::path& dir, const std::string& stem,
                      const std::vector<std::uint8_t>& bytes, std::vector<std::uint8_t>& stream,
                      std::size_t& written) {
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> seeds;
  if (stem.rfind("rpc_request_", 0) == 0) {
    seeds.emplace_back("dir1_" + stem, frame(1, bytes));
    seeds.emplace_back("dir3_" + stem, frame(3, bytes));
  } else if (stem.rfind("rpc_response_", 0) == 0) {
    seeds.emplace_back("dir2_" + stem, frame(2, bytes));
  } else if (stem.size() > 6 && stem.compare(stem.size() - 6, 6, "_frame") == 0) {
    seeds.emplace_back(stem, bytes);
  }
  for (const auto& [name, f] : seeds) {
    if (!write(dir / name, f)) return false;
    stream.insert(stream.end(), f.begin(), f.end());
    ++written;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const bool rpc = argc > 1 && std::string(argv[1]) == "--rpc-frames";
  if (rpc) {
    --argc;
    ++argv;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s [--rpc-frames] OUT_DIR FILE.hex...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  std::size_t written = 0;
  std::vector<std::uint8_t> stream;  // --rpc-frames: every frame, back to back
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
    if (rpc) {
      if (!write_rpc_frames(dir, stem, bytes, stream, written)) return 1;
      continue;
    }
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
  if (rpc) {
    if (written == 0) {
      std::fprintf(stderr, "seed corpus: no rpc vectors among the inputs\n");
      return 1;
    }
    const std::vector<std::uint8_t> stream_id = {1, 0, 0, 0};
    std::vector<std::uint8_t> message = stream_id;
    message.insert(message.end(), {'a', 'b', 'c'});
    if (!write(dir / "dir4_stream_message", frame(4, message)) ||
        !write(dir / "dir5_stream_end", frame(5, stream_id)) || !write(dir / "all_frames_pipelined", stream))
      return 1;
    written += 3;
  }
  std::printf("seed corpus: %zu seeds in %s\n", written, dir.string().c_str());
  return 0;
}
