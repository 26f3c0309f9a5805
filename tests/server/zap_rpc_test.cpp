// tests/server/zap_rpc_test.cpp — the server's ZAP-RPC framing (wire B) over
// loopback, as docs/spec/zap-rpc.md §3 says it answers: health, eth_call and
// eth_getLogs by method ordinal with ZAP bodies and with every other
// available codec's; calls in flight on one connection matched by PromiseID;
// every refusal answering its own call while the connection serves on; and
// 10 000 calls from a client that does not read (the 256-call bound: the
// server stops reading, its memory stays bounded, then every answer arrives).
// The hostile inputs (lengths, direction bytes, malformed envelopes, slots
// pointing astray) are rows of hostile_test's table, beside the other wires'.
// Every wait is for an event, bounded by the hang limit only.
#include "support/zap_rpc.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "server/request_path.hpp"
#include "support/allocs.hpp"
#include "support/server_client.hpp"

namespace {

namespace rpc = zaptest::rpc;
using matrix::Framing;
using server::Outcome;
using server::Route;

const record::CodecInfo& zap_info() { return *record::find_codec("zap"); }

Bytes bytes(std::string_view s) { return {s.begin(), s.end()}; }

Bytes logs_request(record::AnyCodec& codec, std::uint32_t n) {
  const record::Bytes b = codec.encode_logs_request(record::sample_logs_request(n));
  return {b.begin(), b.end()};
}

std::size_t zap_logs_answer_bytes(std::uint32_t n) {
  record::LogSet set;
  record::generate(record::sample_logs_request(n), set);
  record::ZapCodec zap;
  return zap.encode_logs(set.logs).size();
}

// ---- the methods ------------------------------------------------------------

TEST(zap_rpc, health_is_method_0_and_answers_ok_with_its_promise) {
  Client c(ServerEnv::get().zap_rpc_port());
  c.send_all(rpc::call(rpc::kHealth, 41));
  auto r = c.zap_rpc_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200u);
  EXPECT_EQ(r->promise, 41u);
  EXPECT_EQ(rpc::text(r->body), "ok");
  // A payload (and a capability) on health are not read.
  c.send_all(
      rpc::call(rpc::kHealth, 0xFFFFFFFFu, zaptest::bytes_of("ignored"), 0, 1, zaptest::bytes_of("cap")));
  r = c.zap_rpc_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200u);
  EXPECT_EQ(r->promise, 0xFFFFFFFFu);
  EXPECT_EQ(rpc::text(r->body), "ok");
}

TEST(zap_rpc, eth_call_with_a_zap_body_is_method_1) {
  zaptest::ByteVec req, fold;
  ASSERT_TRUE(zaptest::load_hex("eth_req", req));
  ASSERT_TRUE(zaptest::load_hex("eth_resp_server_fold", fold));
  Client c(ServerEnv::get().zap_rpc_port());
  // The shared vector's request: the answer is byte for byte the server fold.
  c.send_all(rpc::call(1, 9, req));
  auto r = c.zap_rpc_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200u);
  EXPECT_EQ(r->promise, 9u);
  EXPECT_TRUE(zaptest::same_bytes(r->body, fold));
  // Another id: echoed, with the balance of its request.
  const std::unique_ptr<record::AnyCodec> zap = zap_info().make();
  c.send_all(rpc::eth_call_frame(*zap, zap_info(), 4242, 10));
  r = c.zap_rpc_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200u);
  EXPECT_EQ(r->promise, 10u);
  EXPECT_TRUE(rpc::eth_answer_ok(*zap, r->body, 4242));
}

TEST(zap_rpc, eth_get_logs_with_a_zap_body_is_method_2) {
  TestServer srv({});
  Client c(srv.port(matrix::Framing::zap_rpc));
  const std::unique_ptr<record::AnyCodec> zap = zap_info().make();
  for (const std::uint32_t n : {1u, 100u, 10'000u, 0u}) {
    SCOPED_TRACE(n);
    c.send_all(rpc::call(2, 100 + n, logs_request(*zap, n)));
    const auto r = c.zap_rpc_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200u) << rpc::text(r->body).substr(0, 200);
    EXPECT_EQ(r->promise, 100 + n);
    EXPECT_TRUE(rpc::logs_answer_ok(*zap, r->body, n));
  }
}

