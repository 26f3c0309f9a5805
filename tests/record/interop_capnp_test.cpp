// tests/record/interop_capnp_test.cpp — the capnp codecs against Cap'n Proto's own packaged tool
// (Debian capnproto): what CapnpCodec / CapnpPackedCodec write, `capnp decode [--packed]` reads back
// with the same values; what `capnp encode [--packed]` writes, our decoders read. Plus the error
// cases the codecs document (codec_capnp.hpp): a short or long account / hash is bad_length, an absent
// one missing_field, a Data field of another pointer kind, garbage and cut messages syntax, bytes
// after the message trailing; and misaligned input (copied before the flat reader) decodes. The same
// for the eth_getLogs record (record/logs.hpp): the tool reads our LogsRequest and our answer of two
// logs (a List(Log), topics a List(Data)) as the same values, we read the tool's; a topic of 31
// bytes, five topics or a short address are bad_length, an absent address or transaction hash
// missing_field.
// Every file lives in the test's scratch directory (support/scratch.hpp), removed at the end.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "micro/padded.hpp"
#include "record/codecs.hpp"
#include "record/logs.hpp"
#include "support/logs.hpp"
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

// ---- the eth_getLogs record --------------------------------------------------------------------

// One value of `capnp decode --short`'s text: a struct (fields by name), a list, or a number, a
// keyword or a string (unescaped).
struct TextValue {
  std::map<std::string, TextValue> fields;
  std::vector<TextValue> items;
  std::string scalar;
};

TextValue parse_value(std::string_view t, std::size_t& i) {
  TextValue v;
  auto skip = [&] {
    while (i < t.size() && (t[i] == ' ' || t[i] == ',' || t[i] == '\n')) ++i;
  };
  skip();
  if (i >= t.size()) return v;
  if (t[i] == '(') {
    for (++i, skip(); i < t.size() && t[i] != ')'; skip()) {
      const std::size_t eq = t.find(" = ", i);
      if (eq == std::string_view::npos) break;
      const std::string name(t.substr(i, eq - i));
      i = eq + 3;
      v.fields[name] = parse_value(t, i);
    }
    ++i;
  } else if (t[i] == '[') {
    for (++i, skip(); i < t.size() && t[i] != ']'; skip()) v.items.push_back(parse_value(t, i));
    ++i;
  } else if (t[i] == '"') {
    std::size_t j = i + 1;
    while (j < t.size() && t[j] != '"') j += t[j] == '\\' ? 2 : 1;
    v.scalar = unescape(t.substr(i + 1, j - i - 1));
    i = j + 1;
  } else {
    const std::size_t j = t.find_first_of(",)]", i);
    v.scalar = std::string(t.substr(i, j == std::string_view::npos ? t.size() - i : j - i));
    i = j == std::string_view::npos ? t.size() : j;
  }
  return v;
}

TextValue parse_text_value(std::string_view t) {
  std::size_t i = 0;
  return parse_value(t, i);
}

std::string as_string(record::Bytes b) { return as_string(b.data(), b.size()); }

record::LogSet sample_logs(std::uint32_t n) {
  record::LogSet s;
  record::generate(record::sample_logs_request(n), s);
  return s;
}

std::vector<std::string> topics_of(const record::Log& l) {
  std::vector<std::string> out;
  for (std::size_t t = 0; t < l.topic_count(); ++t)
    out.push_back(as_string(l.topics.subspan(t * record::kTopicBytes, record::kTopicBytes)));
  return out;
}

// A Log as a text literal for `capnp encode`, its topics given apart (any number, any length); empty
// topics and data are left out, as the encoder leaves them null.
std::string log_text(const record::Log& l, const std::vector<std::string>& topics) {
  std::string t = "(address = " + data_literal(l.address.data(), l.address.size());
  if (!topics.empty()) {
    t += ", topics = [";
    for (std::size_t i = 0; i < topics.size(); ++i)
      t += (i ? ", " : "") +
           data_literal(reinterpret_cast<const std::uint8_t*>(topics[i].data()), topics[i].size());
    t += "]";
  }
  if (!l.data.empty()) t += ", data = " + data_literal(l.data.data(), l.data.size());
  return t + ", blockNumber = " + std::to_string(l.block_number) +
         ", transactionHash = " + data_literal(l.tx_hash.data(), l.tx_hash.size()) +
         ", transactionIndex = " + std::to_string(l.tx_index) +
         ", logIndex = " + std::to_string(l.log_index) + ", removed = " + (l.removed ? "true" : "false") +
         ")";
}
std::string logs_text(const std::vector<std::string>& logs) {
  std::string t = "(logs = [";
  for (std::size_t i = 0; i < logs.size(); ++i) t += (i ? ", " : "") + logs[i];
  return t + "])";
}

