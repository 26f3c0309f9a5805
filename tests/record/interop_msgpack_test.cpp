// tests/record/interop_msgpack_test.cpp — the msgpack codec against another MessagePack implementation:
// Debian's python3-msgpack (`msgpack.unpackb(data, raw=False)`, `msgpack.packb(obj)`), run with
// ZAPBENCH_PYTHON3. Our bytes are read by Python, which prints what it found (types and values) for
// the test to compare; Python packs the same records, which must be our bytes exactly (both write
// MessagePack's smallest formats) and decode to the same values; Python also packs the malformed
// records, each of which must get the DecodeError the codec documents (codec_msgpack.hpp). The same for
// the eth_getLogs record (record/logs.hpp): the request and an answer of sample and edge logs both ways,
// and the logs' own errors (a topic not 32 bytes, more than 4 topics, a u32 past 2^32-1 …).
// Files go to the test's scratch directory (support/scratch.hpp), removed at the end. A missing python3
// or python3-msgpack is a failure (scripts/deps.sh installs them).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "micro/padded.hpp"
#include "record/codec_msgpack.hpp"
#include "record/logs.hpp"
#include "support/logs.hpp"
#include "support/scratch.hpp"
#include "support/tools.hpp"

#ifndef ZAPBENCH_PYTHON3
#error "ZAPBENCH_PYTHON3 must be defined by the build (tests/record/CMakeLists.txt)"
#endif

namespace {

namespace fs = std::filesystem;
using micro::Padded;
using record::DecodeError;
using zaptest::hex;

// Runs `python3 script args...` (paths without blanks or quotes: ours), returning its stdout (kept in
// <script>.out, its stderr in <script>.err); a non-zero exit is a test failure.
::testing::AssertionResult run_python(const fs::path& script, const std::string& args, std::string& out) {
  const std::string cmd = std::string("'") + ZAPBENCH_PYTHON3 + "' '" + script.string() + "' " + args;
  const fs::path out_file = script.string() + ".out";
  const ::testing::AssertionResult ran = zaptest::run_command(cmd, out_file, script.string() + ".err");
  out = zaptest::read_text(out_file);
  if (!ran) return ::testing::AssertionFailure() << ran.message() << "\nits output:\n" << out;
  return ran;
}

// A missing interpreter or module fails here, once, saying what to install.
::testing::AssertionResult python_msgpack_available(const zaptest::Scratch& dir) {
  if (!fs::exists(ZAPBENCH_PYTHON3))
    return ::testing::AssertionFailure()
           << ZAPBENCH_PYTHON3 << " not found (scripts/deps.sh installs python3)";
  const fs::path probe = dir / "probe.py";
  zaptest::write_bytes(probe, "import msgpack\nprint(msgpack.version)\n");
  std::string out;
  if (!run_python(probe, "", out))
    return ::testing::AssertionFailure() << "python3-msgpack is missing: `import msgpack` fails under "
                                         << ZAPBENCH_PYTHON3 << " (scripts/deps.sh installs python3-msgpack)";
  return ::testing::AssertionSuccess();
}

std::vector<std::uint8_t> unhex(const std::string& s) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < s.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
  return out;
}

// The records every direction is tested with: the sample, and others reaching other formats (the
// largest u64, zero, a str 16 method).
std::vector<record::Request> requests(std::string& long_method) {
  long_method.assign(300, 'm');
  record::Request other{~0ULL, 0, "eth_call", {}};
  for (std::size_t i = 0; i < other.account.size(); ++i)
    other.account[i] = static_cast<std::uint8_t>(i * 7 + 1);
  record::Request long_one{300, 1ULL << 40, long_method, {}};
  long_one.account.fill(0xff);
  return {record::sample_request(), other, long_one};
}
std::vector<record::Response> responses() {
  record::Response other{0, ~0ULL, 1, {}};
  for (std::size_t i = 0; i < other.block_hash.size(); ++i)
    other.block_hash[i] = static_cast<std::uint8_t>(255 - i * 3);
  return {record::sample_response(), other};
}

