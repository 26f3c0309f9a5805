// tests/wire/zap_http_frames.hpp — what the ZAP-HTTP (wire A) tests share: the
// golden frames of zap-transport.md §3.8 read out of the spec text at run time
// (no hex in sources) and their documented fields (kGolden), header blocks
// built apart from the codec, and small byte helpers.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "support/exact.hpp"
#include "support/vectors.hpp"
#include "wire/zap_http.hpp"

namespace zhtest {

namespace zh = wire::zaphttp;
using zaptest::bytes_of;
using zaptest::ByteVec;
using zaptest::ByteView;
using zaptest::Exact;
using zaptest::same_bytes;
using zaptest::shared_dir;

// ---- the golden frames, from the spec text -----------------------------------

struct SpecFrame {
  std::optional<std::uint32_t> prefix;  // the "NNNNNNNN|" length, where the spec shows one
  ByteVec message;
};

// Extracts §3.8's numbered items: each item's indented hex line(s), with an
// optional "NNNNNNNN|" big-endian prefix and spaces (which only mark where a
// body starts) removed. Returns an error text instead on anything unexpected.
inline std::map<int, SpecFrame> load_spec_frames(std::string& error) {
  std::map<int, SpecFrame> frames;
  const std::filesystem::path path = shared_dir() / "spec" / "zap-transport.md";
  std::ifstream in(path);
  if (!in) {
    error = "cannot open " + path.string() + " (set ZAPBENCH_SHARED to the shared directory)";
    return frames;
  }
  std::map<int, std::string> hex;
  std::string line;
  bool in_section = false;
  int item = 0;
  while (std::getline(in, line)) {
    if (line.rfind("### 3.8", 0) == 0) {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0 || line.rfind("---", 0) == 0) break;
    std::size_t digits = 0;
    while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') ++digits;
    if (digits > 0 && line.compare(digits, 2, ". ") == 0) {
      item = std::stoi(line.substr(0, digits));
      continue;
    }
    if (item == 0 || line.rfind("    ", 0) != 0) continue;
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    const std::string body = line.substr(first);
    if (body.find_first_not_of("0123456789abcdef| ") != std::string::npos) continue;
    for (char c : body)
      if (c != ' ') hex[item].push_back(c);
  }
  for (auto& [n, text] : hex) {
    SpecFrame f;
    std::string msg = text;
    if (const std::size_t bar = text.find('|'); bar != std::string::npos) {
      if (bar != 8) {
        error = "item " + std::to_string(n) + ": prefix is not 8 hex digits";
        return {};
      }
      f.prefix = static_cast<std::uint32_t>(std::stoul(text.substr(0, 8), nullptr, 16));
      msg = text.substr(9);
    }
    if (auto r = zaptest::decode_hex(msg, path.string() + " item " + std::to_string(n), f.message); !r) {
      error = r.message();
      return {};
    }
    frames[n] = std::move(f);
  }
  return frames;
}

inline const std::map<int, SpecFrame>& spec_frames() {
  static std::string error;
  static const std::map<int, SpecFrame> frames = load_spec_frames(error);
  if (!error.empty()) ADD_FAILURE() << error;
  return frames;
}

// The message of item n, failing the test if the spec lacks it.
inline ByteVec spec_message(int n) {
  const auto& frames = spec_frames();
  auto it = frames.find(n);
  if (it == frames.end()) {
    ADD_FAILURE() << "zap-transport.md §3.8 has no hex for item " << n;
    return {};
  }
  return it->second.message;
}

inline ByteVec with_prefix(ByteView message) {
  const auto n = static_cast<std::uint32_t>(message.size());
  ByteVec out(4 + message.size());
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (24 - 8 * i));
  if (!message.empty()) std::memcpy(out.data() + 4, message.data(), message.size());
  return out;
}

// The bytes on the connection: the spec's prefix where shown, else computed.
inline ByteVec spec_frame(int n) {
  const auto& frames = spec_frames();
  auto it = frames.find(n);
  if (it == frames.end()) return with_prefix(spec_message(n));
  ByteVec out = with_prefix(it->second.message);
  if (it->second.prefix) {
    EXPECT_EQ(*it->second.prefix, it->second.message.size()) << "item " << n;
  }
  return out;
}

