// bench/hosts/netns.cpp — the namespace mode (netns.hpp, docs/spec/hosts.md §7):
// namespaces, bridge, veths, keys, sshd per host, the ssh config, the link's
// qdiscs, and their teardown (also of a killed run's leftovers). Every
// command runs through bench::Child (argv, no shell) with its output in a
// log in the directory, which becomes the error message when it fails.
#include "bench/hosts/netns.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "proc/ports.hpp"

namespace bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr unsigned kMaxLoaders = 16;
constexpr double kReadyBoundS = 30;           // every sshd answering an ssh command
constexpr double kCommandBoundS = 30;         // one ip/tc/ssh-keygen command (a hang bound)
constexpr double kSshdGraceS = 2;             // SIGTERM to SIGKILL for an sshd
constexpr double kDrainBoundS = 10;           // processes left in a namespace gone after SIGKILL
const char* const kRunNetns = "/run/netns";   // where `ip netns` keeps the named namespaces
const char* const kSshd = "/usr/sbin/sshd";   // Debian's; sshd re-execs itself, so an absolute path
const char* const kPrivsepDir = "/run/sshd";  // sshd's privilege separation directory (the package's)
const char* const kDirPrefix = "zapbench-netns-";
const char* const kHostIf = "eth0";  // each host's end of its veth pair
const char* const kBridge = "br0";   // in the link namespace

std::string address_of(unsigned index) { return "10.251.0." + std::to_string(index + 1); }

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t from = 0;
  while (from < s.size() && std::isspace(static_cast<unsigned char>(s[from]))) ++from;
  return s.substr(from);
}

// A command's output for an error message: its last lines, joined.
std::string output_tail(const std::string& out) {
  constexpr std::size_t kTailBytes = 600;
  std::string t = trimmed(out);
  if (t.size() > kTailBytes) t = "..." + t.substr(t.size() - kTailBytes);
  std::replace(t.begin(), t.end(), '\n', ' ');
  return t;
}

struct Ran {
  ExitStatus status;
  std::string output;  // stdout and stderr
};

Ran run(const std::vector<std::string>& argv, const fs::path& log, double bound_s = kCommandBoundS) {
  Child c(ChildSpec{argv, {}, log.string(), false, {}});
  Ran r;
  r.status = c.wait(bound_s);
  r.output = proc::read_file(log);
  return r;
}

// Runs a step's command; throws naming the step, the command and what it said.
std::string step(const std::string& what, const std::vector<std::string>& argv, const fs::path& log) {
  Ran r = run(argv, log);
  if (!r.status.ok())
    throw std::runtime_error("netns: " + what + ": " + command_text(argv, {}) + ": " + r.status.describe() +
                             (r.output.empty() ? "" : ": " + output_tail(r.output)));
  return r.output;
}

std::string need_program(const std::string& name, const std::string& package) {
  std::string p = proc::find_program(name);
  if (p.empty())
    throw std::runtime_error("netns: the namespace mode needs " + name + " (Debian package " + package +
                             "), which is not installed");
  return p;
}

// tc's rate in bytes per second ("1gbit", "100mbit", "10mbps", "125000"),
// for tbf's burst; -1 when it is not one. Units as in tc(8): bit-based
// (bit, kbit, mbit, gbit, tbit and their kibit... forms) or byte-based (bps,
// kbps...); a bare number is bytes per second.
double rate_bytes_per_s(const std::string& rate) {
  const char* begin = rate.c_str();
  char* end = nullptr;
  errno = 0;
  const double n = std::strtod(begin, &end);
  if (end == begin || errno != 0 || !std::isfinite(n) || n <= 0) return -1;
  std::string unit(end);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::pair<const char*, double> kUnits[] = {{"", 1},
                                                          {"bps", 1},
                                                          {"bit", 1.0 / 8},
                                                          {"kbit", 1e3 / 8},
                                                          {"kibit", 1024.0 / 8},
                                                          {"mbit", 1e6 / 8},
                                                          {"mibit", 1048576.0 / 8},
                                                          {"gbit", 1e9 / 8},
                                                          {"gibit", 1073741824.0 / 8},
                                                          {"tbit", 1e12 / 8},
                                                          {"tibit", 1099511627776.0 / 8},
                                                          {"kbps", 1e3},
                                                          {"kibps", 1024.0},
                                                          {"mbps", 1e6},
                                                          {"mibps", 1048576.0},
                                                          {"gbps", 1e9},
                                                          {"gibps", 1073741824.0},
                                                          {"tbps", 1e12},
                                                          {"tibps", 1099511627776.0}};
  for (const auto& [name, factor] : kUnits)
    if (unit == name) return n * factor;
  return -1;
}

