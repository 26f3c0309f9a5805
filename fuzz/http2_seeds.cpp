// fuzz/http2_seeds.cpp — the seed corpora of http2_fuzz and grpc_message_fuzz,
// written at build time (no HTTP/2 bytes are kept in this repository):
// http2_fuzz's seeds are what an nghttp2 client session sends after the
// connection preface (which the target prepends) — its SETTINGS, then
// requests: GET /health; POST /rpc with a JSON and a ZAP body; POST /logs; a
// gRPC Call (application/grpc+zap, and application/grpc with protobuf when
// the build has it); and a mix of streams with a PING, a WINDOW_UPDATE and a
// RST_STREAM. grpc_message_fuzz's seeds are gRPC message bodies (good, cut,
// compressed) and content types.
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

#include "net/grpc.hpp"
#include "record/codecs.hpp"
#include "record/logs.hpp"
#include "record/registry.hpp"

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
  std::string out(net::grpc::kPrefixBytes, '\0');
  net::grpc::write_prefix(reinterpret_cast<std::uint8_t*>(out.data()),
                          static_cast<std::uint32_t>(message.size()));
  out[0] = static_cast<char>(flag);
  return out + message;
}

struct Request {
  std::string method, path, content_type, body;
};

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
    if (r.content_type.starts_with("application/grpc")) nva.push_back(nv(kTe, kTrailers));
    bodies_.push_back(std::make_unique<Body>(Body{r.body, 0}));
    nghttp2_data_provider provider{};
    provider.source.ptr = bodies_.back().get();
    provider.read_callback = [](nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                                std::uint32_t* flags, nghttp2_data_source* source, void*) -> ssize_t {
      Body& b = *static_cast<Body*>(source->ptr);
      const std::size_t n = std::min(length, b.bytes.size() - b.at);
      std::memcpy(buf, b.bytes.data() + b.at, n);
      b.at += n;
      if (b.at == b.bytes.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
      return static_cast<ssize_t>(n);
    };
    return nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(),
                                  r.body.empty() ? nullptr : &provider, nullptr);
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
  const Request call_zap{"POST", std::string(net::grpc::kCallPath), "application/grpc+zap",
                         grpc_body(zap_req)};

  std::vector<std::pair<std::string, std::vector<Request>>> seeds = {
      {"health", {health}},
      {"rpc_json", {rpc_json}},
      {"rpc_zap", {rpc_zap}},
      {"logs_zap", {logs}},
      {"grpc_call_zap", {call_zap}},
      {"grpc_unknown_method", {{"POST", "/zapbench.Eth/Nope", "application/grpc+zap", grpc_body(zap_req)}}},
      {"grpc_compressed",
       {{"POST", std::string(net::grpc::kCallPath), "application/grpc+zap", grpc_body(zap_req, 1)}}},
      {"many", {health, rpc_json, rpc_zap, call_zap, health, logs}},
  };
  std::vector<std::string> grpc_messages = {grpc_body(zap_req), grpc_body(zap_req, 1), grpc_body(""),
                                            grpc_body(zap_req).substr(0, 20)};
  if (const record::CodecInfo* pb = record::find_codec("protobuf"); pb != nullptr && pb->available) {
    const std::string pb_req = str(pb->make()->encode_request(record::sample_request()));
    seeds.push_back({"grpc_call_proto",
                     {{"POST", std::string(net::grpc::kCallPath), "application/grpc", grpc_body(pb_req)}}});
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

  for (std::size_t i = 0; i < grpc_messages.size(); ++i)
    write(grpc_dir / ("message_" + std::to_string(i)), grpc_messages[i]);
  for (const net::grpc::Subtype& s : net::grpc::kSubtypes) {
    write(grpc_dir / ("type_" + std::string(s.grpc_content_type).substr(12)),
          std::string(s.grpc_content_type));
  }
  write(grpc_dir / "type_params", "application/grpc+zap; charset=utf-8");
  write(grpc_dir / "type_proto", "application/grpc+proto");
  return 0;
}
