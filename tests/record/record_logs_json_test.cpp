// tests/record/record_logs_json_test.cpp — the eth_getLogs record as JSON
// (record/logs_json.hpp) on every JSON codec of the build: the table of
// malformed and edge documents, each with its DecodeError, through each
// operation that reads it (DecodeAll, AccessOne, ScanField, the request);
// answers written another way (unknown keys, upper-case hex, other key
// orders, escapes) reading as the same logs; the writer's exact bytes; the
// hex helpers the codecs share; and steady state allocating nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "matrix/matrix.hpp"
#include "micro/alloc_counter.hpp"
#include "micro/padded.hpp"
#include "record/codecs.hpp"
#include "record/json_writer.hpp"
#include "record/logs.hpp"
#include "record/logs_json.hpp"

namespace {

using micro::Padded;
using record::DecodeError;

// ---- the JSON codecs with the logs record, as gtest types -------------------

template <class T, class Tuple>
struct Prepend;
template <class T, class... Ts>
struct Prepend<T, std::tuple<Ts...>> {
  using type = std::tuple<T, Ts...>;
};
template <class... Cs>
struct JsonLogs {
  using type = std::tuple<>;
};
template <class C, class... Cs>
struct JsonLogs<C, Cs...> {
  using rest = typename JsonLogs<Cs...>::type;
  static constexpr bool kKeep =
      matrix::family_of(C::kContentType) == matrix::Family::json && record::LogsCodec<C>;
  using type = std::conditional_t<kKeep, typename Prepend<C, rest>::type, rest>;
};
template <class L>
struct JsonLogsTypes;
template <class... Cs>
struct JsonLogsTypes<record::CodecList<Cs...>> {
  template <class Tuple>
  struct ToTypes;
  template <class... Ts>
  struct ToTypes<std::tuple<Ts...>> {
    using type = ::testing::Types<Ts...>;
  };
  using type = typename ToTypes<typename JsonLogs<Cs...>::type>::type;
};
// `direct` is always built, so the list is never empty.
using JsonLogsCodecs = JsonLogsTypes<record::AvailableCodecs>::type;

template <class C>
class LogsJson : public ::testing::Test {};
TYPED_TEST_SUITE(LogsJson, JsonLogsCodecs);

std::string str(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }
record::Bytes bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

record::LogSet sample(std::uint32_t n) {
  record::LogSet s;
  record::generate(record::sample_logs_request(n), s);
  return s;
}

// ---- documents, member by member ---------------------------------------------

const std::string kAddress = "\"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48\"";
const std::string kTopic0 = "\"0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef\"";
const std::string kTopic1 = "\"0x000000000000000000000000aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"";
const std::string kHash = "\"0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"";
const std::string kData = "\"0x00000000000000000000000000000000000000000000000000000000000f4240\"";

// One log's members as raw JSON text, in order; set() replaces a member's
// value, drop() removes it, add() appends a member (a second one if the key
// is there already).
struct LogText {
  std::vector<std::pair<std::string, std::string>> members = {{"address", kAddress},
                                                              {"topics", "[" + kTopic0 + "," + kTopic1 + "]"},
                                                              {"data", kData},
                                                              {"blockNumber", "\"0x112a880\""},
                                                              {"transactionHash", kHash},
                                                              {"transactionIndex", "\"0x1f\""},
                                                              {"logIndex", "\"0x7\""},
                                                              {"removed", "false"}};

  LogText& set(const std::string& key, const std::string& value) {
    for (auto& [k, v] : members)
      if (k == key) v = value;
    return *this;
  }
  LogText& drop(const std::string& key) {
    std::erase_if(members, [&](const auto& m) { return m.first == key; });
    return *this;
  }
  LogText& add(const std::string& key, const std::string& value) {
    members.emplace_back(key, value);
    return *this;
  }
  std::string str() const {
    std::string out = "{";
    for (const auto& [k, v] : members) out += (out.size() > 1 ? ",\"" : "\"") + k + "\":" + v;
    return out + "}";
  }
};
LogText good() { return {}; }
std::string answer(const std::vector<std::string>& logs) {
  std::string out = "[";
  for (const std::string& l : logs) out += (out.size() > 1 ? "," : "") + l;
  return out + "]";
}
std::string answer(const LogText& a) { return answer({a.str()}); }
std::string answer(const LogText& a, const LogText& b) { return answer({a.str(), b.str()}); }
std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }
std::string hex_text(std::size_t digits, char c = 'a') { return in_quotes("0x" + std::string(digits, c)); }

std::string request_with(const std::string& members) { return "{" + members + "}"; }
const std::string kFrom = R"("fromBlock":"0x112a880")";
const std::string kTo = R"("toBlock":"0x112ac67")";
const std::string kReqAddress = R"("address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")";
const std::string kLimit = R"("limit":"0x64")";
std::string request(const std::string& from = kFrom, const std::string& to = kTo,
                    const std::string& address = kReqAddress, const std::string& limit = kLimit) {
  std::string out;
  for (const std::string* m : {&from, &to, &address, &limit})
    if (!m->empty()) out += (out.empty() ? "" : ",") + *m;
  return request_with(out);
}

