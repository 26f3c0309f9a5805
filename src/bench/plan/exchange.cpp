// bench/plan/exchange.cpp — measuring the floor's byte counts (exchange.hpp).
#include "bench/plan/exchange.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "load/engine.hpp"
#include "server/server.hpp"

namespace bench {
namespace {

struct PerExchange {
  double request_bytes = 0, response_bytes = 0;  // 0: nothing answered
};

// Bytes per request and per response of one real exchange, measured with the
// real server and loader, in-process, for a moment.
PerExchange exchange_bytes(Scenario scenario, unsigned logs, matrix::Framing framing) {
  const matrix::Framing listener = server::listener_of(framing);
  server::Config sc;
  sc.endpoints(listener).push_back(server::Endpoint{"127.0.0.1", 0});
  sc.json = &record::default_json_codec();
  server::Server srv(sc);
  std::thread t([&] { srv.run(); });
  load::Options o;
  o.framing = framing;
  o.port = srv.bound(listener).front().port;
  o.scenario = scenario;
  o.logs = logs;
  o.body = record::find_codec("zap");
  o.connections = 1;
  o.duration_s = 0.1;
  o.warmup_s = 0.02;
  load::Result r;
  try {
    r = load::run(o);
  } catch (...) {
  }
  srv.stop();
  t.join();
  if (r.responses == 0 || r.requests == 0) return {};
  return {double(r.bytes_sent) / double(r.requests), double(r.bytes_received) / double(r.responses)};
}

}  // namespace

ExchangeBytes floor_bytes(Scenario scenario, unsigned logs) {
  double request_bytes = std::numeric_limits<double>::infinity(), response_bytes = request_bytes;
  for (const matrix::Framing framing : matrix::kFramings) {
    if (framing == matrix::Framing::raw_tcp) continue;  // the floor itself
    if (framing == matrix::Framing::grpc && scenario != Scenario::rpc)
      continue;  // gRPC's one method is the rpc call
    const PerExchange e = exchange_bytes(scenario, logs, framing);
    if (e.request_bytes == 0) return {};
    request_bytes = std::min(request_bytes, e.request_bytes);
    response_bytes = std::min(response_bytes, e.response_bytes);
  }
  // Rounded down: HTTP/2's figures carry a share of its SETTINGS and window
  // updates (a fraction of a byte), which the floor must not exceed.
  return {static_cast<std::uint32_t>(std::floor(request_bytes + 1e-9)),
          static_cast<std::uint32_t>(std::floor(response_bytes + 1e-9))};
}

}  // namespace bench