TYPED_TEST(CapnpInterop, the_tool_reads_our_logs_request_and_answer) {
  zaptest::Scratch dir("interop_capnp");
  typename TypeParam::Codec codec;
  const record::LogsRequest q = record::sample_logs_request(2);
  auto req = tool_decode<TypeParam>(dir, codec.encode_logs_request(q), "LogsRequest");
  EXPECT_EQ(req["fromBlock"], std::to_string(q.from_block));
  EXPECT_EQ(req["toBlock"], std::to_string(q.to_block));
  EXPECT_EQ(req["address"], as_string(q.address.data(), q.address.size()));
  EXPECT_EQ(req["limit"], std::to_string(q.limit));

  const record::LogSet set = sample_logs(2);
  const fs::path in = dir / "logs.bin", out = dir / "logs.txt";
  zaptest::write_bytes(in, codec.encode_logs(set.logs));
  ASSERT_TRUE(
      run_tool(std::string("decode --short") + TypeParam::kFlag + " " + schema() + " LogsResponse", in, out));
  const std::string text = zaptest::read_text(out);
  const TextValue root = parse_text_value(text);
  ASSERT_EQ(root.fields.count("logs"), 1u) << text;
  const std::vector<TextValue>& logs = root.fields.at("logs").items;
  ASSERT_EQ(logs.size(), set.logs.size()) << text;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const record::Log& l = set.logs[i];
    const std::map<std::string, TextValue>& f = logs[i].fields;
    SCOPED_TRACE("log " + std::to_string(i) + " of " + text);
    EXPECT_EQ(f.at("address").scalar, as_string(l.address.data(), l.address.size()));
    std::vector<std::string> topics;
    if (f.count("topics"))
      for (const TextValue& t : f.at("topics").items) topics.push_back(t.scalar);
    EXPECT_EQ(topics, topics_of(l));
    EXPECT_EQ(f.count("data") ? f.at("data").scalar : "", as_string(l.data));
    EXPECT_EQ(f.at("blockNumber").scalar, std::to_string(l.block_number));
    EXPECT_EQ(f.at("transactionHash").scalar, as_string(l.tx_hash.data(), l.tx_hash.size()));
    EXPECT_EQ(f.at("transactionIndex").scalar, std::to_string(l.tx_index));
    EXPECT_EQ(f.at("logIndex").scalar, std::to_string(l.log_index));
    EXPECT_EQ(f.at("removed").scalar, l.removed ? "true" : "false");
  }
}

TYPED_TEST(CapnpInterop, we_read_the_tools_logs) {
  zaptest::Scratch dir("interop_capnp");
  typename TypeParam::Codec codec;
  const record::LogSet set = sample_logs(2);
  const record::LogsRequest& q = set.request;
  const micro::Padded req = padded(tool_encode<TypeParam>(
      dir,
      "(fromBlock = " + std::to_string(q.from_block) + ", toBlock = " + std::to_string(q.to_block) +
          ", address = " + data_literal(q.address.data(), q.address.size()) + ", limit = 2)",
      "LogsRequest"));
  record::LogsRequest back;
  ASSERT_EQ(codec.decode_logs_request(req.bytes(), back), DecodeError::ok);
  EXPECT_EQ(back, q);

  std::vector<std::string> logs;
  for (const record::Log& l : set.logs) logs.push_back(log_text(l, topics_of(l)));
  const micro::Padded in = padded(tool_encode<TypeParam>(dir, logs_text(logs), "LogsResponse"));
  zaptest::expect_reads_as(codec, in.bytes(), set.logs);
}

