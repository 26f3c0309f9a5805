// tests/record/interop_flatbuffers_test.cpp — the flatbuffers codecs against FlatBuffers' own tool:
// what our codec writes, flatc 2.0.8 (Debian flatbuffers-compiler) reads back as the same values
// (flatc --json on the schema the codec was generated from), and what flatc writes from JSON (flatc -b)
// our codecs decode to the same values. Plus the codec's own error cases, each with the DecodeError
// documented in codec_flatbuffers.cpp: an absent account or hash is missing_field; a fixed-size array
// cannot have another length (flatc refuses to write one; a struct cut short by the end of the message
// is the verifier's syntax); garbage is syntax. The same for the eth_getLogs record (record/logs.hpp):
// flatc reads our LogsRequest and our answer of two logs (a vector of Log tables, topics a vector of
// Hash structs) as the same values, our decoders read flatc's; five topics are bad_length, an absent
// address or transaction hash missing_field, and a topic of 31 bytes cannot be written (flatc refuses
// it: a Hash is 32 bytes by the schema).
//
// Every file goes to the test's scratch directory (support/scratch.hpp), removed whether the test passes
// or fails.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "micro/padded.hpp"
#include "record/codec_flatbuffers.hpp"
#include "record/logs.hpp"
#include "support/logs.hpp"
#include "support/scratch.hpp"
#include "support/tools.hpp"

namespace {

namespace fs = std::filesystem;
using micro::Padded;
using nlohmann::json;
using record::DecodeError;

const char* const kFlatc = ZAPBENCH_FLATC;
const char* const kSchema = ZAPBENCH_FLATBUFFERS_SCHEMA;

std::string_view chars(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// flatc on the codec's schema, in the test's scratch directory.
class Flatc : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::access(kFlatc, X_OK), 0)
        << "flatc (" << kFlatc << ") is not there: apt-get install flatbuffers-compiler (scripts/deps.sh)";
  }

  // Runs flatc with `args`; its output (both streams) in `log`. True when it exits 0.
  bool flatc(const std::string& args, std::string& log) {
    const fs::path out = dir_ / "flatc.log";
    const bool ok =
        static_cast<bool>(zaptest::run_command(std::string("'") + kFlatc + "' " + args, out, out));
    log = zaptest::read_text(out);
    return ok;
  }

  // Our bytes, as flatc reads them (every field written, defaults too).
  json to_json(record::Bytes wire, const std::string& root) {
    const fs::path bin = dir_ / "msg.bin";
    zaptest::write_bytes(bin, wire);
    std::string log;
    EXPECT_TRUE(
        flatc("--json --strict-json --defaults-json --raw-binary --size-prefixed --root-type zapbench_fb." +
                  root + " -o '" + dir_.path().string() + "' '" + kSchema + "' -- '" + bin.string() + "'",
              log))
        << log;
    const std::string text = zaptest::read_text(dir_ / "msg.json");
    return json::parse(text, nullptr, /*allow_exceptions=*/false);
  }

  // flatc's bytes for a JSON text ("" when flatc refuses it, its message in `log`).
  std::string from_json(const std::string& text, const std::string& root, std::string& log) {
    const fs::path src = dir_ / "in.json";
    zaptest::write_bytes(src, text);
    fs::remove(dir_ / "in.bin");
    if (!flatc("-b --size-prefixed --root-type zapbench_fb." + root + " -o '" + dir_.path().string() + "' '" +
                   kSchema + "' '" + src.string() + "'",
               log))
      return {};
    return zaptest::read_text(dir_ / "in.bin");
  }
  std::string from_json(const std::string& text, const std::string& root) {
    std::string log;
    std::string bytes = from_json(text, root, log);
    EXPECT_FALSE(bytes.empty()) << "flatc -b refused " << text << ": " << log;
    return bytes;
  }

  zaptest::Scratch dir_{"interop_flatbuffers"};
};

record::Bytes bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

template <std::size_t N>
json array_json(const std::array<std::uint8_t, N>& a) {
  json out = json::array();
  for (std::uint8_t b : a) out.push_back(b);
  return out;
}

std::vector<record::Request> requests() {
  record::Request other{0xFFFFFFFFFFFFFFFFULL, 0, "eth_call\"\\/x", {}};
  for (std::size_t i = 0; i < other.account.size(); ++i)
    other.account[i] = static_cast<std::uint8_t>(255 - 13 * i);
  return {record::sample_request(), other, record::Request{}};
}
std::vector<record::Response> responses() {
  record::Response other{0, 0xFFFFFFFFFFFFFFFFULL, 7, {}};
  for (std::size_t i = 0; i < other.block_hash.size(); ++i)
    other.block_hash[i] = static_cast<std::uint8_t>(11 * i + 3);
  return {record::sample_response(), other, record::Response{}};
}

