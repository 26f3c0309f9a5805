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

}  // namespace record