// ---- helpers -------------------------------------------------------------------

inline std::string str(zap::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

using Pairs = std::vector<std::pair<std::string, std::string>>;

inline Pairs pairs_of(const zh::HeaderBlock& h) {
  Pairs out;
  EXPECT_TRUE(h.for_each([&](std::string_view n, std::string_view v) { out.emplace_back(n, v); }));
  return out;
}

inline std::vector<zh::Header> headers_of(const Pairs& p) {
  std::vector<zh::Header> out;
  for (const auto& [n, v] : p) out.push_back({n, v});
  return out;
}

inline void put_u16(ByteVec& v, std::size_t at, std::uint16_t x) {
  v.at(at) = static_cast<std::uint8_t>(x);
  v.at(at + 1) = static_cast<std::uint8_t>(x >> 8);
}
inline std::uint32_t get_u32(ByteView v, std::size_t at) {
  return std::uint32_t{v[at]} | std::uint32_t{v[at + 1]} << 8 | std::uint32_t{v[at + 2]} << 16 |
         std::uint32_t{v[at + 3]} << 24;
}

// Slot positions in a message whose root is at 16 (every frame here).
constexpr std::size_t kRoot = 16;
constexpr std::size_t slot_at(std::uint32_t field) { return kRoot + field; }

// A header block built independently of the codec's encoder.
inline ByteVec block_of(const Pairs& pairs, std::optional<std::uint32_t> count = std::nullopt) {
  ByteVec out;
  auto u32 = [&](std::uint32_t x) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
  };
  u32(count.value_or(static_cast<std::uint32_t>(pairs.size())));
  for (const auto& [n, v] : pairs) {
    u32(static_cast<std::uint32_t>(n.size()));
    out.insert(out.end(), n.begin(), n.end());
    u32(static_cast<std::uint32_t>(v.size()));
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

inline ByteVec readable(const net::Buffer& b) { return {b.readable().begin(), b.readable().end()}; }

// ---- golden frames: decode and re-encode ---------------------------------------

struct Golden {
  const char* name;
  int item;
  bool request;
  std::string_view method_or_reason;  // method for requests, reason for responses
  std::string_view target;            // requests only
  std::uint16_t status;               // responses only
  std::string_view proto;
  Pairs headers;
  std::string body;  // "@eth_req": the vector file's bytes
  Pairs trailer;
  std::uint32_t size_bytes;
};

inline const Golden kGolden[] = {
    {"frame1_golden_request",
     1,
     true,
     "POST",
     "/v1/blocks?height=42",
     0,
     "HTTP/1.1",
     {{"Content-Type", "application/json"}, {"X-Trace-Id", "abc-123"}},
     R"({"jsonrpc":"2.0","method":"eth_blockNumber"})",
     {},
     205},
    {"frame2_golden_response",
     2,
     false,
     "OK",
     "",
     200,
     "HTTP/1.1",
     {{"Content-Type", "application/json"}, {"X-Trace-Id", "abc-123"}},
     R"({"result":"0x2a"})",
     {},
     156},
    {"frame3_empty_get_health", 3, true, "GET", "/health", 0, "HTTP/1.1", {}, "", {}, 82},
    {"frame4_trailer_response",
     4,
     false,
     "OK",
     "",
     200,
     "HTTP/1.1",
     {{"Content-Type", "application/octet-stream"}},
     "streamed",
     {{"X-Checksum", "deadbeef"}},
     160},
    {"frame5_hello_with_host",
     5,
     true,
     "GET",
     "/health",
     0,
     "HTTP/1.1",
     {{"Host", "127.0.0.1:8391"}},
     "",
     {},
     112},
    {"frame6_hello_response",
     6,
     false,
     "OK",
     "",
     200,
     "HTTP/1.1",
     {{"Content-Type", "text/plain; charset=utf-8"}},
     "ok",
     {},
     125},
    {"frame7_rpc_request",
     7,
     true,
     "POST",
     "/rpc",
     0,
     "HTTP/1.1",
     {{"Content-Type", "application/zap"}},
     "@eth_req",
     {},
     201},
};

// gtest prints a parameter on failure; the name says which frame.
inline void PrintTo(const Golden& g, std::ostream* os) { *os << g.name; }

}  // namespace zhtest
