// record/codec_flatbuffers.cpp — Flatbuffers::State and FlatbuffersTrusted::State, the work of
// FlatbuffersCodec and FlatbuffersTrustedCodec: the builders that write the records' tables (generated
// from schemas/flatbuffers.fbs: Request / Response, and the logs record's LogsRequest / LogsResponse),
// the verifier and the accessors that read them, and the contract's errors. See the header for why.
#include "record/codec_flatbuffers.hpp"

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "flatbuffers_generated.h"  // generated at build time (codec_flatbuffers.cmake)
#include "record/library_codec_impl.hpp"

namespace record {
namespace {

static_assert(sizeof(zapbench_fb::Account) == kAccountBytes, "the schema's account is the record's 20 bytes");
static_assert(sizeof(zapbench_fb::Hash) == kHashBytes, "the schema's hash is the record's 32 bytes");
// A log's topics (32 × count bytes, back to back) are written as a vector of
// Hash structs straight from the record's bytes: Hash must be 32 bytes of
// alignment 1, nothing else.
static_assert(sizeof(zapbench_fb::Hash) == kTopicBytes && alignof(zapbench_fb::Hash) == 1,
              "a topic is a Hash struct, byte for byte");

// A builder's first buffer: the sample messages are about 100 bytes; a longer
// method grows it once, and Clear() keeps what it grew to.
constexpr std::size_t kInitialBuilderBytes = 256;

// What FlatBuffers reads in place (ReadScalar dereferences a T*) needs the
// buffer aligned to its largest scalar; offsets inside are aligned relative to
// the buffer's start (the builder sees to it, the verifier checks it).
constexpr std::size_t kAlign = alignof(flatbuffers::largest_scalar_t);

Bytes finished(const flatbuffers::FlatBufferBuilder& b) { return {b.GetBufferPointer(), b.GetSize()}; }

std::string_view chars(const std::uint8_t* p, std::size_t n) { return {reinterpret_cast<const char*>(p), n}; }

// Measured on the sample request (g++ 12 -O3, ns per operation on the shared
// 2-core development VM, noisy; `zapbench micro` for the rows themselves):
//   encode: CreateRequest on a reused builder, FinishSizePrefixed (this)  ~55-65 ns, 0 allocs
//           the same, Finish() without the size prefix                    ~same (the prefix
//                                                                          takes the place of
//                                                                          Finish's front padding:
//                                                                          88 bytes either way)
//           RequestBuilder add_* in declaration order                     ~same
//           a new FlatBufferBuilder per message                           ~+10 ns, allocates its
//                                                                          buffer and vtable scratch
//   decode: Verifier (default options) + accessors (flatbuffers)          ~17 ns
//           Verifier with check_alignment off                             ~same: not worth leaving
//                                                                          the defaults
//           accessors alone (flatbuffers-trusted)                         ~7 ns
// Neither direction allocates in steady state: Clear() keeps the builder's
// buffer and vtable scratch, and decode reads the input in place (the aligned
// copy of a misaligned input grows once to the largest such input).
//
// The logs record (`zapbench micro`, Logs/*, CPU µs per op at N = 1 000 / 10 000, two runs on the
// same loaded VM; the figures move 10-40% run to run):
//   Encode (one code for both rows)   50-52 / 472-500, 0 allocs
//   DecodeAll  flatbuffers            26.5-29.6 / 282-330  (verifier + accessors)
//              flatbuffers-trusted    15.5-16.2 / 164-176  (accessors alone)
//   AccessOne  flatbuffers            9.5-15.3 / 105-109   (the verifier, nearly all of it)
//              flatbuffers-trusted    0.005-0.008, flat in N
//   ScanField  flatbuffers            10.8-11.9 / 135-137
//              flatbuffers-trusted    1.8-2.0 / 29-31
// The verifier costs about 10 µs per 1 000 logs of the sample: a third of the verified DecodeAll.

// Both codecs' state; Verify says whether decode runs the verifier first.
template <bool Verify>
struct FlatbuffersState {
  flatbuffers::FlatBufferBuilder request{kInitialBuilderBytes};
  flatbuffers::FlatBufferBuilder response{kInitialBuilderBytes};
  std::vector<flatbuffers::largest_scalar_t> aligned;  // a copy of a misaligned input

  Bytes encode_request(const Request& r) {
    request.Clear();
    const auto method = request.CreateString(r.method.data(), r.method.size());
    const zapbench_fb::Account account(flatbuffers::make_span(r.account));
    request.FinishSizePrefixed(zapbench_fb::CreateRequest(request, r.id, r.block, method, &account));
    return finished(request);
  }

