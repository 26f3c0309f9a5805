// record/codecs.hpp — the compile-time list of the codecs this build has, for
// code that wants each codec's concrete type (the microbenchmarks, tests, fuzz
// targets), in codecs.table's order; the list itself is generated from the
// table (record/codecs_table.hpp). Also the shape every codec class has
// (record::Codec, and record::LogsCodec for the second record), checked here
// for each of them.
#pragma once

#include <concepts>
#include <string_view>

#include "record/codecs_table.hpp"
#include "record/logs.hpp"
#include "record/record.hpp"

namespace record {

// What every codec class offers: kName and kContentType (its row's, checked
// by the registry), kEncodePath and kDecodePath (for `zapbench codecs` and
// reports), encoders returning views into the codec's own reusable buffers
// (valid until the next encode of that direction) and decoders returning a
// DecodeError (inputs carry kInputPaddingBytes of readable padding).
template <class C>
concept Codec = requires(C c, const Request& q, const Response& r, Bytes in, RequestView& qv,
                         ResponseView& rv) {
  { C::kName } -> std::convertible_to<std::string_view>;
  { C::kContentType } -> std::convertible_to<std::string_view>;
  { C::kEncodePath } -> std::convertible_to<std::string_view>;
  { C::kDecodePath } -> std::convertible_to<std::string_view>;
  { c.encode_request(q) } -> std::same_as<Bytes>;
  { c.encode_response(r) } -> std::same_as<Bytes>;
  { c.decode_request(in, qv) } -> std::same_as<DecodeError>;
  { c.decode_response(in, rv) } -> std::same_as<DecodeError>;
};

// Whether C's decoder is for trusted input only (C::kTrustedInputOnly, false
// when a codec does not say): such a decoder may read out of bounds on bytes
// it did not write itself.
template <class C>
constexpr bool trusted_input_only() {
  if constexpr (requires { C::kTrustedInputOnly; })
    return C::kTrustedInputOnly;
  else
    return false;
}

template <class... Cs>
struct CodecList {
  static_assert((Codec<Cs> && ...), "a codec class lacks part of the record::Codec surface");
  static_assert((LogsCodec<Cs> && ...), "a codec class lacks the eth_getLogs record (record::LogsCodec)");
  static constexpr std::size_t size = sizeof...(Cs);

  // f.template operator()<C>() for each codec C, in list order.
  template <class F>
  static void for_each(F&& f) {
    (f.template operator()<Cs>(), ...);
  }
};

using AvailableCodecs = CodecList<ZAPBENCH_AVAILABLE_CODEC_CLASSES>;

}  // namespace record
