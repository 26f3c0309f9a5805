// wire/http2_client.cpp — the loader's HTTP/2 and gRPC wire (wire::Http2Client,
// client_wires.hpp): the nghttp2 client session of one connection, its stream
// slots (a call's buffers, reused) and the answers a read completed, handed to
// the engine one by one. nghttp2 does the frames, HPACK and flow control; this
// file owns what a request carries and what an answer must hold
// (docs/spec/http2-grpc.md §1, §4).
#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>
#include <vector>

#include "wire/client_wires.hpp"
#include "wire/grpc.hpp"

namespace wire {

namespace {

// One stream's call: its PromiseID, its request body (read by nghttp2 from
// here), and what its answer brought. Reused by later streams: buffers keep
// their capacity.
struct Slot {
  std::uint32_t promise = 0;
  net::Buffer request{256};  // the body nghttp2 sends (gRPC: prefixed); grows by doubling, as ids grow longer
  std::size_t request_sent_bytes = 0;
  std::string_view expect_content_type;  // gRPC: the content type the answer must carry (a static string)
  int status = 0;                        // :status
  int grpc_status = -1;                  // grpc-status, -1 none (or not a number)
  std::string content_type;              // reserved once, assigned within its capacity
  net::Buffer body{1024};                // the DATA of the answer (padded: decoders may read past its end)
  bool ended = false;                    // the server's END_STREAM came
  bool reset = false;                    // the stream closed before it
  Slot* next_free = nullptr;
};

constexpr std::uint32_t kLastStreamId = 0x7fff'ffff;

int parse_int(const std::uint8_t* p, std::size_t n, int if_bad) {
  int v = 0;
  const char* b = reinterpret_cast<const char*>(p);
  const auto [end, ec] = std::from_chars(b, b + n, v);
  return ec == std::errc{} && end == b + n ? v : if_bad;
}

bool equals(const std::uint8_t* p, std::size_t n, std::string_view s) {
  return n == s.size() && std::memcmp(p, s.data(), n) == 0;
}

}  // namespace

class Http2Client::Session {
 public:
  nghttp2_session* h2 = nullptr;
  std::vector<std::unique_ptr<Slot>> slots;  // every slot made (as many as streams were ever open at once)
  Slot* free = nullptr;
  std::vector<Slot*> done;  // answers a read completed, in the order they ended
  std::size_t done_taken = 0;
  Slot* lent = nullptr;  // the slot whose body the last Response viewed: free at the next take()
  bool settings_seen = false;
  // Received bytes not yet shared out over answers, and the share of each
  // answer of the current batch (the first gets the remainder too).
  std::uint64_t carry_in_bytes = 0;
  std::uint64_t share_bytes = 0;
  std::uint64_t first_extra_bytes = 0;

  ~Session() { close(); }
  void close() noexcept {
    if (h2 != nullptr) nghttp2_session_del(h2);
    h2 = nullptr;
  }

  Slot* take_slot() {
    if (free == nullptr) {
      slots.push_back(std::make_unique<Slot>());  // only while streams open at once grow (warm-up)
      slots.back()->content_type.reserve(64);
      return slots.back().get();
    }
    Slot* s = free;
    free = s->next_free;
    return s;
  }
  void release(Slot* s) noexcept {
    s->next_free = free;
    free = s;
  }
  void release_all() noexcept {
    free = nullptr;
    for (auto& s : slots) release(s.get());
    done.clear();
    done_taken = 0;
    lent = nullptr;
  }

  // Appends every frame the session has ready to `out`.
  bool send_into(net::Buffer& out) {
    for (;;) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(h2, &data);
      if (n < 0) return false;
      if (n == 0) return true;
      out.append(data, static_cast<std::size_t>(n));
    }
  }

  static Slot* slot_of(nghttp2_session* h2, std::int32_t stream_id) {
    return static_cast<Slot*>(nghttp2_session_get_stream_user_data(h2, stream_id));
  }

