// micro/request_path.cpp — the request-path fixture: builds the batch with
// the loader's own request writers (wire/client_wires.hpp), runs the server's
// answer_ready on it, and checks the answers with the loader's response
// readers (ZAP-RPC's matched by PromiseID) and the codec's decoder. HTTP/2
// and gRPC: an nghttp2 client session (H2Peer) writes the requests and reads
// the answers; its bytes are recorded and replayed (request_path.hpp).
#include "micro/request_path.hpp"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <stdexcept>

#include "record/registry.hpp"
#include "wire/client_wires.hpp"
#include "wire/grpc.hpp"
#include "wire/http2.hpp"

namespace micro {

std::string PathCase::name() const {
  return "Server/" + std::string(matrix::bench_name(framing)) + "/" + body;
}

std::vector<PathCase> path_cases() {
  std::vector<PathCase> out;
  for (Framing f : {Framing::http1, Framing::zap_http, Framing::zap_rpc, Framing::http2, Framing::grpc}) {
    if (f != Framing::grpc) out.push_back({f, "hello"});
    for (const record::CodecInfo& info : record::all_codecs())
      if (info.available && !info.trusted_input_only &&  // a server never answers with one
          (f != Framing::grpc || !wire::grpc::grpc_content_type(info.content_type).empty()))
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

// The batch's requests as an HTTP/2 client submits them.
struct H2Request {
  std::string method, path, content_type;
  std::vector<std::uint8_t> body;  // gRPC: the prefixed message
  bool grpc = false;
};

// The client side of Server/http2 and Server/grpc: an nghttp2 client session
// (the default allocator; never timed) with the loader's settings
// (docs/spec/http2-grpc.md §1), which submits a batch of requests with the
// fields the loader's Http2Client sends — :method, :scheme, :authority,
// :path; on /rpc content-type; on gRPC content-type and te — and collects
// each stream's answer.
class H2Peer {
 public:
  struct Answer {
    std::string status, content_type, grpc_status;
    std::vector<std::uint8_t> body;
    bool closed = false;
    std::uint32_t close_code = 0;
  };

  explicit H2Peer(const std::vector<H2Request>& requests) : requests_(requests), answers_(requests.size()) {
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_close);
    nghttp2_option* opt = nullptr;
    nghttp2_option_new(&opt);
    nghttp2_option_set_peer_max_concurrent_streams(opt, wire::h2::kMaxConcurrentStreams);
    const int rv = nghttp2_session_client_new2(&session_, cb, this, opt);
    nghttp2_session_callbacks_del(cb);
    nghttp2_option_del(opt);
    if (rv != 0) throw std::bad_alloc();
    const nghttp2_settings_entry settings[2] = {
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<std::uint32_t>(wire::h2::kStreamWindowBytes)},
        {NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 2);
    nghttp2_session_set_local_window_size(session_, NGHTTP2_FLAG_NONE, 0, wire::h2::kConnectionWindowBytes);
  }
  ~H2Peer() { nghttp2_session_del(session_); }
  H2Peer(const H2Peer&) = delete;
  H2Peer& operator=(const H2Peer&) = delete;

  // Submits every request of the batch and appends what the session sends to
  // out; empty when right.
  std::string send_batch(std::vector<std::uint8_t>& out) {
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      const H2Request& r = requests_[i];
      answers_[i] = Answer{};
      sources_[i] = Source{&r.body, 0};
      std::vector<nghttp2_nv> nva;
      const auto add = [&](std::string_view n, std::string_view v) {
        nva.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(n.data())),
                       reinterpret_cast<std::uint8_t*>(const_cast<char*>(v.data())), n.size(), v.size(),
                       NGHTTP2_NV_FLAG_NONE});
      };
      add(":method", r.method);
      add(":scheme", "http");
      add(":authority", kHost);
      add(":path", r.path);
      if (!r.content_type.empty()) add("content-type", r.content_type);
      if (r.grpc) add("te", "trailers");
      nghttp2_data_provider provider{};
      provider.source.ptr = &sources_[i];
      provider.read_callback = read_body;
      const std::int32_t id = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(),
                                                     r.body.empty() ? nullptr : &provider, &answers_[i]);
      if (id < 0) return std::string("nghttp2_submit_request: ") + nghttp2_strerror(id);
    }
    for (;;) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n < 0) return std::string("nghttp2_session_mem_send: ") + nghttp2_strerror(static_cast<int>(n));
      if (n == 0) return {};
      out.insert(out.end(), data, data + n);
    }
  }
  // The server's bytes; empty when nghttp2 took them all.
  std::string receive(std::span<const std::uint8_t> bytes) {
    const ssize_t n = nghttp2_session_mem_recv(session_, bytes.data(), bytes.size());
    if (n < 0) return std::string("the server's bytes: ") + nghttp2_strerror(static_cast<int>(n));
    return {};
  }
  [[nodiscard]] const std::vector<Answer>& answers() const noexcept { return answers_; }

 private:
  struct Source {
    const std::vector<std::uint8_t>* bytes = nullptr;
    std::size_t at = 0;
  };
  static Answer* answer_of(nghttp2_session* session, std::int32_t id) {
    return static_cast<Answer*>(nghttp2_session_get_stream_user_data(session, id));
  }
  static ssize_t read_body(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                           std::uint32_t* flags, nghttp2_data_source* source, void*) {
    Source& s = *static_cast<Source*>(source->ptr);
    const std::size_t n = std::min(length, s.bytes->size() - s.at);
    std::memcpy(buf, s.bytes->data() + s.at, n);
    s.at += n;
    if (s.at == s.bytes->size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
  static int on_header(nghttp2_session* session, const nghttp2_frame* frame, const std::uint8_t* name,
                       std::size_t name_bytes, const std::uint8_t* value, std::size_t value_bytes,
                       std::uint8_t, void*) {
    Answer* a = answer_of(session, frame->hd.stream_id);
    if (a == nullptr) return 0;
    const std::string_view n{reinterpret_cast<const char*>(name), name_bytes};
    const std::string v{reinterpret_cast<const char*>(value), value_bytes};
    if (n == ":status")
      a->status = v;
    else if (n == "content-type")
      a->content_type = v;
    else if (n == "grpc-status")
      a->grpc_status = v;
    return 0;
  }
  static int on_data(nghttp2_session* session, std::uint8_t, std::int32_t id, const std::uint8_t* data,
                     std::size_t bytes, void*) {
    if (Answer* a = answer_of(session, id)) a->body.insert(a->body.end(), data, data + bytes);
    return 0;
  }
  static int on_close(nghttp2_session* session, std::int32_t id, std::uint32_t code, void*) {
    if (Answer* a = answer_of(session, id)) {
      a->closed = true;
      a->close_code = code;
    }
    return 0;
  }

  const std::vector<H2Request>& requests_;
  std::vector<Answer> answers_;
  Source sources_[RequestPath::kBatchRequests];
  nghttp2_session* session_ = nullptr;
};

// Whether each answer of a batch is its request's (status, content type,
// gRPC's prefix and status, the body's compute); empty when right.
std::string check_h2_answers(const PathCase& c, const std::vector<H2Request>& requests,
                             const std::vector<H2Peer::Answer>& answers,
                             const std::vector<std::uint64_t>& ids) {
  const record::CodecInfo* codec = c.body == "hello" ? nullptr : record::find_codec(c.body);
  std::unique_ptr<record::AnyCodec> dec = codec != nullptr ? codec->make() : nullptr;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const H2Peer::Answer& a = answers[i];
    const std::string which = "stream " + std::to_string(i + 1) + ": ";
    if (!a.closed) return which + "not answered whole";
    if (a.close_code != NGHTTP2_NO_ERROR) return which + "reset with code " + std::to_string(a.close_code);
    if (a.status != "200") return which + "status " + a.status;
    std::span<const std::uint8_t> body = a.body;
    if (c.framing == Framing::grpc) {
      if (a.content_type != requests[i].content_type) return which + "content-type " + a.content_type;
      if (a.grpc_status != "0") return which + "grpc-status '" + a.grpc_status + "'";
      if (wire::grpc::unary_message(a.body, body) != wire::grpc::MessageError::ok)
        return which + "not one gRPC message";
    } else if (codec != nullptr && a.content_type != codec->content_type) {
      return which + "content-type " + a.content_type;
    }
    if (dec == nullptr) {
      if (body.size() != 2 || std::memcmp(body.data(), "ok", 2) != 0) return which + "body is not ok";
      continue;
    }
    std::vector<std::uint8_t> padded(body.begin(), body.end());  // the decoder's padding
    padded.resize(padded.size() + record::kInputPaddingBytes);
    record::ResponseView v;
    if (dec->decode_response({padded.data(), body.size()}, v) != record::DecodeError::ok)
      return which + "body does not decode";
    record::RequestView q{ids[i], record::kSampleBlock, record::kSampleMethod, {}, record::kSampleAccount[0]};
    const record::Response want = record::compute(q);
    if (v.id != want.id || v.balance != want.balance || v.nonce != want.nonce)
      return which + "not the compute of its request";
  }
  return {};
}
}  // namespace

