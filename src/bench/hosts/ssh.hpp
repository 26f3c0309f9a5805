// bench/hosts/ssh.hpp — reaching other hosts (docs/spec/hosts.md §1–§2): the ssh
// command line that runs a zapbench command on a host, and the preflight
// that checks every host of a run before anything is measured. Owns the
// spelling of ssh's options and of `zapbench host-info`; starting and
// stopping the processes is supervisor.hpp's (a local Child of `ssh`).
#pragma once

#include <string>
#include <vector>

namespace bench {

// How to reach the hosts of a run.
struct SshConfig {
  std::string program = "ssh";  // --ssh PROGRAM (tests: tests/support/fake_ssh.sh)
  std::string config_file;      // --ssh-config FILE: `ssh -F FILE`; empty: the user's own
  std::string remote_zapbench;  // --remote-zapbench PATH; empty: this binary's own path
};

// The host part of an ssh destination: "root@10.0.0.7" -> "10.0.0.7".
std::string host_address(const std::string& destination);

// The local argv that runs `remote_argv` on `host` (each argument
// shell-quoted into the one command line ssh sends), with the options of
// docs/spec/hosts.md §1. remote_argv[0] is a path on that host.
std::vector<std::string> ssh_argv(const SshConfig& ssh, const std::string& host,
                                  const std::vector<std::string>& remote_argv);

// The path of zapbench on the remote hosts (SshConfig::remote_zapbench, or
// this binary's own path).
std::string remote_zapbench(const SshConfig& ssh);

// The last non-empty line of a text (a process's stderr): what ssh says
// when it fails ("ssh: connect to host h port 22: Connection refused").
std::string last_line(const std::string& text);

// What `zapbench host-info` prints about its host (§2).
struct HostInfo {
  std::string role;  // "server" or "loader" (filled by the preflight)
  std::string host;  // as given (the ssh destination)
  std::string version;
  std::string hostname;
  std::string kernel;
  std::string cpu_model;
  unsigned cpu_count = 0;
  std::vector<int> allowed_cpus;
};

// This host's `zapbench host-info` text ("key: value" lines), given the
// version line (`zapbench --version`'s).
std::string host_info_text(const std::string& version_line);
// Parses it; throws std::runtime_error naming the line or key that is wrong.
HostInfo parse_host_info(const std::string& text);

// One host to probe and the CPUs the run will pin to there.
struct HostCheck {
  std::string host;
  std::string role;  // "server" or "loader"
  std::vector<int> cpus;
};

// Probes every host in parallel over ssh (a name given twice is probed once,
// with the union of its CPUs), hang bound `timeout_s`. Returns one HostInfo
// per check, in order. Throws std::runtime_error with one message naming the
// first host that failed and why (ssh's last stderr line, output that does
// not parse, a version line that differs from `local_version`, a CPU not in
// its allowed CPUs).
std::vector<HostInfo> preflight(const SshConfig& ssh, const std::vector<HostCheck>& hosts,
                                const std::string& local_version, double timeout_s = 30);

}  // namespace bench
