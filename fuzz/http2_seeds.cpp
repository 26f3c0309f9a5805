// fuzz/http2_seeds.cpp — the seed corpora of http2_fuzz and grpc_message_fuzz,
// written at build time (no HTTP/2 bytes are kept in this repository):
// http2_fuzz's seeds are what an nghttp2 client session sends after the
// connection preface (which the target prepends) — its SETTINGS, then
// requests: GET /health; POST /rpc with a JSON and a ZAP body; POST /logs; a
// gRPC Call (application/grpc+zap, and application/grpc with protobuf when
// the build has it); and a mix of streams with a PING, a WINDOW_UPDATE and a
// RST_STREAM. Then what h2spec found (docs/spec/http2-grpc.md §3): the
// session's bytes with raw frames after them where a client session would
// not send them — DATA and HEADERS on a half-closed (remote) stream and on a
// closed one, frames after the client's RST_STREAM, a stream id below one
// already opened, PRIORITY on stream 0 and on itself, a header block in
// several CONTINUATIONs (the session's own block cut up), and gRPC calls
// refused at their headers (unknown method, content-subtype, no te) with
// DATA sent after the server's reset. grpc_message_fuzz's seeds are gRPC
// message bodies (good, cut, compressed) and content types.
//   http2_seeds HTTP2_OUT GRPC_OUT
#include <nghttp2/nghttp2.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "record/codecs.hpp"
#include "record/logs.hpp"
#include "record/registry.hpp"
#include "wire/grpc.hpp"

namespace {

namespace fs = std::filesystem;
constexpr std::size_t kPrefaceBytes = 24;

void write(const fs::path& file, const std::string& b) {
  std::ofstream out(file, std::ios::binary);
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
  if (!out) {
    std::fprintf(stderr, "http2_seeds: cannot write %s\n", file.c_str());
    std::exit(1);
  }
}

std::string str(record::Bytes b) { return {b.begin(), b.end()}; }

std::string grpc_body(const std::string& message, std::uint8_t flag = 0) {
  std::string out(wire::grpc::kPrefixBytes, '\0');
  wire::grpc::write_prefix(reinterpret_cast<std::uint8_t*>(out.data()),
                           static_cast<std::uint32_t>(message.size()));
  out[0] = static_cast<char>(flag);
  return out + message;
}

struct Request {
  std::string method, path, content_type, body;
  bool open = false;  // the body is not sent: HEADERS without END_STREAM, the stream left open
  bool te = true;     // a gRPC call's te: trailers
};

// A frame as a client session would not write it (RFC 9113 §4.1).
std::string frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream, const std::string& payload) {
  std::string out;
  const auto n = static_cast<std::uint32_t>(payload.size());
  for (const std::uint32_t v : {n >> 16, n >> 8, n}) out += static_cast<char>(v & 0xff);
  out += static_cast<char>(type);
  out += static_cast<char>(flags);
  for (const int shift : {24, 16, 8, 0}) out += static_cast<char>((stream >> shift) & 0xff);
  return out + payload;
}
std::string u32(std::uint32_t v) {
  std::string out;
  for (const int shift : {24, 16, 8, 0}) out += static_cast<char>((v >> shift) & 0xff);
  return out;
}
std::string data_frame(std::uint32_t stream, const std::string& bytes, bool end) {
  return frame(NGHTTP2_DATA, end ? NGHTTP2_FLAG_END_STREAM : 0, stream, bytes);
}
// GET /health's header block in HPACK literals without indexing (RFC 7541
// §6.2.2): it leaves the dynamic table as the session's encoder left it.
std::string get_health_block() {
  std::string b;
  for (const auto& [name, value] : {std::pair<std::string, std::string>{":method", "GET"},
                                    {":scheme", "http"},
                                    {":authority", "127.0.0.1"},
                                    {":path", "/health"}}) {
    b += '\0';
    b += static_cast<char>(name.size());
    b += name;
    b += static_cast<char>(value.size());
    b += value;
  }
  return b;
}
std::string headers_frame(std::uint32_t stream, bool end_stream) {
  return frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS | (end_stream ? NGHTTP2_FLAG_END_STREAM : 0), stream,
               get_health_block());
}
std::string priority_frame(std::uint32_t stream, std::uint32_t depends_on) {
  return frame(NGHTTP2_PRIORITY, 0, stream, u32(depends_on) + static_cast<char>(15));
}
// `bytes` with its first HEADERS frame's block cut into one HEADERS and
// `continuations` CONTINUATION frames (as equal as the block allows).
std::string in_continuations(const std::string& bytes, std::size_t continuations) {
  std::size_t at = 0;
  while (at + 9 <= bytes.size()) {
    const auto* h = reinterpret_cast<const std::uint8_t*>(bytes.data() + at);
    const std::size_t length = std::size_t{h[0]} << 16 | std::size_t{h[1]} << 8 | h[2];
    if (h[3] != NGHTTP2_HEADERS || (h[4] & (NGHTTP2_FLAG_PADDED | NGHTTP2_FLAG_PRIORITY)) != 0) {
      at += 9 + length;
      continue;
    }
    const std::uint32_t stream =
        std::uint32_t{h[5]} << 24 | std::uint32_t{h[6]} << 16 | std::uint32_t{h[7]} << 8 | h[8];
    const std::string block = bytes.substr(at + 9, length);
    const std::size_t piece = std::max<std::size_t>(1, block.size() / (continuations + 1));
    std::string out = frame(NGHTTP2_HEADERS, h[4] & NGHTTP2_FLAG_END_STREAM, stream, block.substr(0, piece));
    for (std::size_t i = 1, from = piece; i <= continuations; ++i) {
      const std::size_t n = i == continuations ? block.size() - std::min(from, block.size()) : piece;
      out += frame(NGHTTP2_CONTINUATION, i == continuations ? NGHTTP2_FLAG_END_HEADERS : 0, stream,
                   block.substr(std::min(from, block.size()), n));
      from += n;
    }
    return bytes.substr(0, at) + out + bytes.substr(at + 9 + length);
  }
  return bytes;
}

