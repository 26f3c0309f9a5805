// tests/record/interop_protobuf_test.cpp — the protobuf codecs (protobuf, protobuf-arena) against the
// format's own tool: what our encoders write, `protoc --decode` (Debian protobuf-compiler, the protoc the
// build generated the messages with) reads back as the same values in text format; what
// `protoc --encode` writes from text format, our decoders read as the same values. Plus the errors the
// codec documents (record/codec_protobuf.cpp): a byte field of the wrong length is bad_length, an absent
// (or empty) one missing_field, anything protobuf's parser rejects (garbage, invalid UTF-8 in `method`)
// syntax. The same for the eth_getLogs record (record/logs.hpp): protoc reads our LogsRequest and our
// answer of two logs (nested Log messages, repeated topics) as the same values, our decoders read
// protoc's, and a topic of 31 bytes, five topics or an absent address / transaction hash written by
// protoc are bad_length / missing_field. Files go to the test's scratch directory
// (support/scratch.hpp), removed when it ends.
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
#include "record/logs.hpp"
#include "record/record.hpp"
#include "support/logs.hpp"
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

// One `name: value` line of text format, as protoc --decode prints it: strings and bytes in double
// quotes with C escapes (\ooo octal, \" \' \\ \n \r \t), kept unescaped, as bytes. False for a line
// that is not a field (a brace).
bool parse_field(std::string_view line, std::string& name, std::string& value) {
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);  // nested messages are indented
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return false;
  name = std::string(line.substr(0, colon));
  std::string_view v = line.substr(colon + 2);
  value.clear();
  if (v.empty() || v.front() != '"') {
    value = std::string(v);
    return true;
  }
  v = v.substr(1, v.size() >= 2 ? v.size() - 2 : 0);
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (v[k] != '\\' || k + 1 == v.size()) {
      value += v[k];
      continue;
    }
    const char c = v[++k];
    if (c >= '0' && c <= '7') {
      int n = 0, digits = 0;
      while (digits < 3 && k < v.size() && v[k] >= '0' && v[k] <= '7') n = n * 8 + (v[k++] - '0'), ++digits;
      --k;
      value += static_cast<char>(n);
    } else {
      value += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;  // \" \' \\ stand for themselves
    }
  }
  return true;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t eol = text.find('\n', i);
    out.push_back(text.substr(i, eol == std::string_view::npos ? text.npos : eol - i));
    i = eol == std::string_view::npos ? text.size() : eol + 1;
  }
  return out;
}

// One flat message in text format: its fields by name (fields at their default are not printed).
std::map<std::string, std::string> parse_text(std::string_view text) {
  std::map<std::string, std::string> fields;
  std::string name, value;
  for (const std::string_view line : lines_of(text))
    if (parse_field(line, name, value)) fields[name] = value;
  return fields;
}

// A LogsResponse in text format: one `logs { ... }` block per log, each its fields in order (topics
// repeat).
using Fields = std::vector<std::pair<std::string, std::string>>;
std::vector<Fields> parse_logs_text(std::string_view text) {
  std::vector<Fields> logs;
  std::string name, value;
  for (const std::string_view line : lines_of(text)) {
    if (line == "logs {")
      logs.emplace_back();
    else if (parse_field(line, name, value) && !logs.empty())
      logs.back().emplace_back(name, value);
  }
  return logs;
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

// ---- the eth_getLogs record --------------------------------------------------------------------

template <class T>
std::string as_string(const T& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

record::Bytes bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// One Log as a `logs { ... }` block of text format, for protoc --encode; `topics` given apart, so a
// test can write any number of any length.
std::string log_text(const record::Log& l, const std::vector<std::string>& topics) {
  std::string t = "logs {\n  address: " + escaped(as_string(l.address)) + "\n";
  for (const std::string& topic : topics) t += "  topics: " + escaped(topic) + "\n";
  if (!l.data.empty()) t += "  data: " + escaped(as_string(l.data)) + "\n";
  t += "  block_number: " + std::to_string(l.block_number) +
       "\n  transaction_hash: " + escaped(as_string(l.tx_hash)) +
       "\n  transaction_index: " + std::to_string(l.tx_index) +
       "\n  log_index: " + std::to_string(l.log_index) + "\n  removed: " + (l.removed ? "true" : "false") +
       "\n}\n";
  return t;
}
std::vector<std::string> topics_of(const record::Log& l) {
  std::vector<std::string> out;
  for (std::size_t t = 0; t < l.topic_count(); ++t)
    out.push_back(as_string(l.topics.subspan(t * record::kTopicBytes, record::kTopicBytes)));
  return out;
}

record::LogSet sample_logs(std::uint32_t n) {
  record::LogSet s;
  record::generate(record::sample_logs_request(n), s);
  return s;
}

TYPED_TEST(ProtobufInterop, protoc_decodes_our_logs_request) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  const record::LogsRequest q = record::sample_logs_request(2);
  std::string text;
  ASSERT_TRUE(protoc(dir, "decode", "LogsRequest", as_string(codec.encode_logs_request(q)), text));
  const auto m = parse_text(text);
  EXPECT_EQ(number_or_default(m, "from_block"), std::to_string(q.from_block)) << text;
  EXPECT_EQ(number_or_default(m, "to_block"), std::to_string(q.to_block)) << text;
  EXPECT_EQ(number_or_default(m, "limit"), std::to_string(q.limit)) << text;
  EXPECT_EQ(hex(bytes_or_default(m, "address")), hex(q.address)) << text;
  EXPECT_EQ(m.size(), 4u) << text;
}

// The answer of sample_logs_request(2): every field of both logs, in the schema's order (protoc prints
// fields in number order, repeated topics in list order; fields at their default not at all).
TYPED_TEST(ProtobufInterop, protoc_decodes_our_logs) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  const record::LogSet set = sample_logs(2);
  std::string text;
  ASSERT_TRUE(protoc(dir, "decode", "LogsResponse", as_string(codec.encode_logs(set.logs)), text));
  const std::vector<Fields> logs = parse_logs_text(text);
  ASSERT_EQ(logs.size(), set.logs.size()) << text;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const record::Log& l = set.logs[i];
    Fields want = {{"address", as_string(l.address)}};
    for (const std::string& t : topics_of(l)) want.emplace_back("topics", t);
    if (!l.data.empty()) want.emplace_back("data", as_string(l.data));
    want.emplace_back("block_number", std::to_string(l.block_number));
    want.emplace_back("transaction_hash", as_string(l.tx_hash));
    if (l.tx_index != 0) want.emplace_back("transaction_index", std::to_string(l.tx_index));
    if (l.log_index != 0) want.emplace_back("log_index", std::to_string(l.log_index));
    if (l.removed) want.emplace_back("removed", "true");
    EXPECT_EQ(logs[i], want) << "log " << i << " of\n" << text;
  }
}

