// tests/record/interop_protobuf_test.cpp — the protobuf codecs (protobuf, protobuf-arena) against the
// format's own tool: what our encoders write, `protoc --decode` (Debian protobuf-compiler, the protoc the
// build generated the messages with) reads back as the same values in text format; what
// `protoc --encode` writes from text format, our decoders read as the same values. Plus the errors the
// codec documents (record/codec_protobuf.cpp): a byte field of the wrong length is bad_length, an absent
// (or empty) one missing_field, anything protobuf's parser rejects (garbage, invalid UTF-8 in `method`)
// syntax. Files go to the test's scratch directory (support/scratch.hpp), removed when it ends.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "micro/padded.hpp"
#include "record/codec_protobuf.hpp"
#include "record/record.hpp"
#include "support/scratch.hpp"
#include "support/tools.hpp"

#ifndef ZAPBENCH_PROTOC
#error "ZAPBENCH_PROTOC (the protoc path) comes from tests/record/CMakeLists.txt"
#endif

namespace {

namespace fs = std::filesystem;
using record::DecodeError;
using zaptest::hex;

// ---- protoc -------------------------------------------------------------------------

// Runs `protoc --<mode>=zapbench.<type>` on the schema, stdin from `in`, stdout to `out`; false (with
// protoc's stderr as the failure's text) when it fails or is missing.
::testing::AssertionResult protoc(const zaptest::Scratch& dir, std::string_view mode, std::string_view type,
                                  std::string_view in, std::string& out) {
  if (::access(ZAPBENCH_PROTOC, X_OK) != 0)
    return ::testing::AssertionFailure() << ZAPBENCH_PROTOC << " is missing: the interop test needs protoc "
                                         << "(scripts/deps.sh installs protobuf-compiler)";
  const fs::path schema = ZAPBENCH_PROTOBUF_SCHEMA;
  const fs::path in_file = dir / "in", out_file = dir / "out", err_file = dir / "err";
  zaptest::write_bytes(in_file, in);
  const std::string cmd = zaptest::quote(ZAPBENCH_PROTOC) + " --" + std::string(mode) + "=zapbench." +
                          std::string(type) +
                          " --proto_path=" + zaptest::quote(schema.parent_path().string()) + " " +
                          zaptest::quote(schema.string()) + " <" + zaptest::quote(in_file.string());
  ::testing::AssertionResult ran = zaptest::run_command(cmd, out_file, err_file);
  out = zaptest::read_text(out_file);
  return ran;
}

// ---- text format, as protoc prints it -------------------------------------------------

// One message in text format, as protoc --decode prints a flat one: `name: value` per line, strings
// and bytes in double quotes with C escapes (\ooo octal, \" \' \\ \n \r \t); fields at their default
// are not printed. Values are kept unescaped, as bytes.
std::map<std::string, std::string> parse_text(std::string_view text) {
  std::map<std::string, std::string> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t eol = text.find('\n', i);
    const std::string_view line = text.substr(i, eol == std::string_view::npos ? text.npos : eol - i);
    i = eol == std::string_view::npos ? text.size() : eol + 1;
    const std::size_t colon = line.find(": ");
    if (colon == std::string_view::npos) continue;
    const std::string name(line.substr(0, colon));
    std::string_view v = line.substr(colon + 2);
    std::string value;
    if (!v.empty() && v.front() == '"') {
      v = v.substr(1, v.size() >= 2 ? v.size() - 2 : 0);
      for (std::size_t k = 0; k < v.size(); ++k) {
        if (v[k] != '\\' || k + 1 == v.size()) {
          value += v[k];
          continue;
        }
        const char c = v[++k];
        if (c >= '0' && c <= '7') {
          int n = 0, digits = 0;
          while (digits < 3 && k < v.size() && v[k] >= '0' && v[k] <= '7')
            n = n * 8 + (v[k++] - '0'), ++digits;
          --k;
          value += static_cast<char>(n);
        } else {
          value += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;  // \" \' \\ stand for themselves
        }
      }
    } else {
      value = std::string(v);
    }
    fields[name] = value;
  }
  return fields;
}

// A byte string as text-format escapes, for protoc --encode: every byte as \ooo.
std::string escaped(std::string_view bytes) {
  static constexpr char kOct[] = "01234567";
  std::string out = "\"";
  for (const char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    out += '\\';
    out += kOct[b >> 6];
    out += kOct[(b >> 3) & 7];
    out += kOct[b & 7];
  }
  return out + "\"";
}

std::string number_or_default(const std::map<std::string, std::string>& m, const std::string& name) {
  const auto it = m.find(name);
  return it == m.end() ? "0" : it->second;
}
std::string bytes_or_default(const std::map<std::string, std::string>& m, const std::string& name) {
  const auto it = m.find(name);
  return it == m.end() ? "" : it->second;
}

