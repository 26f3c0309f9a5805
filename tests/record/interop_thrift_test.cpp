// tests/record/interop_thrift_test.cpp — the thrift codecs against Apache Thrift's own Python library
// (Debian python3-thrift, run by /usr/bin/python3 through tests/record/interop_thrift.py on structs
// generated at build time from src/record/schemas/thrift.thrift): our bytes decode there to every value
// (`thrift`: TCompactProtocol, `thrift-binary`: TBinaryProtocol), its bytes decode here, and the codec's
// own error cases (byte fields of the wrong length or absent, wrong wire types, trailing bytes, garbage)
// give the documented DecodeError. The same for the eth_getLogs record (record/logs.hpp): the request,
// answers of sample and edge logs, and the logs' own errors (a topic not 32 bytes, more than 4 topics). Files
// live in the test's scratch directory (support/scratch.hpp), removed at the end.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "micro/padded.hpp"
#include "record/codec_thrift.hpp"
#include "record/logs.hpp"
#include "support/logs.hpp"
#include "support/scratch.hpp"
#include "support/tools.hpp"

namespace {

using micro::Padded;
using record::DecodeError;
using zaptest::hex;
using zaptest::quote;

// ---- the Python side --------------------------------------------------------------

// Runs the helper script with args (each shell-quoted), its stdout and stderr together in `out` (the
// trailing newlines dropped; the log is python.log in the scratch directory); a failure, with that
// output, unless it exits 0.
::testing::AssertionResult python(const zaptest::Scratch& dir, const std::vector<std::string>& args,
                                  std::string& out) {
  std::string cmd = quote(ZAPBENCH_PYTHON);
  for (const std::string& a : {std::string(ZAPBENCH_THRIFT_SCRIPT), std::string(ZAPBENCH_THRIFT_GEN_PY)}) {
    cmd += ' ';
    cmd += quote(a);
  }
  for (const std::string& a : args) {
    cmd += ' ';
    cmd += quote(a);
  }
  const std::filesystem::path log = dir / "python.log";
  ::testing::AssertionResult ran = zaptest::run_command(cmd, log, log);
  out = zaptest::read_text(log);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return ran;
}

// The packaged tools are there, or the test fails saying which to install.
void require_python_thrift(const zaptest::Scratch& dir) {
  ASSERT_TRUE(std::filesystem::exists(ZAPBENCH_PYTHON))
      << ZAPBENCH_PYTHON << " missing: apt-get install python3 python3-thrift (scripts/deps.sh)";
  const std::filesystem::path log = dir / "probe.log";
  ASSERT_TRUE(zaptest::run_command(quote(ZAPBENCH_PYTHON) + " -c 'import thrift.protocol.TCompactProtocol'",
                                   log, log))
      << "python3-thrift missing: apt-get install python3-thrift (scripts/deps.sh installs it)";
  ASSERT_TRUE(std::filesystem::exists(std::filesystem::path(ZAPBENCH_THRIFT_GEN_PY) / "zapbench_thrift"))
      << "generated Python code missing in " << ZAPBENCH_THRIFT_GEN_PY << " (thrift-compiler at build time)";
}

// ---- the records ------------------------------------------------------------------

std::vector<record::Request> requests() {
  record::Request other{~0ULL, 0, "eth_call \xc3\xa9", {}};
  for (std::size_t i = 0; i < other.account.size(); ++i)
    other.account[i] = static_cast<std::uint8_t>(0xf0 - i * 7);
  record::Request mid{1ULL << 63, (1ULL << 63) - 1, "", {}};
  mid.account.fill(0x80);
  return {record::sample_request(), other, mid};
}
std::vector<record::Response> responses() {
  record::Response other{1ULL << 63, ~0ULL, 0, {}};
  for (std::size_t i = 0; i < other.block_hash.size(); ++i)
    other.block_hash[i] = static_cast<std::uint8_t>(i * 9);
  return {record::sample_response(), other};
}

std::string want_line(const record::Request& r) {
  return "id=" + std::to_string(r.id) + " block=" + std::to_string(r.block) + " method=" + hex(r.method) +
         " account=" + hex(r.account) + " trailing=0";
}
std::string want_line(const record::Response& r) {
  return "id=" + std::to_string(r.id) + " balance=" + std::to_string(r.balance) +
         " nonce=" + std::to_string(r.nonce) + " blockHash=" + hex(r.block_hash) + " trailing=0";
}

template <class C>
struct ProtocolOf;
template <>
struct ProtocolOf<record::ThriftCodec> {
  static constexpr const char* kName = "compact";
};
template <>
struct ProtocolOf<record::ThriftBinaryCodec> {
  static constexpr const char* kName = "binary";
};

template <class C>
class ThriftInterop : public ::testing::Test {
 protected:
  void SetUp() override { require_python_thrift(dir_); }
  static std::string proto() { return ProtocolOf<C>::kName; }

