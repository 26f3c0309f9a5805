// load/engine.cpp — `zapbench load`'s run: checks the options, chooses the
// wire policy once (wire/client_wires.hpp), starts one Thread<W>
// (load/thread.hpp) per share of the connections on the event core's pool,
// and merges their results after join.
#include "load/engine.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <stdexcept>

#include "load/tally.hpp"
#include "load/thread.hpp"
#include "net/clock.hpp"
#include "net/pool.hpp"
#include "net/socket.hpp"
#include "wire/client_wires.hpp"

namespace load {

std::string_view describe(ErrorKind k) noexcept {
  // In ErrorKind's order (engine.hpp): the names the report prints.
  static constexpr std::string_view kNames[] = {"connect", "read",       "write",  "timeout",
                                                "status",  "validation", "closed", "unknown_promise"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(ErrorKind::count_));
  const auto i = static_cast<std::size_t>(k);
  return i < std::size(kNames) ? kNames[i] : "?";
}

std::uint64_t Result::error_total() const {
  std::uint64_t t = 0;
  for (std::uint64_t e : errors) t += e;
  return t;
}

namespace {

using net::kNsPerS;
using net::now_ns;

double seconds(const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; }

// The whole run with the wire policy make_wire() builds (one per thread), on
// the event core's backend L.
template <class L, class MakeWire>
Result run_on(const Options& opt, Progress* progress, const net::Address& addr, MakeWire make_wire) {
  using W = decltype(make_wire());
  using Thread = load::Thread<W, L>;
  // The logs answer's digest, once for every thread: from the logical values
  // of the request every connection sends.
  record::LogsDigest expect_logs;
  if (!W::kRawBytes && opt.scenario == Scenario::logs) {
    record::LogSet set;
    record::generate(record::sample_logs_request(opt.logs), set);
    expect_logs = record::digest_of(set.logs);
  }
  const unsigned threads = std::max(1u, std::min(opt.threads, std::max(1u, opt.connections)));
  net::Pool<Thread> pool;
  std::vector<Thread*> ts;
  std::atomic<bool> refused{false};
  unsigned first = 0;
  for (unsigned i = 0; i < threads; ++i) {
    const unsigned n = opt.connections / threads + (i < opt.connections % threads ? 1 : 0);
    ts.push_back(
        &pool.add(std::make_unique<Thread>(opt, make_wire(), addr, first, n, progress, expect_logs, refused),
                  net::cpu_for(opt.cpus, i)));
    first += n;
  }
  if (progress != nullptr) progress->threads.store(threads, std::memory_order_relaxed);
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const std::int64_t t0 = now_ns();
  for (Thread* t : ts) t->arm(t0);
  pool.start();
  pool.join();
  rusage after{};
  getrusage(RUSAGE_SELF, &after);

  for (const Thread* t : ts)
    if (!t->refusal().empty()) throw std::runtime_error(t->refusal());

  // Per-thread results, merged after join.
  Result out;
  std::int64_t window_ns = 0;
  for (const Thread* t : ts) {
    window_ns = std::max(window_ns, t->window_ns());
    merge_into(out, t->result());
  }
  out.elapsed_s = double(window_ns) / double(kNsPerS);
  out.intended_rate_per_s = opt.rate_per_s;
  out.cpu_user_s = seconds(after.ru_utime) - seconds(before.ru_utime);
  out.cpu_sys_s = seconds(after.ru_stime) - seconds(before.ru_stime);
  return out;
}

// The backend is chosen here, once per run.
template <class MakeWire>
Result run_with(const Options& opt, Progress* progress, const net::Address& addr, MakeWire make_wire) {
  if (opt.io == net::Io::io_uring) return run_on<net::UringLoop>(opt, progress, addr, make_wire);
  return run_on<net::EpollLoop>(opt, progress, addr, make_wire);
}

}  // namespace

Result run(const Options& opt, Progress* progress) {
  if (opt.framing == Framing::raw_tcp && (opt.floor_request_bytes == 0 || opt.floor_response_bytes == 0))
    throw std::runtime_error("the floor wire needs a request and a response byte count, both at least 1");
  if (opt.framing != Framing::raw_tcp && opt.scenario == Scenario::logs) {
    if (opt.logs == 0 || opt.logs > record::kMaxLogs)
      throw std::runtime_error("the logs scenario needs N from 1 to " + std::to_string(record::kMaxLogs) +
                               ", got " + std::to_string(opt.logs));
    if (const std::string why = record::logs_refusal(body_codec(opt)); !why.empty())
      throw std::runtime_error("the logs scenario: " + why);
  }
  if (opt.framing == Framing::grpc && opt.scenario != Scenario::rpc)
    throw std::runtime_error("the grpc framing calls zapbench.Eth/Call only: it takes the rpc scenario");
  const net::Address addr = net::resolve(opt.host, opt.port);
  const std::string authority = opt.host + ":" + std::to_string(opt.port);
  // The wire is chosen here, once per run.
  switch (opt.framing) {
    case Framing::http1:
      return run_with(opt, progress, addr,
                      [&] { return wire::Http1Client(opt.host + ":" + std::to_string(opt.port)); });
    case Framing::zap_http:
      return run_with(opt, progress, addr, [] { return wire::ZapHttpClient(); });
    case Framing::zap_rpc:
      return run_with(opt, progress, addr, [] { return wire::ZapRpcClient(); });
    case Framing::http2:
    case Framing::grpc:
      return run_with(opt, progress, addr, [&] {
        return wire::Http2Client(
            authority,
            opt.framing == Framing::grpc ? wire::Http2Client::Mode::grpc : wire::Http2Client::Mode::http2,
            opt.pipeline, opt.http2_first_stream_id);
      });
    case Framing::raw_tcp:
      break;
  }
  return run_with(opt, progress, addr,
                  [&] { return wire::FloorClient(opt.floor_request_bytes, opt.floor_response_bytes); });
}

}  // namespace load