  Bytes encode_response(const Response& r) {
    response.Clear();
    const zapbench_fb::Hash hash(flatbuffers::make_span(r.block_hash));
    response.FinishSizePrefixed(zapbench_fb::CreateResponse(response, r.id, r.balance, r.nonce, &hash));
    return finished(response);
  }

  // The input, or its copy in `aligned` when it does not start on kAlign.
  const std::uint8_t* aligned_input(Bytes in) {
    if (reinterpret_cast<std::uintptr_t>(in.data()) % kAlign == 0) return in.data();
    const std::size_t words = (in.size() + kAlign - 1) / kAlign;
    if (aligned.size() < words) aligned.resize(words);
    if (!in.empty()) std::memcpy(aligned.data(), in.data(), in.size());
    return reinterpret_cast<const std::uint8_t*>(aligned.data());
  }

  // The table T at the root of [p, p + n): verified first when Verify (any
  // failure is syntax: the verifier says no more than "not a valid T").
  template <class T>
  static const T* root(const std::uint8_t* p, std::size_t n) {
    if constexpr (Verify) {
      flatbuffers::Verifier v(p, n, flatbuffers::Verifier::Options{});
      if (!v.VerifySizePrefixedBuffer<T>(nullptr)) return nullptr;
    }
    return flatbuffers::GetSizePrefixedRoot<T>(p);
  }

  DecodeError decode_request(Bytes in, RequestView& out) {
    const zapbench_fb::Request* t = root<zapbench_fb::Request>(aligned_input(in), in.size());
    if (t == nullptr) return DecodeError::syntax;
    // A struct field is present or not; when present it is the schema's 20
    // bytes (no length on the wire), so there is no bad_length to find.
    const zapbench_fb::Account* account = t->account();
    if (account == nullptr) return DecodeError::missing_field;
    out.id = t->id();
    out.block = t->block();
    const flatbuffers::String* method = t->method();  // absent: "", the format's default
    out.method = method == nullptr ? std::string_view() : chars(method->Data(), method->size());
    out.account = chars(account->value()->Data(), kAccountBytes);
    out.account0 = account->value()->Get(0);
    out.account_form = Form::raw;
    return DecodeError::ok;
  }

  DecodeError decode_response(Bytes in, ResponseView& out) {
    const zapbench_fb::Response* t = root<zapbench_fb::Response>(aligned_input(in), in.size());
    if (t == nullptr) return DecodeError::syntax;
    const zapbench_fb::Hash* hash = t->block_hash();
    if (hash == nullptr) return DecodeError::missing_field;
    out.id = t->id();
    out.balance = t->balance();
    out.nonce = t->nonce();
    out.block_hash = chars(hash->value()->Data(), kHashBytes);
    out.block_hash_form = Form::raw;
    return DecodeError::ok;
  }

  // ---- the logs record ----

  flatbuffers::FlatBufferBuilder logs_request{kInitialBuilderBytes};
  // Grows (doubling) to the largest answer, a few MB at N = 10 000; Clear()
  // keeps it.
  flatbuffers::FlatBufferBuilder logs{kInitialBuilderBytes};
  // The Log tables' offsets, for the vector written after them (a table's
  // children come before it, and the vector of offsets after every table).
  std::vector<flatbuffers::Offset<zapbench_fb::Log>> log_offsets;

  Bytes encode_logs_request(const LogsRequest& r) {
    logs_request.Clear();
    const zapbench_fb::Account address(flatbuffers::make_span(r.address));
    logs_request.FinishSizePrefixed(
        zapbench_fb::CreateLogsRequest(logs_request, r.from_block, r.to_block, &address, r.limit));
    return finished(logs_request);
  }

  DecodeError decode_logs_request(Bytes in, LogsRequest& out) {
    const zapbench_fb::LogsRequest* t = root<zapbench_fb::LogsRequest>(aligned_input(in), in.size());
    if (t == nullptr) return DecodeError::syntax;
    const zapbench_fb::Account* address = t->address();
    if (address == nullptr) return DecodeError::missing_field;
    out.from_block = t->from_block();
    out.to_block = t->to_block();
    std::memcpy(out.address.data(), address->value()->Data(), kAccountBytes);
    out.limit = t->limit();
    return DecodeError::ok;
  }

