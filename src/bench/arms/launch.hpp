// bench/arms/launch.hpp — a cell's server as one launch description, for
// every arm (zapbench serve, the floor, the Go arms, grpc++, nginx) and
// wherever it runs: here (bench/run/sample.cpp) or on the server host under
// `zapbench child` (hosts/remote_child.hpp). Most servers announce their
// listeners on a ready channel; nginx cannot, so its launch names a port
// ({port}, chosen free where it runs) and is ready once that port accepts,
// and its config is a file written into a private directory ({tmpdir}).
// Owns what to start and how readiness is known; starting is the caller's.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bench/children/supervisor.hpp"
#include "bench/hosts/remote_protocol.hpp"
#include "bench/run/plan.hpp"

namespace bench {

struct ServerLaunch {
  ChildSpec spec;                 // its argv (and its files) may name {tmpdir} and {port}
  bool tmpdir = false;            // a private directory for {tmpdir}, the files in it
  bool wait_accepting = false;    // no ready channel: ready once {port} accepts a connection
  std::vector<RemoteFile> files;  // written into {tmpdir} before the start, {tmpdir} and {port} replaced
};

// The server of a cell, `zapbench_exe` the zapbench binary where it runs:
// its arm's row's launch (arm.hpp) — a zapbench, Go, grpc++ or floor server
// announcing itself on its ready channel, or nginx's config and the port it
// listens on (p.listen_host:{port}).
ServerLaunch server_launch(const RunPlan& p, const std::string& zapbench_exe, const CellPlan& cp);

// Whether the argv or a file names {port} (a port must be chosen first).
bool mentions_port(const std::vector<std::string>& argv, const std::vector<RemoteFile>& files);

// {tmpdir} (when `tmpdir` is given) and {port} (when port > 0) replaced in
// `argv` and in the files' text, the files written into `tmpdir`. The error
// ("cannot write ..."), or "".
std::string materialize(std::vector<std::string>& argv, const std::vector<RemoteFile>& files,
                        const std::filesystem::path* tmpdir, int port);

}  // namespace bench