  // Python writes the struct (values as the script takes them, '-' absent); the bytes come back.
  std::vector<std::uint8_t> python_encode(const std::string& kind, const std::vector<std::string>& values) {
    const std::filesystem::path file = dir_ / ("py_" + kind + std::to_string(files_++));
    std::vector<std::string> args{proto(), "encode", kind, file.string()};
    args.insert(args.end(), values.begin(), values.end());
    std::string out;
    EXPECT_TRUE(python(dir_, args, out));
    const std::string bytes = zaptest::read_text(file);
    return {bytes.begin(), bytes.end()};
  }
  DecodeError decode_request(const std::vector<std::uint8_t>& b, record::RequestView& v) {
    return codec_.decode_request(Padded({b.data(), b.size()}).bytes(), v);
  }
  DecodeError decode_response(const std::vector<std::uint8_t>& b, record::ResponseView& v) {
    return codec_.decode_response(Padded({b.data(), b.size()}).bytes(), v);
  }

  zaptest::Scratch dir_{"interop_thrift"};
  C codec_;
  int files_ = 0;
};

using ThriftCodecs = ::testing::Types<record::ThriftCodec, record::ThriftBinaryCodec>;
TYPED_TEST_SUITE(ThriftInterop, ThriftCodecs);

const std::string kAccountHex = "deadbeef00112233445566778899aabbccddeeff";
const std::string kHashHex = "0123456789abcdeffedcba98765432100f1e2d3c4b5a69788796a5b4c3d2e1f0";

TYPED_TEST(ThriftInterop, python_thrift_reads_our_bytes) {
  int k = 0;
  for (const record::Request& r : requests()) {
    const std::filesystem::path file = this->dir_ / ("req" + std::to_string(k++));
    zaptest::write_bytes(file, this->codec_.encode_request(r));
    std::string out;
    ASSERT_TRUE(python(this->dir_, {this->proto(), "decode", "request", file.string()}, out));
    EXPECT_EQ(out, want_line(r));
  }
  for (const record::Response& r : responses()) {
    const std::filesystem::path file = this->dir_ / ("resp" + std::to_string(k++));
    zaptest::write_bytes(file, this->codec_.encode_response(r));
    std::string out;
    ASSERT_TRUE(python(this->dir_, {this->proto(), "decode", "response", file.string()}, out));
    EXPECT_EQ(out, want_line(r));
  }
}

TYPED_TEST(ThriftInterop, we_read_python_thrifts_bytes) {
  for (const record::Request& r : requests()) {
    const auto b = this->python_encode(
        "request", {std::to_string(r.id), std::to_string(r.block), hex(r.method), hex(r.account)});
    record::RequestView v;
    ASSERT_EQ(this->decode_request(b, v), DecodeError::ok);
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.block, r.block);
    EXPECT_EQ(v.method, r.method);
    EXPECT_EQ(hex(v.account), hex(r.account));
    EXPECT_EQ(v.account0, r.account[0]);
    EXPECT_EQ(v.account_form, record::Form::raw);
  }
  for (const record::Response& r : responses()) {
    const auto b = this->python_encode("response", {std::to_string(r.id), std::to_string(r.balance),
                                                    std::to_string(r.nonce), hex(r.block_hash)});
    record::ResponseView v;
    ASSERT_EQ(this->decode_response(b, v), DecodeError::ok);
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.balance, r.balance);
    EXPECT_EQ(v.nonce, r.nonce);
    EXPECT_EQ(hex(v.block_hash), hex(r.block_hash));
  }
}