// What Python prints for a request / response: its types, then its values (account/hash in hex).
std::string expect_request(const record::Request& r) {
  return "list int int str bytes " + std::to_string(r.id) + " " + std::to_string(r.block) + " " +
         std::string(r.method) + " " + hex(r.account);
}
std::string expect_response(const record::Response& r) {
  return "list int int int bytes " + std::to_string(r.id) + " " + std::to_string(r.balance) + " " +
         std::to_string(r.nonce) + " " + hex(r.block_hash);
}

constexpr const char* kReadScript = R"(import sys, msgpack
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        v = msgpack.unpackb(f.read(), raw=False)
    print(type(v).__name__, *(type(x).__name__ for x in v),
          *(x.hex() if isinstance(x, bytes) else str(x) for x in v))
)";

// Python packs the test's records (argv: request/response lines "kind id a b c hex"), printing the
// bytes in hex, one line each; then the malformed cases, "name hex".
constexpr const char* kPackScript = R"(import sys, msgpack
for line in sys.stdin.read().splitlines():
    kind, a, b, c, h = line.split(" ")
    if kind == "req":
        v = [int(a), int(b), c, bytes.fromhex(h)]
    else:
        v = [int(a), int(b), int(c), bytes.fromhex(h)]
    print(msgpack.packb(v, use_bin_type=True).hex())
acct = bytes(range(20))
hsh = bytes(range(32))
cases = {
    "req_account19": [1, 2, "m", acct[:19]],
    "req_account21": [1, 2, "m", acct + b"x"],
    "req_account_nil": [1, 2, "m", None],
    "req_account_absent": [1, 2, "m"],
    "req_account_str": [1, 2, "m", "a" * 20],
    "req_method_bin": [1, 2, b"m", acct],
    "req_id_negative": [-1, 2, "m", acct],
    "req_block_float": [1, 2.0, "m", acct],
    "req_id_nil": [None, 2, "m", acct],
    "req_five": [1, 2, "m", acct, 5],
    "req_nested": [[1], 2, "m", acct],
    "req_map": {"id": 1, "block": 2, "method": "m", "account": acct},
    "req_scalar": 7,
    "resp_hash31": [1, 2, 3, hsh[:31]],
    "resp_hash33": [1, 2, 3, hsh + b"x"],
    "resp_hash_absent": [1, 2, 3],
    "resp_nonce_str": [1, 2, "3", hsh],
    "resp_bool": [True, 2, 3, hsh],
}
for name, v in cases.items():
    print(name, msgpack.packb(v, use_bin_type=True).hex())
print("req_signed_ok", msgpack.packb([1, 2, "m", acct]).hex().replace("9401", "94d001", 1))
)";

class MsgpackInterop : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(python_msgpack_available(dir_)); }
  zaptest::Scratch dir_{"interop_msgpack"};
  record::MsgpackCodec codec_;
};

TEST_F(MsgpackInterop, python_reads_our_bytes) {
  std::string long_method;
  const auto reqs = requests(long_method);
  const auto resps = responses();
  std::string args;
  std::vector<std::string> want;
  int k = 0;
  for (const record::Request& r : reqs) {
    const fs::path p = dir_ / ("req" + std::to_string(k++) + ".msgpack");
    zaptest::write_bytes(p, codec_.encode_request(r));
    args += " '" + p.string() + "'";
    want.push_back(expect_request(r));
  }
  k = 0;
  for (const record::Response& r : resps) {
    const fs::path p = dir_ / ("resp" + std::to_string(k++) + ".msgpack");
    zaptest::write_bytes(p, codec_.encode_response(r));
    args += " '" + p.string() + "'";
    want.push_back(expect_response(r));
  }
  const fs::path script = dir_ / "read.py";
  zaptest::write_bytes(script, kReadScript);
  std::string out;
  ASSERT_TRUE(run_python(script, args, out));
  std::istringstream lines(out);
  std::string line;
  for (const std::string& w : want) {
    ASSERT_TRUE(std::getline(lines, line)) << "python printed fewer lines than records:\n" << out;
    EXPECT_EQ(line, w);
  }
  EXPECT_FALSE(std::getline(lines, line)) << "python printed more: " << line;
}

