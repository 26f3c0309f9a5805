// cli/serve.cpp — `zapbench serve`: flags to server::Config, signals to a
// graceful stop, counters printed at exit. Owns no protocol logic.
#include <stdexcept>
#include <thread>

#include "bench/supervisor.hpp"
#include "cli/args.hpp"
#include "cli/stop_signals.hpp"
#include "server/server.hpp"

namespace cli {
namespace {

constexpr const char* kUsage =
    "usage: zapbench serve [--http HOST:PORT]... [--zap HOST:PORT]... [--json CODEC]\n"
    "                      [--threads N] [--cpus LIST] [limits]\n"
    "\n"
    "Serves GET /health and POST /rpc over HTTP/1.1 (--http) and over ZAP-HTTP,\n"
    "the ZAP TCP transport (--zap; 9999 is ZAP's conventional port), from one\n"
    "process with the same handlers. /rpc decodes its body by Content-Type:\n"
    "application/json with the --json codec, application/zap with ZAP. Request\n"
    "bodies with Transfer-Encoding (chunked) are refused with 501. SIGINT or\n"
    "SIGTERM stops accepting, answers the requests already read, and prints the\n"
    "counters. Port 0 picks a free port; the bound addresses are printed.\n"
    "\n"
    "  --http HOST:PORT         an HTTP/1.1 listener (repeatable)\n"
    "  --zap HOST:PORT          a ZAP-HTTP listener (repeatable)\n"
    "  --json CODEC             JSON codec for application/json (default: the fastest available;\n"
    "                           'zapbench codecs' lists them)\n"
    "  --threads N              event-loop threads (default 1)\n"
    "  --cpus LIST              pin thread i to the i-th CPU of LIST, e.g. 1 or 0,2-3\n"
    "  --ready-fd N             once bound, write one line per listener ('http 127.0.0.1:8080')\n"
    "                           to descriptor N and close it (for a supervising parent)\n"
    "limits (each protects the server; past it a clear status or a close):\n"
    "  --max-header-bytes N     HTTP request line + headers (default 8192; 431)\n"
    "  --max-body-bytes N       HTTP request body (default 1048576; 413)\n"
    "  --max-frame-bytes N      ZAP frame (default 67108864, Go's; closed without reply)\n"
    "  --max-connections N      open connections (default 16384; newer ones closed)\n"
    "  --idle-timeout-ms N      close a connection silent this long (default 60000)\n"
    "  --header-timeout-ms N    a request begun but not complete this long: 408 / close (default 10000)\n";

}  // namespace

int cmd_serve(int argc, char** argv) {
  server::Config cfg;
  std::string json_name;
  int ready_fd = -1;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--http" || a == "--zap") {
      const std::string v = flag_value(argc, argv, i, "serve");
      server::Endpoint ep;
      if (!parse_host_port(v, ep.host, ep.port)) die(std::string(a) + " wants HOST:PORT, got '" + v + "'");
      (a == "--http" ? cfg.http : cfg.zap).push_back(ep);
    } else if (a == "--json") {
      json_name = flag_value(argc, argv, i, "serve");
    } else if (a == "--threads") {
      cfg.threads = flag_uint<unsigned>(argc, argv, i, "serve");
      if (cfg.threads == 0 || cfg.threads > 1024) die("--threads wants 1..1024");
    } else if (a == "--cpus") {
      const std::string v = flag_value(argc, argv, i, "serve");
      if (!parse_cpu_list(v, cfg.cpus)) die("--cpus wants a CPU list like 1 or 0,2-3, got '" + v + "'");
    } else if (a == "--ready-fd") {
      ready_fd = flag_uint<int>(argc, argv, i, "serve");
    } else if (a == "--max-header-bytes") {
      cfg.limits.max_header_bytes = flag_uint<std::size_t>(argc, argv, i, "serve");
    } else if (a == "--max-body-bytes") {
      cfg.limits.max_body_bytes = flag_uint<std::uint64_t>(argc, argv, i, "serve");
    } else if (a == "--max-frame-bytes") {
      cfg.limits.max_frame_bytes = flag_uint<std::uint32_t>(argc, argv, i, "serve");
    } else if (a == "--max-connections") {
      cfg.limits.max_connections = flag_uint<std::size_t>(argc, argv, i, "serve");
    } else if (a == "--idle-timeout-ms") {
      cfg.limits.idle_timeout_ms = flag_uint<std::uint32_t>(argc, argv, i, "serve");
    } else if (a == "--header-timeout-ms") {
      cfg.limits.header_timeout_ms = flag_uint<std::uint32_t>(argc, argv, i, "serve");
    } else {
      die("serve: unknown option '" + std::string(a) + "' (see 'zapbench serve --help')");
    }
  }
  if (cfg.http.empty() && cfg.zap.empty()) die("serve: give --http HOST:PORT and/or --zap HOST:PORT");
  if (json_name.empty()) {
    cfg.json = &record::default_json_codec();
  } else {
    const record::CodecInfo* c = record::find_codec(json_name);
    if (c == nullptr || !c->available || c->content_type != "application/json") {
      std::string why = c == nullptr    ? "unknown"
                        : !c->available ? "unavailable (" + std::string(c->unavailable_reason) + ")"
                                        : "not a JSON codec";
      die("--json " + json_name + ": " + why +
          "; available JSON codecs: " + record::available_codec_names(true));
    }
    cfg.json = c;
  }

  // Signals go to one thread that stops the server; the workers never see them.
  const StopSignals stop_signals;

  std::unique_ptr<server::Server> srv;
  try {
    srv = std::make_unique<server::Server>(cfg);
  } catch (const std::exception& e) {
    die(std::string("serve: ") + e.what());
  }
  for (auto [wire, name] : {std::pair{server::Wire::http, "http"}, std::pair{server::Wire::zap, "zap"}})
    for (const server::Endpoint& ep : srv->bound(wire))
      std::printf("zapbench serve: %s listening on %s:%u\n", name, ep.host.c_str(), unsigned(ep.port));
  std::printf("zapbench serve: %u thread(s), JSON codec %.*s\n", cfg.threads, int(cfg.json->name.size()),
              cfg.json->name.data());
  std::fflush(stdout);
  if (ready_fd >= 0) {
    std::vector<bench::ReadyListener> ready;
    for (auto [wire, name] : {std::pair{server::Wire::http, "http"}, std::pair{server::Wire::zap, "zap"}})
      for (const server::Endpoint& ep : srv->bound(wire)) ready.push_back({name, ep.host, ep.port});
    bench::announce_ready(ready_fd, ready);
  }

  std::thread signal_thread = stop_signals.on_signal("zapbench serve", [&] { srv->stop(); });
  srv->run();
  signal_thread.join();

  const server::Counters c = srv->counters();
  std::printf("zapbench serve: stopped\n  connections %llu\n",
              static_cast<unsigned long long>(c.connections));
  const char* routes[] = {"/health", "/rpc", "other"};
  const char* wires[] = {"http", "zap"};
  for (int w = 0; w < 2; ++w)
    for (int r = 0; r < 3; ++r)
      if (c.requests[w][r] != 0)
        std::printf("  requests %s %s %llu\n", wires[w], routes[r],
                    static_cast<unsigned long long>(c.requests[w][r]));
  for (int o = 0; o < static_cast<int>(server::Outcome::count_); ++o)
    if (c.outcomes[o] != 0)
      std::printf("  answered %.*s %llu\n", int(server::describe(server::Outcome(o)).size()),
                  server::describe(server::Outcome(o)).data(),
                  static_cast<unsigned long long>(c.outcomes[o]));
  for (int e = 0; e < static_cast<int>(server::ErrorKind::count_); ++e)
    if (c.errors[e] != 0)
      std::printf("  error %.*s %llu\n", int(server::describe(server::ErrorKind(e)).size()),
                  server::describe(server::ErrorKind(e)).data(),
                  static_cast<unsigned long long>(c.errors[e]));
  return 0;
}

}  // namespace cli