// The same bytes both ways: our encoding is Python's, byte for byte.
TYPED_TEST(ThriftInterop, our_bytes_are_python_thrifts_bytes) {
  const record::Request r = record::sample_request();
  const auto py = this->python_encode(
      "request", {std::to_string(r.id), std::to_string(r.block), hex(r.method), hex(r.account)});
  const record::Bytes ours = this->codec_.encode_request(r);
  EXPECT_EQ(std::vector<std::uint8_t>(ours.begin(), ours.end()), py);
  const record::Response s = record::sample_response();
  const auto py_resp = this->python_encode("response", {std::to_string(s.id), std::to_string(s.balance),
                                                        std::to_string(s.nonce), hex(s.block_hash)});
  const record::Bytes ours_resp = this->codec_.encode_response(s);
  EXPECT_EQ(std::vector<std::uint8_t>(ours_resp.begin(), ours_resp.end()), py_resp);
}

// Integers and method have Thrift's default requiredness: absent, they read as 0 and "" (never the values
// of the message decoded before on the same codec).
TYPED_TEST(ThriftInterop, absent_integers_and_method_read_the_defaults) {
  record::RequestView v;
  ASSERT_EQ(this->decode_request(this->python_encode("request", {"7", "9", "6d", kAccountHex}), v),
            DecodeError::ok);
  ASSERT_EQ(this->decode_request(this->python_encode("request", {"-", "-", "-", kAccountHex}), v),
            DecodeError::ok);
  EXPECT_EQ(v.id, 0u);
  EXPECT_EQ(v.block, 0u);
  EXPECT_EQ(v.method, "");
  EXPECT_EQ(v.account0, 0xde);
  record::ResponseView w;
  ASSERT_EQ(this->decode_response(this->python_encode("response", {"-", "-", "-", kHashHex}), w),
            DecodeError::ok);
  EXPECT_EQ(w.id, 0u);
  EXPECT_EQ(w.balance, 0u);
  EXPECT_EQ(w.nonce, 0u);
}

TYPED_TEST(ThriftInterop, byte_fields_must_be_present_with_their_exact_length) {
  record::RequestView v;
  EXPECT_EQ(this->decode_request(this->python_encode("request", {"1", "2", "6d", kAccountHex.substr(2)}), v),
            DecodeError::bad_length);  // 19 bytes
  EXPECT_EQ(this->decode_request(this->python_encode("request", {"1", "2", "6d", kAccountHex + "00"}), v),
            DecodeError::bad_length);  // 21 bytes
  EXPECT_EQ(this->decode_request(this->python_encode("request", {"1", "2", "6d", ""}), v),
            DecodeError::bad_length);  // present, empty
  EXPECT_EQ(this->decode_request(this->python_encode("request", {"1", "2", "6d", "-"}), v),
            DecodeError::missing_field);  // `required` account absent: the generated read() throws
  record::ResponseView w;
  EXPECT_EQ(this->decode_response(this->python_encode("response", {"1", "2", "3", kHashHex.substr(2)}), w),
            DecodeError::bad_length);  // 31 bytes
  EXPECT_EQ(this->decode_response(this->python_encode("response", {"1", "2", "3", kHashHex + "00"}), w),
            DecodeError::bad_length);  // 33 bytes
  EXPECT_EQ(this->decode_response(this->python_encode("response", {"1", "2", "3", "-"}), w),
            DecodeError::missing_field);
}

// A request is not a response: field 4 of a request is the 20-byte account, where a response wants 32.
// A response read as a request has its 32-byte hash as field 4.
TYPED_TEST(ThriftInterop, one_direction_is_not_the_other) {
  const record::Bytes req = this->codec_.encode_request(record::sample_request());
  const std::vector<std::uint8_t> req_bytes(req.begin(), req.end());
  record::ResponseView w;
  EXPECT_EQ(this->decode_response(req_bytes, w), DecodeError::bad_length);
  const record::Bytes resp = this->codec_.encode_response(record::sample_response());
  const std::vector<std::uint8_t> resp_bytes(resp.begin(), resp.end());
  record::RequestView v;
  EXPECT_EQ(this->decode_request(resp_bytes, v), DecodeError::bad_length);
}

