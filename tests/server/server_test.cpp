// tests/server/server_test.cpp — the server end to end over loopback: an in-process
// server on ephemeral ports, raw-socket clients on both wires. Hello and rpc
// with JSON and ZAP bodies, pipelining, Connection: close, 100 concurrent
// clients, the wire A interop frames, and every error path as a table.
#include "support/allocs.hpp"
#include "support/loopback.hpp"
#include "support/server_client.hpp"

namespace {

// ---- HTTP/1.1 -----------------------------------------------------------------

TEST(server_http, health_answers_ok) {
  Client c(ServerEnv::get().http_port());
  c.send_all(http_request("GET", "/health", "", ""));
  auto r = c.http_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first.status, 200);
  EXPECT_EQ(r->second, "ok");
}

TEST(server_http, rpc_with_json_and_with_zap_bodies) {
  Client c(ServerEnv::get().http_port());
  c.send_all(http_request("POST", "/rpc", "application/json", sample_json_request()));
  auto r = c.http_response();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->first.status, 200) << r->second;
  record::DirectCodec json;
  record::ResponseView v;
  ASSERT_EQ(json.decode_response(micro::Padded(zaptest::bytes_of(r->second)).bytes(), v),
            record::DecodeError::ok);
  EXPECT_EQ(v.id, 1u);
  EXPECT_EQ(v.balance, 1000000000000069003ULL);

  zaptest::ByteVec req, fold;
  ASSERT_TRUE(zaptest::load_hex("eth_req", req));
  ASSERT_TRUE(zaptest::load_hex("eth_resp_server_fold", fold));
  c.send_all(http_request("POST", "/rpc", "application/zap",
                          std::string_view(reinterpret_cast<const char*>(req.data()), req.size())));
  r = c.http_response();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->first.status, 200);
  EXPECT_TRUE(zaptest::same_bytes(zaptest::bytes_of(r->second), fold));
}

TEST(server_http, pipelined_requests_are_answered_in_order) {
  Client c(ServerEnv::get().http_port());
  std::string batch;
  for (int i = 0; i < 10; ++i)
    batch += i % 2 == 0 ? http_request("GET", "/health", "", "") : http_request("GET", "/nope", "", "");
  c.send_all(batch);
  for (int i = 0; i < 10; ++i) {
    auto r = c.http_response();
    ASSERT_TRUE(r) << i;
    EXPECT_EQ(r->first.status, i % 2 == 0 ? 200 : 404) << i;
  }
}

TEST(server_http, connection_close_is_honoured) {
  Client c(ServerEnv::get().http_port());
  c.send_all(http_request("GET", "/health", "", "", "Connection: close\r\n") +
             http_request("GET", "/health", "", ""));
  auto r = c.http_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first.status, 200);
  EXPECT_TRUE(r->first.close);
  EXPECT_TRUE(c.closed());  // and the second request is not answered
}