// Every codec a server may answer with, under its own ordinals (16 × body code + op), on a server that
// answers its content type with it (the JSON codec as --json, a binary peer as --codec): 200 and an answer in
// that codec; a codec without the logs record gets eth_getLogs' 415; bytes of another format, the codec's
// 400.
TEST(zap_rpc, every_available_codec_by_its_ordinals) {
  record::DirectCodec json;
  const record::Bytes json_req = json.encode_request(rpc::request(7));
  const Bytes not_this_format(json_req.begin(), json_req.end());
  for (const record::CodecInfo& info : record::all_codecs()) {
    SCOPED_TRACE(std::string(info.name));
    if (!info.available) {
      std::printf("[ skipped  ] %.*s: unavailable in this build (%.*s)\n", int(info.name.size()),
                  info.name.data(), int(info.unavailable_reason.size()), info.unavailable_reason.data());
      continue;
    }
    if (info.trusted_input_only) {
      std::printf("[ skipped  ] %.*s: for trusted input only, never served\n", int(info.name.size()),
                  info.name.data());
      continue;
    }
    server::Config cfg;
    if (info.family() == matrix::Family::json) cfg.json = &info;
    if (info.family() == matrix::Family::peer) cfg.codecs = {&info};
    TestServer srv(cfg);
    Client c(srv.port(matrix::Framing::zap_rpc));
    const std::unique_ptr<record::AnyCodec> codec = info.make();
    const std::size_t body = rpc::body_of(info);
    EXPECT_EQ(wire::zaprpc::kBodyContentTypes[body], info.content_type);

    c.send_all(rpc::eth_call_frame(*codec, info, 300 + body, 1));
    auto r = c.zap_rpc_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->promise, 1u);
    ASSERT_EQ(r->status, 200u) << rpc::text(r->body);
    EXPECT_TRUE(rpc::eth_answer_ok(*codec, r->body, 300 + body));

    const std::unique_ptr<record::AnyCodec> zap = zap_info().make();  // a codec without the record encodes
    c.send_all(rpc::call(rpc::eth_get_logs(body), 2,                  // no request: ZAP's bytes stand in
                         info.has_logs ? logs_request(*codec, 100) : logs_request(*zap, 100)));
    r = c.zap_rpc_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->promise, 2u);
    if (info.has_logs) {
      ASSERT_EQ(r->status, 200u) << rpc::text(r->body);
      EXPECT_TRUE(rpc::logs_answer_ok(*codec, r->body, 100));
    } else {
      EXPECT_EQ(r->status, 415u);
      EXPECT_TRUE(rpc::text(r->body).starts_with("unsupported content type for /logs")) << rpc::text(r->body);
    }

    if (info.family() != matrix::Family::json) {
      c.send_all(rpc::call(rpc::eth_call(body), 3, not_this_format));
      r = c.zap_rpc_response();
      ASSERT_TRUE(r);
      EXPECT_EQ(r->promise, 3u);
      EXPECT_EQ(r->status, 400u);
      const std::string label = info.family() == matrix::Family::zap ? "zap" : std::string(info.name);
      EXPECT_TRUE(rpc::text(r->body).starts_with("bad " + label + " body: ")) << rpc::text(r->body);
    }
  }
}

// ---- multiplexing -------------------------------------------------------------------