std::string as_string(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// ---- the records ---------------------------------------------------------------------------

// The sample, and one whose integers reach the varint's extremes (0 is not written at all, ~0 takes ten
// bytes), whose method is non-ASCII UTF-8 with quotes and a backslash, and whose byte fields hold every
// byte class text format escapes.
record::Request other_request() {
  record::Request r{~0ULL, 0, "eth_call \"\xC3\xA9\\\" \xE2\x82\xAC", {}};
  for (std::size_t i = 0; i < r.account.size(); ++i) r.account[i] = static_cast<std::uint8_t>(i * 37 + 34);
  return r;
}
record::Response other_response() {
  record::Response r{0, ~0ULL, 1ULL << 63, {}};
  for (std::size_t i = 0; i < r.block_hash.size(); ++i)
    r.block_hash[i] = static_cast<std::uint8_t>(255 - i * 7);
  return r;
}

template <class C>
class ProtobufInterop : public ::testing::Test {};
using Codecs = ::testing::Types<record::ProtobufCodec, record::ProtobufArenaCodec>;
TYPED_TEST_SUITE(ProtobufInterop, Codecs);

// ---- ours → protoc --decode -----------------------------------------------------------------

TYPED_TEST(ProtobufInterop, protoc_decodes_our_requests) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  for (const record::Request& r : {record::sample_request(), other_request()}) {
    std::string text;
    ASSERT_TRUE(protoc(dir, "decode", "Request", as_string(codec.encode_request(r)), text));
    const auto m = parse_text(text);
    EXPECT_EQ(number_or_default(m, "id"), std::to_string(r.id)) << text;
    EXPECT_EQ(number_or_default(m, "block"), std::to_string(r.block)) << text;
    EXPECT_EQ(bytes_or_default(m, "method"), r.method) << text;
    EXPECT_EQ(hex(bytes_or_default(m, "account")), hex(r.account)) << text;
    EXPECT_EQ(m.size(), (r.id != 0) + (r.block != 0) + !r.method.empty() + 1u) << "unexpected fields:\n"
                                                                               << text;
  }
}

TYPED_TEST(ProtobufInterop, protoc_decodes_our_responses) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  for (const record::Response& r : {record::sample_response(), other_response()}) {
    std::string text;
    ASSERT_TRUE(protoc(dir, "decode", "Response", as_string(codec.encode_response(r)), text));
    const auto m = parse_text(text);
    EXPECT_EQ(number_or_default(m, "id"), std::to_string(r.id)) << text;
    EXPECT_EQ(number_or_default(m, "balance"), std::to_string(r.balance)) << text;
    EXPECT_EQ(number_or_default(m, "nonce"), std::to_string(r.nonce)) << text;
    EXPECT_EQ(hex(bytes_or_default(m, "block_hash")), hex(r.block_hash)) << text;
  }
}

// ---- protoc --encode → ours -------------------------------------------------------------------

TYPED_TEST(ProtobufInterop, we_decode_what_protoc_encodes) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  for (const record::Request& r : {record::sample_request(), other_request()}) {
    const std::string account(reinterpret_cast<const char*>(r.account.data()), r.account.size());
    // Fields out of number order, as text format allows: the parser takes any order.
    const std::string text = "account: " + escaped(account) + "\nmethod: " + escaped(r.method) +
                             "\nblock: " + std::to_string(r.block) + "\nid: " + std::to_string(r.id) + "\n";
    std::string wire;
    ASSERT_TRUE(protoc(dir, "encode", "Request", text, wire));
    record::RequestView v;
    ASSERT_EQ(
        codec.decode_request(
            micro::Padded(record::Bytes{reinterpret_cast<const std::uint8_t*>(wire.data()), wire.size()})
                .bytes(),
            v),
        DecodeError::ok);
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.block, r.block);
    EXPECT_EQ(v.method, r.method);
    EXPECT_EQ(hex(v.account), hex(r.account));
    EXPECT_EQ(v.account0, r.account[0]);
    EXPECT_EQ(v.account_form, record::Form::raw);
  }
  for (const record::Response& r : {record::sample_response(), other_response()}) {
    const std::string hash(reinterpret_cast<const char*>(r.block_hash.data()), r.block_hash.size());
    const std::string text = "id: " + std::to_string(r.id) + "\nbalance: " + std::to_string(r.balance) +
                             "\nnonce: " + std::to_string(r.nonce) + "\nblock_hash: " + escaped(hash) + "\n";
    std::string wire;
    ASSERT_TRUE(protoc(dir, "encode", "Response", text, wire));
    record::ResponseView v;
    ASSERT_EQ(
        codec.decode_response(
            micro::Padded(record::Bytes{reinterpret_cast<const std::uint8_t*>(wire.data()), wire.size()})
                .bytes(),
            v),
        DecodeError::ok);
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.balance, r.balance);
    EXPECT_EQ(v.nonce, r.nonce);
    EXPECT_EQ(hex(v.block_hash), hex(r.block_hash));
  }
}