// ---- the table ------------------------------------------------------------------

enum class Op { decode_all, access_one, scan, request };
constexpr const char* name_of(Op op) {
  switch (op) {
    case Op::decode_all:
      return "DecodeAll";
    case Op::access_one:
      return "AccessOne";
    case Op::scan:
      return "ScanField";
    case Op::request:
      return "decode_logs_request";
  }
  return "?";
}

struct Case {
  std::string name;
  Op op;
  std::string json;
  DecodeError want;
  std::uint32_t k = 0;  // AccessOne's log
  // Another outcome accepted: syntax for content after a root container that
  // does not end in a bracket, which simdjson reports as it reports a
  // truncated one (INCOMPLETE_ARRAY_OR_OBJECT), as in the first record's
  // table (record_codec_test: "syntax or trailing").
  std::optional<DecodeError> also = std::nullopt;
};

// Every read of a whole answer: the same outcome on DecodeAll and ScanField
// (a case on a field ScanField reads), or on DecodeAll only.
void both(std::vector<Case>& out, const std::string& name, const std::string& json, DecodeError want) {
  out.push_back({name, Op::decode_all, json, want});
  out.push_back({name, Op::scan, json, want});
}

std::vector<Case> cases() {
  using D = DecodeError;
  std::vector<Case> c;
  const auto all = [&](const std::string& name, const std::string& json, D want) {
    c.push_back({name, Op::decode_all, json, want});
  };
  const auto scan = [&](const std::string& name, const std::string& json, D want) {
    c.push_back({name, Op::scan, json, want});
  };
  const auto one = [&](const std::string& name, const std::string& json, D want, std::uint32_t k) {
    c.push_back({name, Op::access_one, json, want, k});
  };
  const auto req = [&](const std::string& name, const std::string& json, D want) {
    c.push_back({name, Op::request, json, want});
  };
  const std::string two = answer(good(), good().set("logIndex", "\"0x8\""));

  // Well-formed answers.
  both(c, "two logs", two, D::ok);
  both(c, "no logs", "[]", D::ok);
  both(c, "whitespace everywhere", " [ \n" + good().str() + " ,\t" + good().str() + " ]\r\n", D::ok);
  both(c, "unknown keys, nested",
       answer(good().add("blockHash", kHash).add("x", R"({"logIndex":[1,{"a":null}]})")), D::ok);
  both(c, "upper-case hex",
       answer(good()
                  .set("blockNumber", "\"0X112A880\"")
                  .set("transactionHash",
                       R"("0X0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF")")),
       D::ok);
  both(c, "leading zeros in a quantity",
       answer(good().set("blockNumber", "\"0x00000000000000000000000000112a880\"")), D::ok);
  both(c, "the largest quantities",
       answer(good()
                  .set("blockNumber", "\"0xffffffffffffffff\"")
                  .set("logIndex", "\"0xffffffff\"")
                  .set("transactionIndex", "\"0xFFFFFFFF\"")),
       D::ok);
  both(c, "no topics, no data", answer(good().set("topics", "[]").set("data", "\"0x\"")), D::ok);
  both(c, "four topics",
       answer(good().set("topics", "[" + kTopic0 + "," + kTopic1 + "," + kTopic0 + "," + kTopic1 + "]")),
       D::ok);
  both(c, "escaped key and value",
       answer(good().drop("address").add("\\u0061ddress",
                                         R"("0x\u0061\u0030b86991c6218b36c1d19d4a2e9eb0ce3606eb48")")),
       D::ok);
  both(c, "removed true", answer(good().set("removed", "true")), D::ok);

  // syntax and trailing: whatever each operation reads.
  both(c, "empty", "", D::syntax);
  both(c, "whitespace only", " \n", D::syntax);
  both(c, "unclosed array", "[" + good().str(), D::syntax);
  both(c, "truncated in a log", two.substr(0, two.size() / 2), D::syntax);
  both(c, "no comma between logs", "[" + good().str() + good().str() + "]", D::syntax);
  both(c, "comma after the last log", "[" + good().str() + ",]", D::syntax);
  both(c, "no colon", answer({R"({"address" "0x00"})"}), D::syntax);
  both(c, "invalid utf-8 in a skipped string", answer(good().add("x", "\"\xff\"")), D::syntax);
  both(c, "raw control character in data", answer(good().set("data", "\"0x0\x01\"")), D::syntax);
  all("nesting past 1024", answer(good().add("x", std::string(1100, '[') + std::string(1100, ']'))),
      D::syntax);
  both(c, "a second value", "[] []", D::trailing);
  for (Op op : {Op::decode_all, Op::scan})
    c.push_back({"trailing garbage", op, two + " x", D::trailing, 0, D::syntax});
  both(c, "trailing whitespace", two + " \n\t", D::ok);
  // A malformed literal in a value DecodeAll skips as an unknown key's: every
  // codec validates it (ScanField: see scan_skips_values_the_libraries_way).
  all("bad literal in an unknown value", answer(good().add("x", "tru")), D::syntax);
  // A stray token after a value the reader decoded (found by a differential
  // run of the five codecs: a value read in place must still be stepped over).
  all("a stray colon after data", answer(good().set("data", kData + ":" + kData)), D::syntax);
  all("a stray colon after a topic", answer(good().set("topics", "[" + kTopic0 + ":" + kTopic1 + "]")),
      D::syntax);
  both(c, "a stray colon after blockNumber", answer(good().set("blockNumber", "\"0x1\":\"0x2\"")), D::syntax);
  all("bad literal in removed", answer(good().set("removed", "fals")), D::syntax);
  all("bad number in an unknown value", answer(good().add("x", "01")), D::syntax);

  // wrong_type.
  both(c, "top level object", R"({"a":[1]})", D::wrong_type);
  both(c, "top level string", R"("0x1")", D::wrong_type);
  both(c, "top level number", "1", D::wrong_type);
  both(c, "a log that is a number", answer({"1"}), D::wrong_type);
  both(c, "a log that is an array", answer({"[" + good().str() + "]"}), D::wrong_type);
  both(c, "blockNumber a number", answer(good().set("blockNumber", "18000000")), D::wrong_type);
  both(c, "blockNumber null", answer(good().set("blockNumber", "null")), D::wrong_type);
  both(c, "blockNumber an object", answer(good().set("blockNumber", R"({"x":"0x1"})")), D::wrong_type);
  all("address a number", answer(good().set("address", "1")), D::wrong_type);
  all("data null", answer(good().set("data", "null")), D::wrong_type);
  all("transactionHash an array", answer(good().set("transactionHash", "[" + kHash + "]")), D::wrong_type);
  all("logIndex a boolean", answer(good().set("logIndex", "true")), D::wrong_type);
  all("transactionIndex a number", answer(good().set("transactionIndex", "31")), D::wrong_type);
  all("topics a string", answer(good().set("topics", kTopic0)), D::wrong_type);
  all("topics an object", answer(good().set("topics", "{}")), D::wrong_type);
  all("a topic that is a number", answer(good().set("topics", "[1]")), D::wrong_type);
  all("a topic that is an array", answer(good().set("topics", "[[" + kTopic0 + "]]")), D::wrong_type);
  all("removed a string", answer(good().set("removed", "\"false\"")), D::wrong_type);
  all("removed null", answer(good().set("removed", "null")), D::wrong_type);
  all("removed a number", answer(good().set("removed", "0")), D::wrong_type);

  // missing_field and duplicate_field.
  for (const char* key : {"address", "topics", "data", "blockNumber", "transactionHash", "transactionIndex",
                          "logIndex", "removed"}) {
    const std::string k(key);
    if (k == "blockNumber") {
      both(c, "missing " + k, answer(good(), good().drop(k)), D::missing_field);
      both(c, "duplicate " + k, answer(good().add(k, "\"0x1\"")), D::duplicate_field);
    } else {
      all("missing " + k, answer(good(), good().drop(k)), D::missing_field);
      all("duplicate " + k, answer(good().add(k, good().members[0].second)), D::duplicate_field);
    }
  }
  both(c, "an empty log", answer({"{}"}), D::missing_field);

  // bad_hex: quantities.
  both(c, "quantity without 0x", answer(good().set("blockNumber", "\"112a880\"")), D::bad_hex);
  both(c, "quantity 0x only", answer(good().set("blockNumber", "\"0x\"")), D::bad_hex);
  both(c, "quantity empty", answer(good().set("blockNumber", "\"\"")), D::bad_hex);
  both(c, "quantity non-digit", answer(good().set("blockNumber", "\"0x112g880\"")), D::bad_hex);
  both(c, "quantity negative", answer(good().set("blockNumber", "\"-0x1\"")), D::bad_hex);
  both(c, "quantity with a space", answer(good().set("blockNumber", "\"0x 1\"")), D::bad_hex);
  all("logIndex non-digit", answer(good().set("logIndex", "\"0xz\"")), D::bad_hex);
  // bad_hex: bytes, every digit checked (the SIMD block, its tail, the scalar tail).
  all("address without 0x", answer(good().set("address", in_quotes(std::string(42, 'a')))), D::bad_hex);
  for (std::size_t at : {0u, 15u, 16u, 31u, 32u, 39u}) {
    std::string a = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
    a[2 + at] = 'g';
    all("address bad digit " + std::to_string(at), answer(good().set("address", in_quotes(a))), D::bad_hex);
  }
  for (std::size_t at : {0u, 33u, 63u}) {
    std::string h = kHash;
    h[3 + at] = at == 33 ? '/' : 'G';
    all("transactionHash bad digit " + std::to_string(at), answer(good().set("transactionHash", h)),
        D::bad_hex);
    std::string t = kTopic0;
    t[3 + at] = ':';
    all("topic bad digit " + std::to_string(at), answer(good().set("topics", "[" + t + "]")), D::bad_hex);
  }
  all("data without 0x", answer(good().set("data", "\"00\"")), D::bad_hex);
  all("data odd digit count", answer(good().set("data", "\"0x123\"")), D::bad_hex);
  all("data one digit", answer(good().set("data", "\"0x1\"")), D::bad_hex);
  all("data bad digit", answer(good().set("data", in_quotes("0x" + std::string(100, '0') + "x0"))),
      D::bad_hex);
  all("data non-ASCII digit", answer(good().set("data", "\"0x\xc3\xa9\"")), D::bad_hex);

  // bad_length.
  all("address 19 bytes", answer(good().set("address", hex_text(38))), D::bad_length);
  all("address 21 bytes", answer(good().set("address", hex_text(42))), D::bad_length);
  all("address 41 digits", answer(good().set("address", hex_text(41))), D::bad_length);
  all("transactionHash 31 bytes", answer(good().set("transactionHash", hex_text(62))), D::bad_length);
  all("topic 33 bytes", answer(good().set("topics", "[" + hex_text(66) + "]")), D::bad_length);
  all("topic empty", answer(good().set("topics", "[\"0x\"]")), D::bad_length);
  all("five topics",
      answer(good().set("topics",
                        "[" + kTopic0 + "," + kTopic0 + "," + kTopic0 + "," + kTopic0 + "," + kTopic0 + "]")),
      D::bad_length);

  // integer_overflow.
  both(c, "blockNumber 17 digits", answer(good().set("blockNumber", "\"0x10000000000000000\"")),
       D::integer_overflow);
  both(c, "blockNumber 17 digits, a bad one too",
       answer(good().set("blockNumber", "\"0x1000000000000000g\"")), D::bad_hex);
  all("logIndex past u32", answer(good().set("logIndex", "\"0x100000000\"")), D::integer_overflow);
  all("transactionIndex past u32", answer(good().set("transactionIndex", "\"0x1FFFFFFFF\"")),
      D::integer_overflow);

  // The first error in document order; syntax above all.
  all("two errors: the first wins", answer(good().set("address", "1"), good().drop("data")), D::wrong_type);
  all("a missing key counts at its log's end", answer(good().drop("data"), good().set("address", "1")),
      D::missing_field);
  c.push_back({"a field error, then a second value", Op::decode_all,
               answer(good().set("address", "1")) + "[]", D::trailing});
  all("a field error, then truncated", "[" + good().set("address", "1").str(), D::syntax);

  // ScanField reads blockNumber only: the other fields' values are not decoded.
  scan("ScanField: a bad address is not read", answer(good().set("address", "1")), D::ok);
  scan("ScanField: a missing data is not read", answer(good().drop("data")), D::ok);
  scan("ScanField: a duplicate address is not read", answer(good().add("address", kAddress)), D::ok);

  // AccessOne: log k's logIndex and transactionHash only.
  one("log 1 of two", two, D::ok, 1);
  one("k = N", two, D::missing_field, 2);
  one("no logs", "[]", D::missing_field, 0);
  one("top level object", R"({"a":1})", D::wrong_type, 0);
  one("top level string", R"("x")", D::wrong_type, 0);
  one("log k a number", answer({good().str(), "7"}), D::wrong_type, 1);
  one("log k an array", answer({good().str(), "[]"}), D::wrong_type, 1);
  one("log k missing logIndex", answer(good(), good().drop("logIndex")), D::missing_field, 1);
  one("log k missing transactionHash", answer(good().drop("transactionHash")), D::missing_field, 0);
  one("log k duplicate logIndex", answer(good().add("logIndex", "\"0x1\"")), D::duplicate_field, 0);
  one("log k duplicate transactionHash", answer(good().add("transactionHash", kHash)), D::duplicate_field, 0);
  one("log k logIndex without 0x", answer(good().set("logIndex", "\"7\"")), D::bad_hex, 0);
  one("log k logIndex past u32", answer(good().set("logIndex", "\"0x100000000\"")), D::integer_overflow, 0);
  one("log k logIndex a number", answer(good().set("logIndex", "7")), D::wrong_type, 0);
  one("log k transactionHash a number", answer(good().set("transactionHash", "7")), D::wrong_type, 0);
  one("log k transactionHash bad digit", answer(good().set("transactionHash", hex_text(64, 'q'))), D::bad_hex,
      0);
  one("log k transactionHash 33 bytes", answer(good().set("transactionHash", hex_text(66))), D::bad_length,
      0);
  one("log k's other fields are not read",
      answer(good().set("data", "1").drop("address").add("topics", "[]")), D::ok, 0);
  one("logs before k are not decoded", answer({good().set("logIndex", "1").str(), "7", good().str()}), D::ok,
      2);
  one("malformed before k", "[" + good().str() + " " + good().str() + "]", D::syntax, 1);
  one("truncated before k", "[" + good().str() + ",{\"a", D::syntax, 1);
  one("truncated in log k", "[" + good().str() + "," + good().str().substr(0, 40), D::syntax, 1);
  // An element k that is not a log: the error path reads on, so what follows
  // it must be well-formed (a library reports a number or string before it
  // has seen the byte after it).
  one("log k a string, then a colon", R"(["a":1])", D::syntax, 0);
  one("log k a number with a leading zero", "[00]", D::syntax, 0);
  one("log k not a log, then malformed", "[7, {]", D::syntax, 0);

  // The request.
  req("sample", request(), D::ok);
  req("any order, unknown keys, upper case",
      request_with(kLimit + "," + R"("x":{"limit":1},)" + kTo + "," + kReqAddress +
                   R"(,"fromBlock":"0X112A880")"),
      D::ok);
  req("empty", "", D::syntax);
  req("truncated", request().substr(0, 30), D::syntax);
  req("trailing", request() + " {}", D::trailing);
  c.push_back({"trailing garbage", Op::request, request() + " x", D::trailing, 0, D::syntax});
  req("top level array", "[" + request() + "]", D::wrong_type);
  req("top level number", "7", D::wrong_type);
  req("fromBlock a number", request(R"("fromBlock":18000000)"), D::wrong_type);
  req("limit null", request(kFrom, kTo, kReqAddress, R"("limit":null)"), D::wrong_type);
  req("address an object", request(kFrom, kTo, R"("address":{})"), D::wrong_type);
  req("missing fromBlock", request(""), D::missing_field);
  req("missing toBlock", request(kFrom, ""), D::missing_field);
  req("missing address", request(kFrom, kTo, ""), D::missing_field);
  req("missing limit", request(kFrom, kTo, kReqAddress, ""), D::missing_field);
  req("duplicate limit", request_with(kFrom + "," + kTo + "," + kReqAddress + "," + kLimit + "," + kLimit),
      D::duplicate_field);
  req("toBlock without 0x", request(kFrom, R"("toBlock":"112ac67")"), D::bad_hex);
  req("limit 0x only", request(kFrom, kTo, kReqAddress, R"("limit":"0x")"), D::bad_hex);
  req("address bad digit", request(kFrom, kTo, R"("address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606ebzz")"),
      D::bad_hex);
  req("address 19 bytes", request(kFrom, kTo, R"("address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb")"),
      D::bad_length);
  req("limit past u32", request(kFrom, kTo, kReqAddress, R"("limit":"0x100000000")"), D::integer_overflow);
  req("fromBlock past u64", request(R"("fromBlock":"0x10000000000000000")"), D::integer_overflow);
  return c;
}