TEST_F(MsgpackInterop, python_packs_our_bytes_and_we_read_its) {
  std::string long_method;
  const auto reqs = requests(long_method);
  const auto resps = responses();
  std::string input;
  for (const record::Request& r : reqs)
    input += "req " + std::to_string(r.id) + " " + std::to_string(r.block) + " " + std::string(r.method) +
             " " + hex(r.account) + "\n";
  for (const record::Response& r : resps)
    input += "resp " + std::to_string(r.id) + " " + std::to_string(r.balance) + " " +
             std::to_string(r.nonce) + " " + hex(r.block_hash) + "\n";
  const fs::path records = dir_ / "records.txt";
  zaptest::write_bytes(records, input);
  const fs::path script = dir_ / "pack.py";
  zaptest::write_bytes(script, kPackScript);
  std::string out;
  ASSERT_TRUE(run_python(script, "< '" + records.string() + "'", out));
  std::istringstream lines(out);
  std::string line;

  for (const record::Request& r : reqs) {
    ASSERT_TRUE(std::getline(lines, line));
    const std::vector<std::uint8_t> theirs = unhex(line);
    EXPECT_EQ(line, hex(codec_.encode_request(r))) << "python's bytes differ from ours";
    record::RequestView v;
    ASSERT_EQ(codec_.decode_request(Padded({theirs.data(), theirs.size()}).bytes(), v), DecodeError::ok)
        << line;
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.block, r.block);
    EXPECT_EQ(v.method, r.method);
    EXPECT_EQ(hex(v.account), hex(r.account));
    EXPECT_EQ(v.account0, r.account[0]);
    EXPECT_EQ(v.account_form, record::Form::raw);
  }
  for (const record::Response& r : resps) {
    ASSERT_TRUE(std::getline(lines, line));
    const std::vector<std::uint8_t> theirs = unhex(line);
    EXPECT_EQ(line, hex(codec_.encode_response(r))) << "python's bytes differ from ours";
    record::ResponseView v;
    ASSERT_EQ(codec_.decode_response(Padded({theirs.data(), theirs.size()}).bytes(), v), DecodeError::ok)
        << line;
    EXPECT_EQ(v.id, r.id);
    EXPECT_EQ(v.balance, r.balance);
    EXPECT_EQ(v.nonce, r.nonce);
    EXPECT_EQ(hex(v.block_hash), hex(r.block_hash));
  }

  // The malformed records, packed by Python, and the error each gets (codec_msgpack.hpp).
  const std::map<std::string, DecodeError> want = {
      {"req_account19", DecodeError::bad_length},
      {"req_account21", DecodeError::bad_length},
      {"req_account_nil", DecodeError::missing_field},
      {"req_account_absent", DecodeError::missing_field},
      {"req_account_str", DecodeError::wrong_type},
      {"req_method_bin", DecodeError::wrong_type},
      {"req_id_negative", DecodeError::wrong_type},
      {"req_block_float", DecodeError::wrong_type},
      {"req_id_nil", DecodeError::wrong_type},
      {"req_five", DecodeError::wrong_type},
      {"req_nested", DecodeError::wrong_type},
      {"req_map", DecodeError::wrong_type},
      {"req_scalar", DecodeError::wrong_type},
      {"resp_hash31", DecodeError::bad_length},
      {"resp_hash33", DecodeError::bad_length},
      {"resp_hash_absent", DecodeError::missing_field},
      {"resp_nonce_str", DecodeError::wrong_type},
      {"resp_bool", DecodeError::wrong_type},
      {"req_signed_ok", DecodeError::ok},
  };
  std::size_t seen = 0;
  while (std::getline(lines, line)) {
    const std::size_t blank = line.find(' ');
    ASSERT_NE(blank, std::string::npos) << line;
    const std::string name = line.substr(0, blank);
    const std::vector<std::uint8_t> bytes = unhex(line.substr(blank + 1));
    const auto it = want.find(name);
    ASSERT_NE(it, want.end()) << "unexpected case " << name;
    ++seen;
    const Padded in({bytes.data(), bytes.size()});
    DecodeError got;
    if (name.rfind("req", 0) == 0) {
      record::RequestView v;
      got = codec_.decode_request(in.bytes(), v);
      if (got == DecodeError::ok) {
        EXPECT_EQ(v.id, 1u) << name;  // int 8 holding 1
      }
    } else {
      record::ResponseView v;
      got = codec_.decode_response(in.bytes(), v);
    }
    EXPECT_EQ(got, it->second) << name << ": got " << record::describe(got) << ", want "
                               << record::describe(it->second) << " (" << line.substr(blank + 1) << ")";
  }
  EXPECT_EQ(seen, want.size());
}