// A client session's bytes for these requests (after the preface).
class Client {
 public:
  Client() {
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_client_new(&session_, cb, this);
    nghttp2_session_callbacks_del(cb);
    const nghttp2_settings_entry settings[2] = {{NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 24},
                                                {NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 2);
  }
  ~Client() { nghttp2_session_del(session_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  std::int32_t submit(const Request& r) {
    const auto nv = [](const std::string& n, const std::string& v) {
      return nghttp2_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(n.data())),
                        reinterpret_cast<std::uint8_t*>(const_cast<char*>(v.data())), n.size(), v.size(),
                        NGHTTP2_NV_FLAG_NONE};
    };
    static const std::string kMethod = ":method", kScheme = ":scheme", kHttp = "http",
                             kAuthority = ":authority", kHost = "127.0.0.1", kPath = ":path",
                             kType = "content-type", kTe = "te", kTrailers = "trailers";
    std::vector<nghttp2_nv> nva = {nv(kMethod, r.method), nv(kScheme, kHttp), nv(kAuthority, kHost),
                                   nv(kPath, r.path)};
    if (!r.content_type.empty()) nva.push_back(nv(kType, r.content_type));
    if (r.content_type.starts_with("application/grpc") && r.te) nva.push_back(nv(kTe, kTrailers));
    bodies_.push_back(std::make_unique<Body>(Body{r.body, 0, r.open}));
    nghttp2_data_provider provider{};
    provider.source.ptr = bodies_.back().get();
    provider.read_callback = [](nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                                std::uint32_t* flags, nghttp2_data_source* source, void*) -> ssize_t {
      Body& b = *static_cast<Body*>(source->ptr);
      if (b.open) return NGHTTP2_ERR_DEFERRED;
      const std::size_t n = std::min(length, b.bytes.size() - b.at);
      std::memcpy(buf, b.bytes.data() + b.at, n);
      b.at += n;
      if (b.at == b.bytes.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
      return static_cast<ssize_t>(n);
    };
    return nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(),
                                  r.body.empty() && !r.open ? nullptr : &provider, nullptr);
  }
  nghttp2_session* session() { return session_; }
  // Everything queued so far, the preface cut off the first time.
  std::string bytes() {
    std::string out;
    for (;;) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n <= 0) break;
      out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
    }
    if (!preface_cut_) {
      out.erase(0, kPrefaceBytes);
      preface_cut_ = true;
    }
    return out;
  }

 private:
  struct Body {
    std::string bytes;
    std::size_t at;
    bool open;
  };
  nghttp2_session* session_ = nullptr;
  std::vector<std::unique_ptr<Body>> bodies_;
  bool preface_cut_ = false;
};