template <class C>
DecodeError run(C& codec, const Case& c) {
  const Padded in(bytes(c.json));
  switch (c.op) {
    case Op::decode_all: {
      record::LogsDigest d;
      return codec.logs_decode_all(in.bytes(), d);
    }
    case Op::access_one: {
      record::LogPick pick;
      return codec.logs_access_one(in.bytes(), c.k, pick);
    }
    case Op::scan: {
      record::LogsScan scan;
      return codec.logs_scan(in.bytes(), scan);
    }
    case Op::request: {
      record::LogsRequest q;
      return codec.decode_logs_request(in.bytes(), q);
    }
  }
  return DecodeError::ok;
}

TYPED_TEST(LogsJson, the_table_gives_each_documented_error) {
  TypeParam codec;
  const std::vector<Case> table = cases();
  for (const Case& c : table) {
    const DecodeError got = run(codec, c);
    if (c.also && got == *c.also) continue;
    EXPECT_EQ(got, c.want) << name_of(c.op) << ", " << c.name << ": got " << record::describe(got)
                           << ", want " << record::describe(c.want) << "\n  input: " << c.json.substr(0, 400);
  }
}

// Each error of DecodeError is somewhere in the table, through each operation
// that can give it.
TEST(logs_json_table, covers_every_error_on_every_operation) {
  using D = DecodeError;
  const std::vector<Case> table = cases();
  const auto has = [&](Op op, D e) {
    return std::any_of(table.begin(), table.end(), [&](const Case& c) { return c.op == op && c.want == e; });
  };
  for (D e : {D::ok, D::syntax, D::wrong_type, D::integer_overflow, D::missing_field, D::duplicate_field,
              D::bad_length, D::bad_hex, D::trailing}) {
    EXPECT_TRUE(has(Op::decode_all, e)) << "DecodeAll: " << record::describe(e);
    EXPECT_TRUE(has(Op::request, e)) << "request: " << record::describe(e);
    if (e != D::bad_length) {  // ScanField reads no bytes field
      EXPECT_TRUE(has(Op::scan, e)) << "ScanField: " << record::describe(e);
    }
    if (e != D::trailing) {  // AccessOne stops after log k
      EXPECT_TRUE(has(Op::access_one, e)) << "AccessOne: " << record::describe(e);
    }
  }
}