struct RequestPath::H2Requests {
  std::vector<H2Request> requests;
};

RequestPath::RequestPath(const PathCase& c) : case_(c) {
  const record::CodecInfo* codec = body_codec(c.body);
  config_.json =
      codec != nullptr && codec->family() == matrix::Family::json ? codec : &record::default_json_codec();
  if (codec != nullptr && codec->family() == matrix::Family::peer) config_.codecs = {codec};
  x_ = std::make_unique<server::Context>(config_);
  x_->set_date(kDate);
  const matrix::Framing listener = server::listener_of(c.framing);
  conn_ = std::make_unique<server::Conn>(listener);
  h2_ = listener == matrix::Framing::http2;
  if (h2_) {
    if (c.framing == Framing::grpc &&
        (codec == nullptr || wire::grpc::grpc_content_type(codec->content_type).empty()))
      throw std::invalid_argument("gRPC has no body '" + c.body + "' (only zapbench.Eth/Call, with a codec)");
    h2_requests_ = std::make_unique<H2Requests>();
  }

  // The batch, as the loader writes it: distinct ids, each body encoded once.
  wire::Http1Client http(std::string{kHost});
  wire::ZapHttpClient zap;
  wire::ZapRpcClient zap_rpc;
  std::unique_ptr<record::AnyCodec> enc = codec != nullptr ? codec->make() : nullptr;
  for (unsigned i = 0; i < kBatchRequests; ++i) {
    record::Request req = record::sample_request();
    req.id += i;
    ids_.push_back(req.id);
    const std::string_view method = enc ? "POST" : "GET";
    const std::string_view target = enc ? "/rpc" : "/health";
    const std::string_view type = codec != nullptr ? codec->content_type : std::string_view{};
    const record::Bytes body = enc ? enc->encode_request(req) : record::Bytes{};
    if (h2_) {
      H2Request r;
      r.method = method;
      r.path = c.framing == Framing::grpc ? std::string(wire::grpc::kCallPath) : std::string(target);
      r.grpc = c.framing == Framing::grpc;
      if (r.grpc) {
        r.content_type = wire::grpc::grpc_content_type(type);
        r.body.resize(wire::grpc::kPrefixBytes);
        wire::grpc::write_prefix(r.body.data(), static_cast<std::uint32_t>(body.size()));
      } else if (enc) {
        r.content_type = type;
      }
      r.body.insert(r.body.end(), body.begin(), body.end());
      h2_requests_->requests.push_back(std::move(r));
    } else if (c.framing == Framing::http1) {
      http.append_request(conn_->in, method, target, type, body);
    } else if (c.framing == Framing::zap_http) {
      zap.append_request(conn_->in, method, target, type, body);
    } else {
      zap_rpc.append_request(conn_->in, method, target, type, body, i + 1);  // PromiseID: its place, from 1
    }
  }
  if (h2_) {
    record_h2();
    return;
  }
  batch_bytes_ = conn_->in.size();
  conn_->in.consume(batch_bytes_);  // empty, the bytes left in place for run_batch()
}

