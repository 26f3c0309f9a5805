// bench/hosts/ssh_preflight.cpp — `zapbench host-info` and the preflight that
// runs it on every host of a run (ssh.hpp, docs/spec/hosts.md §2): the
// probes are local Children of ssh, all started at once, read together
// under one hang bound; the first host that fails, in the order given,
// makes the one error.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/children/supervisor.hpp"
#include "bench/hosts/ssh.hpp"
#include "flags/flags.hpp"
#include "net/affinity.hpp"
#include "proc/machine.hpp"

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

// The keys of host-info, in the order it prints them; each must be present.
constexpr const char* kKeys[] = {"version", "hostname", "kernel", "cpu_model", "cpu_count", "allowed_cpus"};
// host-info prints a few hundred bytes; a host printing more than this is
// broken (or not zapbench), and is not buffered further.
constexpr std::size_t kMaxHostInfoBytes = 64 * 1024;

// One host being probed: its ssh client, what it printed so far.
struct Probe {
  std::string host;
  std::vector<int> cpus;  // the union over every check naming the host
  std::string err_path;
  std::optional<Child> ssh;
  std::string out;
  bool out_closed = false;
  bool out_too_long = false;  // more than kMaxHostInfoBytes: no longer read
  std::string failure;        // empty: the probe succeeded
  HostInfo info;
};

// Reads every probe's stdout until each closed it or the deadline passed.
void read_outputs(std::vector<Probe>& probes, Clock::time_point deadline) {
  for (;;) {
    std::vector<int> fds;
    std::vector<Probe*> of;
    for (Probe& p : probes)
      if (!p.out_closed && p.ssh && p.ssh->stdout_fd() >= 0) {
        fds.push_back(p.ssh->stdout_fd());
        of.push_back(&p);
      }
    if (fds.empty()) return;
    const auto left_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left_ms <= 0) return;
    const bool polled = proc::read_some(fds, int(std::min<long long>(left_ms, 100)),
                                        [&of](std::size_t i, std::string_view bytes) {
                                          Probe& p = *of[i];
                                          if (bytes.empty()) {
                                            p.out_closed = true;
                                          } else {
                                            p.out.append(bytes);
                                            if (p.out.size() > kMaxHostInfoBytes)
                                              p.out_too_long = p.out_closed = true;
                                          }
                                        });
    if (!polled) return;
  }
}

}  // namespace

std::string host_info_text(const std::string& version_line) {
  const proc::KernelName k = proc::kernel_name();
  std::ostringstream s;
  s << "version: " << version_line << "\n"
    << "hostname: " << k.hostname << "\n"
    << "kernel: " << k.kernel << "\n"
    << "cpu_model: " << proc::cpu_model() << "\n"
    << "cpu_count: " << proc::online_cpus() << "\n"
    << "allowed_cpus: " << net::cpu_list_text(proc::allowed_cpus()) << "\n";
  return s.str();
}

HostInfo parse_host_info(const std::string& text) {
  HostInfo h;
  std::vector<std::string> seen;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos || colon == 0)
      throw std::runtime_error("host-info output unreadable: " + line);
    const std::string key = line.substr(0, colon);
    std::string value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (key == "version") {
      h.version = value;
    } else if (key == "hostname") {
      h.hostname = value;
    } else if (key == "kernel") {
      h.kernel = value;
    } else if (key == "cpu_model") {
      h.cpu_model = value;
    } else if (key == "cpu_count") {
      const std::optional<std::uint64_t> n = flags::parse_whole(value);
      if (!n || *n == 0 || *n > 1'000'000) throw std::runtime_error("host-info output unreadable: " + line);
      h.cpu_count = unsigned(*n);
    } else if (key == "allowed_cpus") {
      std::optional<std::vector<int>> cpus = flags::parse_cpu_list(value);
      if (!cpus || cpus->empty()) throw std::runtime_error("host-info output unreadable: " + line);
      h.allowed_cpus = std::move(*cpus);
    } else {
      continue;  // a key a newer build adds: the version check judges builds, not this parser
    }
    seen.push_back(key);
  }
  for (const char* key : kKeys)
    if (std::find(seen.begin(), seen.end(), key) == seen.end())
      throw std::runtime_error(std::string("host-info output unreadable: no ") + key + " line");
  if (h.version.empty()) throw std::runtime_error("host-info output unreadable: an empty version");
  return h;
}