  // ---- nghttp2 callbacks (user_data: the Session) ----
  static int on_header(nghttp2_session* h2, const nghttp2_frame* frame, const std::uint8_t* name,
                       std::size_t name_bytes, const std::uint8_t* value, std::size_t value_bytes,
                       std::uint8_t /*flags*/, void*) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    Slot* s = slot_of(h2, frame->hd.stream_id);
    if (s == nullptr) return 0;
    if (equals(name, name_bytes, ":status"))
      s->status = parse_int(value, value_bytes, 0);
    else if (equals(name, name_bytes, "content-type"))
      s->content_type.assign(reinterpret_cast<const char*>(value), value_bytes);
    else if (equals(name, name_bytes, "grpc-status"))
      s->grpc_status = parse_int(value, value_bytes, -1);
    return 0;
  }
  static int on_data(nghttp2_session* h2, std::uint8_t /*flags*/, std::int32_t stream_id,
                     const std::uint8_t* data, std::size_t bytes, void*) {
    Slot* s = slot_of(h2, stream_id);
    if (s == nullptr) return 0;
    if (s->body.size() + bytes > kMaxResponseBodyBytes) return NGHTTP2_ERR_CALLBACK_FAILURE;
    s->body.append(data, bytes);
    return 0;
  }
  static int on_frame(nghttp2_session* h2, const nghttp2_frame* frame, void* user) {
    auto* self = static_cast<Session*>(user);
    if (frame->hd.type == NGHTTP2_SETTINGS && (frame->hd.flags & NGHTTP2_FLAG_ACK) == 0)
      self->settings_seen = true;
    if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0)
      if (Slot* s = slot_of(h2, frame->hd.stream_id)) s->ended = true;
    return 0;
  }
  static int on_close(nghttp2_session* h2, std::int32_t stream_id, std::uint32_t /*error_code*/, void* user) {
    auto* self = static_cast<Session*>(user);
    Slot* s = slot_of(h2, stream_id);
    if (s == nullptr) return 0;
    // A whole answer then RST_STREAM (the server's 413 does so) is an answer.
    s->reset = !s->ended;
    self->done.push_back(s);  // capacity reached in the warm-up: as many as streams open at once
    return 0;
  }
  static ssize_t read_body(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                           std::uint32_t* flags, nghttp2_data_source* source, void*) {
    Slot* s = static_cast<Slot*>(source->ptr);
    const std::size_t n = std::min(length, s->request.size() - s->request_sent_bytes);
    std::memcpy(buf, s->request.readable().data() + s->request_sent_bytes, n);
    s->request_sent_bytes += n;
    if (s->request_sent_bytes == s->request.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
};

void Http2Client::SessionDelete::operator()(Session* s) const noexcept { delete s; }

Http2Client::Http2Client(std::string authority, Mode mode, unsigned depth, std::uint32_t first_stream_id)
    : authority_(std::move(authority)),
      mode_(mode),
      depth_(std::max(1u, depth)),
      first_stream_id_(first_stream_id | 1u),
      pool_(std::make_unique<h2::MemPool>()) {
  if (nghttp2_session_callbacks_new(&callbacks_) != 0 || nghttp2_option_new(&option_) != 0)
    throw std::bad_alloc();
  nghttp2_session_callbacks_set_on_header_callback(callbacks_, &Session::on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks_, &Session::on_data);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks_, &Session::on_frame);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks_, &Session::on_close);
  // The hostile-peer bounds both sides apply (wire/http2.hpp).
  nghttp2_option_set_max_outbound_ack(option_, h2::kMaxOutboundAcks);
  nghttp2_option_set_max_settings(option_, h2::kMaxSettingsEntries);
  nghttp2_option_set_max_continuations(option_, h2::kMaxContinuations);
}

Http2Client::Http2Client(Http2Client&& o) noexcept
    : authority_(std::move(o.authority_)),
      mode_(o.mode_),
      depth_(o.depth_),
      first_stream_id_(o.first_stream_id_),
      pool_(std::move(o.pool_)),
      callbacks_(std::exchange(o.callbacks_, nullptr)),
      option_(std::exchange(o.option_, nullptr)) {}

Http2Client::~Http2Client() {
  if (callbacks_ != nullptr) nghttp2_session_callbacks_del(callbacks_);
  if (option_ != nullptr) nghttp2_option_del(option_);
}

void Http2Client::reset(State& st, net::Buffer& out) {
  if (!st.session) st.session.reset(new Session);
  Session& s = *st.session;
  s.close();
  s.release_all();
  s.settings_seen = false;
  s.carry_in_bytes = s.share_bytes = s.first_extra_bytes = 0;
  if (nghttp2_session_client_new3(&s.h2, callbacks_, &s, option_, pool_->mem()) != 0) throw std::bad_alloc();
  if (first_stream_id_ > 1)
    (void)nghttp2_session_set_next_stream_id(s.h2, static_cast<std::int32_t>(first_stream_id_));
  // Settings (§1): no push; a 16 MiB stream window; then the connection
  // window raised to its largest, so no benchmark cell is window-bound.
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, h2::kMaxConcurrentStreams},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<std::uint32_t>(h2::kStreamWindowBytes)},
  };
  (void)nghttp2_submit_settings(s.h2, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  (void)nghttp2_session_set_local_window_size(s.h2, NGHTTP2_FLAG_NONE, 0, h2::kConnectionWindowBytes);
  (void)s.send_into(out);  // the client magic, SETTINGS, WINDOW_UPDATE
}

bool Http2Client::exhausted(const State& st) const noexcept {
  return st.session && st.session->h2 != nullptr &&
         nghttp2_session_get_next_stream_id(st.session->h2) > kLastStreamId;
}