RequestPath::~RequestPath() {
  if (conn_ != nullptr && conn_->h2 != nullptr) server::Http2Wire::close(*x_, *conn_);
}

void RequestPath::record_h2() {
  // A server of its own: the fixture's counters count the timed batches only.
  server::Context x(config_);
  server::Conn conn(matrix::Framing::http2);
  if (!server::Http2Wire::open(x, conn)) {
    h2_record_error_ = "no nghttp2 server session";
    return;
  }
  H2Peer peer(h2_requests_->requests);
  std::size_t response_bytes = 0;
  for (unsigned k = 0; k < kH2BatchesPerConnection && h2_record_error_.empty(); ++k) {
    const std::size_t at = h2_run_.size();
    h2_record_error_ = peer.send_batch(h2_run_);
    if (!h2_record_error_.empty()) break;
    conn.in.append(h2_run_.data() + at, h2_run_.size() - at);
    h2_batch_end_.push_back(h2_run_.size());
    server::answer_ready<server::Http2Wire>(x, conn, 1);
    if (!conn.in.empty() || conn.closing || conn.held) {
      h2_record_error_ = "batch " + std::to_string(k) + " was not answered whole";
      break;
    }
    response_bytes += conn.out.size();
    h2_record_error_ = peer.receive(conn.out.readable());
    conn.out.clear();
    if (h2_record_error_.empty())
      h2_record_error_ = check_h2_answers(case_, h2_requests_->requests, peer.answers(), ids_);
    if (!h2_record_error_.empty()) h2_record_error_ = "batch " + std::to_string(k) + ": " + h2_record_error_;
  }
  server::Http2Wire::close(x, conn);
  batch_bytes_ = h2_run_.size() / kH2BatchesPerConnection;
  response_batch_bytes_ = response_bytes / kH2BatchesPerConnection;
}