// Bytes no MessagePack writer makes: truncation, a reserved byte, trailing bytes.
TEST_F(MsgpackInterop, malformed_bytes_get_the_documented_error) {
  const record::Bytes wire = codec_.encode_request(record::sample_request());
  std::vector<std::uint8_t> req(wire.begin(), wire.end());
  record::RequestView v;
  for (std::size_t n = 0; n < req.size(); ++n)
    EXPECT_EQ(codec_.decode_request(Padded({req.data(), n}).bytes(), v), DecodeError::syntax)
        << "prefix " << n;
  std::vector<std::uint8_t> longer = req;
  longer.push_back(0xc0);
  EXPECT_EQ(codec_.decode_request(Padded({longer.data(), longer.size()}).bytes(), v), DecodeError::trailing);
  const std::uint8_t reserved[] = {0xc1};  // "never used" in the MessagePack spec
  EXPECT_EQ(codec_.decode_request(Padded({reserved, 1}).bytes(), v), DecodeError::syntax);
  const std::uint8_t garbage[] = {0x94, 0x01, 0x02, 0xc1, 0x00};
  EXPECT_EQ(codec_.decode_request(Padded({garbage, sizeof garbage}).bytes(), v), DecodeError::syntax);
  // An ext 32 claiming 2^32-1 bytes: msgpack-c throws ext_size_overflow, the codec answers syntax.
  const std::uint8_t huge_ext[] = {0x94, 0xc9, 0xff, 0xff, 0xff, 0xff, 0x01};
  EXPECT_EQ(codec_.decode_request(Padded({huge_ext, sizeof huge_ext}).bytes(), v), DecodeError::syntax);
  // After every one of those, the codec still decodes (the parser's state is reset per decode).
  ASSERT_EQ(codec_.decode_request(Padded({req.data(), req.size()}).bytes(), v), DecodeError::ok);
  EXPECT_EQ(v.method, record::kSampleMethod);
}

// ---- eth_getLogs ------------------------------------------------------------------

// The answer both directions are tested with: zaptest::TestLogs (support/logs.hpp), the sample
// request's two logs, then logs at the edges: the largest integers (uint 64 / uint 32 formats), four
// topics and 300 data bytes (bin 16), one topic and one byte.

std::string topics_hex(const record::Log& l) {
  std::string out;
  for (std::size_t t = 0; t < l.topic_count(); ++t)
    out.append(t == 0 ? "" : ",").append(hex(l.topics.subspan(t * record::kTopicBytes, record::kTopicBytes)));
  return out;
}

// What Python prints for an answer (its type and length, then a line per log: the log's type, length
// and its elements' types, then the values), and the lines it reads the logs from (one per log, the
// values blank-separated, topics comma-separated, '.' for none; data '.' for empty).
std::string expect_logs(std::span<const record::Log> logs) {
  std::string out = "list " + std::to_string(logs.size()) + "\n";
  for (const record::Log& l : logs)
    out += "list 8 bytes list bytes int bytes int int bool " + hex(l.address) + " " + topics_hex(l) + " " +
           hex(l.data) + " " + std::to_string(l.block_number) + " " + hex(l.tx_hash) + " " +
           std::to_string(l.tx_index) + " " + std::to_string(l.log_index) + " " +
           (l.removed ? "True" : "False") + "\n";
  return out;
}
std::string logs_input(std::span<const record::Log> logs) {
  std::string out;
  for (const record::Log& l : logs) {
    const std::string topics = topics_hex(l), data = hex(l.data);
    out += hex(l.address) + " " + (topics.empty() ? "." : topics) + " " + (data.empty() ? "." : data) + " " +
           std::to_string(l.block_number) + " " + hex(l.tx_hash) + " " + std::to_string(l.tx_index) + " " +
           std::to_string(l.log_index) + " " + (l.removed ? "1" : "0") + "\n";
  }
  return out;
}

