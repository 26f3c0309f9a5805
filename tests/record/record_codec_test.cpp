// tests/record/record_codec_test.cpp — the fairness contract (docs/fairness.md),
// enforced on every codec this build has: round trips, cross-codec parsing,
// identical handler results, sensitivity to every request field, wire sizes
// and bytes against the vectors, and the malformed-input table.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "micro/padded.hpp"
#include "record/codecs.hpp"
#include "record/registry.hpp"
#include "support/codec_types.hpp"
#include "support/vectors.hpp"

namespace {

using micro::Padded;
using record::DecodeError;
using record::Form;
using record::RequestView;
using record::ResponseView;

using zaptest::AllCodecs;

std::string str(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// A view's account / hash as bytes, whichever form the codec holds it in.
template <std::size_t N>
std::array<std::uint8_t, N> bytes_of_field(std::string_view s, Form form) {
  std::array<std::uint8_t, N> out{};
  if (form == Form::raw) {
    EXPECT_EQ(s.size(), N);
    std::copy_n(s.begin(), std::min(N, s.size()), out.begin());
  } else {
    EXPECT_TRUE(record::hex::decode_all(s, out)) << "not " << N << " bytes of 0x-hex: " << s;
  }
  return out;
}

template <class C>
class Codec : public ::testing::Test {};
TYPED_TEST_SUITE(Codec, AllCodecs);

TYPED_TEST(Codec, round_trip_preserves_every_request_field) {
  TypeParam codec;
  record::Request req{0xFFFFFFFFFFFFFFFFULL, 123456789, "eth_call \"quoted\" \\ \n\t\x01 é", {}};
  for (std::size_t i = 0; i < req.account.size(); ++i)
    req.account[i] = static_cast<std::uint8_t>(0xf0 - i * 7);
  const Padded wire(codec.encode_request(req));
  RequestView v;
  ASSERT_EQ(codec.decode_request(wire.bytes(), v), DecodeError::ok) << str(wire.bytes());
  EXPECT_EQ(v.id, req.id);
  EXPECT_EQ(v.block, req.block);
  EXPECT_EQ(v.method, req.method);
  EXPECT_EQ(v.account0, req.account[0]);
  EXPECT_EQ((bytes_of_field<20>(v.account, v.account_form)), req.account);
}

TYPED_TEST(Codec, round_trip_preserves_every_response_field) {
  TypeParam codec;
  record::Response resp{7, 0xFFFFFFFFFFFFFFFFULL, 0, {}};
  for (std::size_t i = 0; i < resp.block_hash.size(); ++i)
    resp.block_hash[i] = static_cast<std::uint8_t>(i * 9);
  const Padded wire(codec.encode_response(resp));
  ResponseView v;
  ASSERT_EQ(codec.decode_response(wire.bytes(), v), DecodeError::ok) << str(wire.bytes());
  EXPECT_EQ(v.id, resp.id);
  EXPECT_EQ(v.balance, resp.balance);
  EXPECT_EQ(v.nonce, resp.nonce);
  EXPECT_EQ((bytes_of_field<32>(v.block_hash, v.block_hash_form)), resp.block_hash);
}

// The handler: decode the sample request, compute, encode; on ZAP exactly
// eth_resp_server_fold.hex, on every codec the same logical response.
TYPED_TEST(Codec, handler_gives_the_one_logical_response) {
  TypeParam codec;
  const Padded req(codec.encode_request(record::sample_request()));
  RequestView q;
  ASSERT_EQ(codec.decode_request(req.bytes(), q), DecodeError::ok);
  const record::Response resp = record::compute(q);
  EXPECT_EQ(resp.id, 1u);
  EXPECT_EQ(resp.balance, 1000000000000069003ULL);  // 10^18 XOR (0x10d4f ^ 14 ^ 20 ^ 0xde)
  EXPECT_EQ(resp.nonce, 42u);
  EXPECT_EQ(resp.block_hash, record::kSampleHash);
  if constexpr (std::is_same_v<TypeParam, record::ZapCodec>) {
    zaptest::ByteVec fold;
    ASSERT_TRUE(zaptest::load_hex("eth_resp_server_fold", fold));
    EXPECT_TRUE(zaptest::same_bytes(codec.encode_response(resp), fold));
  }
}

// Nothing the compute reads may be skipped: changing any request field the
// compute folds in changes the response, on every codec.
TYPED_TEST(Codec, every_request_field_changes_the_handler_output) {
  TypeParam codec;
  auto handle = [&](const record::Request& r) {
    const Padded wire(codec.encode_request(r));
    RequestView q;
    EXPECT_EQ(codec.decode_request(wire.bytes(), q), DecodeError::ok);
    const record::Response out = record::compute(q);
    return std::pair{out.id, out.balance};
  };
  const record::Request base = record::sample_request();
  const auto base_out = handle(base);
  record::Request r = base;
  r.id = 2;
  EXPECT_NE(handle(r), base_out) << "id";
  r = base;
  r.block = base.block + 1;
  EXPECT_NE(handle(r), base_out) << "block";
  r = base;
  r.method = "eth_getBalanc";
  EXPECT_NE(handle(r), base_out) << "method";
  r = base;
  r.account[0] = 0x01;
  EXPECT_NE(handle(r), base_out) << "account";
}

// ---- cross-codec -------------------------------------------------------------

std::vector<const record::CodecInfo*> json_codecs() {
  std::vector<const record::CodecInfo*> out;
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.available && c.content_type == "application/json") out.push_back(&c);
  return out;
}

TEST(record_cross_codec, every_json_output_parses_with_every_json_codec) {
  record::Request req{42, 77, "eth_get\"Bal\\ance\x1f", {}};
  req.account[0] = 0xab;
  req.account[19] = 0xcd;
  record::Response resp{42, 0xFFFFFFFFFFFFFFFEULL, 42, record::kSampleHash};
  for (const record::CodecInfo* enc : json_codecs()) {
    auto writer = enc->make();
    const Padded q(writer->encode_request(req));
    const Padded r(writer->encode_response(resp));
    for (const record::CodecInfo* dec : json_codecs()) {
      SCOPED_TRACE(std::string(enc->name) + " -> " + std::string(dec->name));
      auto reader = dec->make();
      RequestView qv;
      ResponseView rv;
      ASSERT_EQ(reader->decode_request(q.bytes(), qv), DecodeError::ok);
      EXPECT_EQ(qv.id, req.id);
      EXPECT_EQ(qv.block, req.block);
      EXPECT_EQ(qv.method, req.method);
      EXPECT_EQ((bytes_of_field<20>(qv.account, qv.account_form)), req.account);
      ASSERT_EQ(reader->decode_response(r.bytes(), rv), DecodeError::ok);
      EXPECT_EQ(rv.id, resp.id);
      EXPECT_EQ(rv.balance, resp.balance);
      EXPECT_EQ(rv.nonce, resp.nonce);
      EXPECT_EQ((bytes_of_field<32>(rv.block_hash, rv.block_hash_form)), resp.block_hash);
    }
  }
}

TEST(record_cross_codec, handler_response_is_the_same_on_every_codec) {
  std::vector<std::pair<std::string, record::Response>> seen;
  for (const record::CodecInfo& c : record::all_codecs()) {
    if (!c.available) continue;
    auto codec = c.make();
    const Padded q(codec->encode_request(record::sample_request()));
    RequestView v;
    ASSERT_EQ(codec->decode_request(q.bytes(), v), DecodeError::ok) << c.name;
    seen.emplace_back(std::string(c.name), record::compute(v));
  }
  ASSERT_FALSE(seen.empty());
  for (const auto& [name, r] : seen) {
    EXPECT_EQ(r.id, seen[0].second.id) << name;
    EXPECT_EQ(r.balance, seen[0].second.balance) << name;
    EXPECT_EQ(r.nonce, seen[0].second.nonce) << name;
    EXPECT_EQ(r.block_hash, seen[0].second.block_hash) << name;
  }
}

TEST(record_registry, lists_every_codec_with_availability_and_reason) {
  std::vector<std::string> names;
  for (const record::CodecInfo& c : record::all_codecs()) {
    names.emplace_back(c.name);
    if (c.available) {
      EXPECT_NE(c.make, nullptr) << c.name;
      EXPECT_TRUE(c.unavailable_reason.empty()) << c.name;
      EXPECT_FALSE(c.encode_path.empty()) << c.name;
      EXPECT_FALSE(c.decode_path.empty()) << c.name;
    } else {
      EXPECT_EQ(c.make, nullptr) << c.name;
      EXPECT_FALSE(c.unavailable_reason.empty()) << c.name;
    }
  }
  // Which codecs, in which order: codecs.table's (record_table_test).
  EXPECT_EQ(names.size(), record::table::kRows.size());
  EXPECT_EQ(record::find_codec("nope"), nullptr);
  EXPECT_TRUE(record::default_json_codec().available);
  EXPECT_EQ(record::default_json_codec().content_type, "application/json");
}

// ---- the malformed-input table (docs/fairness.md), on every JSON codec --------

// kSyntaxClass: syntax or trailing — which one depends on what the library can tell.
constexpr int kSyntaxClass = -1;
constexpr int kOk = static_cast<int>(DecodeError::ok);

struct Case {
  const char* name;
  std::string json;
  int want;  // a DecodeError, or kSyntaxClass
};

const std::string kAcct = R"("account":"0xdeadbeef00112233445566778899aabbccddeeff")";
const std::string kHash =
    R"("blockHash":"0x0123456789abcdeffedcba98765432100f1e2d3c4b5a69788796a5b4c3d2e1f0")";
std::string req_with(const std::string& id, const std::string& extra = "") {
  return R"({"method":"eth_getBalance",)" + kAcct + R"(,"block":68943,"id":)" + id + extra + "}";
}
constexpr int E(DecodeError e) { return static_cast<int>(e); }

std::vector<Case> request_cases() {
  using D = DecodeError;
  return {
      {"sample", req_with("1"), kOk},
      {"empty", "", kSyntaxClass},
      {"whitespace only", " \n", kSyntaxClass},
      {"top-level array", "[1,2]", E(D::wrong_type)},
      {"top-level string", R"("x")", E(D::wrong_type)},
      {"top-level number", "1", E(D::wrong_type)},
      {"id string", req_with(R"("1")"), E(D::wrong_type)},
      {"id true", req_with("true"), E(D::wrong_type)},
      {"id null", req_with("null"), E(D::wrong_type)},
      {"id object", req_with("{}"), E(D::wrong_type)},
      {"id array", req_with("[1]"), E(D::wrong_type)},
      {"id fraction", req_with("1.0"), E(D::wrong_type)},
      {"id exponent", req_with("1e3"), E(D::wrong_type)},
      {"id exponent plus", req_with("1E+2"), E(D::wrong_type)},
      {"id negative", req_with("-1"), E(D::wrong_type)},
      {"id max u64", req_with("18446744073709551615"), kOk},
      {"id 2^64", req_with("18446744073709551616"), E(D::integer_overflow)},
      {"id 20 nines", req_with("99999999999999999999"), E(D::integer_overflow)},
      {"id leading zero", req_with("01"), kSyntaxClass},
      {"block string", R"({"method":"eth_getBalance",)" + kAcct + R"(,"block":"68943","id":1})",
       E(D::wrong_type)},
      {"missing id", R"({"method":"eth_getBalance",)" + kAcct + R"(,"block":68943})", E(D::missing_field)},
      {"missing block", R"({"method":"eth_getBalance",)" + kAcct + R"(,"id":1})", E(D::missing_field)},
      {"missing method", "{" + kAcct + R"(,"block":68943,"id":1})", E(D::missing_field)},
      {"missing account", R"({"method":"eth_getBalance","block":68943,"id":1})", E(D::missing_field)},
      {"empty object", "{}", E(D::missing_field)},
      {"duplicate id", req_with("1", R"(,"id":2)"), E(D::duplicate_field)},
      {"duplicate method", req_with("1", R"(,"method":"x")"), E(D::duplicate_field)},
      {"unknown keys skipped, nested id ignored",
       R"({"x":{"id":5,"y":[1,{"id":2},"s",null,true,false,-1.5e3]},"method":"eth_getBalance",)" + kAcct +
           R"(,"block":68943,"z":[],"id":1,"w":{}})",
       kOk},
      {"escaped key", R"({"method":"eth_getBalance",)" + kAcct + R"(,"block":68943,"\u0069d":1})", kOk},
      {"escaped method", R"({"method":"eth_get\u0042alance",)" + kAcct + R"(,"block":68943,"id":1})", kOk},
      {"whitespace everywhere",
       " {\n\t\"method\" :\r \"eth_getBalance\" , " + kAcct + " ,\n\"block\":\t68943 ,\"id\" : 1 }\n ", kOk},
      {"method number", "{\"method\":5," + kAcct + R"(,"block":68943,"id":1})", E(D::wrong_type)},
      {"account number", R"({"method":"eth_getBalance","account":5,"block":68943,"id":1})", E(D::wrong_type)},
      {"account no 0x",
       R"({"method":"m","account":"deadbeef00112233445566778899aabbccddeeff00","block":1,"id":1})",
       E(D::bad_hex)},
      {"account 41 chars",
       R"({"method":"m","account":"0xdeadbeef00112233445566778899aabbccddeef","block":1,"id":1})",
       E(D::bad_length)},
      {"account 43 chars",
       R"({"method":"m","account":"0xdeadbeef00112233445566778899aabbccddeeff0","block":1,"id":1})",
       E(D::bad_length)},
      {"account bad first byte",
       R"({"method":"m","account":"0xzzadbeef00112233445566778899aabbccddeeff","block":1,"id":1})",
       E(D::bad_hex)},
      {"trailing garbage", req_with("1") + " x", kSyntaxClass},
      {"two objects", req_with("1") + req_with("1"), kSyntaxClass},
      {"trailing whitespace", req_with("1") + " \n\t", kOk},
      {"invalid utf-8 in method", "{\"method\":\"eth_\xff\"," + kAcct + R"(,"block":1,"id":1})",
       kSyntaxClass},
      {"raw control char in method", "{\"method\":\"eth_\x01\"," + kAcct + R"(,"block":1,"id":1})",
       kSyntaxClass},
      {"missing colon", R"({"method" "m"})", kSyntaxClass},
      {"trailing comma", req_with("1", ","), kSyntaxClass},
  };
}

std::vector<Case> response_cases() {
  using D = DecodeError;
  return {
      {"sample", R"({"id":1,"balance":1000000000000000000,"nonce":42,)" + kHash + "}", kOk},
      {"balance overflow", R"({"id":1,"balance":18446744073709551616,"nonce":42,)" + kHash + "}",
       E(D::integer_overflow)},
      {"nonce fraction", R"({"id":1,"balance":1,"nonce":4.2,)" + kHash + "}", E(D::wrong_type)},
      {"missing blockHash", R"({"id":1,"balance":1,"nonce":42})", E(D::missing_field)},
      {"duplicate nonce", R"({"id":1,"balance":1,"nonce":42,"nonce":42,)" + kHash + "}",
       E(D::duplicate_field)},
      {"hash 65 chars",
       R"({"id":1,"balance":1,"nonce":42,"blockHash":"0x0123456789abcdeffedcba98765432100f1e2d3c4b5a69788796a5b4c3d2e1f"})",
       E(D::bad_length)},
      {"hash not a string", R"({"id":1,"balance":1,"nonce":42,"blockHash":[]})", E(D::wrong_type)},
  };
}

std::string describe_want(int want) {
  return want == kSyntaxClass ? "syntax or trailing"
                              : std::string(record::describe(static_cast<DecodeError>(want)));
}

// The available codecs of one family (matrix::Family), as gtest types; for
// binary peers only those that check their input (a trusted-input-only
// decoder is never handed malformed bytes).
template <class T, class Tuple>
struct Prepend;
template <class T, class... Ts>
struct Prepend<T, std::tuple<Ts...>> {
  using type = std::tuple<T, Ts...>;
};
template <matrix::Family F, class... Cs>
struct OfFamily {
  using type = std::tuple<>;
};
template <matrix::Family F, class C, class... Cs>
struct OfFamily<F, C, Cs...> {
  using rest = typename OfFamily<F, Cs...>::type;
  static constexpr bool kKeep = matrix::family_of(C::kContentType) == F && !record::trusted_input_only<C>();
  using type = std::conditional_t<kKeep, typename Prepend<C, rest>::type, rest>;
};
// gtest has no empty type list: a build without any codec of a family gets this
// stand-in, whose tests skip (SKIP_IF_NONE) and say so.
struct NoCodecOfFamily : record::ZapCodec {};
#define SKIP_IF_NONE()                                        \
  if constexpr (std::is_same_v<TypeParam, NoCodecOfFamily>) { \
    GTEST_SKIP() << "this build has no codec of this family"; \
  }
template <matrix::Family F, class L>
struct FamilyTypes;
template <matrix::Family F, class... Cs>
struct FamilyTypes<F, record::CodecList<Cs...>> {
  template <class Tuple>
  struct ToTypes;
  template <class... Ts>
  struct ToTypes<std::tuple<Ts...>> {
    using type = ::testing::Types<Ts...>;
  };
  using found = typename OfFamily<F, Cs...>::type;
  using type = typename ToTypes<
      std::conditional_t<std::tuple_size_v<found> == 0, std::tuple<NoCodecOfFamily>, found>>::type;
};

using JsonCodecs = FamilyTypes<matrix::Family::json, record::AvailableCodecs>::type;
using PeerCodecs = FamilyTypes<matrix::Family::peer, record::AvailableCodecs>::type;

// The codecs the shared vectors cover: ZAP and the JSON codecs.
template <class... Cs>
struct WithVectors {
  using type = std::tuple<>;
};
template <class C, class... Cs>
struct WithVectors<C, Cs...> {
  using rest = typename WithVectors<Cs...>::type;
  using type = std::conditional_t<matrix::family_of(C::kContentType) != matrix::Family::peer,
                                  typename Prepend<C, rest>::type, rest>;
};
template <class L>
struct VectorTypes;
template <class... Cs>
struct VectorTypes<record::CodecList<Cs...>> {
  template <class Tuple>
  struct ToTypes;
  template <class... Ts>
  struct ToTypes<std::tuple<Ts...>> {
    using type = ::testing::Types<Ts...>;
  };
  using type = typename ToTypes<typename WithVectors<Cs...>::type>::type;
};
using VectorCodecs = VectorTypes<record::AvailableCodecs>::type;

// ZAP and JSON have vectors (a binary peer's bytes are checked against its
// own format's tools instead: tests/record/interop_*).
template <class C>
class VectorCodec : public ::testing::Test {};
TYPED_TEST_SUITE(VectorCodec, VectorCodecs);

TYPED_TEST(VectorCodec, sample_encodes_to_the_vector_bytes_and_sizes) {
  TypeParam codec;
  const bool json = matrix::family_of(TypeParam::kContentType) == matrix::Family::json;
  zaptest::ByteVec want_req, want_resp;
  if (json) {
    ASSERT_TRUE(zaptest::load_raw("eth_req.json", want_req));
    ASSERT_TRUE(zaptest::load_raw("eth_resp.json", want_resp));
  } else {
    ASSERT_TRUE(zaptest::load_hex("eth_req", want_req));
    ASSERT_TRUE(zaptest::load_hex("eth_resp", want_resp));
  }
  const record::Bytes req = codec.encode_request(record::sample_request());
  EXPECT_TRUE(zaptest::same_bytes(req, want_req));
  const record::Bytes resp = codec.encode_response(record::sample_response());
  EXPECT_TRUE(zaptest::same_bytes(resp, want_resp));
  std::printf("[ wire     ] %s: %zu + %zu = %zu bytes\n", std::string(TypeParam::kName).c_str(), req.size(),
              resp.size(), req.size() + resp.size());
  if (json) {
    EXPECT_EQ(req.size(), 103u);
    EXPECT_EQ(resp.size(), 130u);
  } else {
    EXPECT_EQ(req.size(), 82u);
    EXPECT_EQ(resp.size(), 80u);
  }
}

// The JSON codecs.
template <class C>
class JsonCodec : public ::testing::Test {};
TYPED_TEST_SUITE(JsonCodec, JsonCodecs);

void expect_outcome(const Case& c, DecodeError got) {
  if (c.want == kSyntaxClass)
    EXPECT_TRUE(got == DecodeError::syntax || got == DecodeError::trailing)
        << c.name << ": got " << record::describe(got) << ", want " << describe_want(c.want)
        << "\n  input: " << c.json;
  else
    EXPECT_EQ(static_cast<int>(got), c.want) << c.name << ": got " << record::describe(got) << ", want "
                                             << describe_want(c.want) << "\n  input: " << c.json;
}

TYPED_TEST(JsonCodec, malformed_requests_get_the_documented_error) {
  TypeParam codec;
  for (const Case& c : request_cases()) {
    RequestView v;
    expect_outcome(c, codec.decode_request(Padded(zaptest::bytes_of(c.json)).bytes(), v));
  }
}

TYPED_TEST(JsonCodec, malformed_responses_get_the_documented_error) {
  TypeParam codec;
  for (const Case& c : response_cases()) {
    ResponseView v;
    expect_outcome(c, codec.decode_response(Padded(zaptest::bytes_of(c.json)).bytes(), v));
  }
}

TYPED_TEST(JsonCodec, values_from_accepted_edge_cases) {
  TypeParam codec;
  RequestView v;
  ASSERT_EQ(codec.decode_request(Padded(zaptest::bytes_of(req_with("18446744073709551615"))).bytes(), v),
            DecodeError::ok);
  EXPECT_EQ(v.id, 18446744073709551615ULL);
  const std::string escaped =
      R"({"method":"eth_get\u0042al\"ance",)" + kAcct + R"(,"block":68943,"\u0069d":7})";
  ASSERT_EQ(codec.decode_request(Padded(zaptest::bytes_of(escaped)).bytes(), v), DecodeError::ok);
  EXPECT_EQ(v.method, "eth_getBal\"ance");
  EXPECT_EQ(v.id, 7u);
  EXPECT_EQ(v.account0, 0xde);
  EXPECT_EQ(v.account_form, Form::hex);
  const std::string nested = R"({"x":{"id":5},"method":"m",)" + kAcct + R"(,"block":1,"id":3})";
  ASSERT_EQ(codec.decode_request(Padded(zaptest::bytes_of(nested)).bytes(), v), DecodeError::ok);
  EXPECT_EQ(v.id, 3u);
}

