// matrix/matrix.cpp — the one table of matrix names (see matrix.hpp). Each
// enum's names sit in one array indexed by the enum, so adding a value is one
// line here; to_string, the parsers and the lists of choices follow from it.
#include "matrix/matrix.hpp"

namespace matrix {
namespace {

struct Names {
  std::string_view stable;   // command lines, results.json, the loader's JSON
  std::string_view display;  // the report
  std::string_view bench;    // benchmark names (framings only)
  std::string_view also;     // an older spelling still read (framings only; "" for none)
};

constexpr Names kArmNames[] = {
#define ZAPBENCH_ARM(id, name, display, file, debian, quick, web) {name, display, "", ""},
#include "matrix/arms.def"
#undef ZAPBENCH_ARM
};
constexpr ArmFacts kArmFacts[] = {
#define ZAPBENCH_ARM(id, name, display, file, debian, quick, web) {debian, quick != 0, web != 0},
#include "matrix/arms.def"
#undef ZAPBENCH_ARM
};
constexpr Names kScenarioNames[] = {{"hello", "hello"}, {"rpc", "rpc"}, {"logs", "logs"}};
constexpr Names kFramingNames[] = {{"http", "HTTP/1.1", "http1", ""},     {"http2", "HTTP/2", "http2", ""},
                                   {"grpc", "gRPC", "grpc", ""},          {"zap", "ZAP-HTTP", "zap-http", ""},
                                   {"zap-rpc", "ZAP-RPC", "zap-rpc", ""}, {"tcp", "raw TCP", "tcp", "floor"}};

constexpr Names kIoNames[] = {{"epoll", "epoll"}, {"io_uring", "io_uring"}};
constexpr Names kFamilyNames[] = {{"zap", "zap"}, {"json", "json"}, {"peer", "peer"}};

static_assert(std::size(kArmNames) == kArms.size());
static_assert(std::size(kIoNames) == kIos.size());
static_assert(std::size(kFamilyNames) == kFamilies.size());
static_assert(std::size(kScenarioNames) == kScenarios.size());
static_assert(std::size(kFramingNames) == kFramings.size());

template <class E, std::size_t N>
std::optional<E> lookup(const Names (&names)[N], std::string_view s,
                        std::string_view Names::*column) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i].*column == s) return static_cast<E>(i);
  return std::nullopt;
}

template <std::size_t N>
std::string joined(const Names (&names)[N]) {
  std::string out;
  for (const Names& n : names) out.append(out.empty() ? "" : ", ").append(n.stable);
  return out;
}

}  // namespace

std::string_view to_string(Arm a) noexcept { return kArmNames[static_cast<std::size_t>(a)].stable; }
std::string_view display_name(Arm a) noexcept { return kArmNames[static_cast<std::size_t>(a)].display; }
const ArmFacts& facts(Arm a) noexcept { return kArmFacts[static_cast<std::size_t>(a)]; }
std::string_view to_string(Scenario s) noexcept { return kScenarioNames[static_cast<std::size_t>(s)].stable; }
std::string_view to_string(Io io) noexcept { return kIoNames[static_cast<std::size_t>(io)].stable; }
std::string_view to_string(Family f) noexcept { return kFamilyNames[static_cast<std::size_t>(f)].stable; }
std::string_view to_string(Framing f) noexcept { return kFramingNames[index(f)].stable; }
std::string_view display_name(Framing f) noexcept { return kFramingNames[index(f)].display; }
std::string_view bench_name(Framing f) noexcept { return kFramingNames[index(f)].bench; }
std::string_view older_name(Framing f) noexcept { return kFramingNames[index(f)].also; }

std::optional<Arm> arm_from(std::string_view name) noexcept {
  return lookup<Arm>(kArmNames, name, &Names::stable);
}
std::optional<Scenario> scenario_from(std::string_view name) noexcept {
  return lookup<Scenario>(kScenarioNames, name, &Names::stable);
}
std::optional<Framing> framing_from(std::string_view name) noexcept {
  if (const auto f = lookup<Framing>(kFramingNames, name, &Names::stable)) return f;
  if (name.empty()) return std::nullopt;
  return lookup<Framing>(kFramingNames, name, &Names::also);
}
std::optional<Framing> framing_from_bench_name(std::string_view name) noexcept {
  return lookup<Framing>(kFramingNames, name, &Names::bench);
}

std::string arm_names() { return joined(kArmNames); }
std::string scenario_names() { return joined(kScenarioNames); }
std::string framing_names() { return joined(kFramingNames); }
std::string io_names() { return joined(kIoNames); }
std::optional<Io> io_from(std::string_view name) noexcept {
  return lookup<Io>(kIoNames, name, &Names::stable);
}
std::optional<Family> family_from(std::string_view name) noexcept {
  return lookup<Family>(kFamilyNames, name, &Names::stable);
}

}  // namespace matrix