void RequestPath::reopen_h2() {
  if (conn_->h2 != nullptr) server::Http2Wire::close(*x_, *conn_);
  conn_->in.clear();
  conn_->out.clear();
  conn_->closing = conn_->held = false;
  server::Http2Wire::open(*x_, *conn_);
  h2_next_ = 0;
}

void RequestPath::run_h2_batch() {
  if (h2_next_ == h2_batch_end_.size()) {
    if (h2_batch_end_.empty()) return;  // the recording failed: check() says why
    reopen_h2();
  }
  const std::size_t at = h2_next_ == 0 ? 0 : h2_batch_end_[h2_next_ - 1];
  conn_->in.append(h2_run_.data() + at, h2_batch_end_[h2_next_] - at);
  server::answer_ready<server::Http2Wire>(*x_, *conn_, 1);
  conn_->out.clear();
  ++h2_next_;
}

std::string RequestPath::check_h2() {
  if (!h2_record_error_.empty()) return "recording the client's bytes: " + h2_record_error_;
  const std::uint64_t counted = requests_counted();
  reopen_h2();
  if (conn_->h2 == nullptr) return "no nghttp2 server session";
  H2Peer peer(h2_requests_->requests);
  std::vector<std::uint8_t> bytes;
  if (std::string why = peer.send_batch(bytes); !why.empty()) return why;
  conn_->in.append(bytes.data(), bytes.size());
  server::answer_ready<server::Http2Wire>(*x_, *conn_, 1);
  if (!conn_->in.empty() || conn_->closing || conn_->held)
    return "the batch was not answered whole (" + std::to_string(conn_->in.size()) + " bytes left)";
  if (requests_counted() != counted + kBatchRequests) return "the server did not count every request";
  std::string why = peer.receive(conn_->out.readable());
  if (why.empty()) why = check_h2_answers(case_, h2_requests_->requests, peer.answers(), ids_);
  reopen_h2();  // the timed batches replay the recording from its preface
  return why;
}

std::uint64_t RequestPath::requests_counted() const noexcept {
  std::uint64_t n = 0;
  for (const auto& per_wire : x_->counters.requests)
    for (std::uint64_t r : per_wire) n += r;
  return n;
}

std::string RequestPath::check() {
  if (h2_) return check_h2();
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
  wire::Http1Client http(std::string{kHost});
  wire::ZapHttpClient zap;
  wire::ZapRpcClient zap_rpc;
  response_batch_bytes_ = conn_->out.size();
  std::vector<bool> answered(kBatchRequests, false);
  for (unsigned n = 0; n < kBatchRequests; ++n) {
    std::size_t hint = 0;
    const wire::Response r = case_.framing == Framing::http1      ? http.take(conn_->out, hint)
                             : case_.framing == Framing::zap_http ? zap.take(conn_->out, hint)
                                                                  : zap_rpc.take(conn_->out, hint);
    if (r.status != wire::Response::Status::complete)
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
    if (r.status != wire::Response::Status::complete) return which + "missing or malformed";
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