// Every proper prefix of the sample JSON is rejected, none crashes.
TYPED_TEST(JsonCodec, every_truncation_is_rejected) {
  TypeParam codec;
  zaptest::ByteVec req, resp;
  ASSERT_TRUE(zaptest::load_raw("eth_req.json", req));
  ASSERT_TRUE(zaptest::load_raw("eth_resp.json", resp));
  for (std::size_t n = 0; n < req.size(); ++n) {
    RequestView v;
    const DecodeError e = codec.decode_request(Padded({req.data(), n}).bytes(), v);
    EXPECT_TRUE(e == DecodeError::syntax || e == DecodeError::trailing)
        << "prefix " << n << ": " << record::describe(e);
  }
  for (std::size_t n = 0; n < resp.size(); ++n) {
    ResponseView v;
    const DecodeError e = codec.decode_response(Padded({resp.data(), n}).bytes(), v);
    EXPECT_TRUE(e == DecodeError::syntax || e == DecodeError::trailing)
        << "prefix " << n << ": " << record::describe(e);
  }
}

// ---- the binary peers' error paths, common to all -----------------------------
// Each peer's own malformed cases (a short account, a wrong wire type) are in
// its interop test (tests/record/interop_<codec>_test.cpp).

template <class C>
class PeerCodec : public ::testing::Test {};
TYPED_TEST_SUITE(PeerCodec, PeerCodecs);

