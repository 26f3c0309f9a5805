// micro/request_path.hpp — the server's request path on in-memory bytes: a
// batch of pipelined requests, byte for byte what the loader sends, answered
// by the server's own compiled code (server::answer_ready on a server::Conn,
// see server/request_path.hpp) with no socket in between. The benchmark
// Server/<framing>/<body> and `zapbench instructions` both drive it; every
// answer is checked against the record's compute before anything is timed.
//
// HTTP/2 and gRPC (Server/http2/<body>, Server/grpc/<body>): a batch is 16
// streams in flight on one connection, whose bytes cannot simply be replayed
// (HPACK's dynamic tables and the stream ids move on with every request). So
// the fixture records, once, kH2BatchesPerConnection batches of what an
// nghttp2 client session sends on one connection (preface, SETTINGS and its
// ACK, WINDOW_UPDATEs, each batch's HEADERS and DATA), in a live exchange with
// a server Context of its own that checks every answer; run_batch() then
// replays batch after batch of those bytes to a server connection of the
// fixture's Context, and once the run is used up opens a fresh server
// connection (nghttp2 session) and replays from the preface. The server's
// state then is exactly what it was when recording, so its answers are the
// recorded, checked, ones. The timed part is the server's work only, plus a
// copy of each batch's bytes into the connection's input (the recorded bytes
// differ batch to batch, so they cannot wait in place as the other framings'
// do: a few hundred bytes, a handful of instructions per request) and one new
// server session per kH2BatchesPerConnection batches (as a long-lived
// connection has). check() runs one batch live with a fresh client session
// on a fresh connection of the fixture's Context and checks its answers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/matrix.hpp"
#include "server/request_path.hpp"

namespace micro {

// The framings of the matrix but raw_tcp (matrix/matrix.hpp), each named in
// the benchmark rows by matrix::bench_name ("http1", "zap-http", ...).
using matrix::Framing;

// One row: a framing and a body — "hello" (GET /health, no body; ZAP-RPC's
// method 0), "zap", or a codec's name (POST /rpc with that codec's body, or
// ZAP-RPC's eth_call ordinal of its content type; the server answers that
// content type with it). gRPC has no "hello" (docs/spec/http2-grpc.md §2:
// only zapbench.Eth/Call), so its rows are its bodies only; its body codec is
// named by the content-subtype (application/grpc+zap, ...).
struct PathCase {
  Framing framing;
  std::string body;
  [[nodiscard]] std::string name() const;  // "Server/zap-http/zap"
};

// Every case this build can run: every framing × hello (not gRPC) and each
// available codec a server answers with, in codecs.table's order.
std::vector<PathCase> path_cases();
// By name ("Server/http1/zap" or "http1/zap"); false if there is no such case.
bool find_path_case(std::string_view name, PathCase& out);

class RequestPath {
 public:
  static constexpr unsigned kBatchRequests = 16;  // pipelined requests (HTTP/2: streams in flight) per batch
  // HTTP/2 and gRPC: batches recorded on one connection, replayed before a
  // fresh server connection starts over (see the file comment).
  static constexpr unsigned kH2BatchesPerConnection = 1024;

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
    if (h2_) return run_h2_batch();
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
  // The fixture's server counters (outcomes and errors of every batch).
  [[nodiscard]] const server::Counters& counters() const noexcept { return x_->counters; }

 private:
  PathCase case_;
  server::Config config_;
  std::unique_ptr<server::Context> x_;
  std::unique_ptr<server::Conn> conn_;
  std::vector<std::uint64_t> ids_;  // the batch's request ids, in order
  std::size_t batch_bytes_ = 0;
  std::size_t response_batch_bytes_ = 0;
  // HTTP/2 and gRPC: the recorded client bytes, batch after batch, and where
  // each batch ends in them; the next batch to replay.
  bool h2_ = false;
  struct H2Requests;  // the batch's requests as the client session submits them
  std::unique_ptr<H2Requests> h2_requests_;
  std::string h2_record_error_;  // what was wrong while recording; empty: nothing
  std::vector<std::uint8_t> h2_run_;
  std::vector<std::size_t> h2_batch_end_;
  std::size_t h2_next_ = 0;
  void run_h2_batch();
  void reopen_h2();  // the server connection's session closed and a fresh one opened
  void record_h2();
  std::string check_h2();
};

}  // namespace micro