// ScanField skips the values it does not read the library's way: the SAX
// parsers and the direct reader still check each one (a malformed literal,
// nesting past the limit is syntax); simdjson's On-Demand skip balances
// brackets over stage 1's index (strings, UTF-8 and structure validated over
// the whole input), so a skipped value's scalars and depth are not checked.
// AccessOne's skip of logs 0..k-1 is the same.
TYPED_TEST(LogsJson, scan_skips_values_the_libraries_way) {
  TypeParam codec;
  const bool on_demand = TypeParam::kName == std::string_view("simdjson");
  for (const std::string& skipped :
       {std::string("tru"), std::string("01"), std::string(1100, '[') + std::string(1100, ']')}) {
    const Padded in(bytes(answer(good().add("x", skipped))));
    record::LogsScan scan;
    EXPECT_EQ(codec.logs_scan(in.bytes(), scan), on_demand ? DecodeError::ok : DecodeError::syntax)
        << skipped.substr(0, 8);
    const Padded before_k(bytes(answer({"[" + skipped + "]", good().str()})));
    record::LogPick pick;
    EXPECT_EQ(codec.logs_access_one(before_k.bytes(), 1, pick),
              on_demand ? DecodeError::ok : DecodeError::syntax)
        << skipped.substr(0, 8);
  }
}

