// tests/server/request_path_test.cpp — the server's request path without
// sockets: Routes (what each request gets: reply kind, route, outcome, body)
// and the micro fixture that drives the server's own answer_ready() on the
// loader's bytes (micro/request_path.hpp): every case answers right, keeps
// answering, allocates nothing per request, and its errors are clear; /logs
// (each error, every codec with the record, no allocation per request); all
// three framings (ZAP-RPC's calls by method ordinal, matched by PromiseID).
#include "micro/request_path.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "record/codec_direct.hpp"
#include "record/codec_zap.hpp"
#include "record/registry.hpp"
#include "server/routes.hpp"
#include "wire/client_wires.hpp"
#include "wire/grpc.hpp"
#include "wire/zap_rpc.hpp"

namespace {

using server::Outcome;
using server::ReplyKind;
using server::Route;

std::string text(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// A body with the decoders' padding behind it, as connection buffers give them.
struct Body {
  std::string bytes;
  explicit Body(record::Bytes b) : bytes(text(b) + std::string(record::kInputPaddingBytes, '\0')) {}
  [[nodiscard]] record::Bytes view() const {
    return {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size() - record::kInputPaddingBytes};
  }
};

struct Answer {
  server::Reply reply;
  Route route;
  Outcome outcome;
};

Answer ask(server::Routes& routes, std::string_view method, std::string_view target,
           std::string_view type = {}, record::Bytes body = {}) {
  Answer a;
  a.reply = routes.handle(method, target, type, body, a.route, a.outcome);
  return a;
}

TEST(routes, each_reply_kind_has_its_status_content_type_and_allow) {
  using server::reply_head;
  EXPECT_EQ(reply_head(ReplyKind::ok_text).status, 200);
  EXPECT_EQ(reply_head(ReplyKind::ok_zap).content_type, "application/zap");
  EXPECT_EQ(reply_head(ReplyKind::ok_json).content_type, "application/json");
  EXPECT_EQ(reply_head(ReplyKind::bad_body).status, 400);
  EXPECT_EQ(reply_head(ReplyKind::not_found).status, 404);
  EXPECT_EQ(reply_head(ReplyKind::get_only).status, 405);
  EXPECT_EQ(reply_head(ReplyKind::get_only).allow, "GET");
  EXPECT_EQ(reply_head(ReplyKind::post_only).allow, "POST");
  EXPECT_EQ(reply_head(ReplyKind::unsupported_media).status, 415);
  for (int k = 0; k < static_cast<int>(ReplyKind::count_); ++k) {
    const server::ReplyHead& h = reply_head(static_cast<ReplyKind>(k));
    EXPECT_FALSE(h.content_type.empty()) << k;
    EXPECT_EQ(h.allow.empty(), h.status != 405) << k;
  }
}

TEST(routes, health_and_its_errors) {
  server::Routes routes(record::default_json_codec());
  Answer a = ask(routes, "GET", "/health");
  EXPECT_EQ(a.reply.kind, ReplyKind::ok_text);
  EXPECT_EQ(text(a.reply.body), "ok");
  EXPECT_EQ(a.route, Route::health);
  EXPECT_EQ(a.outcome, Outcome::ok);
  a = ask(routes, "GET", "/health?probe=1");
  EXPECT_EQ(a.reply.kind, ReplyKind::ok_text) << "a query string is not part of the path";
  a = ask(routes, "POST", "/health");
  EXPECT_EQ(a.reply.kind, ReplyKind::get_only);
  EXPECT_EQ(a.outcome, Outcome::method_not_allowed);
  a = ask(routes, "GET", "/nope");
  EXPECT_EQ(a.reply.kind, ReplyKind::not_found);
  EXPECT_EQ(a.route, Route::other);
  EXPECT_EQ(a.outcome, Outcome::not_found);
  a = ask(routes, "GET", "/healthz");
  EXPECT_EQ(a.reply.kind, ReplyKind::not_found);
}

TEST(routes, rpc_by_media_type_with_every_spelling_of_it) {
  server::Routes routes(*record::find_codec("direct"));
  record::ZapCodec zap;
  const Body zap_body(zap.encode_request(record::sample_request()));
  record::DirectCodec direct;
  const Body json_body(direct.encode_request(record::sample_request()));
  const record::Response want = record::compute(record::RequestView{
      record::kSampleId, record::kSampleBlock, record::kSampleMethod, {}, record::kSampleAccount[0]});

  for (const char* type :
       {"application/zap", "Application/ZAP", "application/zap; charset=binary", " application/zap "}) {
    const Answer a = ask(routes, "POST", "/rpc", type, zap_body.view());
    ASSERT_EQ(a.reply.kind, ReplyKind::ok_zap) << type;
    EXPECT_EQ(a.route, Route::rpc);
    EXPECT_EQ(a.outcome, Outcome::ok);
    const Body out(a.reply.body);
    record::ResponseView v;
    ASSERT_EQ(zap.decode_response(out.view(), v), record::DecodeError::ok);
    EXPECT_EQ(v.balance, want.balance);
  }
  for (const char* type : {"application/json", "APPLICATION/JSON;charset=utf-8"}) {
    const Answer a = ask(routes, "POST", "/rpc?x=1", type, json_body.view());
    ASSERT_EQ(a.reply.kind, ReplyKind::ok_json) << type;
    const Body out(a.reply.body);
    record::ResponseView v;
    ASSERT_EQ(direct.decode_response(out.view(), v), record::DecodeError::ok);
    EXPECT_EQ(v.id, want.id);
  }
  Answer a = ask(routes, "POST", "/rpc", "text/plain", zap_body.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::unsupported_media);
  EXPECT_EQ(a.outcome, Outcome::unsupported_media);
  a = ask(routes, "GET", "/rpc", "application/zap", zap_body.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::post_only);
  const Body junk(record::Bytes{reinterpret_cast<const std::uint8_t*>("junk"), 4});
  a = ask(routes, "POST", "/rpc", "application/zap", junk.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::bad_body);
  EXPECT_EQ(a.outcome, Outcome::bad_body);
  EXPECT_TRUE(text(a.reply.body).starts_with("bad zap body: ")) << text(a.reply.body);
  a = ask(routes, "POST", "/rpc", "application/json", junk.view());
  EXPECT_TRUE(text(a.reply.body).starts_with("bad json body: ")) << text(a.reply.body);
}

// Every binary peer's content type is answered by its first codec in codecs.table (never one for trusted
// input only), or by the one the server was given for it; the reply carries the peer's content type.
TEST(routes, binary_peers_by_their_content_type) {
  server::Routes routes_default(*record::find_codec("direct"));
  for (std::size_t i = 0; i < server::kPeerTypes; ++i) {
    const record::CodecInfo* want = nullptr;
    for (const record::CodecInfo& c : record::all_codecs())
      if (!want && c.available && !c.trusted_input_only && c.content_type == server::kPeerContentTypes[i])
        want = &c;
    EXPECT_EQ(routes_default.peer_codec(i), want) << server::kPeerContentTypes[i];
    EXPECT_EQ(server::reply_head(server::ok_peer(i)).content_type, server::kPeerContentTypes[i]);
    EXPECT_EQ(server::reply_head(server::ok_peer(i)).status, 200);
  }
  for (const record::CodecInfo& info : record::all_codecs()) {
    if (!info.available || info.trusted_input_only || info.family() != matrix::Family::peer) continue;
    SCOPED_TRACE(std::string(info.name));
    const record::CodecInfo* const chosen[] = {&info};
    server::Routes routes(*record::find_codec("direct"), chosen);
    std::size_t i = 0;
    while (server::kPeerContentTypes[i] != info.content_type) ++i;
    EXPECT_EQ(routes.peer_codec(i), &info);
    const std::unique_ptr<record::AnyCodec> codec = info.make();
    const Body req(codec->encode_request(record::sample_request()));
    const std::string upper = [&] {
      std::string s(info.content_type);
      for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      return s + "; x=1";
    }();
    for (const std::string& type : {std::string(info.content_type), upper}) {
      const Answer a = ask(routes, "POST", "/rpc", type, req.view());
      ASSERT_EQ(a.reply.kind, server::ok_peer(i)) << type;
      EXPECT_EQ(a.outcome, Outcome::ok);
      const Body out(a.reply.body);
      record::ResponseView v;
      ASSERT_EQ(codec->decode_response(out.view(), v), record::DecodeError::ok);
      EXPECT_EQ(v.id, record::kSampleId);
      EXPECT_EQ(v.balance, record::compute(record::RequestView{record::kSampleId,
                                                               record::kSampleBlock,
                                                               record::kSampleMethod,
                                                               {},
                                                               record::kSampleAccount[0]})
                               .balance);
    }
    // A body of another format under this content type: 400, naming the codec.
    record::DirectCodec direct;
    const Body json(direct.encode_request(record::sample_request()));
    const Answer bad = ask(routes, "POST", "/rpc", info.content_type, json.view());
    EXPECT_EQ(bad.reply.kind, ReplyKind::bad_body);
    EXPECT_TRUE(text(bad.reply.body).starts_with("bad " + std::string(info.name) + " body: "))
        << text(bad.reply.body);
  }
  // The 415 says which content types this server takes.
  const Answer a = ask(routes_default, "POST", "/rpc", "text/plain", {});
  EXPECT_EQ(a.reply.kind, ReplyKind::unsupported_media);
  for (std::size_t i = 0; i < server::kPeerTypes; ++i) {
    if (routes_default.peer_codec(i) == nullptr) continue;
    EXPECT_NE(text(a.reply.body).find(server::kPeerContentTypes[i]), std::string::npos) << text(a.reply.body);
  }
}

// ZAP-RPC's entry: a request its method ordinal routed gets what handle() gives the same route, method and
// content type, on every route and content type (a codec missing or without the record: the same 415).
TEST(routes, handle_routed_answers_as_handle_does) {
  server::Routes a(record::default_json_codec()), b(record::default_json_codec());
  record::ZapCodec zap;
  const Body eth(zap.encode_request(record::sample_request()));
  const Body logs(zap.encode_logs_request(record::sample_logs_request(10)));
  const Body junk(record::Bytes{reinterpret_cast<const std::uint8_t*>("junk"), 4});
  struct Case {
    Route route;
    const char* method;
    const char* target;
    const Body* body;
  };
  for (const Case& k : {Case{Route::health, "GET", "/health", &junk}, Case{Route::rpc, "POST", "/rpc", &eth},
                        Case{Route::rpc, "POST", "/rpc", &junk}, Case{Route::logs, "POST", "/logs", &logs},
                        Case{Route::logs, "POST", "/logs", &junk}})
    for (const std::string_view type : wire::zaprpc::kBodyContentTypes) {
      SCOPED_TRACE(std::string(k.target) + " " + std::string(type));
      const Answer want = ask(a, k.method, k.target, type, k.body->view());
      Outcome outcome;
      const server::Reply got = b.handle_routed(k.route, type, k.body->view(), outcome);
      EXPECT_EQ(got.kind, want.reply.kind);
      EXPECT_EQ(outcome, want.outcome);
      EXPECT_EQ(text(got.body), text(want.reply.body));
      EXPECT_EQ(want.route, k.route);
    }
}

// ---- /logs -------------------------------------------------------------------------

record::LogsDigest digest_for(std::uint32_t n) {
  record::LogSet set;
  record::generate(record::sample_logs_request(n), set);
  return record::digest_of(set.logs);
}

TEST(routes, logs_answers_the_logs_asked_for_in_every_spelling_of_its_path_and_type) {
  server::Routes routes(record::default_json_codec());
  record::ZapCodec zap;
  // Repeated and alternating N: the kept logs are served again or regenerated, never stale.
  for (const std::uint32_t n : {1u, 100u, 100u, 0u, 10'000u, 1u, 10'000u}) {
    SCOPED_TRACE(n);
    const Body req(zap.encode_logs_request(record::sample_logs_request(n)));
    for (const char* type : {"application/zap", "Application/ZAP; charset=binary"})
      for (const char* target : {"/logs", "/logs?from=cache"}) {
        const Answer a = ask(routes, "POST", target, type, req.view());
        ASSERT_EQ(a.reply.kind, ReplyKind::ok_zap) << type << " " << target << ": " << text(a.reply.body);
        EXPECT_EQ(a.route, Route::logs);
        EXPECT_EQ(a.outcome, Outcome::ok);
        const Body out(a.reply.body);
        record::LogsDigest d;
        ASSERT_EQ(zap.logs_decode_all(out.view(), d), record::DecodeError::ok);
        EXPECT_EQ(d, digest_for(n));
      }
  }
}

TEST(routes, logs_errors_are_clear_and_the_route_keeps_serving) {
  server::Routes routes(record::default_json_codec());
  record::ZapCodec zap;
  const Body req(zap.encode_logs_request(record::sample_logs_request(100)));
  Answer a = ask(routes, "GET", "/logs", "application/zap", req.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::post_only);
  EXPECT_EQ(a.route, Route::logs);
  EXPECT_EQ(a.outcome, Outcome::method_not_allowed);

  const Body junk(record::Bytes{reinterpret_cast<const std::uint8_t*>("junk"), 4});
  a = ask(routes, "POST", "/logs", "application/zap", junk.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::bad_body);
  EXPECT_EQ(a.outcome, Outcome::bad_body);
  EXPECT_TRUE(text(a.reply.body).starts_with("bad zap body: ")) << text(a.reply.body);

  // More logs than one request may ask for: 400, before anything is generated.
  record::LogsRequest big = record::sample_logs_request(record::kMaxLogs + 1);
  const Body too_many(zap.encode_logs_request(big));
  a = ask(routes, "POST", "/logs", "application/zap", too_many.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::bad_body);
  EXPECT_EQ(server::reply_head(a.reply.kind).status, 400);
  EXPECT_EQ(a.outcome, Outcome::bad_body);
  EXPECT_EQ(text(a.reply.body), "limit 100001 is above the most logs one request may ask for (100000)");

  a = ask(routes, "POST", "/logs", "text/plain", req.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::unsupported_media);
  EXPECT_EQ(a.outcome, Outcome::unsupported_media);
  EXPECT_TRUE(text(a.reply.body).starts_with("unsupported content type for /logs: want application/zap"))
      << text(a.reply.body);

  // An answer over the response limit: 500 naming both sizes; a smaller one right after is served.
  record::LogSet set;
  record::generate(record::sample_logs_request(100), set);
  const std::size_t answer_bytes = zap.encode_logs(set.logs).size();
  routes.set_max_response_bytes(answer_bytes - 1);
  a = ask(routes, "POST", "/logs", "application/zap", req.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::too_large);
  EXPECT_EQ(server::reply_head(a.reply.kind).status, 500);
  EXPECT_EQ(a.outcome, Outcome::too_large);
  EXPECT_EQ(text(a.reply.body), "answer of " + std::to_string(answer_bytes) +
                                    " bytes exceeds the server's response limit of " +
                                    std::to_string(answer_bytes - 1) + " bytes");
  const Body one(zap.encode_logs_request(record::sample_logs_request(1)));
  a = ask(routes, "POST", "/logs", "application/zap", one.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::ok_zap);
  routes.set_max_response_bytes(answer_bytes);  // at the limit exactly: served
  a = ask(routes, "POST", "/logs", "application/zap", req.view());
  EXPECT_EQ(a.reply.kind, ReplyKind::ok_zap);
  // /rpc is not held to it (its answers are of one small size).
  routes.set_max_response_bytes(1);
  const Body rpc(zap.encode_request(record::sample_request()));
  EXPECT_EQ(ask(routes, "POST", "/rpc", "application/zap", rpc.view()).reply.kind, ReplyKind::ok_zap);
}

// Every codec with the logs record answers /logs under its content type (the JSON codec as the server's
// JSON codec, a peer as the one chosen for its type); one without it is a 415 that lists only the types
// /logs takes. In this build: whichever codecs have the record (ZAP always).
TEST(routes, logs_with_every_codec_that_has_the_record) {
  for (const record::CodecInfo& info : record::all_codecs()) {
    if (!info.available || info.trusted_input_only || info.family() == matrix::Family::zap) continue;
    SCOPED_TRACE(std::string(info.name));
    const record::CodecInfo* const chosen[] = {&info};
    server::Routes routes(info.family() == matrix::Family::json ? info : record::default_json_codec(),
                          info.family() == matrix::Family::peer ? std::span(chosen) : std::span(chosen, 0));
    const std::unique_ptr<record::AnyCodec> codec = info.make();
    const record::LogsRequest q = record::sample_logs_request(1000);
    // A codec without the record encodes no request: send ZAP's bytes under its type, which it cannot take.
    record::ZapCodec zap;
    const Body req(info.has_logs ? codec->encode_logs_request(q) : zap.encode_logs_request(q));
    const Answer a = ask(routes, "POST", "/logs", info.content_type, req.view());
    if (!info.has_logs) {
      EXPECT_EQ(a.reply.kind, ReplyKind::unsupported_media);
      EXPECT_EQ(text(a.reply.body).find(info.content_type), std::string::npos) << text(a.reply.body);
      continue;
    }
    ASSERT_EQ(server::reply_head(a.reply.kind).status, 200) << text(a.reply.body);
    EXPECT_EQ(server::reply_head(a.reply.kind).content_type, info.content_type);
    const Body out(a.reply.body);
    record::LogsDigest d;
    ASSERT_EQ(codec->logs_decode_all(out.view(), d), record::DecodeError::ok);
    EXPECT_EQ(d, digest_for(1000));
  }
}

// The /logs request path over the three framings, pipelined, answers of 23 KB and 2.3 MB: after the first
// batch (the buffers grow and the logs are generated once) nothing is allocated per request.
TEST(request_path, logs_allocates_nothing_per_request_in_steady_state) {
  server::Config config;
  config.json = &record::default_json_codec();
  for (const matrix::Framing wire :
       {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc})
    for (const auto& [n, depth] : {std::pair{100u, 4u}, std::pair{10'000u, 1u}}) {
      const char* wire_name = wire == matrix::Framing::http1      ? "http "
                              : wire == matrix::Framing::zap_http ? "zap "
                                                                  : "zap-rpc ";
      SCOPED_TRACE(wire_name + std::to_string(n));
      server::Context x(config);
      server::Conn conn(wire);
      record::ZapCodec zap;
      const record::Bytes body = zap.encode_logs_request(record::sample_logs_request(n));
      wire::Http1Client http(std::string{"127.0.0.1:8080"});
      wire::ZapHttpClient zhttp;
      wire::ZapRpcClient zrpc;
      for (unsigned i = 0; i < depth; ++i)
        if (wire == matrix::Framing::http1)
          http.append_request(conn.in, "POST", "/logs", "application/zap", body);
        else if (wire == matrix::Framing::zap_http)
          zhttp.append_request(conn.in, "POST", "/logs", "application/zap", body);
        else  // eth_getLogs with a ZAP body (ordinal 2); PromiseIDs 1..depth
          zrpc.append_request(conn.in, "POST", "/logs", "application/zap", body, i + 1);
      const std::size_t batch_bytes = conn.in.size();
      const auto batch = [&] {
        conn.in.prepare(batch_bytes);  // the bytes are where the last batch left them
        conn.in.commit(batch_bytes);
        server::with_wire(conn, [&]<class W>() { server::answer_ready<W>(x, conn, 1); });
        EXPECT_TRUE(conn.in.empty());
        const std::size_t out_bytes = conn.out.size();
        conn.out.clear();
        return out_bytes;
      };
      conn.in.consume(batch_bytes);
      const std::size_t first = batch();
      // Every answer whole and right, in order (ZAP-RPC: each with its call's PromiseID).
      {
        conn.in.prepare(batch_bytes);
        conn.in.commit(batch_bytes);
        server::with_wire(conn, [&]<class W>() { server::answer_ready<W>(x, conn, 1); });
        std::size_t hint = 0;
        for (unsigned i = 0; i < depth; ++i) {
          const wire::Response r = wire == matrix::Framing::zap_rpc ? zrpc.take(conn.out, hint)
                                   : wire == matrix::Framing::http1 ? http.take(conn.out, hint)
                                                                    : zhttp.take(conn.out, hint);
          ASSERT_EQ(r.status, wire::Response::Status::complete);
          EXPECT_EQ(r.code, 200);
          if (wire == matrix::Framing::zap_rpc) {
            EXPECT_EQ(r.promise, i + 1);
          }
          if (wire != matrix::Framing::zap_rpc) {  // ZAP-RPC carries no content type: the ordinal said ZAP
            EXPECT_EQ(r.content_type, "application/zap");
          }
          std::vector<std::uint8_t> padded(r.body.begin(), r.body.end());
          padded.resize(padded.size() + record::kInputPaddingBytes);
          record::LogsDigest d;
          ASSERT_EQ(zap.logs_decode_all({padded.data(), r.body.size()}, d), record::DecodeError::ok);
          EXPECT_EQ(d, digest_for(n));
          conn.out.consume(r.consumed_bytes);
        }
        EXPECT_TRUE(conn.out.empty());
      }
      const micro::AllocCount before = micro::alloc_count();
      for (int k = 0; k < 20; ++k) EXPECT_EQ(batch(), first);
      EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u);
      EXPECT_EQ(x.counters.requests[static_cast<int>(wire)][static_cast<int>(Route::logs)], 22u * depth);
    }
}

// On ZAP-HTTP and ZAP-RPC the frame limit holds for answers too: an answer whose frame would pass it (a
// response limit above it) is the same clean 500, counted as too large; over HTTP/1.1 the same answer is
// served.
TEST(request_path, logs_answer_over_the_zap_frame_limit_is_a_clean_500) {
  record::LogSet set;
  record::generate(record::sample_logs_request(1000), set);
  record::ZapCodec zap;
  const std::size_t answer_bytes = zap.encode_logs(set.logs).size();
  server::Config config;
  config.json = &record::default_json_codec();
  config.limits.max_frame_bytes = static_cast<std::uint32_t>(answer_bytes);  // the frame's head tips it over
  config.limits.max_response_bytes = std::size_t{1} << 30;
  for (const matrix::Framing wire :
       {matrix::Framing::zap_http, matrix::Framing::zap_rpc, matrix::Framing::http1}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    server::Context x(config);
    server::Conn conn(wire);
    const record::Bytes body = zap.encode_logs_request(record::sample_logs_request(1000));
    wire::ZapHttpClient zclient;
    wire::Http1Client hclient(std::string{"127.0.0.1:8080"});
    wire::ZapRpcClient rclient;
    constexpr std::uint32_t kPromise = 77;
    if (wire == matrix::Framing::zap_http)
      zclient.append_request(conn.in, "POST", "/logs", "application/zap", body);
    else if (wire == matrix::Framing::zap_rpc)
      rclient.append_request(conn.in, "POST", "/logs", "application/zap", body, kPromise);
    else
      hclient.append_request(conn.in, "POST", "/logs", "application/zap", body);
    server::with_wire(conn, [&]<class W>() { server::answer_ready<W>(x, conn, 1); });
    std::size_t hint = 0;
    const wire::Response r = wire == matrix::Framing::zap_http  ? zclient.take(conn.out, hint)
                             : wire == matrix::Framing::zap_rpc ? rclient.take(conn.out, hint)
                                                                : hclient.take(conn.out, hint);
    ASSERT_EQ(r.status, wire::Response::Status::complete);
    if (wire == matrix::Framing::zap_rpc) {
      EXPECT_EQ(r.promise, kPromise) << "the 500 answers its call";
    }
    if (wire == matrix::Framing::http1) {
      EXPECT_EQ(r.code, 200);
      EXPECT_EQ(r.body.size(), answer_bytes);
      continue;
    }
    EXPECT_EQ(r.code, 500);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(r.body.data()), r.body.size()),
              "answer of " + std::to_string(answer_bytes) + " bytes exceeds the ZAP frame limit of " +
                  std::to_string(answer_bytes) + " bytes");
    EXPECT_EQ(x.counters.outcomes[static_cast<int>(Outcome::too_large)], 1u);
    EXPECT_EQ(x.counters.outcomes[static_cast<int>(Outcome::ok)], 0u);
  }
}

// ---- the fixture of Server/<framing>/<body> -----------------------------------

TEST(request_path, every_case_answers_right_and_keeps_answering) {
  const std::vector<micro::PathCase> cases = micro::path_cases();
  std::size_t available = 0, grpc = 0;
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.available && !c.trusted_input_only) {
      ++available;
      grpc += !wire::grpc::grpc_content_type(c.content_type).empty();
    }
  EXPECT_EQ(grpc, available) << "every body a server answers has a gRPC content-subtype";
  EXPECT_EQ(cases.size(), 4 * (1 + available) + grpc)
      << "every framing × hello (not gRPC) and every available codec a server answers with";
  for (const micro::PathCase& c : cases) {
    micro::RequestPath path(c);
    ASSERT_EQ(path.check(), "") << c.name();
    path.run_batches(50);
    ASSERT_EQ(path.check(), "") << c.name() << " after 50 batches";
    EXPECT_EQ(path.requests_counted(), 52u * micro::RequestPath::kBatchRequests) << c.name();
    EXPECT_GT(path.request_bytes(), 0u);
    EXPECT_GT(path.response_bytes(), 0u);
  }
}

