// record/registry.cpp — the registry behind registry.hpp: one CodecInfo per
// row of codecs.table (record/codecs_table.hpp, generated), made runnable for
// the rows this build has through their classes (record::AvailableCodecs).
// Owns the pairing of rows with classes, checked at compile time; it lists no
// codec itself.
#include "record/registry.hpp"

#include <array>

#include "record/codecs.hpp"

namespace record {
namespace {

using table::kRows;

template <class C>
class Adapter final : public AnyCodec {
 public:
  Bytes encode_request(const Request& r) override { return c_.encode_request(r); }
  Bytes encode_response(const Response& r) override { return c_.encode_response(r); }
  DecodeError decode_request(Bytes in, RequestView& out) override { return c_.decode_request(in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) override { return c_.decode_response(in, out); }

  Bytes encode_logs_request(const LogsRequest& r) override {
    if constexpr (LogsCodec<C>) return c_.encode_logs_request(r);
    return {};
  }
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) override {
    if constexpr (LogsCodec<C>) return c_.decode_logs_request(in, out);
    return DecodeError::missing_field;
  }
  Bytes encode_logs(std::span<const Log> logs) override {
    if constexpr (LogsCodec<C>) return c_.encode_logs(logs);
    return {};
  }
  DecodeError logs_decode_all(Bytes in, LogsDigest& out) override {
    if constexpr (LogsCodec<C>) return c_.logs_decode_all(in, out);
    return DecodeError::missing_field;
  }

 private:
  C c_;
};

// The classes are the available rows', in the same order, each saying its
// row's name and content type. Both lists come from the table, but kName and
// kContentType are written in the codec's own header: a codec renamed on one
// side only, or a row whose class is another codec's, fails to compile here.
template <class... Cs>
constexpr bool classes_follow_rows(CodecList<Cs...>) {
  constexpr std::array<std::string_view, sizeof...(Cs)> names = {Cs::kName...};
  constexpr std::array<std::string_view, sizeof...(Cs)> types = {Cs::kContentType...};
  std::size_t k = 0;
  for (const table::Row& row : kRows) {
    if (!row.available) continue;
    if (k == names.size() || names[k] != row.name || types[k] != row.content_type) return false;
    ++k;
  }
  return k == names.size();
}
static_assert(classes_follow_rows(AvailableCodecs{}),
              "a codec class's kName or kContentType differs from its row in src/record/codecs.table");

// The default JSON codec must exist in every build: a ranked JSON codec that
// needs no library (direct) is the guarantee.
constexpr bool some_ranked_json_codec_needs_no_package() {
  for (const table::Row& row : kRows)
    if (row.rank > 0 && row.content_type == "application/json" && row.debian_package.empty()) return true;
  return false;
}
static_assert(
    some_ranked_json_codec_needs_no_package(),
    "codecs.table: no ranked JSON codec is always built, so a build could have no default JSON codec");

template <class C>
CodecInfo available(const table::Row& row) {
  return CodecInfo{row.name,
                   row.content_type,
                   true,
                   {},
                   C::kEncodePath,
                   C::kDecodePath,
                   [] { return std::unique_ptr<AnyCodec>(new Adapter<C>()); },
                   row.debian_package,
                   trusted_input_only<C>(),
                   row.rank,
                   LogsCodec<C>};
}

CodecInfo unavailable(const table::Row& row) {
  return CodecInfo{
      row.name, row.content_type, false, row.unavailable_reason, {}, {}, nullptr, row.debian_package,
      false,    row.rank,         false};
}

using Table = std::array<CodecInfo, kRows.size()>;

const Table& registry() {
  static const Table t = [] {
    Table out;
    for (std::size_t i = 0; i < kRows.size(); ++i)
      if (!kRows[i].available) out[i] = unavailable(kRows[i]);
    // The classes come in the available rows' order (checked above).
    std::size_t i = 0;
    AvailableCodecs::for_each([&]<class C>() {
      while (!kRows[i].available) ++i;
      out[i] = available<C>(kRows[i]);
      ++i;
    });
    return out;
  }();
  return t;
}

}  // namespace

std::span<const CodecInfo> all_codecs() { return registry(); }

const CodecInfo* find_codec(std::string_view name) {
  for (const CodecInfo& c : registry())
    if (c.name == name) return &c;
  return nullptr;
}

const CodecInfo& default_json_codec() {
  // The rank is codecs.table's "fastest first", as `zapbench micro` measures
  // Handler/<codec> on this project's reference machine.
  const CodecInfo* best = nullptr;
  int best_rank = 0;
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    const table::Row& row = kRows[i];
    if (row.rank == 0 || !row.available || row.content_type != "application/json") continue;
    if (best == nullptr || row.rank < best_rank) {
      best = &registry()[i];
      best_rank = row.rank;
    }
  }
  return *best;  // never null: see some_ranked_json_codec_needs_no_package
}

const CodecInfo* fastest_binary_peer() {
  const CodecInfo* best = nullptr;
  for (const CodecInfo& c : registry()) {
    if (!c.available || c.rank == 0 || c.trusted_input_only || c.family() != matrix::Family::peer) continue;
    if (best == nullptr || c.rank < best->rank) best = &c;
  }
  return best;
}

std::string available_codec_names(bool json_only) {
  std::string out;
  for (const CodecInfo& c : registry()) {
    if (!c.available || (json_only && c.content_type != "application/json")) continue;
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

std::string logs_refusal(const CodecInfo& c) {
  const std::string name(c.name);
  if (!c.available) return "codec " + name + " is unavailable: " + std::string(c.unavailable_reason);
  if (c.trusted_input_only)
    return "codec " + name + " is for trusted input only: it never reads a peer's bytes";
  if (!c.has_logs) return "codec " + name + " has no logs record yet (record::LogsCodec)";
  return "";
}

}  // namespace record