std::vector<HostInfo> preflight(const SshConfig& ssh, const std::vector<HostCheck>& hosts,
                                const std::string& local_version, double timeout_s) {
  // One probe per name, in the order of first appearance, with the union of its CPUs.
  std::vector<Probe> probes;
  for (const HostCheck& c : hosts) {
    auto it = std::find_if(probes.begin(), probes.end(), [&](const Probe& p) { return p.host == c.host; });
    if (it == probes.end()) {
      probes.emplace_back();
      it = probes.end() - 1;
      it->host = c.host;
    }
    it->cpus.insert(it->cpus.end(), c.cpus.begin(), c.cpus.end());
  }
  const proc::TempDir tmp("zapbench-preflight-");
  const std::string zapbench = remote_zapbench(ssh);
  for (std::size_t i = 0; i < probes.size(); ++i) {
    Probe& p = probes[i];
    p.err_path = (tmp.path() / ("probe" + std::to_string(i) + ".stderr")).string();
    ChildSpec spec;
    spec.argv = ssh_argv(ssh, p.host, {zapbench, "host-info"});
    spec.log_path = p.err_path;
    spec.pipe_stdio = true;
    p.ssh.emplace(spec);
    p.ssh->close_stdin();  // host-info reads nothing: its session ends when it has printed
  }
  const auto deadline = proc::deadline_after(timeout_s);
  read_outputs(probes, deadline);
  for (Probe& p : probes) {
    if (p.out_too_long) {
      p.ssh->wait(0);  // ended now: it would not stop printing
      p.failure = "host-info output larger than " + std::to_string(kMaxHostInfoBytes) + " bytes";
      continue;
    }
    // Each has closed its stdout (it is exiting) or the bound passed (wait kills it at once).
    const double left_s = std::max(0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
    const ExitStatus st = p.ssh->wait(p.out_closed ? std::max(left_s, 5.0) : left_s);
    const std::string why = last_line(proc::read_file(p.err_path));
    if (st.hung) {
      p.failure = "no answer within " + flags::format_duration(timeout_s);
    } else if (!st.exited || st.code != 0) {
      p.failure = (st.exited && st.code == 255 ? "ssh failed (" : "zapbench host-info failed (") +
                  st.describe() + ")" + (why.empty() ? "" : ": " + why);
    } else {
      try {
        p.info = parse_host_info(p.out);
      } catch (const std::exception& e) {
        p.failure = e.what();
        continue;
      }
      if (p.info.version != local_version) {
        p.failure = "zapbench differs: remote \"" + p.info.version + "\", local \"" + local_version + "\"";
        continue;
      }
      for (int cpu : p.cpus)
        if (std::find(p.info.allowed_cpus.begin(), p.info.allowed_cpus.end(), cpu) ==
            p.info.allowed_cpus.end()) {
          p.failure = "CPU " + std::to_string(cpu) + " is not among its allowed CPUs " +
                      net::cpu_list_text(p.info.allowed_cpus);
          break;
        }
    }
  }
  for (const Probe& p : probes)
    if (!p.failure.empty()) throw std::runtime_error("host " + p.host + ": " + p.failure);
  std::vector<HostInfo> out;
  for (const HostCheck& c : hosts) {
    const auto it =
        std::find_if(probes.begin(), probes.end(), [&](const Probe& p) { return p.host == c.host; });
    HostInfo h = it->info;
    h.role = c.role;
    h.host = c.host;
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace bench
