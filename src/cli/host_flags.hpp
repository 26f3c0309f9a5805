// cli/host_flags.hpp — the flags that say where things run over ssh
// (docs/spec/hosts.md §1), one spelling for `zapbench run` and `zapbench load
// --loader-hosts`: the host lists and the SshConfig. Owns flags only.
#pragma once

#include <unistd.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/hosts/ssh.hpp"
#include "flags/flags.hpp"

namespace cli {

// --loader-hosts H,H,...: ssh destinations, each once.
inline flags::Flag& host_list_flag(flags::Table& t, const std::string& names, std::vector<std::string>* out,
                                   const std::string& help) {
  return t.custom(names, "HOST,...", help, [out](std::string_view v) -> std::optional<flags::Problem> {
    std::vector<std::string> hosts = flags::split_list(v);
    if (hosts.empty())
      return flags::Problem{"ssh destinations (user@host or a config alias), comma-separated", ""};
    for (std::size_t i = 0; i < hosts.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (hosts[i] == hosts[j])
          return flags::Problem{"each host once", hosts[i] + " is given twice (one loader per host)"};
    *out = std::move(hosts);
    return std::nullopt;
  });
}

// --ssh PROGRAM, --ssh-config FILE, --remote-zapbench PATH.
inline void ssh_flags(flags::Table& t, bench::SshConfig* ssh) {
  t.text("--ssh", &ssh->program, "PROGRAM", "the ssh client (OpenSSH's options are given to it)");
  t.text("--ssh-config", &ssh->config_file, "FILE", "ssh -F FILE (default: your own ~/.ssh/config)")
      .no_default()
      .check([](std::string_view v) -> std::optional<flags::Problem> {
        if (access(std::string(v).c_str(), R_OK) == 0) return std::nullopt;
        return flags::Problem{"a readable ssh config file", "cannot read it"};
      });
  t.text("--remote-zapbench", &ssh->remote_zapbench, "PATH",
         "zapbench on the other hosts (the same build: checked before anything runs)")
      .default_text("this binary's own path");
}

}  // namespace cli