// n calls in one write — health, eth_call and eth_getLogs mixed, PromiseIDs distinct and in no order — then
// one more: every answer arrives exactly once, is matched by its PromiseID alone, and is right for its call.
void calls_in_flight(unsigned n) {
  SCOPED_TRACE(std::to_string(n) + " calls in flight");
  const std::unique_ptr<record::AnyCodec> zap = zap_info().make();
  enum class Kind { health, call, logs };
  struct Sent {
    Kind kind;
    std::uint32_t arg;  // eth_call: the request id; logs: N
  };
  std::map<std::uint32_t, Sent> sent;
  Bytes batch;
  for (unsigned i = 0; i < n; ++i) {
    const std::uint32_t promise = (i * 2'654'435'761u) % 1'000'003u + 1;  // distinct, scattered
    const Kind kind = i % 5 == 0 ? Kind::health : i % 5 == 1 ? Kind::logs : Kind::call;
    const std::uint32_t arg = kind == Kind::logs ? i % 4 : 50'000 + i;
    ASSERT_TRUE(sent.emplace(promise, Sent{kind, arg}).second);
    const Bytes f = kind == Kind::health ? rpc::call(rpc::kHealth, promise)
                    : kind == Kind::logs ? rpc::call(rpc::eth_get_logs(), promise, logs_request(*zap, arg))
                                         : rpc::eth_call_frame(*zap, zap_info(), arg, promise);
    batch.insert(batch.end(), f.begin(), f.end());
  }
  batch = rpc::cat(batch, rpc::call(rpc::kHealth, 0));  // the last, PromiseID 0 (used by none above)
  Client c(ServerEnv::get().zap_rpc_port());
  c.send_all(batch);
  for (unsigned k = 0; k < n; ++k) {
    const auto r = c.zap_rpc_response();
    ASSERT_TRUE(r) << "answer " << k;
    const auto it = sent.find(r->promise);
    ASSERT_NE(it, sent.end()) << "PromiseID " << r->promise << " unknown or answered twice";
    ASSERT_EQ(r->status, 200u) << rpc::text(r->body);
    const Sent s = it->second;
    sent.erase(it);
    if (s.kind == Kind::health)
      EXPECT_EQ(rpc::text(r->body), "ok");
    else if (s.kind == Kind::call)
      EXPECT_TRUE(rpc::eth_answer_ok(*zap, r->body, s.arg));
    else
      EXPECT_TRUE(rpc::logs_answer_ok(*zap, r->body, s.arg));
  }
  EXPECT_TRUE(sent.empty());
  const auto last = c.zap_rpc_response();
  ASSERT_TRUE(last);
  EXPECT_EQ(last->promise, 0u);
  EXPECT_EQ(rpc::text(last->body), "ok");
}

TEST(zap_rpc, sixteen_calls_in_flight_are_each_answered_once_by_promise) { calls_in_flight(16); }
TEST(zap_rpc, two_hundred_calls_in_flight_are_each_answered_once_by_promise) { calls_in_flight(200); }

// ---- refusals: each answers its own call, and the connection serves on ---------------------

// Limits the cases reach: a frame limit of 64 KiB (N = 1000 logs in ZAP, ~230 KB, is over it) and a response
// limit of 1 MiB (N = 10 000, ~2.3 MB, is over that).
constexpr std::uint32_t kSmallFrameBytes = 64 * 1024;
constexpr std::size_t kSmallResponseBytes = 1024 * 1024;

TEST(zap_rpc, every_refusal_answers_its_promise_and_the_connection_serves_on) {
  ASSERT_GT(zap_logs_answer_bytes(1000), kSmallFrameBytes);
  ASSERT_LT(zap_logs_answer_bytes(1000), kSmallResponseBytes);
  ASSERT_GT(zap_logs_answer_bytes(10'000), kSmallResponseBytes);
  server::Config cfg;
  cfg.limits.max_frame_bytes = kSmallFrameBytes;
  cfg.limits.max_response_bytes = kSmallResponseBytes;
  TestServer srv(cfg);
  const std::unique_ptr<record::AnyCodec> zap = zap_info().make();
  zaptest::ByteVec eth;
  ASSERT_TRUE(zaptest::load_hex("eth_req", eth));
  const Bytes eth_req(eth.begin(), eth.end());
  record::LogsRequest too_many = record::sample_logs_request(record::kMaxLogs + 1);
  const record::Bytes too_many_bytes = zap->encode_logs_request(too_many);
  const Bytes too_many_req(too_many_bytes.begin(), too_many_bytes.end());

  struct Case {
    std::string name;
    std::uint32_t method;
    Bytes payload;
    std::uint32_t target;
    std::uint8_t dir;
    std::uint32_t status;
    std::string body;  // the answer's body starts with this
    Route route;       // what the server counts for it
    Outcome outcome;
  };
  const std::string frame_limit = "answer of " + std::to_string(zap_logs_answer_bytes(1000)) +
                                  " bytes exceeds the ZAP frame limit of " +
                                  std::to_string(kSmallFrameBytes) + " bytes";
  const std::string response_limit = "answer of " + std::to_string(zap_logs_answer_bytes(10'000)) +
                                     " bytes exceeds the server's response limit of " +
                                     std::to_string(kSmallResponseBytes) + " bytes";
  // clang-format off
  const std::vector<Case> cases = {
      {"an unknown method (op 3 of ZAP)", 3, eth_req, 0, 1, 404, "unknown method 3", Route::other, Outcome::not_found},
      {"16 x 1 + 0: a body code with no op", 16, eth_req, 0, 1, 404, "unknown method 16", Route::other, Outcome::not_found},
      {"16 x 2 + 0", 32, {}, 0, 1, 404, "unknown method 32", Route::other, Outcome::not_found},
      {"an op past eth_getLogs (16 x 1 + 3)", 19, eth_req, 0, 1, 404, "unknown method 19", Route::other, Outcome::not_found},
      {"a body code past the table (16 x 9 + 1)", 145, eth_req, 0, 1, 404, "unknown method 145", Route::other, Outcome::not_found},
      {"method 0xFFFFFFFF", 0xFFFFFFFFu, {}, 0, 1, 404, "unknown method 4294967295", Route::other, Outcome::not_found},
      {"eth_call whose payload is not ZAP", 1, bytes("not zap"), 0, 1, 400, "bad zap body: ", Route::rpc, Outcome::bad_body},
      {"eth_call with no payload", 1, {}, 0, 1, 400, "bad zap body: ", Route::rpc, Outcome::bad_body},
      {"eth_call with JSON that does not parse", 17, bytes("{\"id\":"), 0, 1, 400, "bad json body: ", Route::rpc, Outcome::bad_body},
      {"eth_getLogs whose payload is not ZAP", 2, bytes("junk"), 0, 1, 400, "bad zap body: ", Route::logs, Outcome::bad_body},
      {"Target != 0 (promise pipelining)", 1, eth_req, 5, 1, 400, "promise pipelining (Target) is not supported", Route::other, Outcome::bad_body},
      {"eth_getLogs over 100 000 logs", 2, too_many_req, 0, 1, 400,
       "limit 100001 is above the most logs one request may ask for (100000)", Route::logs, Outcome::bad_body},
      {"an answer over the frame limit", 2, logs_request(*zap, 1000), 0, 1, 500, frame_limit, Route::logs, Outcome::too_large},
      {"an answer over --max-response-bytes", 2, logs_request(*zap, 10'000), 0, 1, 500, response_limit, Route::logs, Outcome::too_large},
      {"a stream open (dir 3)", 1, eth_req, 0, 3, 404, "streams are not supported", Route::other, Outcome::not_found},
  };
  // clang-format on
  std::uint64_t want_requests[static_cast<int>(Route::count_)] = {};
  std::uint64_t want_outcomes[static_cast<int>(Outcome::count_)] = {};
  Client c(srv.port(matrix::Framing::zap_rpc));  // one connection through every case
  std::uint32_t promise = 1000;
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    const std::uint32_t bad = ++promise, good = ++promise;
    c.send_all(rpc::cat(rpc::call(k.method, bad, k.payload, k.target, k.dir),
                        rpc::eth_call_frame(*zap, zap_info(), good, good)));
    auto r = c.zap_rpc_response();
    ASSERT_TRUE(r) << "no answer";
    EXPECT_EQ(r->promise, bad);
    EXPECT_EQ(r->status, k.status);
    EXPECT_TRUE(rpc::text(r->body).starts_with(k.body)) << rpc::text(r->body);
    r = c.zap_rpc_response();
    ASSERT_TRUE(r) << "the call after it was not answered";
    EXPECT_EQ(r->promise, good);
    EXPECT_EQ(r->status, 200u);
    EXPECT_TRUE(rpc::eth_answer_ok(*zap, r->body, good));
    ++want_requests[static_cast<int>(k.route)];
    ++want_outcomes[static_cast<int>(k.outcome)];
    ++want_requests[static_cast<int>(Route::rpc)];
    ++want_outcomes[static_cast<int>(Outcome::ok)];
  }
  srv.stop();
  const server::Counters n = srv.counters();
  for (int i = 0; i < static_cast<int>(Route::count_); ++i)
    EXPECT_EQ(n.requests[static_cast<int>(matrix::Framing::zap_rpc)][i], want_requests[i])
        << server::describe(Route(i));
  for (int i = 0; i < static_cast<int>(Outcome::count_); ++i)
    EXPECT_EQ(n.outcomes[i], want_outcomes[i]) << server::describe(Outcome(i));
  for (int i = 0; i < static_cast<int>(server::ErrorKind::count_); ++i)
    EXPECT_EQ(n.errors[i], 0u) << server::describe(server::ErrorKind(i)) << ": a refused call is no error";
}

// ---- backpressure -----------------------------------------------------------------

// 10 000 calls in one write from a client that reads nothing, through a server send buffer and a client
// receive buffer of a few KiB: at 256 calls answered and unsent the server stops reading (the on_hold hook),
// holding at most 256 answers and one read of input, while a well-behaved client on another connection is
// answered; then the client reads, and all 10 000 answers arrive, each once and right.
TEST(zap_rpc, ten_thousand_calls_from_a_client_that_does_not_read_cost_bounded_memory) {
  constexpr std::uint32_t kCalls = 10'000;
  constexpr std::uint64_t kIdBase = 2'000'000;
  struct Holds {
    std::mutex mu;
    std::uint64_t count = 0;
    std::uint32_t max_calls = 0, min_calls = ~0u;
    std::size_t max_out_bytes = 0, max_in_bytes = 0;
  } holds;
  server::Config cfg;
  cfg.send_buffer_bytes = 4096;
  cfg.on_hold = [&](const server::HoldReport& h) {
    const std::lock_guard<std::mutex> lock(holds.mu);
    ++holds.count;
    holds.max_calls = std::max(holds.max_calls, h.calls_in_flight);
    holds.min_calls = std::min(holds.min_calls, h.calls_in_flight);
    holds.max_out_bytes = std::max(holds.max_out_bytes, h.out_bytes);
    holds.max_in_bytes = std::max(holds.max_in_bytes, h.in_bytes);
  };
  TestServer srv(cfg);
  RpcGoodClient good(srv.port(matrix::Framing::zap_rpc));
  ASSERT_TRUE(good.await_answers(20, "the good client answered before"));

  const std::unique_ptr<record::AnyCodec> zap = zap_info().make();
  Bytes batch;
  for (std::uint32_t p = 1; p <= kCalls; ++p) {
    const Bytes f = rpc::eth_call_frame(*zap, zap_info(), kIdBase + p, p);
    batch.insert(batch.end(), f.begin(), f.end());
  }
  const std::size_t answer_frame_bytes = [&] {
    const record::Bytes a = zap->encode_response(record::compute(record::RequestView{
        kIdBase, record::kSampleBlock, record::kSampleMethod, {}, record::kSampleAccount[0]}));
    return rpc::response(200, 1, a).size();
  }();
  Client c(srv.port(matrix::Framing::zap_rpc), 4096);
  std::thread writer([&] { c.send_all(batch); });  // blocks while the server does not read
  struct Joined {  // also when an assertion ends the test early: unblock the writer, then join it
    Client& c;
    std::thread& t;
    ~Joined() {
      if (!t.joinable()) return;
      shutdown(c.fd(), SHUT_RDWR);
      t.join();
    }
  } joined{c, writer};

  const auto held = [&] {
    const std::lock_guard<std::mutex> lock(holds.mu);
    return holds.count > 0;
  };
  ASSERT_TRUE(zaptest::await(held)) << "awaited the server to stop reading the connection that does not read";
  // Meanwhile another connection is served, and the held one stays open.
  const std::uint64_t before = good.answers();
  EXPECT_TRUE(good.await_answers(before + 50, "the good client answered while the other is held"));
  EXPECT_EQ(srv.open(), 2u);
  {
    const std::lock_guard<std::mutex> lock(holds.mu);
    std::printf(
        "[ zap-rpc  ] held %llu time(s): %u..%u calls in flight, out %zu bytes, in %zu bytes at most\n",
        static_cast<unsigned long long>(holds.count), holds.min_calls, holds.max_calls, holds.max_out_bytes,
        holds.max_in_bytes);
    EXPECT_EQ(holds.max_calls, server::kMaxCallsInFlight) << "stopped reading past the bound";
    EXPECT_EQ(holds.min_calls, server::kMaxCallsInFlight) << "stopped reading before the bound";
    EXPECT_LE(holds.max_out_bytes, server::kMaxCallsInFlight * answer_frame_bytes)
        << "more unsent bytes than the answers to 256 calls";
    EXPECT_LE(holds.max_in_bytes, std::size_t{64} * 1024) << "more than a read or so of input held";
  }

  // Now the client reads: every answer once, matched by PromiseID, right.
  std::vector<bool> seen(kCalls + 1, false);
  for (std::uint32_t k = 0; k < kCalls; ++k) {
    const auto r = c.zap_rpc_response();
    ASSERT_TRUE(r) << "answer " << k << " of " << kCalls << " did not come";
    ASSERT_TRUE(r->promise >= 1 && r->promise <= kCalls && !seen[r->promise])
        << "PromiseID " << r->promise << " unknown or answered twice";
    seen[r->promise] = true;
    ASSERT_EQ(r->status, 200u) << rpc::text(r->body);
    ASSERT_TRUE(rpc::eth_answer_ok(*zap, r->body, kIdBase + r->promise)) << "PromiseID " << r->promise;
  }
  writer.join();
  const RpcGoodClient::Result g = good.finish();
  EXPECT_EQ(g.failure, "");
  srv.stop();
  const server::Counters n = srv.counters();
  EXPECT_EQ(n.requests[static_cast<int>(matrix::Framing::zap_rpc)][static_cast<int>(Route::rpc)],
            kCalls + g.answers);
  for (int i = 0; i < static_cast<int>(server::ErrorKind::count_); ++i)
    EXPECT_EQ(n.errors[i], 0u) << server::describe(server::ErrorKind(i));
}

// The allocation count of the live server, as server_test counts the other wires': after warm-up, a round of
// calls (ZAP and JSON eth_call, eth_getLogs, health) allocates nothing in the server.
TEST(zap_rpc_allocations, calls_allocate_nothing_in_steady_state) {
  const std::unique_ptr<record::AnyCodec> zap = zap_info().make();
  const std::unique_ptr<record::AnyCodec> json = record::default_json_codec().make();
  const Bytes round_bytes = [&] {
    Bytes b = rpc::eth_call_frame(*zap, zap_info(), 1, 1);
    b = rpc::cat(b, rpc::eth_call_frame(*json, record::default_json_codec(), 2, 2));
    b = rpc::cat(b, rpc::call(rpc::eth_get_logs(), 3, logs_request(*zap, 3)));
    return rpc::cat(b, rpc::call(rpc::kHealth, 4));
  }();
  Client c(ServerEnv::get().zap_rpc_port());
  auto round = [&] {
    c.send_all(round_bytes);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(c.zap_rpc_response());
  };
  EXPECT_EQ(zaptest::allocations_elsewhere(round, 20, 200), 0u) << "allocations by the server";
}

}  // namespace
