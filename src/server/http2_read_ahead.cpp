// server/http2_read_ahead.cpp — the frame heads of a connection's input,
// read ahead of nghttp2 (next_run): which bytes nghttp2 may have now, and the
// connection errors RFC 9113 asks for that nghttp2, keeping no closed
// streams, would let pass. Owns no answers: those are nghttp2's own.
#include <algorithm>

#include "server/http2_session.hpp"

namespace server::http2 {

// ---- the frame heads read ahead of nghttp2 -----------------------------------
//
// nghttp2 keeps no closed streams here (no_closed_streams) and no RFC 7540
// priorities (NO_RFC7540_PRIORITIES), which spares a tree and a list per
// stream, but then it ignores, unanswered, what RFC 9113 makes an error: a
// DATA or HEADERS frame on a closed stream (§5.1: STREAM_CLOSED), a HEADERS
// frame opening a stream below one already opened (§5.1.1: PROTOCOL_ERROR), a
// PRIORITY frame on stream 0 (§6.3) or one depending on its own stream
// (§5.3.1: PROTOCOL_ERROR). So the wire reads each frame's head before nghttp2
// does and judges those frames itself, at the moment nghttp2 would: a DATA or
// HEADERS frame on a stream already named is fed to nghttp2 only after every
// frame before it (it may be the one that closed the stream). The answers are
// nghttp2's own where it still knows the stream (a connection error, GOAWAY),
// so they are the same whether or not the stream is still open. docs/spec/http2-grpc.md §3.

namespace {

constexpr std::size_t kPriorityPayloadBytes = 5;

// The connection error for a frame on stream `id` that nghttp2 would let
// pass; false when the frame is fine (nghttp2 judges the rest).
[[gnu::noinline]] bool frame_on_gone_stream(Http2Session& h, std::int32_t id) noexcept {
  if (id > h.last_id) return false;                             // a new stream: nghttp2's
  if (h.recent != nullptr && h.recent->id == id) return false;  // open
  if (stream_of(h.session, id) != nullptr) return false;        // open: nghttp2 judges its state
  const std::uint64_t b = h.bit(id);
  if (b == 0 || (h.reset_sent & b) != 0) return false;  // too old to know, or reset by us: ignored
  nghttp2_session_terminate_session(h.session,
                                    (h.opened & b) != 0 ? NGHTTP2_STREAM_CLOSED : NGHTTP2_PROTOCOL_ERROR);
  return true;
}

// After a connection error of ours: nghttp2 ignores every byte from here
// (terminate_session), so they are passed to it unread.
std::size_t pass_the_rest(Http2Session& h) noexcept {
  h.pass_bytes = ~std::uint64_t{0};
  return kFrameHeadBytes;
}

}  // namespace

// frame up to the next one that must be judged after them; 0 when a frame
// head (or a PRIORITY frame, judged by its payload) is not whole yet.
std::size_t next_run(Http2Session& h, std::span<const std::uint8_t> in) noexcept {
  const std::size_t cap = std::min(in.size(), Http2Wire::kFeedBytes);
  std::size_t run = 0;
  if (h.pass_bytes != 0) {  // the rest of a frame begun in an earlier run
    run = static_cast<std::size_t>(std::min<std::uint64_t>(h.pass_bytes, cap));
    h.pass_bytes -= run;
  }
  // The streams this run's HEADERS frames open (bit k: run_floor + 1 + 2k):
  // their DATA and trailers in the same run need no judging, as within one
  // nghttp2_session_mem_recv nothing closes a stream but the client's
  // RST_STREAM (after one, every stream of the run is judged again). So the
  // requests of a run go to nghttp2 together, whatever order their frames
  // are in; a run opens at most 64 streams.
  std::int32_t run_floor = h.passed_max_id;
  std::uint64_t opened_in_run = 0;
  while (run < cap && in.size() - run >= kFrameHeadBytes) {
    const std::uint8_t* head = in.data() + run;
    const std::uint32_t length = (std::uint32_t{head[0]} << 16) | (std::uint32_t{head[1]} << 8) | head[2];
    const std::uint8_t type = head[3];
    const auto id =
        static_cast<std::int32_t>(((std::uint32_t{head[5]} << 24) | (std::uint32_t{head[6]} << 16) |
                                   (std::uint32_t{head[7]} << 8) | head[8]) &
                                  0x7fffffffu);
    if (type <= NGHTTP2_HEADERS && (id & 1) != 0) {  // DATA or HEADERS on a client's stream
      const auto k =
          static_cast<std::uint32_t>((std::int64_t{id} - run_floor - 1) >> 1);  // when id > run_floor
      if (id > h.passed_max_id) {  // a new stream (nghttp2 judges whether it may be)
        if (type == NGHTTP2_HEADERS) {
          std::uint32_t bit = k;
          if (bit >= 64) {
            if (run != 0) break;  // the run has opened enough
            run_floor = id - 1;   // a run's first frame: its window starts here
            bit = 0;
          }
          opened_in_run |= std::uint64_t{1} << bit;
          h.passed_max_id = id;
        }
      } else if (id <= run_floor || (opened_in_run & (std::uint64_t{1} << k)) == 0) {
        if (run != 0) break;  // judged once the frames before it are in
        if (frame_on_gone_stream(h, id)) return pass_the_rest(h);
      }
    } else if (type == NGHTTP2_RST_STREAM) {
      run_floor = h.passed_max_id;
      opened_in_run = 0;
    } else if (type == NGHTTP2_PRIORITY && length == kPriorityPayloadBytes) {
      if (in.size() - run < kFrameHeadBytes + kPriorityPayloadBytes) break;
      const std::uint8_t* p = head + kFrameHeadBytes;
      const auto depends_on = static_cast<std::int32_t>(
          ((std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3]) &
          0x7fffffffu);
      if (id == 0 || depends_on == id) {
        if (run != 0) break;  // the frames before it are served first
        nghttp2_session_terminate_session(h.session, NGHTTP2_PROTOCOL_ERROR);
        return pass_the_rest(h);
      }
    }
    const std::uint64_t frame_bytes = kFrameHeadBytes + std::uint64_t{length};
    if (frame_bytes > cap - run) {  // it ends in a later run
      h.pass_bytes = frame_bytes - (cap - run);
      return cap;
    }
    run += static_cast<std::size_t>(frame_bytes);
  }
  return run;
}

}  // namespace server::http2