// Every Data field's length and presence, checked by the decoder (capnp has no fixed-size data); the
// bad log comes second, after a good one.
TYPED_TEST(CapnpInterop, logs_of_the_wrong_lengths_or_absent_fields) {
  zaptest::Scratch dir("interop_capnp");
  typename TypeParam::Codec codec;
  const record::LogSet set = sample_logs(1);  // holds the bytes the log's topics and data point into
  const record::Log& log = set.logs[0];
  const std::string good = log_text(log, topics_of(log));
  const std::string topic(32, '\x07');
  std::string no_address = log_text(log, {topic});
  no_address.erase(1, no_address.find(", ") + 1);  // "(address = 0x\"…\", " out
  std::string no_hash = log_text(log, {topic});
  const std::size_t hash_at = no_hash.find(", transactionHash");
  no_hash.erase(hash_at, no_hash.find(", transactionIndex") - hash_at);
  std::string short_address_text = log_text(log, {topic});
  short_address_text.replace(short_address_text.find(data_literal(log.address.data(), 20)),
                             data_literal(log.address.data(), 20).size(),
                             data_literal(log.address.data(), 19));
  struct Case {
    std::string text;
    DecodeError want;
  };
  const Case cases[] = {
      {log_text(log, {}), DecodeError::ok},
      {log_text(log, {topic, topic, topic, topic}), DecodeError::ok},
      {log_text(log, {topic, topic, topic, topic, topic}), DecodeError::bad_length},
      {log_text(log, {topic.substr(0, 31)}), DecodeError::bad_length},
      {log_text(log, {topic, topic + '\x07'}), DecodeError::bad_length},
      {short_address_text, DecodeError::bad_length},
      {no_address, DecodeError::missing_field},
      {no_hash, DecodeError::missing_field},
  };
  for (const Case& c : cases) {
    const micro::Padded in = padded(tool_encode<TypeParam>(dir, logs_text({good, c.text}), "LogsResponse"));
    record::LogsDigest d;
    EXPECT_EQ(codec.logs_decode_all(in.bytes(), d), c.want) << c.text;
    // AccessOne reads log 1's transaction hash only; ScanField its block number only.
    record::LogPick pick;
    EXPECT_EQ(codec.logs_access_one(in.bytes(), 1, pick),
              c.text == no_hash ? DecodeError::missing_field : DecodeError::ok)
        << c.text;
    record::LogsScan scan;
    EXPECT_EQ(codec.logs_scan(in.bytes(), scan), DecodeError::ok) << c.text;
  }
}

TYPED_TEST(CapnpInterop, cut_trailing_or_misaligned_answers) {
  typename TypeParam::Codec codec;
  const record::LogSet set = sample_logs(2);
  const std::string wire = as_string(codec.encode_logs(set.logs));
  record::LogsDigest d;
  record::LogPick pick;
  record::LogsScan scan;
  for (const std::string& cut : {wire.substr(0, wire.size() - 1), wire.substr(0, wire.size() - 8)}) {
    EXPECT_EQ(codec.logs_decode_all(padded(cut).bytes(), d), DecodeError::syntax);
    EXPECT_EQ(codec.logs_access_one(padded(cut).bytes(), 0, pick), DecodeError::syntax);
    EXPECT_EQ(codec.logs_scan(padded(cut).bytes(), scan), DecodeError::syntax);
  }
  EXPECT_EQ(codec.logs_decode_all(padded(wire + std::string(8, '\0')).bytes(), d), DecodeError::trailing);
  for (std::size_t offset = 1; offset < 8; offset += 3) {
    const micro::Padded buf = padded(std::string(offset, 'x') + wire);
    d = {};
    ASSERT_EQ(codec.logs_decode_all(buf.bytes().subspan(offset), d), DecodeError::ok) << offset;
    EXPECT_EQ(d, record::digest_of(set.logs)) << offset;
  }
}

#if ZAPBENCH_HAVE_CAPNP
// The encoder sizes its first segment exactly from the logs (logs_words in codec_capnp.cpp), so an
// answer is one segment. A second one would be calloc'ed by the builder on every encode, which the
// allocation test (it counts operator new) would not see; the flat framing's first word tells: the
// segment count less one (0), then the one segment's size in words (the rest of the message).
TEST(CapnpLogs, an_answer_is_always_one_segment) {
  record::CapnpCodec codec;
  std::vector<std::uint8_t> bytes(4 * 32 + 300, 0x5a);
  std::vector<record::Log> edge(3);
  edge[1].topics = {bytes.data(), 4 * 32};
  edge[1].data = {bytes.data(), 257};
  edge[2].topics = {bytes.data(), 32};
  edge[2].data = {bytes.data(), 1};
  for (std::uint32_t n : {0u, 1u, 2u, 1000u}) {
    const record::LogSet set = sample_logs(n);
    for (const std::span<const record::Log> logs :
         {std::span<const record::Log>(set.logs), std::span<const record::Log>(edge)}) {
      const record::Bytes wire = codec.encode_logs(logs);
      ASSERT_GE(wire.size(), 8u);
      std::uint32_t segments_less_one, words;
      std::memcpy(&segments_less_one, wire.data(), 4);
      std::memcpy(&words, wire.data() + 4, 4);
      EXPECT_EQ(segments_less_one, 0u) << n << " logs";
      EXPECT_EQ(8 + std::size_t{words} * 8, wire.size()) << n << " logs";
    }
  }
}
#endif

}  // namespace