TEST(server_http, hundred_concurrent_clients_each_check_every_response) {
  std::atomic<int> bad{0};
  std::vector<std::thread> clients;
  const std::string json = sample_json_request();
  for (int t = 0; t < 100; ++t) {
    clients.emplace_back([&, t] {
      Client c(ServerEnv::get().http_port());
      record::DirectCodec codec;
      for (int i = 0; i < 20; ++i) {
        record::Request q = record::sample_request();
        q.id = static_cast<std::uint64_t>(t * 1000 + i);
        const record::Bytes body = codec.encode_request(q);
        c.send_all(http_request("POST", "/rpc", "application/json",
                                std::string_view(reinterpret_cast<const char*>(body.data()), body.size())));
        auto r = c.http_response();
        record::ResponseView v;
        if (!r || r->first.status != 200 ||
            codec.decode_response(micro::Padded(zaptest::bytes_of(r->second)).bytes(), v) !=
                record::DecodeError::ok ||
            v.id != q.id || v.balance != record::balance_of(q.block, q.method.size(), q.account[0]))
          ++bad;
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(bad.load(), 0);
}

// Steady state allocates nothing per request: the connection's buffers and
// the worker's codecs are reused. Counted with the benchmarks' operator new
// over requests on connections that are already warm.
TEST(server_allocations, rpc_requests_allocate_nothing_in_steady_state) {
  const std::string json = sample_json_request();
  zaptest::ByteVec eth;
  ASSERT_TRUE(zaptest::load_hex("eth_req", eth));
  const std::string http_json = http_request("POST", "/rpc", "application/json", json);
  const std::string http_zap =
      http_request("POST", "/rpc", "application/zap",
                   std::string_view(reinterpret_cast<const char*>(eth.data()), eth.size()));
  const Bytes zap_json = zap_frame("POST", "/rpc", "application/json", zaptest::bytes_of(json));
  const Bytes zap_zap = zap_frame("POST", "/rpc", "application/zap", eth);
  Client h(ServerEnv::get().http_port());
  Client z(ServerEnv::get().zap_port());
  auto round = [&] {
    h.send_all(http_json);
    ASSERT_TRUE(h.http_response());
    h.send_all(http_zap);
    ASSERT_TRUE(h.http_response());
    z.send_all(zap_json);
    ASSERT_TRUE(z.zap_response());
    z.send_all(zap_zap);
    ASSERT_TRUE(z.zap_response());
  };
  // 20 rounds of warm-up (buffers reach their size), then everything not
  // allocated by this (the client) thread was allocated by the server's workers.
  EXPECT_EQ(zaptest::allocations_elsewhere(round, 20, 200), 0u) << "allocations by the server";
}

// ---- ZAP-HTTP (wire A) ----------------------------------------------------------

// The frames the Go load generator sends (transport spec §3.8, frames 3 and 7).
TEST(server_zap, go_hello_frame_gets_ok) {
  Client c(ServerEnv::get().zap_port());
  c.send_all(zap_frame("GET", "/health", "", {}));
  auto r = c.zap_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(std::string(r->body.begin(), r->body.end()), "ok");
}

TEST(server_zap, go_rpc_frame_gets_the_server_fold_response) {
  zaptest::ByteVec req, fold;
  ASSERT_TRUE(zaptest::load_hex("eth_req", req));
  ASSERT_TRUE(zaptest::load_hex("eth_resp_server_fold", fold));
  Client c(ServerEnv::get().zap_port());
  c.send_all(zap_frame("POST", "/rpc", "application/zap", req));
  auto r = c.zap_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_type, "application/zap");
  EXPECT_TRUE(zaptest::same_bytes(r->body, fold));
}

TEST(server_zap, json_body_over_zap_framing) {
  const std::string json = sample_json_request();
  Client c(ServerEnv::get().zap_port());
  c.send_all(zap_frame("POST", "/rpc", "application/json", zaptest::bytes_of(json)));
  auto r = c.zap_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_type, "application/json");
}

TEST(server_zap, pipelined_frames_are_answered_in_order) {
  Bytes batch;
  for (int i = 0; i < 8; ++i) {
    Bytes f = zap_frame("GET", i % 2 == 0 ? "/health" : "/missing", "", {});
    batch.insert(batch.end(), f.begin(), f.end());
  }
  Client c(ServerEnv::get().zap_port());
  c.send_all(batch);
  for (int i = 0; i < 8; ++i) {
    auto r = c.zap_response();
    ASSERT_TRUE(r) << i;
    EXPECT_EQ(r->status, i % 2 == 0 ? 200 : 404) << i;
  }
}

// ---- every error path, as documented ---------------------------------------------

struct HttpCase {
  const char* name;
  std::string bytes;
  int status;       // expected status
  bool then_close;  // the server closes after answering
};

TEST(server_errors, http_table) {
  const std::string json = sample_json_request();
  const std::vector<HttpCase> cases = {
      {"unknown path", http_request("GET", "/nope", "", ""), 404, false},
      {"wrong method on /health", http_request("POST", "/health", "text/plain", "x"), 405, false},
      {"wrong method on /rpc", http_request("GET", "/rpc", "", ""), 405, false},
      {"unsupported content type", http_request("POST", "/rpc", "text/plain", "hello"), 415, false},
      {"missing content type", http_request("POST", "/rpc", "", "hello"), 415, false},
      {"json body that does not decode", http_request("POST", "/rpc", "application/json", "{\"id\":"), 400,
       false},
      {"zap body that does not decode", http_request("POST", "/rpc", "application/zap", "not zap"), 400,
       false},
      {"json content type with parameters",
       http_request("POST", "/rpc", "Application/JSON; charset=utf-8", json), 200, false},
      {"malformed request line", "GARBAGE\r\n\r\n", 400, true},
      {"missing Host on HTTP/1.1", "GET /health HTTP/1.1\r\n\r\n", 400, true},
      {"header block over the limit",
       "GET /health HTTP/1.1\r\nHost: t\r\nX: " + std::string(2000, 'a') + "\r\n\r\n", 431, true},
      {"body over the limit",
       "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 99999\r\n\r\n",
       413, true},
      {"chunked request body refused",
       "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: "
       "chunked\r\n\r\n0\r\n\r\n",
       501, true},
      {"negative content length", "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n", 400, true},
      {"overflowing content length",
       "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400, true},
      {"unsupported version", "GET /health HTTP/2.0\r\nHost: t\r\n\r\n", 505, true},
      {"HTTP/1.0 without Host is fine, and closes", "GET /health HTTP/1.0\r\n\r\n", 200, true},
  };
  for (const HttpCase& k : cases) {
    SCOPED_TRACE(k.name);
    Client c(ServerEnv::get().http_port());
    c.send_all(k.bytes);
    auto r = c.http_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->first.status, k.status) << r->second;
    if (k.then_close) {
      EXPECT_TRUE(c.closed());
    } else {  // the connection serves on
      c.send_all(http_request("GET", "/health", "", ""));
      auto again = c.http_response();
      ASSERT_TRUE(again);
      EXPECT_EQ(again->first.status, 200);
    }
  }
}

TEST(server_errors, zap_table) {
  zaptest::ByteVec eth;
  ASSERT_TRUE(zaptest::load_hex("eth_req", eth));
  // A frame whose message is not a request: a valid ZAP message of the wrong type.
  Bytes wrong_type = zap_frame("GET", "/health", "", {});
  wrong_type[4 + 7] = 0x02;  // flags high byte: response
  Bytes bad_magic = zap_frame("GET", "/health", "", {});
  bad_magic[4] = 'X';
  struct ZapCase {
    const char* name;
    Bytes bytes;
    int status;  // 0: closed with no reply
  };
  const std::vector<ZapCase> cases = {
      {"length zero", {0, 0, 0, 0}, 0},
      {"length over the limit", {0, 1, 0, 0}, 0},
      {"wrong message type", wrong_type, 400},
      {"bad magic", bad_magic, 400},
      {"not a zap message", {0, 0, 0, 4, 'a', 'b', 'c', 'd'}, 400},
  };
  for (const ZapCase& k : cases) {
    SCOPED_TRACE(k.name);
    Client c(ServerEnv::get().zap_port());
    c.send_all(k.bytes);
    if (k.status == 0) {
      EXPECT_TRUE(c.closed_without_reply());
    } else {
      auto r = c.zap_response();
      ASSERT_TRUE(r);
      EXPECT_EQ(r->status, k.status);
      EXPECT_TRUE(c.closed());
    }
  }
  // Bad bodies and routes answer and serve on, as on HTTP.
  Client c(ServerEnv::get().zap_port());
  c.send_all(zap_frame("POST", "/rpc", "application/zap", zaptest::bytes_of("nope")));
  auto r = c.zap_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  c.send_all(zap_frame("POST", "/rpc", "text/plain", eth));
  r = c.zap_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 415);
  c.send_all(zap_frame("GET", "/health", "", {}));
  r = c.zap_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

// RFC 9110 §15.5.6: a 405 names the methods its route allows, on both wires
// (`curl -i -X PUT .../health` shows `Allow: GET`).
TEST(server_errors, method_not_allowed_carries_allow) {
  struct Case {
    const char* method;
    const char* target;
    const char* allow;
  };
  for (const Case& k : {Case{"PUT", "/health", "GET"}, Case{"POST", "/health", "GET"},
                        Case{"GET", "/rpc", "POST"}, Case{"DELETE", "/rpc?x=1", "POST"}}) {
    const std::string what = std::string(k.method) + " " + k.target;
    Client h(ServerEnv::get().http_port());
    h.send_all(http_request(k.method, k.target, "", ""));
    auto r = h.http_response();
    ASSERT_TRUE(r) << what;
    EXPECT_EQ(r->first.status, 405) << what;
    std::string allow;  // read before the client reads again: the views point into its buffer
    for (std::size_t i = 0; i < r->first.header_count; ++i)
      if (wire::zaphttp::iequals(r->first.headers[i].name, "Allow")) allow = r->first.headers[i].value;
    EXPECT_EQ(allow, k.allow) << what;

    Client z(ServerEnv::get().zap_port());
    z.send_all(zap_frame(k.method, k.target, "", {}));
    auto zr = z.zap_response();
    ASSERT_TRUE(zr) << what;
    EXPECT_EQ(zr->status, 405) << what;
    EXPECT_EQ(zr->allow, k.allow) << what;
  }
  // Other answers carry none.
  Client h(ServerEnv::get().http_port());
  h.send_all(http_request("GET", "/health", "", ""));
  auto r = h.http_response();
  ASSERT_TRUE(r);
  for (std::size_t i = 0; i < r->first.header_count; ++i)
    EXPECT_FALSE(wire::zaphttp::iequals(r->first.headers[i].name, "Allow"));
}

TEST(server_errors, a_request_head_not_completed_in_time_gets_408) {
  Client c(ServerEnv::get().http_port());
  c.send_all("GET /health HTTP/1.1\r\nHost: x\r\n");  // no end of head
  auto r = c.http_response();                         // the suite's header timeout is 1.5 s
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first.status, 408);
  EXPECT_TRUE(c.closed());
}

TEST(server_errors, a_partial_zap_frame_is_closed_in_time) {
  Client c(ServerEnv::get().zap_port());
  c.send_all(Bytes{0, 0, 0, 82, 'Z'});
  EXPECT_TRUE(c.closed_without_reply());
}

// A connection being closed drops at most 256 KiB (kMaxDiscardBytes) of
// further input while its last answers wait unsent, then stops reading. The
// server's send buffer and the client's receive buffer are shrunk, so the
// answers to 2,000 pipelined requests (~250 KB) cannot all leave while the
// client does not read; the last request closes the connection; then the
// client sends junk until it blocks. The hook reports the bytes dropped when
// reading stops: one read (4 KiB) past the bound at most.
TEST(server_limits, a_closing_connection_drops_at_most_256_kib_then_stops_reading) {
  constexpr std::uint32_t kBoundBytes = 256 * 1024;
  std::atomic<std::uint32_t> dropped_bytes{0};
  server::Config cfg;
  cfg.http.push_back({"127.0.0.1", 0});
  cfg.json = &record::default_json_codec();
  cfg.send_buffer_bytes = 4096;
  cfg.on_discard_cap = [&](std::uint32_t n) { dropped_bytes = n; };
  server::Server srv(cfg);
  std::thread server_thread([&] { srv.run(); });

  // A small receive buffer, set before connect(): the window the server sees stays small.
  const int fd = zaptest::connect_loopback(srv.bound(matrix::Framing::http1)[0].port, 4096);
  std::string batch;
  for (int i = 0; i < 2000; ++i) batch += http_request("GET", "/health", "", "");
  batch += http_request("GET", "/health", "", "", "Connection: close\r\n");
  // Blocking sends until the socket is shut down below (a send blocked on a
  // server that stopped reading returns then).
  std::thread writer([&] {
    std::string_view rest = batch;
    while (!rest.empty()) {
      const ssize_t n = send(fd, rest.data(), rest.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
    const std::string junk(64 * 1024, 'j');
    while (send(fd, junk.data(), junk.size(), MSG_NOSIGNAL) > 0) {
    }
  });
  EXPECT_TRUE(zaptest::await([&] { return dropped_bytes.load() != 0; }))
      << "awaited the server to stop reading the closing connection";
  EXPECT_GE(dropped_bytes.load(), kBoundBytes);
  EXPECT_LT(dropped_bytes.load(), kBoundBytes + 4096);
  shutdown(fd, SHUT_RDWR);
  writer.join();
  close(fd);
  srv.stop();
  server_thread.join();
}

}  // namespace