std::string ms_text(double ms) {
  std::ostringstream o;
  o << ms << "ms";
  return o.str();
}

// The pids whose network namespace is the named one: what `ip netns pids`
// prints, done here (the same /proc scan) so the teardown needs neither a
// command nor a file to read its output from.
std::vector<pid_t> pids_in(const std::string& ns) {
  std::vector<pid_t> out;
  struct stat want {};
  if (stat((fs::path(kRunNetns) / ns).c_str(), &want) != 0) return out;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/proc", ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() ||
        !std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); }))
      continue;
    struct stat have {};
    // A zombie has no namespace left (its link does not resolve): not listed, as with ip.
    if (stat((it->path() / "ns/net").c_str(), &have) == 0 && have.st_dev == want.st_dev &&
        have.st_ino == want.st_ino)
      out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

// SIGKILL to every process in the namespace, until none is left (they
// leave it as they exit; their parents, or init, reap them).
void empty_namespace(const std::string& ns) noexcept {
  try {
    const auto deadline = Clock::now() + std::chrono::duration<double>(kDrainBoundS);
    for (;;) {
      const std::vector<pid_t> pids = pids_in(ns);
      if (pids.empty() || Clock::now() >= deadline) return;
      for (pid_t p : pids) kill(p, SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  } catch (...) {
  }
}

// Deletes a namespace after emptying it: `ip netns del` (which unmounts
// and removes /run/netns/NS).
// `ip netns exec NS` bind-mounts every file of /etc/netns/NS over its
// namesake in /etc, for the programs it runs there: the hosts' own passwd.
const char* const kEtcNetns = "/etc/netns";

void delete_namespace(const std::string& ip, const std::string& ns) noexcept {
  try {
    empty_namespace(ns);
    ChildSpec del{{ip, "netns", "del", ns}, {}, "", false, {}};
    del.cleanup = true;  // the teardown of an interrupted run still removes its namespaces
    Child c(del);
    c.wait(kCommandBoundS);
  } catch (...) {
  }
  std::error_code ec;
  fs::remove_all(fs::path(kEtcNetns) / ns, ec);
  fs::remove(kEtcNetns, ec);  // only when empty: another program's files stay
}

// The host's own /etc/passwd (under /etc/netns/NS): this machine's, with
// root's home the run's directory and its shell /bin/sh. sshd runs every
// command through the login shell, and Debian's bash reads ~/.bashrc in an
// ssh session: a slow or locked rc file (pyenv's rehash lock, left by a
// session killed mid-way, stalls every later shell for a minute) would be
// timed into every sample. A real host's rc files are its user's business.
std::string host_passwd(const fs::path& home) {
  std::istringstream in(proc::read_file("/etc/passwd"));
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.rfind("root:", 0) == 0) {
      // name:password:uid:gid:gecos:home:shell
      std::vector<std::string> f;
      std::size_t start = 0;
      for (std::size_t colon; (colon = line.find(':', start)) != std::string::npos; start = colon + 1)
        f.push_back(line.substr(start, colon - start));
      f.push_back(line.substr(start));
      if (f.size() == 7)
        line = f[0] + ":" + f[1] + ":" + f[2] + ":" + f[3] + ":" + f[4] + ":" + home.string() + ":/bin/sh";
    }
    out += line + "\n";
  }
  return out;
}