std::string stream_of(const std::vector<Request>& rs) {
  Client c;
  for (const Request& r : rs) c.submit(r);
  return c.bytes();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: http2_seeds HTTP2_OUT GRPC_OUT\n");
    return 2;
  }
  const fs::path h2_dir = argv[1], grpc_dir = argv[2];
  fs::create_directories(h2_dir);
  fs::create_directories(grpc_dir);

  const std::unique_ptr<record::AnyCodec> json = record::default_json_codec().make();
  const std::unique_ptr<record::AnyCodec> zap = record::find_codec("zap")->make();
  const std::string json_req = str(json->encode_request(record::sample_request()));
  const std::string zap_req = str(zap->encode_request(record::sample_request()));
  const std::string zap_logs = str(zap->encode_logs_request(record::sample_logs_request(3)));
  const Request health{"GET", "/health", "", ""};
  const Request rpc_json{"POST", "/rpc", std::string(record::default_json_codec().content_type), json_req};
  const Request rpc_zap{"POST", "/rpc", "application/zap", zap_req};
  const Request logs{"POST", "/logs", "application/zap", zap_logs};
  const Request call_zap{"POST", std::string(wire::grpc::kCallPath), "application/grpc+zap",
                         grpc_body(zap_req)};

  std::vector<std::pair<std::string, std::vector<Request>>> seeds = {
      {"health", {health}},
      {"rpc_json", {rpc_json}},
      {"rpc_zap", {rpc_zap}},
      {"logs_zap", {logs}},
      {"grpc_call_zap", {call_zap}},
      {"grpc_unknown_method", {{"POST", "/zapbench.Eth/Nope", "application/grpc+zap", grpc_body(zap_req)}}},
      {"grpc_compressed",
       {{"POST", std::string(wire::grpc::kCallPath), "application/grpc+zap", grpc_body(zap_req, 1)}}},
      {"many", {health, rpc_json, rpc_zap, call_zap, health, logs}},
  };
  std::vector<std::string> grpc_messages = {grpc_body(zap_req), grpc_body(zap_req, 1), grpc_body(""),
                                            grpc_body(zap_req).substr(0, 20)};
  if (const record::CodecInfo* pb = record::find_codec("protobuf"); pb != nullptr && pb->available) {
    const std::string pb_req = str(pb->make()->encode_request(record::sample_request()));
    seeds.push_back({"grpc_call_proto",
                     {{"POST", std::string(wire::grpc::kCallPath), "application/grpc", grpc_body(pb_req)}}});
    grpc_messages.push_back(grpc_body(pb_req));
  }
  for (const auto& [name, rs] : seeds) write(h2_dir / name, stream_of(rs));

  // Frames beside the requests: a PING, a connection WINDOW_UPDATE, a stream reset after its HEADERS.
  {
    Client c;
    c.submit(health);
    const std::uint8_t opaque[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    nghttp2_submit_ping(c.session(), NGHTTP2_FLAG_NONE, opaque);
    nghttp2_submit_window_update(c.session(), NGHTTP2_FLAG_NONE, 0, 1 << 20);
    const std::int32_t id = c.submit(rpc_json);
    std::string b = c.bytes();
    nghttp2_submit_rst_stream(c.session(), NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
    c.submit(call_zap);
    b += c.bytes();
    write(h2_dir / "ping_window_reset", b);
  }

  // What h2spec found (RFC 9113 §5.1, §5.1.1, §5.3.1, §6.3, §6.10). A frame
  // after an END_STREAM in the same run of input reaches nghttp2 while the
  // stream is half-closed (remote); after a RST_STREAM of the client's (here
  // on another stream) the wire judges the frames that follow in a later run,
  // once the server's answers went out and closed the stream.
  const auto after = [&](const std::vector<Request>& rs, const std::string& raw) {
    return stream_of(rs) + raw;
  };
  // Streams 1 and 3 answered in one run, stream 3 reset by the client: the run ends there.
  const auto then_closed = [&](const std::string& raw) {
    Client c;
    c.submit(health);
    const std::int32_t id = c.submit(health);
    std::string b = c.bytes();
    nghttp2_submit_rst_stream(c.session(), NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
    return b + c.bytes() + raw;
  };
  // A call whose body is never sent (HEADERS without END_STREAM), reset by the client.
  const auto after_client_reset = [&](const std::string& raw) {
    Client c;
    Request open = call_zap;
    open.open = true;
    const std::int32_t id = c.submit(open);
    std::string b = c.bytes();
    nghttp2_submit_rst_stream(c.session(), NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
    return b + c.bytes() + raw;
  };
  // A gRPC call refused at its headers with the client's side open (the
  // server answers trailers-only and resets the stream), a GET /health beside
  // it reset by the client to end the run; then the call's DATA, which the
  // server discards, and GET /health on a new stream (raw: stream 5).
  const auto refused_then_data = [&](Request call) {
    Client c;
    call.open = true;
    const std::int32_t id = c.submit(call);
    const std::int32_t other = c.submit(health);
    std::string b = c.bytes();
    nghttp2_submit_rst_stream(c.session(), NGHTTP2_FLAG_NONE, other, NGHTTP2_CANCEL);
    b += c.bytes();
    return b + data_frame(static_cast<std::uint32_t>(id), grpc_body(zap_req), false) +
           data_frame(static_cast<std::uint32_t>(id), "", true) + headers_frame(5, true);
  };
  {
    const std::vector<std::pair<std::string, std::string>> raw_seeds = {
        // h2spec 5.1/5 and 5.1/6 (half-closed remote), 5.1/11 and 5.1/12 (closed): STREAM_CLOSED.
        {"data_half_closed", after({health}, data_frame(1, "xx", true))},
        {"headers_half_closed", after({health}, headers_frame(1, true))},
        {"data_closed", then_closed(data_frame(1, "xx", true))},
        {"headers_closed", then_closed(headers_frame(1, true))},
        // 5.1/8, 5.1/9 and 5.1/10: after the client's RST_STREAM.
        {"data_after_rst", after_client_reset(data_frame(1, grpc_body(zap_req), true))},
        {"headers_after_rst", after_client_reset(headers_frame(1, true))},
        {"continuation_after_rst",
         after_client_reset(frame(NGHTTP2_CONTINUATION, NGHTTP2_FLAG_END_HEADERS, 1, get_health_block()))},
        // 5.1.1/2: stream 3 after stream 5 (PROTOCOL_ERROR), and stream 7 after it (a new stream).
        {"lower_stream_id",
         [&] {
           Client c;
           nghttp2_session_set_next_stream_id(c.session(), 5);
           c.submit(health);
           return c.bytes() + headers_frame(3, true) + headers_frame(7, true);
         }()},
        // 6.3/1 and 5.3.1/2: PRIORITY on stream 0, PRIORITY of a stream on itself (PROTOCOL_ERROR);
        // then one on an idle stream depending on another (ignored).
        {"priority_stream_0", after({health}, priority_frame(0, 1))},
        {"priority_self", after({health}, priority_frame(3, 3))},
        {"priority_self_open", after({}, priority_frame(1, 1) + headers_frame(1, true))},
        {"priority_idle", after({health}, priority_frame(5, 3) + headers_frame(3, true))},
        // 5.3.1/1: HEADERS with a priority depending on its own stream (nghttp2 makes the stream error a
        // connection error, as RFC 9113 §5.4.1 allows).
        {"headers_priority_self",
         after({health}, frame(NGHTTP2_HEADERS,
                               NGHTTP2_FLAG_END_HEADERS | NGHTTP2_FLAG_END_STREAM | NGHTTP2_FLAG_PRIORITY, 3,
                               u32(3) + static_cast<char>(15) + get_health_block()) +
                             headers_frame(5, true))},
        // 6.10/1: a header block in several CONTINUATIONs (4: answered; 10: past the bound of 8).
        {"continuations_4", in_continuations(stream_of({health, call_zap}), 4)},
        {"continuations_10", in_continuations(stream_of({health}), 10)},
        {"continuations_grpc", in_continuations(stream_of({call_zap, health}), 3)},
        // 6.10/2-4: a header block interrupted by another frame, a CONTINUATION with no block open.
        {"continuation_interrupted",
         after({}, frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_STREAM, 1, get_health_block().substr(0, 6)) +
                       data_frame(1, "xx", true))},
        {"continuation_alone",
         after({health}, frame(NGHTTP2_CONTINUATION, NGHTTP2_FLAG_END_HEADERS, 1, get_health_block()))},
        // gRPC refused at the headers, the client's side open; the DATA it then sends is discarded.
        {"grpc_unknown_method_then_data",
         refused_then_data({"POST", "/zapbench.Eth/Nope", "application/grpc+zap", ""})},
        {"grpc_unknown_subtype_then_data",
         refused_then_data({"POST", std::string(wire::grpc::kCallPath), "application/grpc+nope", ""})},
        {"grpc_no_te_then_data", refused_then_data({"POST", std::string(wire::grpc::kCallPath),
                                                    "application/grpc+zap", "", false, false})},
        {"grpc_unknown_subtype", stream_of({{"POST", std::string(wire::grpc::kCallPath),
                                             "application/grpc+nope", grpc_body(zap_req)}})},
        {"grpc_no_te", stream_of({{"POST", std::string(wire::grpc::kCallPath), "application/grpc+zap",
                                   grpc_body(zap_req), false, false}})},
        {"grpc_health_check",
         stream_of({{"POST", "/grpc.health.v1.Health/Check", "application/grpc", grpc_body("")}})},
    };
    for (const auto& [name, b] : raw_seeds) write(h2_dir / name, b);
  }

  for (std::size_t i = 0; i < grpc_messages.size(); ++i)
    write(grpc_dir / ("message_" + std::to_string(i)), grpc_messages[i]);
  for (const wire::grpc::Subtype& s : wire::grpc::kSubtypes) {
    write(grpc_dir / ("type_" + std::string(s.grpc_content_type).substr(12)),
          std::string(s.grpc_content_type));
  }
  write(grpc_dir / "type_params", "application/grpc+zap; charset=utf-8");
  write(grpc_dir / "type_proto", "application/grpc+proto");
  return 0;
}