TEST(request_path, allocates_nothing_per_request) {
  for (const matrix::Framing f : {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc,
                                  matrix::Framing::http2, matrix::Framing::grpc})
    for (const char* body : {"hello", "zap", "direct"}) {
      if (f == matrix::Framing::grpc && std::string_view(body) == "hello") continue;  // no such method
      const micro::PathCase c{f, body};
      micro::RequestPath path(c);
      ASSERT_EQ(path.check(), "") << c.name();
      const micro::AllocCount before = micro::alloc_count();
      path.run_batches(100);
      EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u) << c.name();
    }
}

// HTTP/2 and gRPC replay recorded client bytes, a fresh server connection per
// kH2BatchesPerConnection batches: past that boundary every request is still
// answered 200 (by outcome) with no error, and the answers still check.
TEST(request_path, http2_replay_runs_across_connections) {
  for (const micro::PathCase& c :
       {micro::PathCase{matrix::Framing::http2, "hello"}, micro::PathCase{matrix::Framing::http2, "zap"},
        micro::PathCase{matrix::Framing::grpc, "zap"}}) {
    micro::RequestPath path(c);
    ASSERT_EQ(path.check(), "") << c.name();
    const std::uint64_t batches = 2 * micro::RequestPath::kH2BatchesPerConnection + 7;
    path.run_batches(batches);
    ASSERT_EQ(path.check(), "") << c.name();
    const std::uint64_t requests = (batches + 2) * micro::RequestPath::kBatchRequests;
    EXPECT_EQ(path.requests_counted(), requests) << c.name();
    const server::Counters& k = path.counters();
    EXPECT_EQ(k.outcomes[static_cast<int>(Outcome::ok)], requests) << c.name();
    for (int e = 0; e < static_cast<int>(server::ErrorKind::count_); ++e)
      EXPECT_EQ(k.errors[e], 0u) << c.name() << " " << server::describe(server::ErrorKind(e));
    EXPECT_GT(path.request_bytes(), 0u);
    EXPECT_GT(path.response_bytes(), 0u);
  }
}

