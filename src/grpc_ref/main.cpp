// grpc_ref/main.cpp — `zapbench-grpc`: the grpc++ reference arm's entry
// point, dispatching to its two commands (grpc_ref.hpp).
#include <cstdio>
#include <cstring>
#include <string>

#include "grpc_ref/grpc_ref.hpp"

namespace {
constexpr const char* kUsage =
    "usage: zapbench-grpc COMMAND [FLAGS]   (zapbench-grpc COMMAND --help for its flags)\n"
    "\n"
    "The grpc++ reference arm of zapbench: gRPC C++ (Debian libgrpc++-dev) on the\n"
    "generated service zapbench.Eth/Call (src/grpc_ref/eth.proto; the messages are\n"
    "the protobuf codec's zapbench.Request / zapbench.Response).\n"
    "\n"
    "commands:\n"
    "  serve   an insecure gRPC server answering Call with zapbench's /rpc compute\n"
    "  call    a gRPC client: N calls, D in flight, every answer validated\n";
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs("zapbench-grpc: give a command, serve or call (see 'zapbench-grpc --help')\n", stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  // A command gets the arguments after its name, as zapbench's do.
  if (cmd == "serve") return grpc_ref::cmd_serve(argc - 2, argv + 2);
  if (cmd == "call") return grpc_ref::cmd_call(argc - 2, argv + 2);
  std::fprintf(stderr, "zapbench-grpc: unknown command '%s' (see 'zapbench-grpc --help')\n", cmd.c_str());
  return 2;
}
