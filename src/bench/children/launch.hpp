// bench/children/launch.hpp — a server as one launch description, for every
// arm (zapbench serve, the floor, the Go arms, grpc++, nginx, h2o, nghttpd)
// and wherever it runs: here (bench/run/sample.cpp) or on the server host
// under `zapbench child` (hosts/remote_child.hpp). Most servers announce their
// listeners on a ready channel; the web servers cannot, so their launch names
// a port ({port}, chosen free where it runs) and is ready once that port
// accepts, and their config is a file written into a private directory
// ({tmpdir}). Owns what to start and how readiness is known; starting is the
// caller's, and which server a cell has is its arm's (bench/plan/arm.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bench/children/supervisor.hpp"

namespace bench {

// A file written into the launch's private directory before it starts (nginx's
// config); `{tmpdir}` and `{port}` in `text` are replaced.
struct LaunchFile {
  std::string name;  // relative to {tmpdir}: no '/', no '\n', not "." or ".."
  std::string text;  // at most hosts/remote_protocol.hpp's kMaxRemoteFileBytes when sent to a host
};

struct ServerLaunch {
  ChildSpec spec;                 // its argv (and its files) may name {tmpdir} and {port}
  bool tmpdir = false;            // a private directory for {tmpdir}, the files in it
  bool wait_accepting = false;    // no ready channel: ready once {port} accepts a connection
  std::vector<LaunchFile> files;  // written into {tmpdir} before the start, {tmpdir} and {port} replaced
};

// Whether the argv or a file names {port} (a port must be chosen first).
bool mentions_port(const std::vector<std::string>& argv, const std::vector<LaunchFile>& files);

// {tmpdir} (when `tmpdir` is given), {port} (when port > 0) and {user} (the
// name of the user this process runs as) replaced in `argv` and in the files' text, the files written into
// `tmpdir`. The error
// ("cannot write ..."), or "".
std::string materialize(std::vector<std::string>& argv, const std::vector<LaunchFile>& files,
                        const std::filesystem::path* tmpdir, int port);

}  // namespace bench
