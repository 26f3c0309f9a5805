// micro/request_path.hpp — the server's request path on in-memory bytes: a
// batch of pipelined requests, byte for byte what the loader sends, answered
// by the server's own compiled code (server::answer_ready on a server::Conn,
// see server/request_path.hpp) with no socket in between. The benchmark
// Server/<framing>/<body> and `zapbench instructions` both drive it; every
// answer is checked against the record's compute before anything is timed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/request_path.hpp"

namespace micro {

// The framings, named as the benchmark rows name them.
enum class Framing : std::uint8_t { http1, zap_http, zap_rpc };
std::string_view framing_name(Framing f) noexcept;  // "http1", "zap-http", "zap-rpc"

// One row: a framing and a body — "hello" (GET /health, no body; ZAP-RPC's
// method 0), "zap", or a codec's name (POST /rpc with that codec's body, or
// ZAP-RPC's eth_call ordinal of its content type; the server answers that
// content type with it).
struct PathCase {
  Framing framing;
  std::string body;
  [[nodiscard]] std::string name() const;  // "Server/zap-http/zap"
};

// Every case this build can run: every framing × hello and each available
// codec a server answers with, in codecs.table's order.
std::vector<PathCase> path_cases();
// By name ("Server/http1/zap" or "http1/zap"); false if there is no such case.
bool find_path_case(std::string_view name, PathCase& out);

class RequestPath {
 public:
  static constexpr unsigned kBatchRequests = 16;  // pipelined requests per batch

  // Throws std::invalid_argument for a body that is no available codec.
  explicit RequestPath(const PathCase& c);
  ~RequestPath();

  // Answers one batch and checks every answer (status, body decoded and equal
  // to the compute of its request, nothing left unparsed, the counters).
  // Empty when right; else what is wrong.
  std::string check();

  // One batch: the requests are put back in the connection's input (the
  // bytes are where the last batch left them, so nothing is copied: the
  // kernel's copy is the read's cost, not the path's), answered into its
  // output, and the output dropped (the send's place).
  void run_batch() {
    conn_->in.prepare(batch_bytes_);
    conn_->in.commit(batch_bytes_);
    server::with_wire(*conn_, [&]<class W>() { server::answer_ready<W>(*x_, *conn_, 1); });
    conn_->out.clear();
  }
  // n batches, not inlined: the function `zapbench instructions` collects.
  void run_batches(std::uint64_t n);

  [[nodiscard]] std::size_t request_bytes() const noexcept { return batch_bytes_ / kBatchRequests; }
  [[nodiscard]] std::size_t response_bytes() const noexcept { return response_batch_bytes_ / kBatchRequests; }
  // Requests the server counted since construction (all routes, this framing).
  [[nodiscard]] std::uint64_t requests_counted() const noexcept;

 private:
  PathCase case_;
  server::Config config_;
  std::unique_ptr<server::Context> x_;
  std::unique_ptr<server::Conn> conn_;
  std::vector<std::uint64_t> ids_;  // the batch's request ids, in order
  std::size_t batch_bytes_ = 0;
  std::size_t response_batch_bytes_ = 0;
};

}  // namespace micro
