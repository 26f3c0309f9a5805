// tests/record/interop_capnp_test.cpp — the capnp codecs against Cap'n Proto's own packaged tool
// (Debian capnproto): what CapnpCodec / CapnpPackedCodec write, `capnp decode [--packed]` reads back
// with the same values; what `capnp encode [--packed]` writes, our decoders read. Plus the error
// cases the codecs document (codec_capnp.hpp): a short or long account / hash is bad_length, an absent
// one missing_field, a Data field of another pointer kind, garbage and cut messages syntax, bytes
// after the message trailing; and misaligned input (copied before the flat reader) decodes.
// Every file lives in the test's scratch directory (support/scratch.hpp), removed at the end.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "micro/padded.hpp"
#include "record/codecs.hpp"
#include "support/scratch.hpp"
#include "support/tools.hpp"

#ifndef ZAPBENCH_CAPNP_TOOL
#error "ZAPBENCH_CAPNP_TOOL (the capnp tool's path) is set by tests/record/CMakeLists.txt"
#endif
#ifndef ZAPBENCH_CAPNP_SCHEMA
#error "ZAPBENCH_CAPNP_SCHEMA (src/record/schemas/capnp.capnp) is set by tests/record/CMakeLists.txt"
#endif

namespace {

namespace fs = std::filesystem;
using record::DecodeError;
using record::RequestView;
using record::ResponseView;
using zaptest::quote;

// Runs the capnp tool with stdin from `in`, stdout to `out` (stderr to `out`.stderr); a failure, saying
// why, unless it ran and exited 0.
::testing::AssertionResult run_tool(const std::string& args, const fs::path& in, const fs::path& out) {
  const fs::path tool = ZAPBENCH_CAPNP_TOOL;
  if (!fs::exists(tool))
    return ::testing::AssertionFailure() << "the capnp tool is not installed at " << tool.string()
                                         << " (apt-get install capnproto, or scripts/deps.sh)";
  return zaptest::run_command(quote(tool.string()) + " " + args + " < " + quote(in.string()), out,
                              out.string() + ".stderr");
}

// ---- capnp's text format (what `capnp decode --short` prints) ---------------------------------

// The body of a capnp text string literal: C escapes, octal (\ooo) and hex (\xHH) bytes.
std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    switch (c) {
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x': {
        int v = 0;
        for (int k = 0; k < 2 && i + 1 < s.size() && record::hex::digit(s[i + 1]) >= 0; ++k)
          v = v * 16 + record::hex::digit(s[++i]);
        out += static_cast<char>(v);
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0';
          for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
            v = v * 8 + (s[++i] - '0');
          out += static_cast<char>(v);
        } else {
          out += c;  // \\ \" \'
        }
    }
  }
  return out;
}

// One struct as `capnp decode --short` prints it: (a = 1, b = "x", ...) -> {a: "1", b: "x"}
// (strings unescaped). Absent pointer fields are not printed.
std::map<std::string, std::string> parse_struct(std::string_view t) {
  std::map<std::string, std::string> out;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.remove_suffix(1);
  EXPECT_TRUE(t.size() >= 2 && t.front() == '(' && t.back() == ')') << t;
  if (t.size() < 2) return out;
  t = t.substr(1, t.size() - 2);
  std::size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && (t[i] == ' ' || t[i] == ',')) ++i;
    const std::size_t eq = t.find(" = ", i);
    if (eq == std::string_view::npos) break;
    const std::string name(t.substr(i, eq - i));
    i = eq + 3;
    if (i < t.size() && t[i] == '"') {
      std::size_t j = i + 1;
      while (j < t.size() && t[j] != '"') j += t[j] == '\\' ? 2 : 1;
      out[name] = unescape(t.substr(i + 1, j - i - 1));
      i = j + 1;
    } else {
      const std::size_t j = t.find(',', i);
      out[name] = std::string(t.substr(i, j == std::string_view::npos ? t.size() - i : j - i));
      i = j == std::string_view::npos ? t.size() : j;
    }
  }
  return out;
}

