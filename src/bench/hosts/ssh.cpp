// bench/hosts/ssh.cpp — ssh command lines (ssh.hpp). The preflight is in
// ssh_preflight.cpp.
#include "bench/hosts/ssh.hpp"

#include "bench/children/supervisor.hpp"

namespace bench {

std::string host_address(const std::string& destination) {
  const auto at = destination.rfind('@');
  return at == std::string::npos ? destination : destination.substr(at + 1);
}

std::vector<std::string> ssh_argv(const SshConfig& ssh, const std::string& host,
                                  const std::vector<std::string>& remote_argv) {
  // BatchMode: never a prompt. ServerAlive: a dead host or a dropped link
  // ends the client in ~6 s (exit 255), which is how the coordinator learns
  // of it; the remote side ends on its stdin's end of file.
  // A Child's argv[0] is never searched on PATH: "ssh" is found here.
  const std::string found = ssh.program.find('/') == std::string::npos ? proc::find_program(ssh.program) : "";
  const std::string& program = found.empty() ? ssh.program : found;
  std::vector<std::string> a = {program, "-T",
                                "-o",    "BatchMode=yes",
                                "-o",    "ConnectTimeout=10",
                                "-o",    "ServerAliveInterval=2",
                                "-o",    "ServerAliveCountMax=3"};
  if (!ssh.config_file.empty()) a.insert(a.end(), {"-F", ssh.config_file});
  std::string command;
  for (const std::string& arg : remote_argv) command += (command.empty() ? "" : " ") + shell_quote(arg);
  a.insert(a.end(), {host, "--", command});
  return a;
}

std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const std::size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

std::string remote_zapbench(const SshConfig& ssh) {
  return ssh.remote_zapbench.empty() ? proc::own_executable() : ssh.remote_zapbench;
}

}  // namespace bench