bool pid_gone(long pid) { return pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

// The leftovers of a process killed before its teardown: namespaces
// zb<pid>-{server,loaderK,link} and directories zapbench-netns-<pid>-* whose
// pid no longer exists. A live pid's are never touched (another run's).
void sweep_stale(const std::string& ip) {
  static const std::regex kNs(R"(zb([0-9]+)-(server|link|loader[0-9]+))");
  std::vector<std::string> stale;
  std::error_code ec;
  for (auto it = fs::directory_iterator(kRunNetns, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::smatch m;
    if (std::regex_match(name, m, kNs) && pid_gone(std::stol(m[1].str()))) stale.push_back(name);
  }
  for (const std::string& ns : stale) delete_namespace(ip, ns);
  for (auto it = fs::directory_iterator(kEtcNetns, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::smatch m;
    std::error_code rm;
    if (std::regex_match(name, m, kNs) && pid_gone(std::stol(m[1].str()))) fs::remove_all(it->path(), rm);
  }
  ec.clear();
  static const std::regex kDir(std::string(kDirPrefix) + "([0-9]+)-.*");
  for (auto it = fs::directory_iterator(fs::temp_directory_path(), ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::smatch m;
    if (std::regex_match(name, m, kDir) && pid_gone(std::stol(m[1].str()))) {
      std::error_code rm;
      fs::remove_all(it->path(), rm);
    }
  }
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  if (!f) throw std::runtime_error("netns: cannot write " + p.string());
}

}  // namespace

NetnsHosts::NetnsHosts(const NetnsOptions& options) {
  if (options.loaders < 1 || options.loaders > kMaxLoaders)
    throw std::invalid_argument("netns: loaders must be 1.." + std::to_string(kMaxLoaders) + ", not " +
                                std::to_string(options.loaders));
  if (!std::isfinite(options.delay_ms) || options.delay_ms < 0)
    throw std::invalid_argument("netns: --link-delay must be a delay of 0 or more");
  const double rate_bytes = options.rate.empty() ? 0 : rate_bytes_per_s(options.rate);
  if (rate_bytes < 0)
    throw std::invalid_argument("netns: --link-rate \"" + options.rate +
                                "\" is not a rate tc takes (e.g. 1gbit, 100mbit, 10mbps)");
  if (geteuid() != 0)
    throw std::runtime_error("netns: the namespace mode needs root (it creates network namespaces)");
  const Tools tools{need_program("ip", "iproute2"), need_program("tc", "iproute2"),
                    need_program("ssh-keygen", "openssh-client"), need_program("ssh", "openssh-client"),
                    need_program("nc", "netcat-openbsd")};
  if (access(kSshd, X_OK) != 0)
    throw std::runtime_error(std::string("netns: the namespace mode needs ") + kSshd +
                             " (Debian package openssh-server), which is not installed");

  sweep_stale(tools.ip);
  const std::string prefix = "zb" + std::to_string(getpid()) + "-";
  try {
    dir_.emplace(kDirPrefix + std::to_string(getpid()) + "-");  // mode 0700: the private keys live here
    const fs::path log = dir_->path() / "command.log";
    build_links(options, rate_bytes, tools, prefix, log);
    start_sshds(tools, log);
    wait_sshds(tools);
  } catch (...) {
    teardown();
    throw;
  }
}

// The namespaces (the link's bridge first, then one per host), each host's
// veth on the bridge with its address, and the link's qdisc.
void NetnsHosts::build_links(const NetnsOptions& options, double rate_bytes, const Tools& tools,
                             const std::string& prefix, const fs::path& log) {
  const std::string& ip = tools.ip;
  const std::string& tc = tools.tc;
  // The namespaces: the link's bridge first, then one per host.
  const std::string link_ns = prefix + "link";
  namespaces_.push_back(prefix + "server");
  for (unsigned k = 1; k <= options.loaders; ++k)
    namespaces_.push_back(prefix + "loader" + std::to_string(k));
  auto add_ns = [&](const std::string& ns) {
    step("creating namespace " + ns, {ip, "netns", "add", ns}, log);
    created_.push_back(ns);
    step("lo up in " + ns, {ip, "-n", ns, "link", "set", "lo", "up"}, log);
  };
  add_ns(link_ns);
  step("the bridge", {ip, "-n", link_ns, "link", "add", kBridge, "type", "bridge"}, log);
  step("the bridge up", {ip, "-n", link_ns, "link", "set", kBridge, "up"}, log);

  // Each host: its namespace, a veth pair (eth0 there, vhI on the bridge), its address, its qdisc.
  bool netem = true;  // until tc says otherwise
  for (unsigned i = 0; i < namespaces_.size(); ++i) {
    const std::string& ns = namespaces_[i];
    add_ns(ns);
    const std::string bridge_end = "vh" + std::to_string(i);
    step("the veth pair of " + ns,
         {ip, "-n", link_ns, "link", "add", bridge_end, "type", "veth", "peer", "name", kHostIf, "netns", ns},
         log);
    step("the veth on the bridge", {ip, "-n", link_ns, "link", "set", bridge_end, "master", kBridge, "up"},
         log);
    step("the address of " + ns, {ip, "-n", ns, "addr", "add", address_of(i) + "/24", "dev", kHostIf}, log);
    step("the veth up in " + ns, {ip, "-n", ns, "link", "set", kHostIf, "up"}, log);
    if (options.delay_ms == 0 && options.rate.empty()) continue;
    std::vector<std::string> qdisc = {tc, "-n", ns, "qdisc", "add", "dev", kHostIf, "root"};
    if (netem) {
      std::vector<std::string> a = qdisc;
      a.push_back("netem");
      if (options.delay_ms > 0) a.insert(a.end(), {"delay", ms_text(options.delay_ms)});
      if (!options.rate.empty()) a.insert(a.end(), {"rate", options.rate});
      const Ran r = run(a, log);
      if (r.status.ok()) continue;
      if (r.output.find("Specified qdisc kind is unknown") == std::string::npos)
        throw std::runtime_error("netns: the link's qdisc: " + command_text(a, {}) + ": " +
                                 r.status.describe() + ": " + output_tail(r.output));
      if (options.delay_ms > 0)
        throw std::runtime_error(
            "--link-delay needs the kernel's netem qdisc (sch_netem), which this kernel does not have: tc: "
            "Specified qdisc kind is unknown");
      netem = false;
    }
    // No netem: the rate alone, with tbf. The burst holds 10 ms at the
    // rate (tbf needs at least rate/HZ, and HZ is 100 or more), never
    // under 64 KiB (a few MTU-sized packets plus GSO).
    const double burst_bytes = std::max(rate_bytes / 100, 65536.0);
    qdisc.insert(qdisc.end(), {"tbf", "rate", options.rate, "burst",
                               std::to_string(static_cast<long long>(burst_bytes)), "latency", "50ms"});
    step("the link's qdisc", qdisc, log);
  }
  link_ = "netns veth+bridge";
  if (options.delay_ms > 0 || !options.rate.empty()) {
    if (netem)
      link_ += std::string(", netem") + (options.delay_ms > 0 ? " delay " + ms_text(options.delay_ms) : "") +
               (options.rate.empty() ? "" : " rate " + options.rate);
    else
      link_ += ", tbf rate " + options.rate;
  }
}

// Keys (the user's, a host key per host), each host's sshd started in its
// namespace, and the client's ssh config that reaches them.
void NetnsHosts::start_sshds(const Tools& tools, const fs::path& log) {
  const std::string& ip = tools.ip;
  const std::string& keygen = tools.keygen;
  const std::string& nc = tools.nc;
  const fs::path dir = dir_->path();
  // Keys: the user's (one), a host key per host; known_hosts and authorized_keys from them.
  const fs::path user_key = dir / "user_key";
  step("the user key",
       {keygen, "-q", "-t", "ed25519", "-N", "", "-C", "zapbench-netns", "-f", user_key.string()}, log);
  const fs::path authorized = dir / "authorized_keys";
  write_text(authorized, proc::read_file(user_key.string() + ".pub"));
  std::error_code ec;
  if (!fs::exists(kPrivsepDir, ec)) {
    // sshd refuses to start without it; Debian creates it at boot through
    // its unit. Left in place: it is the package's directory, not ours.
    fs::create_directories(kPrivsepDir, ec);
    if (ec)
      throw std::runtime_error(std::string("netns: cannot create ") + kPrivsepDir + ": " + ec.message());
    fs::permissions(kPrivsepDir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                     fs::perms::others_read | fs::perms::others_exec);
  }
  std::string known_hosts;
  std::string client = "# zapbench namespace mode: one Host per sshd, reached through its namespace\n";
  for (unsigned i = 0; i < namespaces_.size(); ++i) {
    const std::string& ns = namespaces_[i];
    const std::string addr = address_of(i);
    const fs::path host_key = dir / ("host_key_" + ns);
    step("the host key of " + ns,
         {keygen, "-q", "-t", "ed25519", "-N", "", "-C", ns, "-f", host_key.string()}, log);
    std::istringstream pub(proc::read_file(host_key.string() + ".pub"));
    std::string type, key;
    pub >> type >> key;
    known_hosts += addr + " " + type + " " + key + "\n";
    const fs::path home = dir / "home";
    fs::create_directories(home);
    fs::create_directories(fs::path(kEtcNetns) / ns);
    write_text(fs::path(kEtcNetns) / ns / "passwd", host_passwd(home));
    const fs::path conf = dir / ("sshd_config_" + ns);
    write_text(conf, "# zapbench namespace mode: the sshd of " + ns +
                         "\nPort 22\nListenAddress 127.0.0.1\nListenAddress " + addr + "\nHostKey " +
                         host_key.string() + "\nAuthorizedKeysFile " + authorized.string() +
                         "\nStrictModes no\nPermitRootLogin prohibit-password\nPasswordAuthentication no\n"
                         "KbdInteractiveAuthentication no\nUsePAM no\nPidFile " +
                         (dir / ("sshd_" + ns + ".pid")).string() +
                         "\nClientAliveInterval 2\nClientAliveCountMax 3\nPrintMotd no\n");
    // -D: in the foreground, so it stays our child to stop and reap; -e: its log to the file.
    sshd_.emplace_back(ChildSpec{{ip, "netns", "exec", ns, kSshd, "-D", "-e", "-f", conf.string()},
                                 {},
                                 (dir / ("sshd_" + ns + ".log")).string(),
                                 false,
                                 {}});
    const std::string host = "root@" + addr;
    if (i == 0)
      server_host_ = host;
    else
      loader_hosts_.push_back(host);
    // The coordinator stays in this machine's namespace: ssh reaches the
    // sshd through nc run inside the host's namespace, on its loopback.
    client += "Host " + addr + "\n  HostName " + addr + "\n  User root\n  IdentityFile " + user_key.string() +
              "\n  IdentitiesOnly yes\n  UserKnownHostsFile " + (dir / "known_hosts").string() +
              "\n  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n  PasswordAuthentication no\n"
              "  ProxyCommand " +
              ip + " netns exec " + ns + " " + nc + " 127.0.0.1 22\n";
  }
  write_text(dir / "known_hosts", known_hosts);
  const fs::path client_conf = dir / "ssh_config";
  write_text(client_conf, client);
  ssh_ = SshConfig{"ssh", client_conf.string(), ""};
}

// Ready: each sshd answers `ssh HOST true`.
void NetnsHosts::wait_sshds(const Tools& tools) {
  const std::string& ssh_path = tools.ssh;
  const fs::path dir = dir_->path();
  const fs::path client_conf = dir / "ssh_config";
  // Ready: each sshd answers `ssh HOST true`. Until it listens, nc is
  // refused and ssh exits 255 at once, so this polls.
  const auto deadline = Clock::now() + std::chrono::duration<double>(kReadyBoundS);
  for (unsigned i = 0; i < namespaces_.size(); ++i) {
    const std::string host = i == 0 ? server_host_ : loader_hosts_[i - 1];
    const fs::path sshd_log = dir / ("sshd_" + namespaces_[i] + ".log");
    for (;;) {
      const std::vector<std::string> probe = {ssh_path,        "-F", client_conf.string(), "-o",
                                              "BatchMode=yes", "-o", "ConnectTimeout=10",  host,
                                              "true"};
      const double left_s = std::chrono::duration<double>(deadline - Clock::now()).count();
      const Ran r = run(probe, dir / "ssh_probe.log", std::max(left_s, 1.0));
      if (r.status.ok()) break;
      if (proc::child_ended(sshd_[i].pid()))
        throw std::runtime_error("netns: the sshd of " + namespaces_[i] + " exited: " +
                                 sshd_[i].wait(0).describe() + ": " + output_tail(proc::read_file(sshd_log)));
      if (Clock::now() >= deadline)
        throw std::runtime_error("netns: the sshd of " + namespaces_[i] + " did not answer `" +
                                 command_text(probe, {}) + "` within 30 s: " + r.status.describe() + ": " +
                                 output_tail(r.output) + "; sshd: " + output_tail(proc::read_file(sshd_log)));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

NetnsHosts::~NetnsHosts() { teardown(); }

void NetnsHosts::teardown() noexcept {
  // The sshds first (SIGTERM, SIGKILL past the grace), then whatever is left
  // in each namespace (sessions, nc, what a test started there), then the
  // namespaces (the veths and the bridge go with them), then the directory.
  for (Child& c : sshd_) {
    try {
      c.stop(kSshdGraceS);
    } catch (...) {
    }
  }
  sshd_.clear();
  if (!created_.empty()) {
    std::string ip;
    try {
      ip = proc::find_program("ip");
    } catch (...) {
    }
    if (ip.empty()) ip = "/usr/sbin/ip";
    for (auto it = created_.rbegin(); it != created_.rend(); ++it) delete_namespace(ip, *it);
    created_.clear();
  }
  dir_.reset();
}

}  // namespace bench
