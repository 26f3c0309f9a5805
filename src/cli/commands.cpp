// cli/commands.cpp — the list of commands and their one-line summaries (commands.hpp).
#include "cli/commands.hpp"

namespace cli {
namespace {

constexpr Command kCommands[] = {
    {"serve",
     "serve /health, /rpc and /logs over HTTP/1.1, ZAP-HTTP, ZAP-RPC, HTTP/2 and gRPC, every body codec",
     cmd_serve},
    {"load",
     "drive a server on any framing, from here or spread over loader hosts; validated responses, honest "
     "latency",
     cmd_load},
    {"micro", "in-process microbenchmarks: the codecs, the server's request path, the Go reference's",
     cmd_micro},
    {"instructions",
     "instructions per request of the server's request path, per op of the codecs (callgrind, perf)",
     cmd_instructions},
    {"run",
     "the whole benchmark: microbenchmarks, instruction counts, the end-to-end matrix of every arm, on one "
     "host or several; results.json and the report",
     cmd_run},
    {"compare", "two result sets: each figure's change with its interval and a verdict", cmd_compare},
    {"calibrate",
     "the machine's yardstick for compare: CPU and memory work and a TCP ping-pong over loopback, on code "
     "apart from the product",
     cmd_calibrate},
    {"report", "rewrite the reports and findings (md, html, svg) from a results.json", cmd_report},
    {"floor", "raw TCP echo of fixed byte counts (the floor arm's server)", cmd_floor},
    {"codecs", "list every codec: available or not (and why), its encode and decode path, its package",
     cmd_codecs},
    {"version", "print the version, the git commit and the build flags (also --version)", cmd_version},
    {"host-info", "this host's build, kernel and CPUs, for the preflight", cmd_host_info, true},
    {"child", "run a server for a coordinator and report on a line protocol", cmd_child, true},
};

}  // namespace

std::span<const Command> commands() { return kCommands; }

std::string_view summary(std::string_view name) {
  for (const Command& c : kCommands)
    if (name == c.name) return c.summary;
  return "";
}

}  // namespace cli
