// grpc_services/services.hpp — the gRPC services zapbench's server answers
// beside zapbench.Eth/Call, the ones gRPC tools and load balancers probe with
// (docs/spec/http2-grpc.md §2.4): grpc.health.v1.Health/Check and server
// reflection (grpc.reflection.v1alpha and v1 ServerReflectionInfo). Which
// method a :path names, and each method's answer to one request message.
// The descriptors are the build's own (.proto files compiled by protoc into a
// descriptor set at build time), read by libprotobuf's DescriptorPool and
// DynamicMessage at run time, so the messages are parsed and written by
// libprotobuf, not by hand. Not a hot path: probes allocate.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "wire/grpc.hpp"

namespace grpc_services {

// The methods a gRPC :path can name on zapbench's server.
enum class Method : std::uint8_t {
  call,                // /zapbench.Eth/Call: the benchmark's method
  health_check,        // /grpc.health.v1.Health/Check (unary)
  health_watch,        // /grpc.health.v1.Health/Watch (server streaming: answered UNIMPLEMENTED)
  reflection_v1alpha,  // /grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo (bidirectional)
  reflection_v1,       // /grpc.reflection.v1.ServerReflection/ServerReflectionInfo (bidirectional)
  unknown,
};

inline constexpr std::string_view kHealthCheckPath = "/grpc.health.v1.Health/Check";
inline constexpr std::string_view kHealthWatchPath = "/grpc.health.v1.Health/Watch";
inline constexpr std::string_view kReflectionV1AlphaPath =
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";
inline constexpr std::string_view kReflectionV1Path =
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";

// The services reflection lists (the full names `grpcurl list` prints).
inline constexpr std::string_view kServiceNames[] = {wire::grpc::kServiceName, "grpc.health.v1.Health",
                                                     "grpc.reflection.v1alpha.ServerReflection",
                                                     "grpc.reflection.v1.ServerReflection"};

[[nodiscard]] constexpr Method method_of(std::string_view path) noexcept {
  if (path == wire::grpc::kCallPath) return Method::call;
  if (path == kHealthCheckPath) return Method::health_check;
  if (path == kHealthWatchPath) return Method::health_watch;
  if (path == kReflectionV1AlphaPath) return Method::reflection_v1alpha;
  if (path == kReflectionV1Path) return Method::reflection_v1;
  return Method::unknown;
}

// Whether a method streams (its answer's messages follow the request's as
// they arrive, and the trailers the client's END_STREAM).
[[nodiscard]] constexpr bool streams(Method m) noexcept {
  return m == Method::reflection_v1alpha || m == Method::reflection_v1;
}

// Why this build cannot answer the probe services (no protobuf: the reason
// CMake recorded); empty when it can.
std::string_view unavailable() noexcept;

// Health/Check: `request` a HealthCheckRequest; on ok, `answer` the
// HealthCheckResponse (SERVING for "" and zapbench.Eth); otherwise the status
// (invalid_argument: the message does not parse; not_found: another service)
// and `why` the grpc-message.
wire::grpc::Status health_check(std::span<const std::uint8_t> request, std::string& answer, std::string& why);

// ServerReflectionInfo, one message of the stream: `request` a
// ServerReflectionRequest; on ok, `answer` its ServerReflectionResponse (a
// symbol, file or extension that does not exist is an ErrorResponse in it,
// as the protocol says, and the stream goes on). invalid_argument when the
// message does not parse (the stream ends with that status).
wire::grpc::Status reflect(std::span<const std::uint8_t> request, std::string& answer, std::string& why);

}  // namespace grpc_services