// ---- answers written another way read as the same logs ------------------------

// The direct writer's answer rewritten: every hex string upper case (0X and
// its digits), unknown keys before and after each log's members, and
// whitespace between tokens. The canonical text has '{' and '}' only around
// logs and "0x only at the start of hex strings.
std::string rewritten(const std::string& canonical) {
  std::string out;
  bool in_hex = false;
  for (std::size_t i = 0; i < canonical.size(); ++i) {
    const char ch = canonical[i];
    if (in_hex) {
      in_hex = ch != '"';
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    } else if (ch == '{') {
      out += R"({ "blockHash" : "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b", )"
             R"("extra":{"logIndex":"0xzz","a":[1,2.5e3,null,true]},)";
    } else if (ch == '}') {
      out += R"(, "transactionLogIndex" : "0x0" })";
    } else {
      out += ch;
      in_hex = ch == '"' && canonical.compare(i + 1, 2, "0x") == 0;
    }
  }
  return out;
}

// Each log's members in reverse order (keys are read in any order).
std::string reversed_members(std::span<const record::Log> logs) {
  record::JsonWriter w;
  std::string out = "[";
  for (const record::Log& l : logs) {
    const std::string one = str(w.logs(std::span<const record::Log>(&l, 1)));
    std::string body = one.substr(2, one.size() - 4);  // the members, between [{ and }]
    std::vector<std::string> members;
    std::size_t depth = 0, from = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
      const char ch = body[i];
      if (ch == '"') in_string = !in_string;
      if (in_string) continue;
      if (ch == '[') ++depth;
      if (ch == ']') --depth;
      if (ch == ',' && depth == 0) {
        members.push_back(body.substr(from, i - from));
        from = i + 1;
      }
    }
    members.push_back(body.substr(from));
    std::reverse(members.begin(), members.end());
    std::string obj = "{";
    for (const std::string& m : members) obj += (obj.size() > 1 ? "," : "") + m;
    out += (out.size() > 1 ? "," : "") + obj + "}";
  }
  return out + "]";
}

