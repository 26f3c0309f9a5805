// cli/serve.cpp — `zapbench serve`: its flag table to server::Config, signals to a
// graceful stop, counters printed at exit. Owns no protocol logic.
#include <cstdio>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/args.hpp"
#include "cli/codec_flags.hpp"
#include "cli/commands.hpp"
#include "cli/matrix_choices.hpp"
#include "flags/flags.hpp"
#include "net/uring_loop.hpp"
#include "proc/ready.hpp"
#include "proc/stop_signals.hpp"
#include "server/server.hpp"

namespace cli {

int cmd_serve(int argc, char** argv) {
  server::Config cfg;
  std::vector<flags::HostPort> http, zap, zap_rpc, http2;
  std::string json_name;
  flags::Table t("serve");
  t.summary(std::string(summary("serve")));
  t.about(
      "Serves GET /health, POST /rpc and POST /logs over HTTP/1.1 (--http), over\n"
      "ZAP-HTTP, the ZAP TCP transport (--zap; 9999 is ZAP's conventional port), and\n"
      "over ZAP-RPC, ZAP's own multiplexed RPC transport (--zap-rpc: calls matched by\n"
      "PromiseID, at most 256 in flight per connection), from one process with the\n"
      "same handlers. /rpc and /logs decode their body by Content-Type:\n"
      "application/json with the --json codec, application/zap with ZAP, and each\n"
      "binary peer's type (application/x-protobuf, ...) with its codec: the first of\n"
      "that type in 'zapbench codecs' unless --codec names another. On ZAP-RPC the\n"
      "method ordinal names the call and its body's content type (0 health, 1\n"
      "eth_call, 2 eth_getLogs with ZAP bodies; 16 x code + 1 or 2 for the others:\n"
      "docs/spec/zap-rpc.md). --http2 serves HTTP/2 in cleartext with prior\n"
      "knowledge (h2c): the same routes per stream, up to 256 streams per\n"
      "connection, and on the same listener gRPC's unary call\n"
      "/zapbench.Eth/Call (application/grpc is protobuf; application/grpc+zap,\n"
      "+json, ... name the other bodies: docs/spec/http2-grpc.md).\n"
      "/logs answers an eth_getLogs request (N logs, N up to 100000) with the\n"
      "record's generated logs, kept in memory for the next identical request (as a\n"
      "cache would); a codec without the logs record gets 415 there. Request\n"
      "bodies with Transfer-Encoding (chunked) are refused with 501. SIGINT or\n"
      "SIGTERM stops accepting, answers the requests already read, and prints the\n"
      "counters. Port 0 picks a free port; the bound addresses are printed.");
  t.host_port("--http", &http, "an HTTP/1.1 listener (repeatable)");
  t.host_port("--zap", &zap, "a ZAP-HTTP listener (repeatable)");
  t.host_port("--zap-rpc", &zap_rpc, "a ZAP-RPC listener (repeatable)");
  t.host_port("--http2", &http2, "an HTTP/2 (h2c) and gRPC listener (repeatable)");
  t.text("--json", &json_name, "CODEC",
         "JSON codec for application/json bodies; 'zapbench codecs' lists them")
      .check(json_codec_check())
      .default_text(std::string(record::default_json_codec().name) + ", the fastest available");
  std::vector<std::string> codec_names;
  t.custom("--codec", "CODEC[,CODEC...]",
           "answer each one's Content-Type with this codec (a JSON codec or a binary peer, e.g. "
           "protobuf-arena); repeatable",
           [&](std::string_view v) -> std::optional<flags::Problem> {
             for (std::size_t at = 0; at <= v.size();) {
               const std::size_t comma = std::min(v.find(',', at), v.size());
               const std::string_view name = v.substr(at, comma - at);
               if (auto problem = served_codec_check()(name)) return problem;
               codec_names.emplace_back(name);
               at = comma + 1;
             }
             return std::nullopt;
           });
  t.number("--threads", &cfg.threads, {1, 1024}, "event-loop threads");
  t.cpu_list("--cpus", &cfg.cpus, "pin thread i to the i-th CPU of LIST, e.g. 1 or 0,2-3");
  t.choice("--io", &cfg.io, choices(matrix::kIos), kIoHelp);
  std::optional<unsigned> ready_fd;
  t.number(
      "--ready-fd", &ready_fd, {0, 1u << 20},
      "once listening, write a line per listener ('http 127.0.0.1:8080') to descriptor N, then close it");
  t.section("limits (each protects the server; past it a clear status or a close):");
  t.number("--max-header-bytes", &cfg.limits.max_header_bytes, {1},
           "HTTP request line + headers; 431 past it (HTTP/2: the header list; RST_STREAM past it)");
  t.number("--max-body-bytes", &cfg.limits.max_body_bytes, {1},
           "HTTP request body; 413 past it (gRPC: grpc-status 8)");
  t.number("--max-frame-bytes", &cfg.limits.max_frame_bytes, {1},
           "ZAP frame (Go's limit; ZAP-HTTP and ZAP-RPC); a request's past it: closed without a reply; "
           "an answer's: 500");
  t.number("--max-response-bytes", &cfg.limits.max_response_bytes, {1},
           "a /logs answer body; 500 naming both sizes past it");
  t.number("--max-connections", &cfg.limits.max_connections, {1}, "open connections; newer ones are closed");
  t.number("--idle-timeout-ms", &cfg.limits.idle_timeout_ms, {1}, "close a connection silent this long");
  t.number("--header-timeout-ms", &cfg.limits.header_timeout_ms, {1},
           "a request begun but not complete this long: 408 / close");
  t.parse(argc, argv);

  if (http.empty() && zap.empty() && zap_rpc.empty() && http2.empty())
    t.fail("give --http HOST:PORT, --zap HOST:PORT, --zap-rpc HOST:PORT and/or --http2 HOST:PORT");
  for (const flags::HostPort& hp : http) cfg.http.push_back(server::Endpoint{hp.host, hp.port});
  for (const flags::HostPort& hp : zap) cfg.zap.push_back(server::Endpoint{hp.host, hp.port});
  for (const flags::HostPort& hp : zap_rpc) cfg.zap_rpc.push_back(server::Endpoint{hp.host, hp.port});
  for (const flags::HostPort& hp : http2) cfg.http2.push_back(server::Endpoint{hp.host, hp.port});
  cfg.json = &json_codec_or_default(json_name);
  for (const std::string& name : codec_names) {
    const record::CodecInfo* c = available_wire_codec(name);
    if (c->family() == matrix::Family::json) {
      if (t.seen("--json") && c != cfg.json)
        t.fail("--json " + json_name + " and --codec " + name + " both name the JSON codec");
      cfg.json = c;
      continue;
    }
    for (const record::CodecInfo* other : cfg.codecs)
      if (other->content_type == c->content_type)
        t.fail("--codec " + std::string(other->name) + " and " + name + " both answer " +
               std::string(c->content_type));
    cfg.codecs.push_back(c);
  }

  // Signals go to one thread that stops the server; the workers never see them.
  const proc::StopSignals stop_signals;

  std::unique_ptr<server::Server> srv;
  try {
    srv = std::make_unique<server::Server>(cfg);
  } catch (const std::exception& e) {
    die(std::string("serve: ") + e.what());
  }
  // Each listener by its framing's stable name (matrix::to_string): in the
  // startup lines, the ready channel's lines and the request counters.
  for (const matrix::Framing f : server::kListenerFramings)
    for (const server::Endpoint& ep : srv->bound(f))
      std::printf("zapbench serve: %.*s listening on %s:%u\n", int(matrix::to_string(f).size()),
                  matrix::to_string(f).data(), ep.host.c_str(), unsigned(ep.port));
  std::string peers;
  for (std::size_t i = 0; i < server::kPeerTypes; ++i)
    if (const record::CodecInfo* c = server::Routes::peer_codec_for(i, cfg.codecs)) {
      if (!peers.empty()) peers += ", ";
      peers += c->name;
    }
  if (cfg.io == net::Io::io_uring) std::printf("zapbench serve: %s\n", net::UringLoop::describe().c_str());
  std::printf("zapbench serve: %u thread(s), JSON codec %.*s, binary peers: %s\n", cfg.threads,
              int(cfg.json->name.size()), cfg.json->name.data(),
              peers.empty() ? "none in this build" : peers.c_str());
  std::fflush(stdout);
  if (ready_fd) {
    std::vector<proc::ReadyListener> ready;
    for (const matrix::Framing f : server::kListenerFramings)
      for (const server::Endpoint& ep : srv->bound(f))
        ready.push_back({std::string(matrix::to_string(f)), ep.host, ep.port});
    proc::announce_ready(int(*ready_fd), ready);
  }

  std::thread signal_thread = stop_signals.on_signal("zapbench serve", [&] { srv->stop(); });
  srv->run();
  signal_thread.join();

  const server::Counters c = srv->counters();
  std::printf("zapbench serve: stopped\n  connections %llu\n",
              static_cast<unsigned long long>(c.connections));
  for (const matrix::Framing f : server::kListenerFramings)
    for (int r = 0; r < static_cast<int>(server::Route::count_); ++r)
      if (const std::uint64_t n = c.requests[matrix::index(f)][r]; n != 0)
        std::printf("  requests %.*s %.*s %llu\n", int(matrix::to_string(f).size()),
                    matrix::to_string(f).data(), int(server::describe(server::Route(r)).size()),
                    server::describe(server::Route(r)).data(), static_cast<unsigned long long>(n));
  for (int o = 0; o < static_cast<int>(server::Outcome::count_); ++o)
    if (c.outcomes[o] != 0)
      std::printf("  answered %.*s %llu\n", int(server::describe(server::Outcome(o)).size()),
                  server::describe(server::Outcome(o)).data(),
                  static_cast<unsigned long long>(c.outcomes[o]));
  if (c.http2_pool_mallocs != 0)
    std::printf("  http2 allocator blocks from malloc %llu\n",
                static_cast<unsigned long long>(c.http2_pool_mallocs));
  for (int e = 0; e < static_cast<int>(server::ErrorKind::count_); ++e)
    if (c.errors[e] != 0)
      std::printf("  error %.*s %llu\n", int(server::describe(server::ErrorKind(e)).size()),
                  server::describe(server::ErrorKind(e)).data(),
                  static_cast<unsigned long long>(c.errors[e]));
  return 0;
}

}  // namespace cli
