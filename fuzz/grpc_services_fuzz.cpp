// fuzz/grpc_services_fuzz.cpp — the gRPC probe services (src/grpc_services)
// on any bytes: the first byte picks Health/Check or ServerReflectionInfo, the
// rest is the request message. Each must answer ok with an answer, or a
// status with a reason; never crash, never an empty reason. The messages are
// parsed by libprotobuf against the build's own descriptors (what this target
// checks is our use of them: the oneof walk, the symbol and file look-ups,
// the descriptor copies).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "grpc_services/services.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::uint8_t> message(data + 1, size - 1);
  std::string answer, why;
  const wire::grpc::Status status = (data[0] & 1) != 0 ? grpc_services::reflect(message, answer, why)
                                                       : grpc_services::health_check(message, answer, why);
  if (status == wire::grpc::Status::ok ? !why.empty() : why.empty()) std::abort();
  return 0;
}