// A cut message never decodes: the byte fields are last on every peer's wire
// (or bounds-checked), so any strict prefix lacks or truncates one.
TYPED_TEST(PeerCodec, every_truncation_is_rejected) {
  SKIP_IF_NONE();
  TypeParam codec;
  const record::Bytes req_wire = codec.encode_request(record::sample_request());
  const zaptest::ByteVec req(req_wire.begin(), req_wire.end());
  const std::size_t resp_bytes = codec.encode_response(record::sample_response()).size();
  std::printf("[ wire     ] %s: %zu + %zu = %zu bytes\n", std::string(TypeParam::kName).c_str(), req.size(),
              resp_bytes, req.size() + resp_bytes);
  for (std::size_t n = 0; n < req.size(); ++n) {
    RequestView v;
    EXPECT_NE(codec.decode_request(Padded({req.data(), n}).bytes(), v), DecodeError::ok) << "prefix " << n;
  }
  const record::Bytes resp_wire = codec.encode_response(record::sample_response());
  const zaptest::ByteVec resp(resp_wire.begin(), resp_wire.end());
  for (std::size_t n = 0; n < resp.size(); ++n) {
    ResponseView v;
    EXPECT_NE(codec.decode_response(Padded({resp.data(), n}).bytes(), v), DecodeError::ok) << "prefix " << n;
  }
}