constexpr const char* kReadLogsScript = R"(import sys, msgpack
with open(sys.argv[1], "rb") as f:
    v = msgpack.unpackb(f.read(), raw=False)
print(type(v).__name__, len(v))
for log in v:
    address, topics, data, block, txhash, txindex, logindex, removed = log
    print(type(log).__name__, len(log), *(type(x).__name__ for x in log), address.hex(),
          ",".join(t.hex() for t in topics), data.hex(), block, txhash.hex(), txindex, logindex, removed)
with open(sys.argv[2], "rb") as f:
    q = msgpack.unpackb(f.read(), raw=False)
print(type(q).__name__, *(type(x).__name__ for x in q), q[0], q[1], q[2].hex(), q[3])
)";

// Python packs the answer it reads from stdin (logs_input's lines) by hand, printing its hex on one line,
// then the sample request, then the malformed answers and requests, "name hex" each: one good log, then
// the case's log (so AccessOne of log 1 meets it).
constexpr const char* kPackLogsScript = R"(import sys, msgpack
def unhex(s):
    return b"" if s == "." else bytes.fromhex(s)
logs = []
for line in sys.stdin.read().splitlines():
    a, t, d, b, h, ti, li, r = line.split(" ")
    logs.append([unhex(a), [] if t == "." else [bytes.fromhex(x) for x in t.split(",")], unhex(d), int(b),
                 unhex(h), int(ti), int(li), r == "1"])
print(msgpack.packb(logs, use_bin_type=True).hex())
print(msgpack.packb([0x112a880, 0x112a880 + 999, bytes.fromhex(sys.argv[1]), 2], use_bin_type=True).hex())
good = [bytes(20), [bytes(32)], b"\x01", 7, bytes(32), 1, 2, False]
def log(**change):
    fields = ["address", "topics", "data", "block", "hash", "txindex", "logindex", "removed"]
    out = list(good)
    for k, v in change.items():
        out[fields.index(k)] = v
    return out
cases = {
    "topic31": [good, log(topics=[bytes(32), bytes(31)])],
    "topic33": [good, log(topics=[bytes(33)])],
    "five_topics": [good, log(topics=[bytes(32)] * 5)],
    "address19": [good, log(address=bytes(19))],
    "hash33": [good, log(hash=bytes(33))],
    "txindex_2_32": [good, log(txindex=2**32)],
    "logindex_2_64": [good, log(logindex=2**64 - 1)],
    "block_negative": [good, log(block=-1)],
    "hash_nil": [good, log(hash=None)],
    "address_str": [good, log(address="a" * 20)],
    "topic_str": [good, log(topics=["t" * 32])],
    "topics_bin": [good, log(topics=bytes(32))],
    "topics_nested": [good, log(topics=[[bytes(32)]])],
    "removed_int": [good, log(removed=0)],
    "seven": [good, good[:7]],
    "nine": [good, good + [0]],
    "log_map": [good, {"address": bytes(20)}],
    "log_scalar": [good, 7],
    "answer_map": {"logs": [good]},
    "empty": [],
}
for name, v in cases.items():
    print("logs_" + name, msgpack.packb(v, use_bin_type=True).hex())
acct = bytes(range(20))
req = {
    "limit_2_32": [1, 2, acct, 2**32],
    "limit_str": [1, 2, acct, "3"],
    "address19": [1, 2, acct[:19], 3],
    "address_nil": [1, 2, None, 3],
    "three": [1, 2, acct],
    "five": [1, 2, acct, 3, 4],
}
for name, v in req.items():
    print("req_" + name, msgpack.packb(v, use_bin_type=True).hex())
)";