TYPED_TEST(ProtobufInterop, we_read_the_logs_protoc_encodes) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  const record::LogsRequest q = record::sample_logs_request(2);
  std::string wire;
  ASSERT_TRUE(protoc(dir, "encode", "LogsRequest",
                     "address: " + escaped(as_string(q.address)) + "\nlimit: 2\nto_block: " +
                         std::to_string(q.to_block) + "\nfrom_block: " + std::to_string(q.from_block) + "\n",
                     wire));
  record::LogsRequest back;
  ASSERT_EQ(codec.decode_logs_request(micro::Padded(bytes_of(wire)).bytes(), back), DecodeError::ok);
  EXPECT_EQ(back, q);

  const record::LogSet set = sample_logs(2);
  std::string text;
  for (const record::Log& l : set.logs) text += log_text(l, topics_of(l));
  ASSERT_TRUE(protoc(dir, "encode", "LogsResponse", text, wire));
  const micro::Padded in(bytes_of(wire));
  zaptest::expect_reads_as(codec, in.bytes(), set.logs);
}

// What protobuf cannot bound, the decoder does: each topic 32 bytes, at most 4; address and
// transaction hash present (proto3: absent and empty are one) and of their lengths.
TYPED_TEST(ProtobufInterop, logs_of_the_wrong_lengths_or_absent_fields) {
  zaptest::Scratch dir("interop_protobuf");
  TypeParam codec;
  const record::LogSet set = sample_logs(1);  // holds the bytes the log's topics and data point into
  const record::Log& log = set.logs[0];
  const std::string topic(32, '\x07');
  struct Case {
    std::string text;
    DecodeError want;
  };
  std::string no_address = log_text(log, {topic});
  no_address.erase(no_address.find("  address:"),
                   no_address.find("  topics:") - no_address.find("  address:"));
  std::string no_hash = log_text(log, {topic});
  const std::size_t hash_at = no_hash.find("  transaction_hash:");
  no_hash.erase(hash_at, no_hash.find('\n', hash_at) + 1 - hash_at);
  std::string short_address_text = log_text(log, {topic});
  const std::size_t address_at = short_address_text.find(escaped(as_string(log.address)));
  short_address_text.replace(address_at, escaped(as_string(log.address)).size(),
                             escaped(as_string(log.address).substr(0, 19)));
  const Case cases[] = {
      {log_text(log, {}), DecodeError::ok},
      {log_text(log, {topic, topic, topic, topic}), DecodeError::ok},
      {log_text(log, {topic, topic, topic, topic, topic}), DecodeError::bad_length},
      {log_text(log, {topic.substr(0, 31)}), DecodeError::bad_length},
      {log_text(log, {topic, topic + '\x07'}), DecodeError::bad_length},
      {log_text(log, {""}), DecodeError::bad_length},  // an empty topic is there, and 0 bytes long
      {short_address_text, DecodeError::bad_length},
      {no_address, DecodeError::missing_field},
      {no_hash, DecodeError::missing_field},
  };
  for (const Case& c : cases) {
    std::string wire;
    // The bad log second, after a good one: the error is found wherever it is.
    ASSERT_TRUE(protoc(dir, "encode", "LogsResponse", log_text(log, topics_of(log)) + c.text, wire));
    const micro::Padded in(bytes_of(wire));
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
  // A Log that is not a message (garbage in its length-delimited bytes), and a cut answer: syntax.
  record::LogsDigest d;
  const std::string bad_log("\x0a\x03\xff\xff\xff", 5);
  EXPECT_EQ(codec.logs_decode_all(micro::Padded(bytes_of(bad_log)).bytes(), d), DecodeError::syntax);
  const record::Bytes full = codec.encode_logs(sample_logs(2).logs);
  const std::string cut = as_string(full).substr(0, full.size() - 1);
  EXPECT_EQ(codec.logs_decode_all(micro::Padded(bytes_of(cut)).bytes(), d), DecodeError::syntax);
  record::LogPick pick;
  EXPECT_EQ(codec.logs_access_one(micro::Padded(bytes_of(cut)).bytes(), 0, pick), DecodeError::syntax);
  record::LogsScan scan;
  EXPECT_EQ(codec.logs_scan(micro::Padded(bytes_of(cut)).bytes(), scan), DecodeError::syntax);
}

}  // namespace
