// micro/request_path.cpp — the request-path fixture: builds the batch with
// the loader's own request writers (net/client_wires.hpp), runs the server's
// answer_ready on it, and checks the answers with the loader's response
// readers (ZAP-RPC's matched by PromiseID) and the codec's decoder.
#include "micro/request_path.hpp"

#include <cstring>
#include <stdexcept>

#include "net/client_wires.hpp"
#include "record/registry.hpp"

namespace micro {

std::string_view framing_name(Framing f) noexcept {
  switch (f) {
    case Framing::http1:
      return "http1";
    case Framing::zap_http:
      return "zap-http";
    case Framing::zap_rpc:
      return "zap-rpc";
  }
  return "?";
}

std::string PathCase::name() const { return "Server/" + std::string(framing_name(framing)) + "/" + body; }

std::vector<PathCase> path_cases() {
  std::vector<PathCase> out;
  for (Framing f : {Framing::http1, Framing::zap_http, Framing::zap_rpc}) {
    out.push_back({f, "hello"});
    for (const record::CodecInfo& info : record::all_codecs())
      if (info.available && !info.trusted_input_only)  // a server never answers with one
        out.push_back({f, std::string(info.name)});
  }
  return out;
}

bool find_path_case(std::string_view name, PathCase& out) {
  if (name.starts_with("Server/")) name.remove_prefix(7);
  for (const PathCase& c : path_cases())
    if (c.name() == "Server/" + std::string(name)) {
      out = c;
      return true;
    }
  return false;
}

namespace {
constexpr std::string_view kHost = "127.0.0.1:8080";
constexpr char kDate[] = "Tue, 01 Dec 2026 10:00:00 GMT";  // the worker's tick keeps one like it

// The codec of a body name; nullptr for hello.
const record::CodecInfo* body_codec(const std::string& body) {
  if (body == "hello") return nullptr;
  const record::CodecInfo* info = record::find_codec(body);
  if (info == nullptr || !info->available)
    throw std::invalid_argument("no available codec '" + body +
                                "' (available: " + record::available_codec_names(false) + ")");
  return info;
}
}  // namespace

RequestPath::RequestPath(const PathCase& c) : case_(c) {
  const record::CodecInfo* codec = body_codec(c.body);
  config_.json =
      codec != nullptr && codec->family() == record::Family::json ? codec : &record::default_json_codec();
  if (codec != nullptr && codec->family() == record::Family::peer) config_.codecs = {codec};
  x_ = std::make_unique<server::Context>(config_);
  x_->set_date(kDate);
  const server::Wire wire = c.framing == Framing::http1      ? server::Wire::http
                            : c.framing == Framing::zap_http ? server::Wire::zap
                                                             : server::Wire::zap_rpc;
  conn_ = std::make_unique<server::Conn>(wire);

  // The batch, as the loader writes it: distinct ids, each body encoded once.
  net::wire::Http1Client http(std::string{kHost});
  net::wire::ZapHttpClient zap;
  net::wire::ZapRpcClient zap_rpc;
  std::unique_ptr<record::AnyCodec> enc = codec != nullptr ? codec->make() : nullptr;
  for (unsigned i = 0; i < kBatchRequests; ++i) {
    record::Request req = record::sample_request();
    req.id += i;
    ids_.push_back(req.id);
    const std::string_view method = enc ? "POST" : "GET";
    const std::string_view target = enc ? "/rpc" : "/health";
    const std::string_view type = codec != nullptr ? codec->content_type : std::string_view{};
    const record::Bytes body = enc ? enc->encode_request(req) : record::Bytes{};
    if (c.framing == Framing::http1) {
      http.append_request(conn_->in, method, target, type, body);
    } else if (c.framing == Framing::zap_http) {
      zap.append_request(conn_->in, method, target, type, body);
    } else {
      zap_rpc.append_request(conn_->in, method, target, type, body, i + 1);  // PromiseID: its place, from 1
    }
  }
  batch_bytes_ = conn_->in.size();
  conn_->in.consume(batch_bytes_);  // empty, the bytes left in place for run_batch()
}

RequestPath::~RequestPath() = default;

std::uint64_t RequestPath::requests_counted() const noexcept {
  std::uint64_t n = 0;
  for (const auto& per_wire : x_->counters.requests)
    for (std::uint64_t r : per_wire) n += r;
  return n;
}

std::string RequestPath::check() {
  const std::uint64_t counted = requests_counted();
  conn_->in.prepare(batch_bytes_);
  conn_->in.commit(batch_bytes_);
  const std::uint8_t* first = conn_->in.readable().data();
  server::with_wire(*conn_, [&]<class W>() { server::answer_ready<W>(*x_, *conn_, 1); });
  if (!conn_->in.empty() || conn_->closing || conn_->held)
    return "the batch was not answered whole (" + std::to_string(conn_->in.size()) + " bytes left)";
  if (conn_->in.prepare(batch_bytes_) != first) return "the input buffer moved";
  if (requests_counted() != counted + kBatchRequests) return "the server did not count every request";

  const record::CodecInfo* codec = body_codec(case_.body);
  std::unique_ptr<record::AnyCodec> dec = codec != nullptr ? codec->make() : nullptr;
  net::wire::Http1Client http(std::string{kHost});
  net::wire::ZapHttpClient zap;
  net::wire::ZapRpcClient zap_rpc;
  response_batch_bytes_ = conn_->out.size();
  std::vector<bool> answered(kBatchRequests, false);
  for (unsigned n = 0; n < kBatchRequests; ++n) {
    std::size_t hint = 0;
    const net::wire::Response r = case_.framing == Framing::http1      ? http.take(conn_->out, hint)
                                  : case_.framing == Framing::zap_http ? zap.take(conn_->out, hint)
                                                                       : zap_rpc.take(conn_->out, hint);
    if (r.status != net::wire::Response::Status::complete)
      return "response " + std::to_string(n + 1) + ": missing or malformed";
    unsigned i = n;  // the request this answers: in order, or (ZAP-RPC) by its PromiseID
    if (case_.framing == Framing::zap_rpc) {
      if (r.promise == 0 || r.promise > kBatchRequests || answered[r.promise - 1])
        return "response " + std::to_string(n + 1) + ": PromiseID " + std::to_string(r.promise) +
               " is no call of the batch, or answered twice";
      i = r.promise - 1;
      answered[i] = true;
    }
    const std::string which = "response " + std::to_string(i + 1) + ": ";
    if (r.status != net::wire::Response::Status::complete) return which + "missing or malformed";
    if (r.code != 200) return which + "status " + std::to_string(r.code);
    if (r.close) return which + "closes the connection";
    if (dec == nullptr) {
      if (r.body.size() != 2 || std::memcmp(r.body.data(), "ok", 2) != 0) return which + "body is not ok";
    } else {
      // The body is copied out so the decoder gets its padding.
      std::vector<std::uint8_t> body(r.body.begin(), r.body.end());
      body.resize(body.size() + record::kInputPaddingBytes);
      record::ResponseView v;
      if (dec->decode_response({body.data(), r.body.size()}, v) != record::DecodeError::ok)
        return which + "body does not decode";
      record::RequestView q{
          ids_[i], record::kSampleBlock, record::kSampleMethod, {}, record::kSampleAccount[0]};
      const record::Response want = record::compute(q);
      if (v.id != want.id || v.balance != want.balance || v.nonce != want.nonce)
        return which + "not the compute of its request";
    }
    conn_->out.consume(r.consumed_bytes);
  }
  if (!conn_->out.empty()) return "more responses than requests";
  return {};
}

[[gnu::noinline]] void RequestPath::run_batches(std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) run_batch();
}

}  // namespace micro