TYPED_TEST(ThriftInterop, malformed_input_is_an_error) {
  const record::Bytes wire = this->codec_.encode_request(record::sample_request());
  const std::vector<std::uint8_t> good(wire.begin(), wire.end());
  record::RequestView v;
  ASSERT_EQ(this->decode_request(good, v), DecodeError::ok);

  // Bytes after the struct's field stop: the body is one struct.
  std::vector<std::uint8_t> trailing = good;
  trailing.push_back(0);
  EXPECT_EQ(this->decode_request(trailing, v), DecodeError::trailing);
  // Cut inside the account, and before the field stop.
  EXPECT_EQ(this->decode_request({good.begin(), good.end() - 5}, v), DecodeError::syntax);
  EXPECT_EQ(this->decode_request({good.begin(), good.end() - 1}, v), DecodeError::syntax);
  EXPECT_EQ(this->decode_request({}, v), DecodeError::syntax);
  // Garbage: field headers of unknown types, lengths past the input, varints that never end.
  EXPECT_EQ(this->decode_request(std::vector<std::uint8_t>(64, 0xff), v), DecodeError::syntax);
  EXPECT_EQ(this->decode_request({0x0b, 0x00, 0x04, 0x7f, 0xff, 0xff, 0xff}, v), DecodeError::syntax);
  EXPECT_EQ(this->decode_request({0x18, 0xff, 0xff, 0xff, 0xff, 0x07}, v), DecodeError::syntax);
  // Only a field stop: no account.
  EXPECT_EQ(this->decode_request({0x00}, v), DecodeError::missing_field);
  // The codec still decodes after all that (the compact reader's field-id stack recovered).
  ASSERT_EQ(this->decode_request(good, v), DecodeError::ok);
  EXPECT_EQ(v.id, record::kSampleId);
  EXPECT_EQ(v.account0, record::kSampleAccount[0]);
}

// A byte field of the wrong wire type is skipped as an unknown field by the generated read(), so the
// `required` field is then absent: missing_field (Thrift does not report the type).
TEST(ThriftErrors, account_as_an_integer_is_missing) {
  record::ThriftCodec compact;
  record::RequestView v;
  // compact: field 4 (delta 4), type i64 (6), zigzag 2 = 1; then stop.
  const std::vector<std::uint8_t> c{0x46, 0x02, 0x00};
  EXPECT_EQ(compact.decode_request(Padded({c.data(), c.size()}).bytes(), v), DecodeError::missing_field);
  record::ThriftBinaryCodec binary;
  // binary: type i64 (10), field id 4, 8 bytes, stop.
  const std::vector<std::uint8_t> b{0x0a, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0, 1, 0x00};
  EXPECT_EQ(binary.decode_request(Padded({b.data(), b.size()}).bytes(), v), DecodeError::missing_field);
}

// A length of 2 GiB in a few bytes of input is refused before anything is allocated for it: the
// protocols' string limit is the input's size.
TEST(ThriftErrors, huge_lengths_are_refused) {
  record::ThriftBinaryCodec binary;
  record::RequestView v;
  const std::vector<std::uint8_t> b{0x0b, 0x00, 0x04, 0x7f, 0xff, 0xff, 0xff, 0x00};
  EXPECT_EQ(binary.decode_request(Padded({b.data(), b.size()}).bytes(), v), DecodeError::syntax);
  record::ThriftCodec compact;
  const std::vector<std::uint8_t> c{0x48, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00};  // field 4, binary, 2^31-1
  EXPECT_EQ(compact.decode_request(Padded({c.data(), c.size()}).bytes(), v), DecodeError::syntax);
}