TEST_F(MsgpackInterop, python_reads_our_logs) {
  const zaptest::TestLogs t;
  const fs::path answer = dir_ / "logs.msgpack";
  zaptest::write_bytes(answer, codec_.encode_logs(t.logs));
  const fs::path request = dir_ / "logs_request.msgpack";
  const record::LogsRequest q = record::sample_logs_request(2);
  zaptest::write_bytes(request, codec_.encode_logs_request(q));
  const fs::path script = dir_ / "read_logs.py";
  zaptest::write_bytes(script, kReadLogsScript);
  std::string out;
  ASSERT_TRUE(run_python(script, "'" + answer.string() + "' '" + request.string() + "'", out));
  EXPECT_EQ(out, expect_logs(t.logs) + "list int int bytes int " + std::to_string(q.from_block) + " " +
                     std::to_string(q.to_block) + " " + hex(q.address) + " " + std::to_string(q.limit) +
                     "\n");
}

TEST_F(MsgpackInterop, python_packs_our_logs_and_we_read_its) {
  const zaptest::TestLogs t;
  const fs::path input = dir_ / "logs.txt";
  zaptest::write_bytes(input, logs_input(t.logs));
  const fs::path script = dir_ / "pack_logs.py";
  zaptest::write_bytes(script, kPackLogsScript);
  std::string out;
  ASSERT_TRUE(run_python(script, hex(record::kLogsAddress) + " < '" + input.string() + "'", out));
  std::istringstream lines(out);
  std::string line;

  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, hex(codec_.encode_logs(t.logs))) << "python's bytes differ from ours";
  const std::vector<std::uint8_t> theirs = unhex(line);
  const Padded answer({theirs.data(), theirs.size()});
  record::LogsDigest d;
  ASSERT_EQ(codec_.logs_decode_all(answer.bytes(), d), DecodeError::ok);
  EXPECT_EQ(d, record::digest_of(t.logs));
  record::LogsScan scan;
  ASSERT_EQ(codec_.logs_scan(answer.bytes(), scan), DecodeError::ok);
  EXPECT_EQ(scan, record::scan_of(t.logs));
  for (std::uint32_t k = 0; k < t.logs.size(); ++k) {
    record::LogPick pick;
    ASSERT_EQ(codec_.logs_access_one(answer.bytes(), k, pick), DecodeError::ok);
    EXPECT_EQ(pick, record::pick_of(t.logs[k])) << k;
  }
  record::LogPick past;
  EXPECT_EQ(codec_.logs_access_one(answer.bytes(), static_cast<std::uint32_t>(t.logs.size()), past),
            DecodeError::missing_field);

  ASSERT_TRUE(std::getline(lines, line));
  const record::LogsRequest q = record::sample_logs_request(2);
  EXPECT_EQ(line, hex(codec_.encode_logs_request(q))) << "python's bytes differ from ours";
  const std::vector<std::uint8_t> req = unhex(line);
  record::LogsRequest back;
  ASSERT_EQ(codec_.decode_logs_request(Padded({req.data(), req.size()}).bytes(), back), DecodeError::ok);
  EXPECT_EQ(back, q);

  // The malformed answers and requests, and the error each gets (codec_msgpack.hpp) on every read
  // operation (AccessOne of log 1, the case's log).
  const std::map<std::string, DecodeError> want = {
      {"logs_topic31", DecodeError::bad_length},
      {"logs_topic33", DecodeError::bad_length},
      {"logs_five_topics", DecodeError::bad_length},
      {"logs_address19", DecodeError::bad_length},
      {"logs_hash33", DecodeError::bad_length},
      {"logs_txindex_2_32", DecodeError::integer_overflow},
      {"logs_logindex_2_64", DecodeError::integer_overflow},
      {"logs_block_negative", DecodeError::wrong_type},
      {"logs_hash_nil", DecodeError::missing_field},
      {"logs_address_str", DecodeError::wrong_type},
      {"logs_topic_str", DecodeError::wrong_type},
      {"logs_topics_bin", DecodeError::wrong_type},
      {"logs_topics_nested", DecodeError::wrong_type},
      {"logs_removed_int", DecodeError::wrong_type},
      {"logs_seven", DecodeError::missing_field},
      {"logs_nine", DecodeError::wrong_type},
      {"logs_log_map", DecodeError::wrong_type},
      {"logs_log_scalar", DecodeError::wrong_type},
      {"logs_answer_map", DecodeError::wrong_type},
      {"logs_empty", DecodeError::ok},
      {"req_limit_2_32", DecodeError::integer_overflow},
      {"req_limit_str", DecodeError::wrong_type},
      {"req_address19", DecodeError::bad_length},
      {"req_address_nil", DecodeError::missing_field},
      {"req_three", DecodeError::missing_field},
      {"req_five", DecodeError::wrong_type},
  };
  std::size_t seen = 0;
  while (std::getline(lines, line)) {
    const std::size_t blank = line.find(' ');
    ASSERT_NE(blank, std::string::npos) << line;
    const std::string name = line.substr(0, blank);
    const std::vector<std::uint8_t> bytes = unhex(line.substr(blank + 1));
    const auto it = want.find(name);
    ASSERT_NE(it, want.end()) << "unexpected case " << name;
    ++seen;
    const Padded in({bytes.data(), bytes.size()});
    const auto expect = [&](DecodeError got, const char* op) {
      EXPECT_EQ(got, it->second) << name << " (" << op << "): got " << record::describe(got) << ", want "
                                 << record::describe(it->second) << " (" << line.substr(blank + 1) << ")";
    };
    if (name.rfind("req", 0) == 0) {
      record::LogsRequest r;
      expect(codec_.decode_logs_request(in.bytes(), r), "request");
      continue;
    }
    record::LogsDigest all;
    expect(codec_.logs_decode_all(in.bytes(), all), "DecodeAll");
    record::LogsScan s;
    expect(codec_.logs_scan(in.bytes(), s), "ScanField");
    if (name == "logs_empty") {
      EXPECT_EQ(all, record::LogsDigest{});
      EXPECT_EQ(s, record::LogsScan{});
      record::LogPick p;
      EXPECT_EQ(codec_.logs_access_one(in.bytes(), 0, p), DecodeError::missing_field);
      continue;
    }
    record::LogPick p;
    expect(codec_.logs_access_one(in.bytes(), 1, p), "AccessOne");
  }
  EXPECT_EQ(seen, want.size());
}