TYPED_TEST(LogsJson, unknown_keys_upper_case_hex_and_any_key_order_read_as_the_same_logs) {
  TypeParam codec;
  const record::LogSet s = sample(40);
  record::JsonWriter writer;
  const std::string canonical = str(writer.logs(s.logs));
  for (const std::string& text : {rewritten(canonical), reversed_members(s.logs)}) {
    ASSERT_NE(text, canonical);
    const Padded in(bytes(text));
    record::LogsDigest d;
    ASSERT_EQ(codec.logs_decode_all(in.bytes(), d), DecodeError::ok) << text.substr(0, 600);
    EXPECT_EQ(d, record::digest_of(s.logs));
    record::LogsScan scan;
    ASSERT_EQ(codec.logs_scan(in.bytes(), scan), DecodeError::ok);
    EXPECT_EQ(scan, record::scan_of(s.logs));
    for (std::uint32_t k : {0u, 17u, 39u}) {
      record::LogPick pick;
      ASSERT_EQ(codec.logs_access_one(in.bytes(), k, pick), DecodeError::ok) << k;
      EXPECT_EQ(pick, record::pick_of(s.logs[k])) << k;
    }
  }
}

// The values, not only the outcome, of the table's accepted edge cases.
TYPED_TEST(LogsJson, accepted_edge_values) {
  TypeParam codec;
  const auto pick_of = [&](const std::string& json, std::uint32_t k = 0) {
    record::LogPick pick;
    EXPECT_EQ(codec.logs_access_one(Padded(bytes(json)).bytes(), k, pick), DecodeError::ok) << json;
    return pick;
  };
  EXPECT_EQ(pick_of(answer(good().set("logIndex", "\"0xFfFfFfFf\""))).log_index, 0xFFFFFFFFu);
  EXPECT_EQ(
      pick_of(answer(good().set("logIndex", "\"0X000000000000000000000000000000000000000A\""))).log_index,
      10u);
  EXPECT_EQ(pick_of(answer(good().set("logIndex", R"("0x\u0031\u0066")"))).log_index, 0x1Fu);
  const record::LogPick p = pick_of(answer(good().set(
      "transactionHash", R"("0X0123456789ABCDEF0123456789abcdef0123456789ABCDEF0123456789abcdeF")")));
  EXPECT_EQ(p.tx_hash[0], 0x01);
  EXPECT_EQ(p.tx_hash[7], 0xEF);
  EXPECT_EQ(p.tx_hash[31], 0xEF);
  record::LogsScan scan;
  ASSERT_EQ(codec.logs_scan(Padded(bytes(answer(good().set("blockNumber", "\"0xFFFFFFFFFFFFFFFF\""),
                                                good().set("blockNumber", "\"0x0\""))))
                                .bytes(),
                            scan),
            DecodeError::ok);
  EXPECT_EQ(scan.count, 2u);
  EXPECT_EQ(scan.block_sum, ~std::uint64_t{0});
  record::LogsRequest q;
  ASSERT_EQ(codec.decode_logs_request(
                Padded(bytes(request(R"("fromBlock":"0x0")", R"("toBlock":"0xFFFFFFFFFFFFFFFF")", kReqAddress,
                                     R"("limit":"0xffffffff")")))
                    .bytes(),
                q),
            DecodeError::ok);
  EXPECT_EQ(q.from_block, 0u);
  EXPECT_EQ(q.to_block, ~std::uint64_t{0});
  EXPECT_EQ(q.address, record::kLogsAddress);
  EXPECT_EQ(q.limit, 0xFFFFFFFFu);
}

