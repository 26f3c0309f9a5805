// bench/exchange.cpp — measuring the floor's byte counts (exchange.hpp).
#include "bench/exchange.hpp"

#include <algorithm>
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
PerExchange exchange_bytes(Scenario scenario, unsigned logs, load::Wire wire) {
  const server::Wire sw = wire == load::Wire::http  ? server::Wire::http
                          : wire == load::Wire::zap ? server::Wire::zap
                                                    : server::Wire::zap_rpc;
  server::Config sc;
  sc.endpoints(sw).push_back(server::Endpoint{"127.0.0.1", 0});
  sc.json = &record::default_json_codec();
  server::Server srv(sc);
  std::thread t([&] { srv.run(); });
  load::Options o;
  o.wire = wire;
  o.port = srv.bound(sw).front().port;
  o.scenario = scenario == Scenario::hello ? load::Scenario::hello
               : scenario == Scenario::rpc ? load::Scenario::rpc
                                           : load::Scenario::logs;
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
  for (const load::Wire wire : {load::Wire::http, load::Wire::zap, load::Wire::zap_rpc}) {
    const PerExchange e = exchange_bytes(scenario, logs, wire);
    if (e.request_bytes == 0) return {};
    request_bytes = std::min(request_bytes, e.request_bytes);
    response_bytes = std::min(response_bytes, e.response_bytes);
  }
  return {static_cast<std::uint32_t>(request_bytes + 0.5), static_cast<std::uint32_t>(response_bytes + 0.5)};
}

}  // namespace bench