// A capnp text literal for bytes: 0x"de ad ...".
std::string data_literal(const std::uint8_t* b, std::size_t n) {
  std::string out = "0x\"";
  for (std::size_t i = 0; i < n; ++i) {
    out += record::hex::kDigits[b[i] >> 4];
    out += record::hex::kDigits[b[i] & 15];
  }
  return out + "\"";
}

std::string text_literal(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string as_string(const std::uint8_t* b, std::size_t n) { return {reinterpret_cast<const char*>(b), n}; }

// ---- the records --------------------------------------------------------------------------

std::vector<record::Request> requests() {
  record::Request other{0xFFFFFFFFFFFFFFFFULL, 0, "eth_call \"quoted\" \\ \n\t\x01 \xc3\xa9", {}};
  for (std::size_t i = 0; i < other.account.size(); ++i)
    other.account[i] = static_cast<std::uint8_t>(0xf0 - i * 7);
  return {record::sample_request(), other};
}
std::vector<record::Response> responses() {
  record::Response other{7, 0xFFFFFFFFFFFFFFFFULL, 0, {}};
  for (std::size_t i = 0; i < other.block_hash.size(); ++i)
    other.block_hash[i] = static_cast<std::uint8_t>(i * 9);
  return {record::sample_response(), other};
}

template <class C>
class CapnpInterop : public ::testing::Test {};

// The rows and the tool's flag for their framing.
struct Flat {
  using Codec = record::CapnpCodec;
  static constexpr const char* kFlag = "";
};
struct Packed {
  using Codec = record::CapnpPackedCodec;
  static constexpr const char* kFlag = " --packed";
};
using Rows = ::testing::Types<
#if ZAPBENCH_HAVE_CAPNP && ZAPBENCH_HAVE_CAPNP_PACKED
    Flat, Packed
#elif ZAPBENCH_HAVE_CAPNP
    Flat
#else
    Packed
#endif
    >;
TYPED_TEST_SUITE(CapnpInterop, Rows);

std::string schema() { return quote(ZAPBENCH_CAPNP_SCHEMA); }

// Our bytes, decoded by `capnp decode`.
template <class Row>
std::map<std::string, std::string> tool_decode(const zaptest::Scratch& dir, record::Bytes wire,
                                               const char* type) {
  const fs::path in = dir / "ours.bin", out = dir / "ours.txt";
  zaptest::write_bytes(in, wire);
  const std::string args = std::string("decode --short") + Row::kFlag + " " + schema() + " " + type;
  EXPECT_TRUE(run_tool(args, in, out));
  return parse_struct(zaptest::read_text(out));
}

// The tool's bytes for a text literal.
template <class Row>
std::string tool_encode(const zaptest::Scratch& dir, const std::string& text, const char* type,
                        const std::string& schema_arg = schema()) {
  const fs::path in = dir / "tool.txt", out = dir / "tool.bin";
  zaptest::write_bytes(in, text);
  const std::string args = std::string("encode") + Row::kFlag + " " + schema_arg + " " + type;
  EXPECT_TRUE(run_tool(args, in, out));
  return zaptest::read_text(out);
}

std::string request_text(const record::Request& r) {
  return "(id = " + std::to_string(r.id) + ", block = " + std::to_string(r.block) +
         ", method = " + text_literal(r.method) +
         ", account = " + data_literal(r.account.data(), r.account.size()) + ")";
}
std::string response_text(const record::Response& r) {
  return "(id = " + std::to_string(r.id) + ", balance = " + std::to_string(r.balance) +
         ", nonce = " + std::to_string(r.nonce) +
         ", blockHash = " + data_literal(r.block_hash.data(), r.block_hash.size()) + ")";
}

micro::Padded padded(const std::string& s) {
  return micro::Padded({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
}

TYPED_TEST(CapnpInterop, the_tool_reads_our_requests) {
  zaptest::Scratch dir("interop_capnp");
  typename TypeParam::Codec codec;
  for (const record::Request& r : requests()) {
    auto got = tool_decode<TypeParam>(dir, codec.encode_request(r), "Request");
    EXPECT_EQ(got["id"], std::to_string(r.id));
    EXPECT_EQ(got["block"], std::to_string(r.block));
    EXPECT_EQ(got["method"], r.method);
    EXPECT_EQ(got["account"], as_string(r.account.data(), r.account.size()));
  }
}

TYPED_TEST(CapnpInterop, the_tool_reads_our_responses) {
  zaptest::Scratch dir("interop_capnp");
  typename TypeParam::Codec codec;
  for (const record::Response& r : responses()) {
    auto got = tool_decode<TypeParam>(dir, codec.encode_response(r), "Response");
    EXPECT_EQ(got["id"], std::to_string(r.id));
    EXPECT_EQ(got["balance"], std::to_string(r.balance));
    EXPECT_EQ(got["nonce"], std::to_string(r.nonce));
    EXPECT_EQ(got["blockHash"], as_string(r.block_hash.data(), r.block_hash.size()));
  }
}

TYPED_TEST(CapnpInterop, we_read_the_tools_messages) {
  zaptest::Scratch dir("interop_capnp");
  typename TypeParam::Codec codec;
  for (const record::Request& r : requests()) {
    const micro::Padded wire = padded(tool_encode<TypeParam>(dir, request_text(r), "Request"));
    RequestView v;
    ASSERT_EQ(codec.decode_request(wire.bytes(), v), DecodeError::ok);
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.block, r.block);
    EXPECT_EQ(v.method, r.method);
    EXPECT_EQ(v.account, as_string(r.account.data(), r.account.size()));
    EXPECT_EQ(v.account0, r.account[0]);
  }
  for (const record::Response& r : responses()) {
    const micro::Padded wire = padded(tool_encode<TypeParam>(dir, response_text(r), "Response"));
    ResponseView v;
    ASSERT_EQ(codec.decode_response(wire.bytes(), v), DecodeError::ok);
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.balance, r.balance);
    EXPECT_EQ(v.nonce, r.nonce);
    EXPECT_EQ(v.block_hash, as_string(r.block_hash.data(), r.block_hash.size()));
  }
}

TYPED_TEST(CapnpInterop, data_fields_have_their_exact_length_and_must_be_present) {
  zaptest::Scratch dir("interop_capnp");
  typename TypeParam::Codec codec;
  const std::uint8_t bytes[40] = {0xde, 0xad};
  auto request = [&](const std::string& text) {
    RequestView v;
    return codec.decode_request(padded(tool_encode<TypeParam>(dir, text, "Request")).bytes(), v);
  };
  auto response = [&](const std::string& text) {
    ResponseView v;
    return codec.decode_response(padded(tool_encode<TypeParam>(dir, text, "Response")).bytes(), v);
  };
  EXPECT_EQ(request("(id = 1, method = \"m\", account = " + data_literal(bytes, 20) + ")"), DecodeError::ok);
  EXPECT_EQ(request("(id = 1, method = \"m\", account = " + data_literal(bytes, 19) + ")"),
            DecodeError::bad_length);
  EXPECT_EQ(request("(id = 1, method = \"m\", account = " + data_literal(bytes, 21) + ")"),
            DecodeError::bad_length);
  EXPECT_EQ(request("(id = 1, method = \"m\", account = \"\")"), DecodeError::bad_length);  // present, empty
  EXPECT_EQ(request("(id = 1, block = 2, method = \"m\")"), DecodeError::missing_field);
  EXPECT_EQ(request("(account = " + data_literal(bytes, 20) + ")"),
            DecodeError::ok);  // integers, method: defaults
  EXPECT_EQ(response("(id = 1, blockHash = " + data_literal(bytes, 32) + ")"), DecodeError::ok);
  EXPECT_EQ(response("(id = 1, blockHash = " + data_literal(bytes, 31) + ")"), DecodeError::bad_length);
  EXPECT_EQ(response("(id = 1, blockHash = " + data_literal(bytes, 33) + ")"), DecodeError::bad_length);
  EXPECT_EQ(response("(id = 1, balance = 2, nonce = 3)"), DecodeError::missing_field);
}

// A Data field that is another kind of pointer on the wire (a struct): capnp throws a schema
// mismatch, which is syntax.
TYPED_TEST(CapnpInterop, a_data_field_of_another_pointer_kind_is_syntax) {
  zaptest::Scratch dir("interop_capnp");
  const fs::path other = dir / "other.capnp";
  zaptest::write_bytes(
      other,
      "@0xd1f0c3a6b1e2f301;\n"
      "struct Inner { a @0 :UInt64; }\n"
      "struct Request { id @0 :UInt64; block @1 :UInt64; method @2 :Text; account @3 :Inner; }\n");
  typename TypeParam::Codec codec;
  RequestView v;
  const std::string wire = tool_encode<TypeParam>(dir, "(id = 1, method = \"m\", account = (a = 5))",
                                                  "Request", quote(other.string()));
  ASSERT_FALSE(wire.empty());
  EXPECT_EQ(codec.decode_request(padded(wire).bytes(), v), DecodeError::syntax);
}

TYPED_TEST(CapnpInterop, garbage_cut_and_trailing_bytes_are_errors) {
  typename TypeParam::Codec codec;
  RequestView v;
  ResponseView rv;
  const std::string garbage(16, '\xff');
  EXPECT_EQ(codec.decode_request(padded(garbage).bytes(), v), DecodeError::syntax);
  EXPECT_EQ(codec.decode_response(padded(garbage).bytes(), rv), DecodeError::syntax);
  EXPECT_EQ(codec.decode_request(padded("").bytes(), v), DecodeError::syntax);
  const record::Bytes w = codec.encode_request(record::sample_request());
  const std::string wire = as_string(w.data(), w.size());
  EXPECT_EQ(codec.decode_request(padded(wire.substr(0, wire.size() - 1)).bytes(), v), DecodeError::syntax);
  EXPECT_EQ(codec.decode_request(padded(wire.substr(0, wire.size() - 8)).bytes(), v), DecodeError::syntax);
  EXPECT_EQ(codec.decode_request(padded(wire + std::string(8, '\0')).bytes(), v), DecodeError::trailing);
  EXPECT_EQ(codec.decode_request(padded(wire + wire).bytes(), v), DecodeError::trailing);
}

// Network buffers are not word-aligned: the flat reader gets an aligned copy, the packed reader
// unpacks into its scratch; either way every offset decodes the same.
TYPED_TEST(CapnpInterop, misaligned_input_decodes) {
  typename TypeParam::Codec codec;
  const record::Bytes w = codec.encode_request(record::sample_request());
  const std::string wire = as_string(w.data(), w.size());
  for (std::size_t offset = 0; offset < 8; ++offset) {
    const micro::Padded buf = padded(std::string(offset, 'x') + wire);
    RequestView v;
    ASSERT_EQ(codec.decode_request(buf.bytes().subspan(offset), v), DecodeError::ok) << offset;
    EXPECT_EQ(v.id, record::kSampleId);
    EXPECT_EQ(v.method, record::kSampleMethod);
    EXPECT_EQ(v.account0, record::kSampleAccount[0]);
  }
}

// A packed message larger than the reader's scratch lands in the reader's own array, which dies
// with it: the views must still hold (the packed State keeps copies, then grows its scratch).
TYPED_TEST(CapnpInterop, a_large_message_keeps_its_views) {
  typename TypeParam::Codec codec;
  record::Request r = record::sample_request();
  const std::string method(5000, 'm');
  r.method = method;
  for (int round = 0; round < 2; ++round) {
    const micro::Padded wire(codec.encode_request(r));
    RequestView v;
    ASSERT_EQ(codec.decode_request(wire.bytes(), v), DecodeError::ok);
    EXPECT_EQ(v.method, method);
    EXPECT_EQ(v.account, as_string(r.account.data(), r.account.size()));
  }
}

}  // namespace
