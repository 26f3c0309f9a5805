// grpc_services/services_none.cpp — the probe services in a build without
// protobuf (no descriptors, no parser): every call answered UNIMPLEMENTED
// with the reason CMake recorded (ZAPBENCH_GRPC_SERVICES_UNAVAILABLE).
#include "grpc_services/services.hpp"

namespace grpc_services {

std::string_view unavailable() noexcept { return ZAPBENCH_GRPC_SERVICES_UNAVAILABLE; }

wire::grpc::Status health_check(std::span<const std::uint8_t>, std::string&, std::string& why) {
  why = std::string("health checks need protobuf: ") + ZAPBENCH_GRPC_SERVICES_UNAVAILABLE;
  return wire::grpc::Status::unimplemented;
}

wire::grpc::Status reflect(std::span<const std::uint8_t>, std::string&, std::string& why) {
  why = std::string("server reflection needs protobuf: ") + ZAPBENCH_GRPC_SERVICES_UNAVAILABLE;
  return wire::grpc::Status::unimplemented;
}

}  // namespace grpc_services