// AccessOne reads up to log k and stops: a malformed log after k is not its business (DecodeAll and
// ScanField, which read every log, see it); truncated answers and trailing bytes are syntax / trailing.
TEST_F(MsgpackInterop, logs_access_one_stops_at_log_k_and_malformed_bytes_are_errors) {
  const zaptest::TestLogs t;
  const record::Bytes wire = codec_.encode_logs(t.logs);
  std::vector<std::uint8_t> answer(wire.begin(), wire.end());
  // The last log's last byte is its `removed` (0xc2 false): 0xc1 is never used in MessagePack.
  ASSERT_EQ(answer.back(), 0xc2);
  answer.back() = 0xc1;
  const Padded bad({answer.data(), answer.size()});
  record::LogPick p;
  EXPECT_EQ(codec_.logs_access_one(bad.bytes(), 0, p), DecodeError::ok);
  EXPECT_EQ(p, record::pick_of(t.logs[0]));
  record::LogsDigest d;
  EXPECT_EQ(codec_.logs_decode_all(bad.bytes(), d), DecodeError::syntax);
  record::LogsScan s;
  EXPECT_EQ(codec_.logs_scan(bad.bytes(), s), DecodeError::syntax);
  answer.back() = 0xc2;
  for (std::size_t n = 0; n < answer.size(); n += 7)
    EXPECT_EQ(codec_.logs_decode_all(Padded({answer.data(), n}).bytes(), d), DecodeError::syntax) << n;
  answer.push_back(0xc0);
  EXPECT_EQ(codec_.logs_decode_all(Padded({answer.data(), answer.size()}).bytes(), d), DecodeError::trailing);
  answer.pop_back();
  record::LogsDigest good;
  ASSERT_EQ(codec_.logs_decode_all(Padded({answer.data(), answer.size()}).bytes(), good), DecodeError::ok);
  EXPECT_EQ(good, record::digest_of(t.logs));
}

}  // namespace