// Every JSON codec's answer and request are byte for byte the direct writer's
// (one wire format, one spelling).
TYPED_TEST(LogsJson, writes_the_same_bytes_as_the_direct_writer) {
  TypeParam codec;
  record::JsonWriter writer;
  for (std::uint32_t n : {0u, 1u, 7u}) {
    const record::LogSet s = sample(n);
    EXPECT_EQ(str(codec.encode_logs(s.logs)), str(writer.logs(s.logs))) << n;
    EXPECT_EQ(str(codec.encode_logs_request(s.request)), str(writer.logs_request(s.request))) << n;
  }
}

// ---- the direct writer's exact bytes ---------------------------------------------

TEST(logs_json_writer, writes_geths_format) {
  record::JsonWriter w;
  const record::LogSet s = sample(2);
  const std::string out = str(w.logs(s.logs));
  EXPECT_EQ(out.rfind(R"([{"address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","topics":["0xddf252ad)", 0),
            0u)
      << out;
  EXPECT_EQ(
      str(w.logs_request(s.request)),
      R"({"fromBlock":"0x112a880","toBlock":"0x112ac67","address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","limit":"0x2"})");
  EXPECT_EQ(str(w.logs({})), "[]");

  // One log spelled out: every key in geth's order, quantities without
  // leading zeros, empty data "0x".
  std::vector<std::uint8_t> topic(32, 0xab);
  record::Log l;
  l.address.fill(0x01);
  l.topics = record::Bytes{topic.data(), topic.size()};
  l.block_number = 0;
  l.tx_hash.fill(0xf0);
  l.tx_index = 0x1f;
  l.log_index = 0xffffffff;
  l.removed = true;
  const auto repeat = [](const std::string& part, int n) {
    std::string text;
    for (int i = 0; i < n; ++i) text += part;
    return text;
  };
  EXPECT_EQ(str(w.logs(std::span<const record::Log>(&l, 1))),
            R"([{"address":"0x)" + repeat("01", 20) + R"(","topics":["0x)" + repeat("ab", 32) +
                R"("],"data":"0x","blockNumber":"0x0","transactionHash":"0x)" + repeat("f0", 32) +
                R"(","transactionIndex":"0x1f","logIndex":"0xffffffff","removed":true}])");
}

// ---- the shared hex helpers (record::hex) -----------------------------------------