// ---- the documented errors -------------------------------------------------------------------

DecodeError decode_request_bytes(auto& codec, std::string_view wire) {
  record::RequestView v;
  return codec.decode_request(
      micro::Padded(record::Bytes{reinterpret_cast<const std::uint8_t*>(wire.data()), wire.size()}).bytes(),
      v);
}
DecodeError decode_response_bytes(auto& codec, std::string_view wire) {
  record::ResponseView v;
  return codec.decode_response(
      micro::Padded(record::Bytes{reinterpret_cast<const std::uint8_t*>(wire.data()), wire.size()}).bytes(),
      v);
}

TYPED_TEST(ProtobufInterop, byte_fields_of_the_wrong_length_or_absent) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  const std::string head = "id: 1\nblock: 2\nmethod: \"eth_getBalance\"\n";
  struct Case {
    std::string text;
    DecodeError want;
  };
  const Case requests[] = {
      {head + "account: " + escaped(std::string(20, '\x01')), DecodeError::ok},
      {head + "account: " + escaped(std::string(19, '\x01')), DecodeError::bad_length},
      {head + "account: " + escaped(std::string(21, '\x01')), DecodeError::bad_length},
      {head, DecodeError::missing_field},
      {head + "account: \"\"", DecodeError::missing_field},  // proto3: empty bytes is absent on the wire
  };
  for (const Case& c : requests) {
    std::string wire;
    ASSERT_TRUE(protoc(dir, "encode", "Request", c.text, wire));
    EXPECT_EQ(decode_request_bytes(codec, wire), c.want) << c.text;
  }
  const std::string rhead = "id: 1\nbalance: 2\nnonce: 3\n";
  const Case responses[] = {
      {rhead + "block_hash: " + escaped(std::string(32, '\x02')), DecodeError::ok},
      {rhead + "block_hash: " + escaped(std::string(31, '\x02')), DecodeError::bad_length},
      {rhead + "block_hash: " + escaped(std::string(33, '\x02')), DecodeError::bad_length},
      {rhead, DecodeError::missing_field},
  };
  for (const Case& c : responses) {
    std::string wire;
    ASSERT_TRUE(protoc(dir, "encode", "Response", c.text, wire));
    EXPECT_EQ(decode_response_bytes(codec, wire), c.want) << c.text;
  }
}

// Hand-made wire bytes: a tag is (field number << 3 | wire type); 0x22 is field 4 length-delimited.
TYPED_TEST(ProtobufInterop, malformed_input_is_syntax) {
  TypeParam codec;
  const std::string account = "\x22\x14" + std::string(20, '\x01');
  EXPECT_EQ(decode_request_bytes(codec, "\x08\x01" + account), DecodeError::ok);
  // Invalid UTF-8 in `method` (field 3): proto3 strings must be UTF-8, the parser rejects it.
  EXPECT_EQ(decode_request_bytes(codec, std::string("\x1a\x01\xff", 3) + account), DecodeError::syntax);
  EXPECT_EQ(decode_request_bytes(codec, std::string("\x1a\x02\xc3\x28", 4) + account), DecodeError::syntax);
  // Garbage: a varint of eleven continuation bytes, wire types 6 and 7, field number 0.
  EXPECT_EQ(decode_request_bytes(codec, std::string(11, '\xff')), DecodeError::syntax);
  EXPECT_EQ(decode_request_bytes(codec, "\x0e\x01" + account), DecodeError::syntax);
  EXPECT_EQ(decode_request_bytes(codec, "\x0f\x01" + account), DecodeError::syntax);
  EXPECT_EQ(decode_request_bytes(codec, std::string("\x00\x01", 2) + account), DecodeError::syntax);
  // A length past the end, and an end-group with no group open.
  EXPECT_EQ(decode_request_bytes(codec, "\x22\x15" + std::string(20, '\x01')), DecodeError::syntax);
  EXPECT_EQ(decode_request_bytes(codec, "\x0c" + account), DecodeError::syntax);
  EXPECT_EQ(decode_response_bytes(codec, std::string("\xff\xff\xff", 3)), DecodeError::syntax);
  // The account under a varint wire type is an unknown field to protobuf's parser (kept, not an error),
  // so the account is absent.
  EXPECT_EQ(decode_request_bytes(codec, "\x08\x01\x20\x01"), DecodeError::missing_field);
  // A field given twice keeps the last value (the encoding spec's rule for non-repeated fields).
  record::RequestView v;
  const std::string twice = "\x08\x01\x08\x07" + account;
  ASSERT_EQ(
      codec.decode_request(
          micro::Padded(record::Bytes{reinterpret_cast<const std::uint8_t*>(twice.data()), twice.size()})
              .bytes(),
          v),
      DecodeError::ok);
  EXPECT_EQ(v.id, 7u);
}

}  // namespace