// Neither a JSON body nor a ZAP message is one of theirs.
TYPED_TEST(PeerCodec, rejects_the_other_formats) {
  SKIP_IF_NONE();
  TypeParam codec;
  zaptest::ByteVec zap_req, json_req;
  ASSERT_TRUE(zaptest::load_hex("eth_req", zap_req));
  ASSERT_TRUE(zaptest::load_raw("eth_req.json", json_req));
  RequestView v;
  EXPECT_NE(codec.decode_request(Padded({zap_req.data(), zap_req.size()}).bytes(), v), DecodeError::ok);
  EXPECT_NE(codec.decode_request(Padded({json_req.data(), json_req.size()}).bytes(), v), DecodeError::ok);
}

// ---- the ZAP codec's error paths ------------------------------------------------

TEST(record_zap_codec, rejects_what_is_not_a_zap_message) {
  record::ZapCodec codec;
  RequestView v;
  zaptest::ByteVec req;
  ASSERT_TRUE(zaptest::load_hex("eth_req", req));
  for (std::size_t n = 0; n < req.size(); ++n)  // the header's size says 82: any shorter input is too small
    EXPECT_EQ(codec.decode_request(Padded({req.data(), n}).bytes(), v), DecodeError::syntax) << n;
  EXPECT_EQ(codec.decode_request(Padded(zaptest::bytes_of(req_with("1"))).bytes(), v), DecodeError::syntax);
}

