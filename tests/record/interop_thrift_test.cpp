// tests/record/interop_thrift_test.cpp — the thrift codecs against Apache Thrift's own Python library
// (Debian python3-thrift, run by /usr/bin/python3 through tests/record/interop_thrift.py on structs
// generated at build time from src/record/schemas/thrift.thrift): our bytes decode there to every value
// (`thrift`: TCompactProtocol, `thrift-binary`: TBinaryProtocol), its bytes decode here, and the codec's
// own error cases (byte fields of the wrong length or absent, wrong wire types, trailing bytes, garbage)
// give the documented DecodeError. Files live in the test's scratch directory (support/scratch.hpp), removed
// at the end.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "micro/padded.hpp"
#include "record/codec_thrift.hpp"
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

}  // namespace
