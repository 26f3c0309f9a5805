// record/library_codec_impl.hpp — LibraryCodec's out-of-line members, for the
// codec_<name>.cpp that defines its Library::State and then instantiates
// `template class LibraryCodec<Library>;` (see library_codec.hpp). Include it
// nowhere else: every other file sees State incomplete.
#pragma once

#include <memory>

#include "record/library_codec.hpp"

namespace record {

template <class L>
LibraryCodec<L>::LibraryCodec() : state_(std::make_unique<typename L::State>()) {}
template <class L>
LibraryCodec<L>::~LibraryCodec() = default;
template <class L>
LibraryCodec<L>::LibraryCodec(LibraryCodec&&) noexcept = default;
template <class L>
LibraryCodec<L>& LibraryCodec<L>::operator=(LibraryCodec&&) noexcept = default;

template <class L>
Bytes LibraryCodec<L>::state_encode_request(const Request& r) {
  if constexpr (kInlineWriter)
    return writers_.request.request(r);
  else
    return state_->encode_request(r);
}

template <class L>
Bytes LibraryCodec<L>::state_encode_response(const Response& r) {
  if constexpr (kInlineWriter)
    return writers_.response.response(r);
  else
    return state_->encode_response(r);
}

template <class L>
DecodeError LibraryCodec<L>::decode_request(Bytes in, RequestView& out) noexcept(L::kDecodeNoexcept) {
  return state_->decode_request(in, out);
}

template <class L>
DecodeError LibraryCodec<L>::decode_response(Bytes in, ResponseView& out) noexcept(L::kDecodeNoexcept) {
  return state_->decode_response(in, out);
}

// The logs members: clang 14 compiles constrained-out members on `template
// class` too, so each body also compiles (and is never called) without logs.
// The state_encode_ ones are never called when kInlineWriter either.
template <class L>
Bytes LibraryCodec<L>::state_encode_logs_request(const LogsRequest& r) {
  if constexpr (L::kHasLogs && !kInlineWriter) return state_->encode_logs_request(r);
  return {};
}
template <class L>
Bytes LibraryCodec<L>::state_encode_logs(std::span<const Log> logs) {
  if constexpr (L::kHasLogs && !kInlineWriter) return state_->encode_logs(logs);
  return {};
}
template <class L>
DecodeError LibraryCodec<L>::decode_logs_request(Bytes in, LogsRequest& out) noexcept(
    L::kDecodeNoexcept) requires L::kHasLogs {
  if constexpr (L::kHasLogs) return state_->decode_logs_request(in, out);
  return DecodeError::syntax;
}
template <class L>
DecodeError LibraryCodec<L>::logs_decode_all(Bytes in, LogsDigest& out) noexcept(
    L::kDecodeNoexcept) requires L::kHasLogs {
  if constexpr (L::kHasLogs) return state_->logs_decode_all(in, out);
  return DecodeError::syntax;
}
template <class L>
DecodeError LibraryCodec<L>::logs_access_one(Bytes in, std::uint32_t k,
                                             LogPick& out) noexcept(L::kDecodeNoexcept) requires L::kHasLogs {
  if constexpr (L::kHasLogs) return state_->logs_access_one(in, k, out);
  return DecodeError::syntax;
}
template <class L>
DecodeError LibraryCodec<L>::logs_scan(Bytes in,
                                       LogsScan& out) noexcept(L::kDecodeNoexcept) requires L::kHasLogs {
  if constexpr (L::kHasLogs) return state_->logs_scan(in, out);
  return DecodeError::syntax;
}

}  // namespace record