TEST(record_zap_codec, account_must_be_twenty_bytes_and_hash_thirty_two) {
  record::ZapCodec codec;
  zap::Builder b;
  auto build = [&](std::size_t account_bytes) {
    b.reset();
    zap::ObjectBuilder o = b.start_object(record::ReqZap::S::size_bytes);
    o.set(record::ReqZap::id, std::uint64_t{1});
    o.set(record::ReqZap::method, std::string_view("m"));
    o.set(record::ReqZap::account, zap::Bytes{record::kSampleAccount.data(), account_bytes});
    o.finish_as_root();
    return Padded(b.finish());
  };
  RequestView v;
  EXPECT_EQ(codec.decode_request(build(20).bytes(), v), DecodeError::ok);
  EXPECT_EQ(codec.decode_request(build(19).bytes(), v), DecodeError::bad_length);
  EXPECT_EQ(codec.decode_request(build(0).bytes(), v),
            DecodeError::missing_field);  // empty = null on the wire

  b.reset();
  zap::ObjectBuilder o = b.start_object(record::RespZap::S::size_bytes);
  o.set(record::RespZap::block_hash, zap::Bytes{record::kSampleHash.data(), 31});
  o.finish_as_root();
  ResponseView r;
  EXPECT_EQ(codec.decode_response(Padded(b.finish()).bytes(), r), DecodeError::bad_length);
}

}  // namespace