std::uint32_t Http2Client::refused(const State& st) const noexcept {
  if (!st.session || !st.session->settings_seen) return 0;
  const std::uint32_t allowed =
      nghttp2_session_get_remote_settings(st.session->h2, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
  return allowed < depth_ ? std::max(allowed, 1u) : 0;  // 0 streams allowed: reported as "fewer than 1"
}

bool Http2Client::ready(const State& st) const noexcept {
  return st.session && st.session->settings_seen && refused(st) == 0 && !exhausted(st);
}

void Http2Client::append_request(net::Buffer& out, std::string_view method, std::string_view target,
                                 std::string_view content_type, std::span<const std::uint8_t> body,
                                 std::uint32_t promise, State& st) {
  Session& s = *st.session;
  Slot* slot = s.take_slot();
  slot->promise = promise;
  slot->status = 0;
  slot->grpc_status = -1;
  slot->content_type.clear();
  slot->body.clear();
  slot->ended = slot->reset = false;
  slot->request_sent_bytes = 0;
  slot->request.clear();

  const auto nv = [](std::string_view name, std::string_view value) {
    return nghttp2_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                      reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
                      value.size(), NGHTTP2_NV_FLAG_NONE};
  };
  nghttp2_nv headers[6];
  std::size_t n = 0;
  bool has_body = !body.empty();
  if (mode_ == Mode::grpc) {
    slot->expect_content_type = grpc::grpc_content_type(content_type);
    headers[n++] = nv(":method", "POST");
    headers[n++] = nv(":scheme", "http");
    headers[n++] = nv(":authority", authority_);
    headers[n++] = nv(":path", grpc::kCallPath);
    headers[n++] = nv("content-type", slot->expect_content_type);
    headers[n++] = nv("te", "trailers");
    std::uint8_t* at = slot->request.prepare(grpc::kPrefixBytes + body.size());
    grpc::write_prefix(at, static_cast<std::uint32_t>(body.size()));
    if (!body.empty()) std::memcpy(at + grpc::kPrefixBytes, body.data(), body.size());
    slot->request.commit(grpc::kPrefixBytes + body.size());
    has_body = true;
  } else {
    headers[n++] = nv(":method", method);
    headers[n++] = nv(":scheme", "http");
    headers[n++] = nv(":authority", authority_);
    headers[n++] = nv(":path", target);
    if (!content_type.empty()) headers[n++] = nv("content-type", content_type);
    if (!body.empty()) slot->request.append(body.data(), body.size());
  }
  nghttp2_data_provider provider{};
  provider.source.ptr = slot;
  provider.read_callback = &Session::read_body;
  const std::int32_t id =
      nghttp2_submit_request(s.h2, nullptr, headers, n, has_body ? &provider : nullptr, slot);
  if (id < 0) {
    // Only when no stream id is left, which ready() rules out: the call stays
    // unanswered and times out.
    s.release(slot);
    return;
  }
  (void)s.send_into(out);
}

Response Http2Client::take(net::Buffer& in, net::Buffer& out, State& st) {
  Session& s = *st.session;
  if (s.lent != nullptr) {  // the engine is done with the last answer's body
    s.release(s.lent);
    s.lent = nullptr;
  }
  if (s.done_taken == s.done.size()) {
    s.done.clear();
    s.done_taken = 0;
    if (in.empty()) return {};
    const auto bytes = in.readable();
    const ssize_t used = nghttp2_session_mem_recv(s.h2, bytes.data(), bytes.size());
    if (used < 0) return {Response::Status::malformed};
    in.consume(static_cast<std::size_t>(used));
    s.carry_in_bytes += static_cast<std::uint64_t>(used);
    if (!s.send_into(out)) return {Response::Status::malformed};
    if (s.done.empty()) return {};
    // The bytes read since the last answer, shared out over the answers they completed.
    s.share_bytes = s.carry_in_bytes / s.done.size();
    s.first_extra_bytes = s.carry_in_bytes % s.done.size();
    s.carry_in_bytes = 0;
  }
  Slot* slot = s.done[s.done_taken++];
  s.lent = slot;
  Response r{Response::Status::complete};
  r.consumed_bytes = s.share_bytes + std::exchange(s.first_extra_bytes, 0);
  r.promise = slot->promise;
  if (slot->reset) {
    r.reset = true;
    return r;
  }
  r.code = slot->status;
  r.content_type = slot->content_type;
  r.body = slot->body.readable();
  if (mode_ == Mode::grpc) {
    if (r.code == 200 && slot->grpc_status != 0)
      r.code = slot->grpc_status < 0 ? 999 : 1000 + slot->grpc_status;
    if (r.code != 200) return r;
    std::span<const std::uint8_t> message;
    if (slot->content_type != slot->expect_content_type ||
        grpc::unary_message(r.body, message) != grpc::MessageError::ok) {
      r.invalid = true;
      return r;
    }
    r.body = message;
    r.content_type = grpc::body_content_type(slot->content_type);
  }
  return r;
}

}  // namespace wire