TEST(request_path, names_and_refusals) {
  micro::PathCase c;
  ASSERT_TRUE(micro::find_path_case("Server/zap-http/zap", c));
  EXPECT_EQ(c.framing, matrix::Framing::zap_http);
  EXPECT_EQ(c.body, "zap");
  ASSERT_TRUE(micro::find_path_case("Server/zap-rpc/direct", c));
  EXPECT_EQ(c.framing, matrix::Framing::zap_rpc);
  EXPECT_EQ(c.name(), "Server/zap-rpc/direct");
  ASSERT_TRUE(micro::find_path_case("http1/hello", c)) << "the Server/ prefix is optional";
  EXPECT_EQ(c.name(), "Server/http1/hello");
  ASSERT_TRUE(micro::find_path_case("Server/http2/hello", c));
  EXPECT_EQ(c.framing, matrix::Framing::http2);
  ASSERT_TRUE(micro::find_path_case("grpc/zap", c));
  EXPECT_EQ(c.framing, matrix::Framing::grpc);
  EXPECT_EQ(c.name(), "Server/grpc/zap");
  EXPECT_FALSE(micro::find_path_case("Server/grpc/hello", c)) << "gRPC serves zapbench.Eth/Call only";
  EXPECT_FALSE(micro::find_path_case("http1/nope", c));
  try {
    micro::RequestPath path({matrix::Framing::grpc, "hello"});
    FAIL() << "gRPC has no hello";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(std::string(e.what()).find("gRPC has no body 'hello'") != std::string::npos) << e.what();
  }
  try {
    micro::RequestPath path({matrix::Framing::http1, "nope"});
    FAIL() << "a body that is no codec";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(std::string(e.what()).find("no available codec 'nope'") != std::string::npos) << e.what();
  }
}

}  // namespace