// Nesting past Thrift's recursion limit (64) is an error, and leaves the codec as it was: in 0.17 every
// DEPTH_LIMIT would otherwise leave the protocol's depth counter one higher, until nothing decoded.
TEST(ThriftErrors, deep_nesting_is_refused_and_forgotten) {
  record::ThriftCodec compact;
  record::ThriftBinaryCodec binary;
  std::vector<std::uint8_t> c, b;
  for (int i = 0; i < 100; ++i) {
    c.push_back(0x1c);                      // compact: field 1 (delta 1), a struct
    b.insert(b.end(), {0x0c, 0x00, 0x01});  // binary: a struct, field 1
  }
  record::RequestView v;
  for (int round = 0; round < 200; ++round) {
    ASSERT_EQ(compact.decode_request(Padded({c.data(), c.size()}).bytes(), v), DecodeError::syntax);
    ASSERT_EQ(binary.decode_request(Padded({b.data(), b.size()}).bytes(), v), DecodeError::syntax);
  }
  const Padded cw(compact.encode_request(record::sample_request()));
  EXPECT_EQ(compact.decode_request(cw.bytes(), v), DecodeError::ok);
  const Padded bw(binary.encode_request(record::sample_request()));
  EXPECT_EQ(binary.decode_request(bw.bytes(), v), DecodeError::ok);
}

// ---- eth_getLogs ------------------------------------------------------------------

// The answer every direction is tested with: zaptest::TestLogs (support/logs.hpp), the sample request's
// two logs, then logs at the edges (the largest integers: -1 in Thrift's signed i64 / i32; no topics and
// no data; four topics; one).

std::string want_line(const record::Log& l) {
  std::string topics;
  for (std::size_t t = 0; t < l.topic_count(); ++t)
    topics.append(t == 0 ? "" : ",")
        .append(hex(l.topics.subspan(t * record::kTopicBytes, record::kTopicBytes)));
  return "address=" + hex(l.address) + " topics=" + topics + " data=" + hex(l.data) +
         " blockNumber=" + std::to_string(l.block_number) + " transactionHash=" + hex(l.tx_hash) +
         " transactionIndex=" + std::to_string(l.tx_index) + " logIndex=" + std::to_string(l.log_index) +
         " removed=" + (l.removed ? "1" : "0");
}
std::string want_lines(std::span<const record::Log> logs) {
  std::string out;
  for (const record::Log& l : logs) out += want_line(l) + "\n";
  return out + "logs=" + std::to_string(logs.size()) + " trailing=0";
}
std::string want_line(const record::LogsRequest& q) {
  return "fromBlock=" + std::to_string(q.from_block) + " toBlock=" + std::to_string(q.to_block) +
         " address=" + hex(q.address) + " limit=" + std::to_string(q.limit) + " trailing=0";
}

// A log as the script's JSON: its fields in order, each "key":value; field `key` gets `value` (JSON)
// instead of the log's, or is left out when `value` is "-" (the error cases).
std::string json_of(const record::Log& l, const std::string& key = "", const std::string& value = "") {
  std::string topics;
  for (std::size_t t = 0; t < l.topic_count(); ++t)
    topics.append(t == 0 ? "\"" : ",\"")
        .append(hex(l.topics.subspan(t * record::kTopicBytes, record::kTopicBytes)))
        .append("\"");
  const std::pair<std::string, std::string> fields[] = {
      {"address", "\"" + hex(l.address) + "\""},
      {"topics", "[" + topics + "]"},
      {"data", "\"" + hex(l.data) + "\""},
      {"blockNumber", std::to_string(l.block_number)},
      {"transactionHash", "\"" + hex(l.tx_hash) + "\""},
      {"transactionIndex", std::to_string(l.tx_index)},
      {"logIndex", std::to_string(l.log_index)},
      {"removed", l.removed ? "true" : "false"},
  };
  std::string out;
  for (const auto& [k, v] : fields) {
    if (k == key && value == "-") continue;  // left out
    out.append(out.empty() ? "{\"" : ",\"").append(k).append("\":").append(k == key ? value : v);
  }
  return out + "}";
}
std::string json_of(std::span<const record::Log> logs) {
  std::string out = "[";
  for (std::size_t i = 0; i < logs.size(); ++i) out.append(i == 0 ? "" : ",").append(json_of(logs[i]));
  return out + "]";
}

