// record/library_codec.hpp — LibraryCodec<Library>: the one class of every
// codec built on a third-party library (simdjson, RapidJSON, Boost.JSON,
// nlohmann/json). It owns what those codecs share: the record::Codec surface,
// construction, moves and ownership of the library's state. It owns no
// parsing or writing: that is Library::State, defined in codec_<name>.cpp, so
// the library's headers stay out of every includer (they are heavy, and the
// fuzz preset instruments whatever it compiles).
//
// A codec_<name>.hpp declares its Library: a struct deriving LibraryDefaults
// with kName, kEncodePath and kDecodePath, `struct State;`, and any default it
// overrides. Its codec_<name>.cpp defines State, with
//   Bytes encode_request(const Request&), encode_response(const Response&)
//     (unless kEncodesWithJsonWriter),
//   DecodeError decode_request(Bytes, RequestView&), decode_response(Bytes, ResponseView&),
// includes record/library_codec_impl.hpp and instantiates
// `template class LibraryCodec<Library>;`.
//
// Cost: each operation is one out-of-line call into the library's file, as it
// was for the hand-written class per library; the call into State's member is
// inlined there.
#pragma once

#include <memory>
#include <string_view>
#include <type_traits>

#include "record/json_writer.hpp"
#include "record/logs.hpp"
#include "record/record.hpp"

namespace record {

// What a Library may leave unsaid.
struct LibraryDefaults {
  static constexpr std::string_view kContentType = "application/json";
  // Whether decode may throw (std::bad_alloc from the library's own buffers).
  static constexpr bool kDecodeNoexcept = false;
  // For a library with no serializer (simdjson 3.0.1): encode with
  // record::JsonWriter, inline in the caller as for `direct`, not through
  // State, so its Encode figures are the writer's and not a call's more.
  static constexpr bool kEncodesWithJsonWriter = false;
  // A decoder that does not check its input (flatbuffers-trusted): it may read
  // out of bounds on bytes it did not write, so the server never serves it,
  // the loader never reads a server's bytes with it, and its fuzz target
  // round-trips values instead of decoding arbitrary bytes.
  static constexpr bool kTrustedInputOnly = false;
  // Whether State implements the eth_getLogs record (record/logs.hpp):
  //   Bytes encode_logs_request(const LogsRequest&), encode_logs(std::span<const Log>)
  //     (unless kEncodesWithJsonWriter: JsonWriter writes them, inline),
  //   DecodeError decode_logs_request(Bytes, LogsRequest&), logs_decode_all(Bytes, LogsDigest&),
  //   logs_access_one(Bytes, std::uint32_t, LogPick&), logs_scan(Bytes, LogsScan&).
  static constexpr bool kHasLogs = false;
  // With kHasLogs: what Logs/AccessOne and Logs/ScanField do on this library
  // (how far each reads, what it skips and how), for `zapbench codecs` and
  // the fairness page.
  static constexpr std::string_view kLogsPath = "";
};

template <class Library>
class LibraryCodec {
  static constexpr bool kInlineWriter = Library::kEncodesWithJsonWriter;

 public:
  static constexpr std::string_view kName = Library::kName;
  static constexpr std::string_view kContentType = Library::kContentType;
  static constexpr std::string_view kEncodePath = Library::kEncodePath;
  static constexpr std::string_view kDecodePath = Library::kDecodePath;
  static constexpr bool kTrustedInputOnly = Library::kTrustedInputOnly;
  static constexpr std::string_view kLogsPath = Library::kLogsPath;

  LibraryCodec();
  ~LibraryCodec();
  LibraryCodec(LibraryCodec&&) noexcept;
  LibraryCodec& operator=(LibraryCodec&&) noexcept;

  // The returned view is valid until the next encode of the same direction.
  Bytes encode_request(const Request& r) {
    if constexpr (kInlineWriter)
      return writers_.request.request(r);
    else
      return state_encode_request(r);
  }
  Bytes encode_response(const Response& r) {
    if constexpr (kInlineWriter)
      return writers_.response.response(r);
    else
      return state_encode_response(r);
  }

  // `in` is followed by kInputPaddingBytes readable bytes. The views point
  // into the input or into this codec's state: valid until the next decode
  // on this object.
  DecodeError decode_request(Bytes in, RequestView& out) noexcept(Library::kDecodeNoexcept);
  DecodeError decode_response(Bytes in, ResponseView& out) noexcept(Library::kDecodeNoexcept);

  // The eth_getLogs record (record::LogsCodec), when the Library has it;
  // encoded by the inline writer too when kEncodesWithJsonWriter.
  Bytes encode_logs_request(const LogsRequest& r) requires Library::kHasLogs {
    if constexpr (kInlineWriter)
      return writers_.logs_request.logs_request(r);
    else
      return state_encode_logs_request(r);
  }
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) noexcept(
      Library::kDecodeNoexcept) requires Library::kHasLogs;
  Bytes encode_logs(std::span<const Log> logs) requires Library::kHasLogs {
    if constexpr (kInlineWriter)
      return writers_.logs.logs(logs);
    else
      return state_encode_logs(logs);
  }
  DecodeError logs_decode_all(Bytes in,
                              LogsDigest& out) noexcept(Library::kDecodeNoexcept) requires Library::kHasLogs;
  DecodeError logs_access_one(Bytes in, std::uint32_t k,
                              LogPick& out) noexcept(Library::kDecodeNoexcept) requires Library::kHasLogs;
  DecodeError logs_scan(Bytes in,
                        LogsScan& out) noexcept(Library::kDecodeNoexcept) requires Library::kHasLogs;

 private:
  // Out of line, with the library's State. Never called when kInlineWriter,
  // but still compiled then (clang 14 instantiates constrained-out members on
  // `template class`), so it writes with the inline writer in that case too.
  Bytes state_encode_request(const Request& r);
  Bytes state_encode_response(const Response& r);
  Bytes state_encode_logs_request(const LogsRequest& r);
  Bytes state_encode_logs(std::span<const Log> logs);

  struct Writers {
    JsonWriter request;
    JsonWriter response;
    JsonWriter logs_request;
    JsonWriter logs;
  };
  struct NoWriters {};

  std::unique_ptr<typename Library::State> state_;
  [[no_unique_address]] std::conditional_t<kInlineWriter, Writers, NoWriters> writers_;
};

}  // namespace record
