// tests/wire/zap_rpc_frames.hpp — what the ZAP-RPC (wire B) tests share: frames
// built by hand from the spec (not by the codec), the envelope's slot positions,
// a decode of an exact-size copy that returns only its error, byte helpers.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "record/codecs_table.hpp"
#include "support/exact.hpp"
#include "support/vectors.hpp"
#include "wire/client_wires.hpp"
#include "wire/zap_rpc.hpp"

namespace zrtest {

namespace zr = wire::zaprpc;
using zaptest::bytes_of;
using zaptest::ByteVec;
using zaptest::ByteView;
using zaptest::Exact;
using zaptest::same_bytes;
using Status = zr::FrameScan::Status;

// ---- helpers -------------------------------------------------------------------

inline ByteVec readable(const net::Buffer& b) { return {b.readable().begin(), b.readable().end()}; }

// The unread byte at `at`, to patch in place (what a client does to the frame it built).
inline std::uint8_t* writable_at(net::Buffer& b, std::size_t at) {
  return const_cast<std::uint8_t*>(b.readable().data()) + at;
}

inline std::uint32_t get_u32(ByteView v, std::size_t at) {
  return std::uint32_t{v[at]} | std::uint32_t{v[at + 1]} << 8 | std::uint32_t{v[at + 2]} << 16 |
         std::uint32_t{v[at + 3]} << 24;
}

// A frame built by hand from the spec (§5.2), not by the codec: u32 LE L = 1 +
// the body's size, the direction byte, the body.
inline ByteVec frame_of(std::uint8_t dir, ByteView body) {
  const auto l = static_cast<std::uint32_t>(body.size() + 1);
  ByteVec f;
  f.reserve(5 + body.size());
  for (int i = 0; i < 4; ++i) f.push_back(static_cast<std::uint8_t>(l >> (8 * i)));
  f.push_back(dir);
  f.insert(f.end(), body.begin(), body.end());
  return f;
}

// Where a slot's bytes lie in the envelope, or nullopt for a null slot.
inline std::optional<std::size_t> offset_in(ByteView whole, zap::Bytes part) {
  if (part.data() == nullptr) return std::nullopt;
  return static_cast<std::size_t>(part.data() - whole.data());
}

// Absolute positions of the slots (the root is at 16 in every envelope here).
constexpr std::size_t kRoot = zap::kHeaderBytes;
constexpr std::size_t kCapSlot = kRoot + zr::RequestLayout::cap;
constexpr std::size_t kPayloadSlot = kRoot + zr::RequestLayout::payload;
constexpr std::size_t kBodySlot = kRoot + zr::ResponseLayout::body;

inline zr::EnvelopeError request_error(ByteView envelope) {
  const Exact exact(envelope);
  zr::Request r;
  return zr::decode_request(exact.view(), r);
}
inline zr::EnvelopeError response_error(ByteView envelope) {
  const Exact exact(envelope);
  zr::Response r;
  return zr::decode_response(exact.view(), r);
}

inline ByteVec prefix_only(std::uint32_t l) {
  ByteVec f(4);
  zaptest::put_u32(f, 0, l);
  return f;
}

}  // namespace zrtest