TYPED_TEST(ThriftInterop, python_thrift_reads_our_logs) {
  const zaptest::TestLogs t;
  const std::filesystem::path answer = this->dir_ / "logs";
  zaptest::write_bytes(answer, this->codec_.encode_logs(t.logs));
  std::string out;
  ASSERT_TRUE(python(this->dir_, {this->proto(), "decode", "logs", answer.string()}, out));
  EXPECT_EQ(out, want_lines(t.logs));
  const std::filesystem::path request = this->dir_ / "logs_request";
  for (const record::LogsRequest& q :
       {record::sample_logs_request(2), record::LogsRequest{~0ULL, 1ULL << 63, record::kLogsAddress, ~0U}}) {
    zaptest::write_bytes(request, this->codec_.encode_logs_request(q));
    ASSERT_TRUE(python(this->dir_, {this->proto(), "decode", "logs_request", request.string()}, out));
    EXPECT_EQ(out, want_line(q));
  }
}

TYPED_TEST(ThriftInterop, we_read_python_thrifts_logs_and_they_are_our_bytes) {
  const zaptest::TestLogs t;
  const auto b = this->python_encode("logs", {json_of(t.logs)});
  const Padded in({b.data(), b.size()});
  record::LogsDigest d;
  ASSERT_EQ(this->codec_.logs_decode_all(in.bytes(), d), DecodeError::ok);
  EXPECT_EQ(d, record::digest_of(t.logs));
  record::LogsScan scan;
  ASSERT_EQ(this->codec_.logs_scan(in.bytes(), scan), DecodeError::ok);
  EXPECT_EQ(scan, record::scan_of(t.logs));
  for (std::uint32_t k = 0; k < t.logs.size(); ++k) {
    record::LogPick pick;
    ASSERT_EQ(this->codec_.logs_access_one(in.bytes(), k, pick), DecodeError::ok);
    EXPECT_EQ(pick, record::pick_of(t.logs[k])) << k;
  }
  const record::Bytes ours = this->codec_.encode_logs(t.logs);
  EXPECT_EQ(hex(ours), hex(b)) << "Python's bytes differ from ours";

  const record::LogsRequest q = record::sample_logs_request(2);
  const auto r = this->python_encode(
      "logs_request",
      {std::to_string(q.from_block), std::to_string(q.to_block), hex(q.address), std::to_string(q.limit)});
  record::LogsRequest back;
  ASSERT_EQ(this->codec_.decode_logs_request(Padded({r.data(), r.size()}).bytes(), back), DecodeError::ok);
  EXPECT_EQ(back, q);
  EXPECT_EQ(hex(this->codec_.encode_logs_request(q)), hex(r));
}

