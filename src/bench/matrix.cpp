// bench/matrix.cpp — the one table of matrix names (see matrix.hpp). Each
// enum's names sit in one array indexed by the enum, so adding a value is one
// line here; to_string, the parsers and the lists of choices follow from it.
#include "bench/matrix.hpp"

namespace bench {
namespace {

struct Names {
  std::string_view stable;   // command lines, results.json
  std::string_view display;  // the report
};

constexpr Names kArmNames[] = {{"zapbench", "zapbench"},
                               {"go-zip", "Go zip"},
                               {"go-fasthttp", "Go fasthttp"},
                               {"go-nethttp", "Go net/http"},
                               {"nginx", "nginx"},
                               {"grpc-cpp", "gRPC C++"},
                               {"floor", "floor"}};
constexpr Names kScenarioNames[] = {{"hello", "hello"}, {"rpc", "rpc"}, {"logs", "logs"}};
constexpr Names kFramingNames[] = {{"http", "HTTP/1.1"}, {"http2", "HTTP/2"},    {"grpc", "gRPC"},
                                   {"zap", "ZAP-HTTP"},  {"zap-rpc", "ZAP-RPC"}, {"tcp", "raw TCP"}};

static_assert(std::size(kArmNames) == kArms.size());
static_assert(std::size(kScenarioNames) == kScenarios.size());
static_assert(std::size(kFramingNames) == kFramings.size());

template <class E, std::size_t N>
std::optional<E> lookup(const Names (&names)[N], std::string_view s) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i].stable == s) return static_cast<E>(i);
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
std::string_view to_string(Scenario s) noexcept { return kScenarioNames[static_cast<std::size_t>(s)].stable; }
std::string_view to_string(Framing f) noexcept { return kFramingNames[static_cast<std::size_t>(f)].stable; }
std::string_view display_name(Framing f) noexcept {
  return kFramingNames[static_cast<std::size_t>(f)].display;
}

std::optional<Arm> arm_from(std::string_view name) noexcept { return lookup<Arm>(kArmNames, name); }
std::optional<Scenario> scenario_from(std::string_view name) noexcept {
  return lookup<Scenario>(kScenarioNames, name);
}
std::optional<Framing> framing_from(std::string_view name) noexcept {
  return lookup<Framing>(kFramingNames, name);
}

std::string arm_names() { return joined(kArmNames); }
std::string scenario_names() { return joined(kScenarioNames); }
std::string framing_names() { return joined(kFramingNames); }

}  // namespace bench