json request_json(const record::Request& r) {
  return {{"id", r.id},
          {"block", r.block},
          {"method", r.method},
          {"account", {{"value", array_json(r.account)}}}};
}
json response_json(const record::Response& r) {
  return {{"id", r.id},
          {"balance", r.balance},
          {"nonce", r.nonce},
          {"block_hash", {{"value", array_json(r.block_hash)}}}};
}

TEST_F(Flatc, reads_our_requests_as_the_same_values) {
  record::FlatbuffersCodec codec;
  for (const record::Request& r : requests()) {
    const json got = to_json(codec.encode_request(r), "Request");
    SCOPED_TRACE(got.dump());
    EXPECT_EQ(got.at("id").get<std::uint64_t>(), r.id);
    EXPECT_EQ(got.at("block").get<std::uint64_t>(), r.block);
    EXPECT_EQ(got.at("method").get<std::string>(), r.method);
    EXPECT_EQ(got.at("account").at("value"), array_json(r.account));
  }
}

TEST_F(Flatc, reads_our_responses_as_the_same_values) {
  record::FlatbuffersCodec codec;
  for (const record::Response& r : responses()) {
    const json got = to_json(codec.encode_response(r), "Response");
    SCOPED_TRACE(got.dump());
    EXPECT_EQ(got.at("id").get<std::uint64_t>(), r.id);
    EXPECT_EQ(got.at("balance").get<std::uint64_t>(), r.balance);
    EXPECT_EQ(got.at("nonce").get<std::uint64_t>(), r.nonce);
    EXPECT_EQ(got.at("block_hash").at("value"), array_json(r.block_hash));
  }
}

// flatc's own bytes, from JSON, decoded by both rows (the trusted one reads
// what a trusted tool wrote).
template <class Codec>
void expect_flatc_messages_decode(const std::vector<std::string>& req_bytes,
                                  const std::vector<std::string>& resp_bytes) {
  Codec codec;
  const std::vector<record::Request> reqs = requests();
  const std::vector<record::Response> resps = responses();
  for (std::size_t i = 0; i < req_bytes.size(); ++i) {
    const record::Request& r = reqs[i];
    const Padded in(bytes_of(req_bytes[i]));
    record::RequestView v;  // points into `in`
    ASSERT_EQ(codec.decode_request(in.bytes(), v), DecodeError::ok) << Codec::kName;
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.block, r.block);
    EXPECT_EQ(v.method, r.method);
    EXPECT_EQ(v.account, chars(r.account));
    EXPECT_EQ(v.account0, r.account[0]);
    EXPECT_EQ(v.account_form, record::Form::raw);
  }
  for (std::size_t i = 0; i < resp_bytes.size(); ++i) {
    const record::Response& r = resps[i];
    const Padded in(bytes_of(resp_bytes[i]));
    record::ResponseView v;  // points into `in`
    ASSERT_EQ(codec.decode_response(in.bytes(), v), DecodeError::ok) << Codec::kName;
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.balance, r.balance);
    EXPECT_EQ(v.nonce, r.nonce);
    EXPECT_EQ(v.block_hash, chars(r.block_hash));
  }
}

TEST_F(Flatc, writes_messages_our_codecs_decode_to_the_same_values) {
  std::vector<std::string> req_bytes, resp_bytes;
  for (const record::Request& r : requests())
    req_bytes.push_back(from_json(request_json(r).dump(), "Request"));
  for (const record::Response& r : responses())
    resp_bytes.push_back(from_json(response_json(r).dump(), "Response"));
  expect_flatc_messages_decode<record::FlatbuffersCodec>(req_bytes, resp_bytes);
  expect_flatc_messages_decode<record::FlatbuffersTrustedCodec>(req_bytes, resp_bytes);
}

// ---- the codec's error cases --------------------------------------------------