TEST(logs_json_hex, quantities_round_trip_and_refuse_what_the_format_refuses) {
  using D = DecodeError;
  for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{0xf}, std::uint64_t{0x10},
                          std::uint64_t{0x112a880}, std::uint64_t{0xffffffff}, ~std::uint64_t{0}}) {
    char buf[record::hex::kMaxQuantityChars];
    const std::string text(buf, record::hex::write_quantity(buf, v));
    std::uint64_t back = 7;
    EXPECT_EQ(record::hex::parse_quantity(text, ~std::uint64_t{0}, back), D::ok) << text;
    EXPECT_EQ(back, v) << text;
    EXPECT_TRUE(text == "0x0" || text[2] != '0') << "a leading zero: " << text;
  }
  std::uint64_t v = 0;
  EXPECT_EQ(record::hex::parse_quantity("0x100000000", 0xffffffff, v), D::integer_overflow);
  EXPECT_EQ(record::hex::parse_quantity("0xffffffff", 0xffffffff, v), D::ok);
  EXPECT_EQ(record::hex::parse_quantity("0x0000000000000000000000ffffffffffffffff", ~std::uint64_t{0}, v),
            D::ok);
  EXPECT_EQ(v, ~std::uint64_t{0});
  EXPECT_EQ(record::hex::parse_quantity("0x1ffffffffffffffff", ~std::uint64_t{0}, v), D::integer_overflow);
  EXPECT_EQ(record::hex::parse_quantity("0x", ~std::uint64_t{0}, v), D::bad_hex);
  EXPECT_EQ(record::hex::parse_quantity("x1", ~std::uint64_t{0}, v), D::bad_hex);
  EXPECT_EQ(record::hex::parse_quantity("0x1 ", ~std::uint64_t{0}, v), D::bad_hex);
}

TEST(logs_json_hex, bytes_round_trip_at_every_length_and_every_bad_digit_is_seen) {
  std::vector<std::uint8_t> raw(300);
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::uint8_t>(i * 73 + 11);
  for (std::size_t n = 0; n <= raw.size(); n += n < 40 ? 1 : 37) {
    // encode() writes write()'s bytes (the per-byte reference), and no more.
    std::string text(2 + 2 * n + 1, '#'), reference(2 + 2 * n, '\0');
    ASSERT_EQ(record::hex::encode(text.data(), record::Bytes{raw.data(), n}), text.data() + 2 + 2 * n);
    ASSERT_EQ(text.back(), '#') << "wrote past " << n;
    text.pop_back();
    record::hex::write(reference.data(), record::Bytes{raw.data(), n});
    ASSERT_EQ(text, reference) << n;
    std::vector<std::uint8_t> back(n + 1, 0xEE);
    std::size_t got = 0;
    ASSERT_EQ(record::hex::decode_bytes(text, back.data(), got), DecodeError::ok) << n;
    ASSERT_EQ(got, n);
    EXPECT_TRUE(std::equal(back.begin(), back.begin() + static_cast<std::ptrdiff_t>(n), raw.begin())) << n;
    EXPECT_EQ(back[n], 0xEE) << "wrote past " << n;
    // Upper case decodes to the same bytes.
    std::string upper = text;
    std::transform(upper.begin() + 2, upper.end(), upper.begin() + 2,
                   [](char ch) { return static_cast<char>(std::toupper(static_cast<unsigned char>(ch))); });
    ASSERT_EQ(record::hex::decode_bytes(upper, back.data(), got), DecodeError::ok) << n;
    EXPECT_TRUE(std::equal(back.begin(), back.begin() + static_cast<std::ptrdiff_t>(n), raw.begin())) << n;
    // Every position, each kind of non-digit next to the ranges.
    for (std::size_t at = 2; at < text.size(); ++at)
      for (char bad : {'/', ':', '@', 'G', '`', 'g', ' ', '\x80', '\xff', '\0'}) {
        std::string t = text;
        t[at] = bad;
        EXPECT_EQ(record::hex::decode_bytes(t, back.data(), got), DecodeError::bad_hex) << n << " at " << at;
      }
  }
}

// ---- steady state ------------------------------------------------------------------

// What each read and write allocates per op once its buffers have grown: none
// but nlohmann's, whose sax_parse and dump() allocate on every call (counted
// by zapbench micro, not asserted).
TYPED_TEST(LogsJson, steady_state_allocates_nothing) {
  if constexpr (TypeParam::kName == std::string_view("nlohmann")) {
    GTEST_SKIP() << "nlohmann: sax_parse builds a parser and its token buffer per call, dump() a new string";
  } else {
    TypeParam codec;
    const record::LogSet s = sample(300);
    const Padded wire(codec.encode_logs(s.logs));
    const Padded req(codec.encode_logs_request(s.request));
    const auto once = [&] {
      record::LogsDigest d;
      EXPECT_EQ(codec.logs_decode_all(wire.bytes(), d), DecodeError::ok);
      record::LogPick pick;
      EXPECT_EQ(codec.logs_access_one(wire.bytes(), 150, pick), DecodeError::ok);
      record::LogsScan scan;
      EXPECT_EQ(codec.logs_scan(wire.bytes(), scan), DecodeError::ok);
      record::LogsRequest q;
      EXPECT_EQ(codec.decode_logs_request(req.bytes(), q), DecodeError::ok);
      (void)codec.encode_logs(s.logs);
      (void)codec.encode_logs_request(s.request);
    };
    for (int i = 0; i < 3; ++i) once();  // warm-up: buffers reach their size
    const micro::AllocCount before = micro::alloc_count();
    for (int i = 0; i < 20; ++i) once();
    EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u) << TypeParam::kName;
  }
}

}  // namespace
