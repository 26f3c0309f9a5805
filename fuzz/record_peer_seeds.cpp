// fuzz/record_peer_seeds.cpp — the seed corpus of the binary peers' fuzz
// targets, written at build time by the peers' own encoders (no format's
// bytes are kept in this repository): for each available binary peer, a few
// requests and responses into OUT/<codec>/, and all of them into OUT/all/ for
// the cross-codec differential. And for every codec with the eth_getLogs
// record (ZAP and JSON too), its logs requests and answers (0, 1, 3 and 20
// logs) into OUT/logs/<codec>/, which that codec's target also starts from
// (a trusted-input codec's target reads them as values, as any input).
//   record_peer_seeds OUT
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "record/codecs.hpp"
#include "record/logs.hpp"

namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, record::Bytes b) {
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!out) {
    std::fprintf(stderr, "record_peer_seeds: cannot write %s\n", file.c_str());
    std::exit(1);
  }
}

// Values that reach different encodings: the sample, zeros (defaults a format
// may omit), the largest integers, an empty and a long method.
std::vector<record::Request> requests() {
  record::Request zero{};
  record::Request big{~0ULL, ~0ULL, "eth_getTransactionReceiptWithAVeryLongMethodName_0123456789", {}};
  big.account.fill(0xff);
  return {record::sample_request(), zero, big};
}
std::vector<record::Response> responses() {
  record::Response zero{};
  record::Response big{~0ULL, ~0ULL, ~0ULL, {}};
  big.block_hash.fill(0xff);
  return {record::sample_response(), zero, big};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: record_peer_seeds OUT\n");
    return 2;
  }
  const fs::path out = argv[1];
  fs::create_directories(out / "all");
  record::AvailableCodecs::for_each([&]<class C>() {
    const fs::path dir = out / "logs" / std::string(C::kName);
    fs::create_directories(dir);  // every codec's target reads it, empty or not
    {
      C codec;
      for (std::uint32_t n : {0u, 1u, 3u, 20u}) {
        record::LogSet set;
        record::generate(record::sample_logs_request(n), set);
        write(dir / ("logs_req" + std::to_string(n)), codec.encode_logs_request(set.request));
        write(dir / ("logs_resp" + std::to_string(n)), codec.encode_logs(set.logs));
      }
    }
    if constexpr (matrix::family_of(C::kContentType) == matrix::Family::peer) {
      C codec;
      const std::string name(C::kName);
      fs::create_directories(out / name);
      int k = 0;
      for (const record::Request& r : requests()) {
        const std::string file = name + "_req" + std::to_string(k++);
        write(out / name / file, codec.encode_request(r));
        write(out / "all" / file, codec.encode_request(r));
      }
      k = 0;
      for (const record::Response& r : responses()) {
        const std::string file = name + "_resp" + std::to_string(k++);
        write(out / name / file, codec.encode_response(r));
        write(out / "all" / file, codec.encode_response(r));
      }
    }
  });
  return 0;
}