  // Each log as the generated CreateLog writes it, its topics and data first
  // (a table's children precede it): topics with CreateVectorOfStructs, one
  // copy of the record's 32 × count bytes; data with CreateVector<uint8_t>,
  // one copy; an empty one is left out (absent reads as empty). Then the
  // vector of the N offsets.
  Bytes encode_logs(std::span<const Log> in) {
    logs.Clear();
    log_offsets.clear();
    log_offsets.reserve(in.size());
    for (const Log& l : in) {
      flatbuffers::Offset<flatbuffers::Vector<const zapbench_fb::Hash*>> topics;
      if (l.topic_count() != 0)
        topics = logs.CreateVectorOfStructs(reinterpret_cast<const zapbench_fb::Hash*>(l.topics.data()),
                                            l.topic_count());
      flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> data;
      if (!l.data.empty()) data = logs.CreateVector(l.data.data(), l.data.size());
      const zapbench_fb::Account address(flatbuffers::make_span(l.address));
      const zapbench_fb::Hash tx_hash(flatbuffers::make_span(l.tx_hash));
      log_offsets.push_back(zapbench_fb::CreateLog(logs, &address, topics, data, l.block_number, &tx_hash,
                                                   l.tx_index, l.log_index, l.removed));
    }
    const auto list = logs.CreateVector(log_offsets.data(), log_offsets.size());
    logs.FinishSizePrefixed(zapbench_fb::CreateLogsResponse(logs, list));
    return finished(logs);
  }

  // The answer's list of logs, verified first (Verify): the verifier walks
  // every Log table, its vtable, topics and data, so this is O(N) whatever is
  // read after. An absent list is no logs (the format's default).
  const flatbuffers::Vector<flatbuffers::Offset<zapbench_fb::Log>>* logs_of(Bytes in, bool& ok) {
    const zapbench_fb::LogsResponse* t = root<zapbench_fb::LogsResponse>(aligned_input(in), in.size());
    ok = t != nullptr;
    return ok ? t->logs() : nullptr;
  }

  DecodeError logs_decode_all(Bytes in, LogsDigest& d) {
    bool ok;
    const auto* list = logs_of(in, ok);
    if (!ok) return DecodeError::syntax;
    if (list == nullptr) return DecodeError::ok;
    for (const zapbench_fb::Log* l : *list) {
      const zapbench_fb::Account* address = l->address();
      const zapbench_fb::Hash* tx_hash = l->transaction_hash();
      if (address == nullptr || tx_hash == nullptr) return DecodeError::missing_field;
      const flatbuffers::Vector<const zapbench_fb::Hash*>* topics = l->topics();
      const std::uint32_t topic_count = topics == nullptr ? 0 : topics->size();
      if (topic_count > kMaxTopics) return DecodeError::bad_length;
      const flatbuffers::Vector<std::uint8_t>* data = l->data();
      d.fixed(address->value()->Data(), kAccountBytes);
      d.value(topic_count);
      for (std::uint32_t t = 0; t < topic_count; ++t) d.topic(topics->Get(t)->value()->Data());
      d.bytes(data == nullptr ? Bytes{} : Bytes{data->Data(), data->size()});
      d.value(l->block_number());
      d.fixed(tx_hash->value()->Data(), kHashBytes);
      d.value(l->transaction_index());
      d.value(l->log_index());
      d.value(l->removed() ? 1 : 0);
      d.log();
    }
    return DecodeError::ok;
  }

  // Log k: one offset from the vector, then its table's fields in place.
  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    bool ok;
    const auto* list = logs_of(in, ok);
    if (!ok) return DecodeError::syntax;
    if (list == nullptr || k >= list->size()) return DecodeError::missing_field;
    const zapbench_fb::Log* l = list->Get(k);
    const zapbench_fb::Hash* tx_hash = l->transaction_hash();
    if (tx_hash == nullptr) return DecodeError::missing_field;
    out.log_index = l->log_index();
    std::memcpy(out.tx_hash.data(), tx_hash->value()->Data(), kHashBytes);
    return DecodeError::ok;
  }

  DecodeError logs_scan(Bytes in, LogsScan& out) {
    bool ok;
    const auto* list = logs_of(in, ok);
    if (!ok) return DecodeError::syntax;
    if (list == nullptr) return DecodeError::ok;
    for (const zapbench_fb::Log* l : *list) out.block_sum += l->block_number();
    out.count += list->size();
    return DecodeError::ok;
  }
};

}  // namespace

struct Flatbuffers::State : FlatbuffersState</*Verify=*/true> {};
struct FlatbuffersTrusted::State : FlatbuffersState</*Verify=*/false> {};

template class LibraryCodec<Flatbuffers>;
template class LibraryCodec<FlatbuffersTrusted>;

}  // namespace record
