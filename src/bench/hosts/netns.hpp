// bench/hosts/netns.hpp — the namespace mode (docs/spec/hosts.md §7): hosts built on
// this machine as network namespaces joined by veth pairs to a bridge, each
// with Debian's sshd on generated keys, so a multi-host run (or a test) has
// real hosts to ssh to without any. Shapes the link with tc when asked.
// Owns building and removing them, nothing else: the run goes through
// ssh.hpp as with any hosts. Root only.
//
// A process killed outright (SIGKILL, a crash) cannot tear down: its
// namespaces `zb<pid>-*` and its directory `zapbench-netns-<pid>-*` stay.
// The next NetnsHosts built on this machine removes those whose creating pid
// no longer exists (and every process left in them) before building its own.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/children/supervisor.hpp"
#include "bench/hosts/ssh.hpp"

namespace bench {

struct NetnsOptions {
  unsigned loaders = 2;  // loader hosts, 1..16
  double delay_ms = 0;   // --link-delay: one-way delay added on every host's link; 0: none
  std::string rate;      // --link-rate: tc's rate ("1gbit", "100mbit"); empty: none
};

class NetnsHosts {
 public:
  // Builds everything (namespaces, bridge, veths, addresses, keys, sshd,
  // ssh config, qdiscs) and waits until each sshd answers an ssh command
  // (hang bound 30 s). Throws std::runtime_error with the step and the
  // command's message when a step fails (not root, no sshd, no netem for a
  // delay...), after removing whatever it had built.
  explicit NetnsHosts(const NetnsOptions& options);
  ~NetnsHosts();  // teardown(); never throws
  NetnsHosts(const NetnsHosts&) = delete;
  NetnsHosts& operator=(const NetnsHosts&) = delete;

  // Stops every sshd and every process left in the namespaces, deletes the
  // namespaces and the directory. Idempotent.
  void teardown() noexcept;

  // The ssh destinations ("root@10.251.0.1") and how to reach them.
  [[nodiscard]] const std::string& server_host() const { return server_host_; }
  [[nodiscard]] const std::vector<std::string>& loader_hosts() const { return loader_hosts_; }
  [[nodiscard]] const SshConfig& ssh() const { return ssh_; }
  // The namespaces' names (server first), for tests that act inside one.
  [[nodiscard]] const std::vector<std::string>& namespaces() const { return namespaces_; }
  // "netns veth+bridge", plus ", netem delay 1ms rate 1gbit" (or ", tbf rate 1gbit").
  [[nodiscard]] const std::string& link() const { return link_; }

 private:
  // The programs the hosts are built with (found at the start: a missing one is named with its package).
  struct Tools {
    std::string ip, tc, keygen, ssh, nc;
  };
  void build_links(const NetnsOptions& options, double rate_bytes, const Tools& tools,
                   const std::string& prefix, const std::filesystem::path& log);
  void start_sshds(const Tools& tools, const std::filesystem::path& log);
  void wait_sshds(const Tools& tools);

  std::optional<proc::TempDir> dir_;  // keys, configs, pid files (supervisor.hpp)
  std::string server_host_;
  std::vector<std::string> loader_hosts_;
  std::vector<std::string> namespaces_;
  std::string link_;
  SshConfig ssh_;
  std::vector<std::string> created_;  // every namespace made so far (the link's too), to delete
  std::vector<Child> sshd_;           // one per host, `sshd -D`: ours to stop and reap
};

}  // namespace bench