// The logs' own errors, each on every read operation: the byte fields' lengths, the topics' count
// and lengths (bad_length), the required fields absent (missing_field); the other fields absent read
// as empty / 0 / false.
TYPED_TEST(ThriftInterop, logs_errors_are_the_documented_ones) {
  const std::string topic31 = "\"" + std::string(62, 'a') + "\"";
  const std::string topic32 = "\"" + std::string(64, 'b') + "\"";
  const std::string five =
      "[" + topic32 + "," + topic32 + "," + topic32 + "," + topic32 + "," + topic32 + "]";
  struct Case {
    std::string key, value;
    DecodeError want;
  };
  const Case cases[] = {
      {"topics", "[" + topic32 + "," + topic31 + "]", DecodeError::bad_length},
      {"topics", five, DecodeError::bad_length},
      {"address", "\"" + std::string(38, 'c') + "\"", DecodeError::bad_length},
      {"transactionHash", "\"" + std::string(66, 'd') + "\"", DecodeError::bad_length},
      {"address", "-", DecodeError::missing_field},
      {"transactionHash", "-", DecodeError::missing_field},
      {"topics", "-", DecodeError::ok},
      {"data", "-", DecodeError::ok},
      {"blockNumber", "-", DecodeError::ok},
      {"removed", "-", DecodeError::ok},
  };
  const zaptest::TestLogs t;
  for (const Case& c : cases) {
    // The case's log second, after a good one.
    std::string json = "[";  // (append: GCC 12's -Wrestrict misfires on "[" + std::string&&)
    json.append(json_of(t.logs[1])).append(",").append(json_of(t.logs[0], c.key, c.value)).append("]");
    const auto b = this->python_encode("logs", {json});
    const Padded in({b.data(), b.size()});
    record::LogsDigest d;
    EXPECT_EQ(this->codec_.logs_decode_all(in.bytes(), d), c.want) << json;
    record::LogsScan scan;
    EXPECT_EQ(this->codec_.logs_scan(in.bytes(), scan), c.want) << json;
    record::LogPick pick;
    EXPECT_EQ(this->codec_.logs_access_one(in.bytes(), 0, pick), c.want) << json;
    if (c.want == DecodeError::ok) {
      EXPECT_EQ(d.count, 2u);
      EXPECT_EQ(scan.block_sum,
                t.logs[1].block_number + (c.key == "blockNumber" ? 0 : t.logs[0].block_number));
    }
  }
  record::LogsRequest q;
  EXPECT_EQ(this->codec_.decode_logs_request(
                Padded(this->python_encode("logs_request", {"1", "2", "-", "3"})).bytes(), q),
            DecodeError::missing_field);
  EXPECT_EQ(this->codec_.decode_logs_request(
                Padded(this->python_encode("logs_request", {"1", "2", hex(record::kLogsAddress) + "00", "3"}))
                    .bytes(),
                q),
            DecodeError::bad_length);
  // Absent integers read as 0.
  ASSERT_EQ(
      this->codec_.decode_logs_request(
          Padded(this->python_encode("logs_request", {"-", "-", hex(record::kLogsAddress), "-"})).bytes(), q),
      DecodeError::ok);
  EXPECT_EQ(q, (record::LogsRequest{0, 0, record::kLogsAddress, 0}));
  // No logs field at all: no logs.
  const std::vector<std::uint8_t> empty{0x00};
  record::LogsDigest d;
  EXPECT_EQ(this->codec_.logs_decode_all(Padded({empty.data(), empty.size()}).bytes(), d), DecodeError::ok);
  EXPECT_EQ(d, record::LogsDigest{});
}

// A list announcing 2^31-1 logs in a few bytes is refused before the generated read resize()s a vector
// for them (the container limit is what the input can hold), and a truncated answer is syntax.
TEST(ThriftErrors, a_huge_log_count_is_refused) {
  record::ThriftCodec compact;
  record::ThriftBinaryCodec binary;
  // compact: field 1 (delta 1), a list (9); its header: size 15 (a varint follows), structs (12); 2^31-1.
  const std::vector<std::uint8_t> c{0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00};
  // binary: a list (15), field id 1, of structs (12), 2^31-1.
  const std::vector<std::uint8_t> b{0x0f, 0x00, 0x01, 0x0c, 0x7f, 0xff, 0xff, 0xff, 0x00};
  // And 1000 logs announced in 64 bytes: past the limit of what 64 bytes can hold.
  const std::vector<std::uint8_t> c1000{0x19, 0xfc, 0xe8, 0x07, 0x00};
  record::LogsDigest d;
  EXPECT_EQ(compact.logs_decode_all(Padded({c.data(), c.size()}).bytes(), d), DecodeError::syntax);
  EXPECT_EQ(binary.logs_decode_all(Padded({b.data(), b.size()}).bytes(), d), DecodeError::syntax);
  EXPECT_EQ(compact.logs_decode_all(Padded({c1000.data(), c1000.size()}).bytes(), d), DecodeError::syntax);
  const zaptest::TestLogs t;
  const record::Bytes wire = compact.encode_logs(t.logs);
  const std::vector<std::uint8_t> whole(wire.begin(), wire.end());
  EXPECT_EQ(compact.logs_decode_all(Padded({whole.data(), whole.size() - 3}).bytes(), d),
            DecodeError::syntax);
  // The codec still decodes after all that.
  record::LogsDigest good;
  ASSERT_EQ(compact.logs_decode_all(Padded({whole.data(), whole.size()}).bytes(), good), DecodeError::ok);
  EXPECT_EQ(good, record::digest_of(t.logs));
}

}  // namespace
