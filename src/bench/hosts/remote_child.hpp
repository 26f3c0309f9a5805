// bench/hosts/remote_child.hpp — a child process on another host (docs/spec/hosts.md
// §3): `zapbench child` started over ssh runs the program there (pinned, in
// its own process group, with its ready channel) and reports on a line
// protocol; RemoteChild is the coordinator's side, with Child's interface.
// Its ssh client is a local Child, so destroying a RemoteChild (or the
// coordinator dying) closes the session, and the remote agent then kills
// what it started: no process outlives the run on any host.
// Also the agent's side: run_child_agent, the body of `zapbench child`.
// The protocol's bytes (LaunchFile, the control and report readers, the exit
// report line) are remote_protocol.hpp's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/children/launch.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/hosts/remote_protocol.hpp"
#include "bench/hosts/ssh.hpp"

namespace bench {

// What to run on the host is a ServerLaunch (children/launch.hpp): `spec` as for
// a local Child (argv, cpus, env, ready_channel), except that spec.log_path is
// a LOCAL file receiving the remote program's stdout and stderr (through
// ssh's stderr), and argv[0] is a path on the remote host. `{tmpdir}` /
// `{port}` are replaced there (§3).

class RemoteChild {
 public:
  // Starts `ssh HOST zapbench child ...`, sends the files and `start`.
  // Throws std::runtime_error when the local ssh client cannot be started.
  RemoteChild(const SshConfig& ssh, const std::string& host, const ServerLaunch& spec);
  RemoteChild(RemoteChild&&) noexcept;
  RemoteChild& operator=(RemoteChild&&) noexcept;
  ~RemoteChild();  // closes the session: the agent SIGKILLs what is left

  [[nodiscard]] const std::string& host() const { return host_; }

  // The listeners the program announced (its ready lines, as the agent
  // forwards them), once the agent said ready-end; empty when the session
  // ended, the program exited first, or `timeout_s` passed.
  std::vector<proc::ReadyListener> wait_ready(double timeout_s);

  // Waits up to `timeout_s` for the agent's exit report; past it, ends the
  // session (hung = true). cpu_s is the program's CPU time on its host;
  // `lost` says why when the session ended without a report.
  ExitStatus wait(double timeout_s);

  // `stop` (the agent sends SIGTERM, SIGKILL after its grace), then wait.
  ExitStatus stop(double grace_s);

 private:
  struct Impl;
  std::string host_;
  Impl* impl_ = nullptr;
};

// What `zapbench child` was asked to run (its flags, parsed by cli/child.cpp
// with the command's flag table).
struct ChildAgentOptions {
  std::vector<int> cpus;          // --cpus
  bool ready = false;             // --ready: the program gets a ready channel (--ready-fd N)
  std::vector<std::string> env;   // --env NAME=VALUE, each
  bool tmpdir = false;            // --tmpdir
  bool wait_accepting = false;    // --wait-accepting
  std::vector<std::string> argv;  // PROGRAM ARG... (after --)
};

// The body of `zapbench child`: the agent of §3, on stdin/stdout, the
// program's output on stderr. Returns the process's exit code: 0 after an
// `exit` report (or a `stop` before `start`), 3 when stdin ended (the
// coordinator is gone: the program was killed), 2 when it cannot do what it
// was asked (the message on stderr).
int run_child_agent(const ChildAgentOptions& options);

}  // namespace bench
