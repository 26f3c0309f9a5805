// matrix/matrix.hpp — the measurement matrix's vocabulary, at the bottom of
// the build: the arm (which server), the scenario (which request), the framing
// (how requests travel) and their names. server, load, micro, bench, report
// and the CLI all speak these types; there is no other enum for any of them.
// Every string that names one of them, on a command line, in results.json, in
// a loader's JSON or in a benchmark name, comes from the one table in
// matrix.cpp and is parsed back there, so a misspelling fails at compile time
// or with a message that lists the choices. The body axis is a codec name
// from record's registry (record/registry.hpp). Owns names only: no protocol,
// no planning, no dependency.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace matrix {

// Declaration order is report order (arms, then framings, then scenarios).
// The go_* arms are the Go reference's stack (bench/arms/go_arm.hpp): zap-proto/zip,
// valyala/fasthttp and net/http. grpc_cpp is a gRPC C++ server (grpc++ on
// its generated service, bench/arms/grpc_arm.hpp): what people deploy for binary
// RPC, as nginx is for HTTP.
// The arms are the rows of arms.def (one row each, in report order).
enum class Arm : std::uint8_t {
#define ZAPBENCH_ARM(id, name, display, file, debian, quick, web) id,
#include "matrix/arms.def"
#undef ZAPBENCH_ARM
};
// logs carries N, the logs each request asks for, beside it (report::Cell::logs).
enum class Scenario : std::uint8_t { hello, rpc, logs };
// http2 is HTTP/2 in cleartext with prior knowledge (h2c) and grpc unary gRPC
// calls on it (docs/spec/http2-grpc.md); zap_rpc is ZAP's own multiplexed RPC
// transport (wire B, docs/spec/zap-rpc.md). raw_tcp is the floor's "framing":
// none at all, a fixed number of bytes each way. A server listens on the
// first five but grpc: its HTTP/2 listener serves HTTP/2 and gRPC alike
// (server::kListenerFramings). Only the names are a file format, not the values.
enum class Framing : std::uint8_t { http1, http2, grpc, zap_http, zap_rpc, raw_tcp };

// The event core's I/O interface (`--io`): epoll readiness with the handler's
// read and send calls, or io_uring completions (net/uring_loop.hpp). An axis
// of the end-to-end matrix for the zapbench server and the floor.
enum class Io : std::uint8_t { epoll, io_uring };

// The three families every table and report groups codecs by: ZAP, the JSON
// codecs (text) and the binary peers (every other content type). record's
// registry gives each codec's (record::CodecInfo::family), results.json carries
// its name, the report and micro's summary compare within one.
enum class Family : std::uint8_t { zap, json, peer };
// A content type's family: the one rule, for the registry's codecs and for a
// results.json written before it carried the family.
constexpr Family family_of(std::string_view content_type) noexcept {
  if (content_type == "application/zap") return Family::zap;
  if (content_type == "application/json") return Family::json;
  return Family::peer;
}

inline constexpr std::array kIos{Io::epoll, Io::io_uring};
inline constexpr std::array kFamilies{Family::zap, Family::json, Family::peer};
inline constexpr std::array kArms{
#define ZAPBENCH_ARM(id, name, display, file, debian, quick, web) Arm::id,
#include "matrix/arms.def"
#undef ZAPBENCH_ARM
};
// The system under test: arms.def's first row, zapbench's own server (the
// control copy is one of its cells; the report's "ours").
inline constexpr Arm kSubject = kArms.front();
inline constexpr std::array kScenarios{Scenario::hello, Scenario::rpc, Scenario::logs};
inline constexpr std::array kFramings{Framing::http1,    Framing::http2,   Framing::grpc,
                                      Framing::zap_http, Framing::zap_rpc, Framing::raw_tcp};

// An array indexed by a value (a counter per framing, ...).
constexpr std::size_t index(Framing f) noexcept { return static_cast<std::size_t>(f); }

// The Go reference's arms (go_zip, go_fasthttp, go_nethttp).
constexpr bool is_go_arm(Arm a) noexcept {
  return a == Arm::go_zip || a == Arm::go_fasthttp || a == Arm::go_nethttp;
}

// What arms.def says of an arm beyond its names: the Debian packages of its
// server ("" when built here), whether `run --quick` runs it, and whether it
// is a web server people deploy (an anchor for zapbench's HTTP servers).
struct ArmFacts {
  std::string_view debian;
  bool quick;
  bool web;
};
const ArmFacts& facts(Arm a) noexcept;
// The name shown to a reader of the report: "Go net/http", "gRPC C++", "h2o".
std::string_view display_name(Arm a) noexcept;

// The stable name of each value: what command lines, results.json and the
// loader's JSON carry ("http", "http2", "grpc", "zap", "zap-rpc", "tcp").
// These strings are a file format: results.json of every earlier run uses
// them, so they never change (a new value gets a new name).
std::string_view to_string(Arm a) noexcept;
std::string_view to_string(Scenario s) noexcept;
std::string_view to_string(Framing f) noexcept;
std::string_view to_string(Io io) noexcept;     // "epoll", "io_uring"
std::string_view to_string(Family f) noexcept;  // "zap", "json", "peer"

// The name shown to a reader of the report: "HTTP/1.1", "HTTP/2", "gRPC", "ZAP-HTTP", "ZAP-RPC", "raw TCP".
std::string_view display_name(Framing f) noexcept;

// The framing's name inside microbenchmark names (Server/<name>/<body>):
// "http1", "http2", "grpc", "zap-http", "zap-rpc", "tcp". Benchmark names are
// compared across runs, so these too never change.
std::string_view bench_name(Framing f) noexcept;

// The older spelling of a framing's name that framing_from still reads
// ("floor" for raw_tcp); "" for none. Only read, never written.
std::string_view older_name(Framing f) noexcept;

// The value a name stands for; nullopt for anything else. framing_from takes
// the stable name, and "floor" for raw_tcp (how `zapbench load --framing` and
// the loader's JSON spelled it before the one table).
std::optional<Arm> arm_from(std::string_view name) noexcept;
std::optional<Scenario> scenario_from(std::string_view name) noexcept;
std::optional<Framing> framing_from(std::string_view name) noexcept;
std::optional<Io> io_from(std::string_view name) noexcept;
std::optional<Family> family_from(std::string_view name) noexcept;
// The framing a benchmark name's part stands for (bench_name's inverse).
std::optional<Framing> framing_from_bench_name(std::string_view name) noexcept;

// "zapbench, go-zip, ..., floor": the choices, for usage and error messages.
std::string arm_names();
std::string scenario_names();
std::string framing_names();
std::string io_names();

}  // namespace matrix