TEST_F(Flatc, an_absent_account_or_hash_is_missing_field) {
  record::FlatbuffersCodec codec;
  record::RequestView q;
  const std::string no_account = from_json(R"({"id": 1, "block": 2, "method": "eth_getBalance"})", "Request");
  EXPECT_EQ(codec.decode_request(Padded(bytes_of(no_account)).bytes(), q), DecodeError::missing_field);
  record::ResponseView r;
  const std::string no_hash = from_json(R"({"id": 1, "balance": 2, "nonce": 3})", "Response");
  EXPECT_EQ(codec.decode_response(Padded(bytes_of(no_hash)).bytes(), r), DecodeError::missing_field);
  // Integers and the method are not required: absent, they read the format's defaults.
  const std::string only_account = from_json(request_json(record::Request{}).dump(), "Request");
  const Padded only_account_in(bytes_of(only_account));
  ASSERT_EQ(codec.decode_request(only_account_in.bytes(), q), DecodeError::ok);
  EXPECT_EQ(q.id, 0u);
  EXPECT_EQ(q.method, "");
}

// [ubyte:20] and [ubyte:32] are the schema's: there is no length on the wire,
// so no bad_length. flatc will not write an account of 19 or 21 bytes, nor a
// hash of 31; a message whose account (or hash) is cut by the end of the
// buffer fails the verifier (syntax); a byte after it is not the account's.
TEST_F(Flatc, a_fixed_array_has_no_other_length) {
  std::string log;
  json req = request_json(record::sample_request());
  req["account"]["value"].erase(19);
  EXPECT_EQ(from_json(req.dump(), "Request", log), "") << "flatc wrote a 19-byte account";
  EXPECT_NE(log.find("Fixed-length array size is incorrect"), std::string::npos) << log;
  req = request_json(record::sample_request());
  req["account"]["value"].push_back(0);
  EXPECT_EQ(from_json(req.dump(), "Request", log), "") << "flatc wrote a 21-byte account";
  EXPECT_NE(log.find("Fixed-length array size is incorrect"), std::string::npos) << log;
  json resp = response_json(record::sample_response());
  resp["block_hash"]["value"].erase(31);
  EXPECT_EQ(from_json(resp.dump(), "Response", log), "") << "flatc wrote a 31-byte hash";
  EXPECT_NE(log.find("Fixed-length array size is incorrect"), std::string::npos) << log;

  // A table of the account alone ends with it (flatc writes the struct first,
  // at the end of the buffer): one byte less, the size prefix adjusted, and
  // the account's 20 bytes run past the message.
  record::FlatbuffersCodec codec;
  auto resize = [](std::string bytes, std::size_t n) {
    bytes.resize(n);
    const auto size = static_cast<std::uint32_t>(n - 4);  // the little-endian size prefix
    for (int i = 0; i < 4; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>(size >> (8 * i));
    return bytes;
  };
  const std::string account_only =
      from_json(json{{"account", {{"value", array_json(record::kSampleAccount)}}}}.dump(), "Request");
  ASSERT_EQ(chars(record::Bytes(record::kSampleAccount)),
            std::string_view(account_only).substr(account_only.size() - 20));
  record::RequestView q;
  EXPECT_EQ(codec.decode_request(Padded(bytes_of(resize(account_only, account_only.size() - 1))).bytes(), q),
            DecodeError::syntax);
  const std::string longer = resize(account_only, account_only.size() + 1);
  const Padded longer_in(bytes_of(longer));
  ASSERT_EQ(codec.decode_request(longer_in.bytes(), q), DecodeError::ok);
  EXPECT_EQ(q.account, chars(record::Bytes(record::kSampleAccount)));

  const std::string hash_only =
      from_json(json{{"block_hash", {{"value", array_json(record::kSampleHash)}}}}.dump(), "Response");
  ASSERT_EQ(chars(record::Bytes(record::kSampleHash)),
            std::string_view(hash_only).substr(hash_only.size() - 32));
  record::ResponseView r;
  EXPECT_EQ(codec.decode_response(Padded(bytes_of(resize(hash_only, hash_only.size() - 1))).bytes(), r),
            DecodeError::syntax);
}

TEST_F(Flatc, garbage_and_cut_messages_are_syntax) {
  record::FlatbuffersCodec codec;
  record::RequestView q;
  record::ResponseView r;
  const std::string garbage = "\x10\x00\x00\x00garbage, not a FlatBuffer";
  EXPECT_EQ(codec.decode_request(Padded(bytes_of(garbage)).bytes(), q), DecodeError::syntax);
  EXPECT_EQ(codec.decode_response(Padded(bytes_of(garbage)).bytes(), r), DecodeError::syntax);
  EXPECT_EQ(codec.decode_request(Padded({}).bytes(), q), DecodeError::syntax);
  // A root offset pointing past the end, with the size prefix right.
  const std::string past_end("\x08\x00\x00\x00\xff\x00\x00\x00\x00\x00\x00\x00", 12);
  EXPECT_EQ(codec.decode_request(Padded(bytes_of(past_end)).bytes(), q), DecodeError::syntax);
  // flatc's own message without its last byte (padding after the method: it
  // verifies without the size prefix, which is why messages carry one) or
  // with one byte more.
  const std::string sample = from_json(request_json(record::sample_request()).dump(), "Request");
  EXPECT_EQ(codec.decode_request(Padded(bytes_of(sample.substr(0, sample.size() - 1))).bytes(), q),
            DecodeError::syntax);
  EXPECT_EQ(codec.decode_request(Padded(bytes_of(sample + '\0')).bytes(), q), DecodeError::syntax);
  ASSERT_EQ(codec.decode_request(Padded(bytes_of(sample)).bytes(), q), DecodeError::ok);
}

// The server hands decoders bodies at any offset of its connection buffer:
// FlatBuffers reads scalars in place, so a misaligned body is decoded from an
// aligned copy, with the same values.
TEST_F(Flatc, a_misaligned_body_decodes_the_same) {
  record::FlatbuffersCodec codec;
  const record::Bytes wire = codec.encode_request(record::sample_request());
  std::vector<std::uint8_t> at_odd(1 + wire.size() + record::kInputPaddingBytes);
  std::copy(wire.begin(), wire.end(), at_odd.begin() + 1);
  record::RequestView q;
  ASSERT_EQ(codec.decode_request({at_odd.data() + 1, wire.size()}, q), DecodeError::ok);
  EXPECT_EQ(q.id, record::kSampleId);
  EXPECT_EQ(q.block, record::kSampleBlock);
  EXPECT_EQ(q.method, record::kSampleMethod);
  EXPECT_EQ(q.account, chars(record::Bytes(record::kSampleAccount)));
}

// ---- the eth_getLogs record ----------------------------------------------------

json bytes_json(record::Bytes b) {
  json out = json::array();
  for (std::uint8_t x : b) out.push_back(x);
  return out;
}

// A Log as flatc --json --defaults-json prints it: every scalar; the structs; topics and data only
// when not empty (the encoder leaves an empty vector out, and flatc prints no absent vector).
json log_json(const record::Log& l) {
  json o = {{"address", {{"value", array_json(l.address)}}}};
  if (l.topic_count() != 0) {
    o["topics"] = json::array();
    for (std::size_t t = 0; t < l.topic_count(); ++t)
      o["topics"].push_back(
          {{"value", bytes_json(l.topics.subspan(t * record::kTopicBytes, record::kTopicBytes))}});
  }
  if (!l.data.empty()) o["data"] = bytes_json(l.data);
  o["block_number"] = l.block_number;
  o["transaction_hash"] = {{"value", array_json(l.tx_hash)}};
  o["transaction_index"] = l.tx_index;
  o["log_index"] = l.log_index;
  o["removed"] = l.removed;
  return o;
}

json logs_json(std::span<const record::Log> logs) {
  json list = json::array();
  for (const record::Log& l : logs) list.push_back(log_json(l));
  return {{"logs", list}};
}

record::LogSet sample_logs(std::uint32_t n) {
  record::LogSet s;
  record::generate(record::sample_logs_request(n), s);
  return s;
}

TEST_F(Flatc, reads_our_logs_request_and_answer_as_the_same_values) {
  record::FlatbuffersCodec codec;
  const record::LogsRequest q = record::sample_logs_request(2);
  const json req = to_json(codec.encode_logs_request(q), "LogsRequest");
  EXPECT_EQ(req, (json{{"from_block", q.from_block},
                       {"to_block", q.to_block},
                       {"address", {{"value", array_json(q.address)}}},
                       {"limit", q.limit}}));
  const record::LogSet set = sample_logs(2);
  const json got = to_json(codec.encode_logs(set.logs), "LogsResponse");
  EXPECT_EQ(got, logs_json(set.logs)) << got.dump();
}

// flatc's bytes, from JSON, read by both rows: the same request, the same answer by every operation.
template <class Codec>
void expect_flatc_logs_read(const std::string& request, const std::string& answer,
                            const record::LogSet& set) {
  Codec codec;
  record::LogsRequest q;
  ASSERT_EQ(codec.decode_logs_request(Padded(bytes_of(request)).bytes(), q), DecodeError::ok) << Codec::kName;
  EXPECT_EQ(q, set.request) << Codec::kName;
  const Padded in(bytes_of(answer));
  zaptest::expect_reads_as(codec, in.bytes(), set.logs);
}

TEST_F(Flatc, writes_logs_our_codecs_read_as_the_same_values) {
  const record::LogSet set = sample_logs(2);
  const record::LogsRequest& q = set.request;
  const std::string request = from_json(json{{"from_block", q.from_block},
                                             {"to_block", q.to_block},
                                             {"address", {{"value", array_json(q.address)}}},
                                             {"limit", q.limit}}
                                            .dump(),
                                        "LogsRequest");
  const std::string answer = from_json(logs_json(set.logs).dump(), "LogsResponse");
  expect_flatc_logs_read<record::FlatbuffersCodec>(request, answer, set);
  expect_flatc_logs_read<record::FlatbuffersTrustedCodec>(request, answer, set);
}

// The Hash struct fixes a topic's length, so only the count can be wrong (more than 4: bad_length); a
// struct field may be absent (missing_field). The bad log comes second, after a good one.
TEST_F(Flatc, logs_with_five_topics_or_absent_fields_and_no_31_byte_topic) {
  record::FlatbuffersCodec codec;
  const record::LogSet set = sample_logs(1);
  const json good = log_json(set.logs[0]);
  const json topic = {{"value", json(std::vector<int>(32, 7))}};
  auto answer = [&](const json& bad) {
    return from_json(json{{"logs", {good, bad}}}.dump(), "LogsResponse");
  };
  auto decode_all = [&](const std::string& wire) {
    record::LogsDigest d;
    return codec.logs_decode_all(Padded(bytes_of(wire)).bytes(), d);
  };
  json four = good, five = good, no_address = good, no_hash = good;
  four["topics"] = {topic, topic, topic, topic};
  five["topics"] = {topic, topic, topic, topic, topic};
  no_address.erase("address");
  no_hash.erase("transaction_hash");
  EXPECT_EQ(decode_all(answer(four)), DecodeError::ok);
  EXPECT_EQ(decode_all(answer(five)), DecodeError::bad_length);
  EXPECT_EQ(decode_all(answer(no_address)), DecodeError::missing_field);
  const std::string no_hash_wire = answer(no_hash);
  EXPECT_EQ(decode_all(no_hash_wire), DecodeError::missing_field);
  record::LogPick pick;
  EXPECT_EQ(codec.logs_access_one(Padded(bytes_of(no_hash_wire)).bytes(), 1, pick),
            DecodeError::missing_field);
  EXPECT_EQ(codec.logs_access_one(Padded(bytes_of(no_hash_wire)).bytes(), 0, pick), DecodeError::ok);

  std::string log;
  json short_topic = good;
  short_topic["topics"] = {{{"value", json(std::vector<int>(31, 7))}}};
  EXPECT_EQ(from_json(json{{"logs", {short_topic}}}.dump(), "LogsResponse", log), "")
      << "flatc wrote a 31-byte topic";
  EXPECT_NE(log.find("Fixed-length array size is incorrect"), std::string::npos) << log;
}

TEST_F(Flatc, cut_garbage_or_misaligned_answers) {
  record::FlatbuffersCodec codec;
  const record::LogSet set = sample_logs(2);
  const record::Bytes w = codec.encode_logs(set.logs);
  const std::string wire(chars(w));
  record::LogsDigest d;
  record::LogPick pick;
  record::LogsScan scan;
  for (const std::string& bad : {wire.substr(0, wire.size() - 1), wire + '\0',
                                 std::string("\x10\x00\x00\x00garbage, not a FlatBuffer")}) {
    const Padded in(bytes_of(bad));
    EXPECT_EQ(codec.logs_decode_all(in.bytes(), d), DecodeError::syntax);
    EXPECT_EQ(codec.logs_access_one(in.bytes(), 0, pick), DecodeError::syntax);
    EXPECT_EQ(codec.logs_scan(in.bytes(), scan), DecodeError::syntax);
  }
  std::vector<std::uint8_t> at_odd(1 + wire.size() + record::kInputPaddingBytes);
  std::copy(wire.begin(), wire.end(), at_odd.begin() + 1);
  d = {};
  ASSERT_EQ(codec.logs_decode_all({at_odd.data() + 1, wire.size()}, d), DecodeError::ok);
  EXPECT_EQ(d, record::digest_of(set.logs));
}

}  // namespace
