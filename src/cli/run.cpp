// cli/run.cpp — `zapbench run`: the whole benchmark from one command. Runs the
// microbenchmarks in a child process, then the end-to-end matrix with a fresh
// server process and a fresh loader process per sample, each pinned to its own
// CPUs, repeats interleaved across every arm; fills the results model and
// writes results.json, report.md and report.html. Owns orchestration only:
// measuring is `zapbench micro` / `zapbench load`, writing is `report`.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/args.hpp"
#include "load/engine.hpp"
#include "record/registry.hpp"
#include "report/model.hpp"
#include "server/server.hpp"

#ifndef ZAPBENCH_BUILD_FLAGS
#define ZAPBENCH_BUILD_FLAGS "unknown"
#endif
#ifndef ZAPBENCH_SOURCE_DIR
#define ZAPBENCH_SOURCE_DIR "."
#endif

namespace cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage: zapbench run [--quick|--full] [--out DIR] [options]\n"
    "\n"
    "The whole benchmark on this machine, from one command:\n"
    "  1. the codec microbenchmarks (zapbench micro) with repetitions;\n"
    "  2. the end-to-end matrix: scenario {hello, rpc} x framing {HTTP/1.1, ZAP-HTTP}\n"
    "     x body {each JSON codec, ZAP} (rpc) x connections x pipelining, each\n"
    "     sample a fresh server process and a fresh loader process, pinned to\n"
    "     separate CPUs, every response validated;\n"
    "  3. reference arms: nginx serving /health (when installed), and the floor:\n"
    "     a raw TCP echo of the same byte counts driven by the same loader.\n"
    "Repeats are interleaved across arms (round r runs every cell once), so drift\n"
    "hits every arm alike; medians and min-max are reported and a cell whose\n"
    "spread exceeds --noisy is flagged. Writes DIR/results.json (every sample and\n"
    "the environment), DIR/report.md and DIR/report.html.\n"
    "\n"
    "  --quick               (default) connections 1,16,125; pipelining 1,16; rpc bodies\n"
    "                        the fastest JSON codec and ZAP; 1.5 s samples; ~7 minutes on 2 cores\n"
    "  --full                connections 1,16,125,1000; pipelining 1,16; every JSON codec;\n"
    "                        5 s samples; ~45 minutes on 2 cores\n"
    "  --out DIR             results directory (default results/<UTC date-time>)\n"
    "  --repeats N           samples per cell (default 3)\n"
    "  --duration SECONDS    recorded time per sample\n"
    "  --warmup SECONDS      unrecorded time before each sample\n"
    "  --connections LIST    e.g. 1,16,125\n"
    "  --pipeline LIST       e.g. 1,16\n"
    "  --scenarios LIST      hello,rpc\n"
    "  --framings LIST       http,zap\n"
    "  --bodies LIST         rpc body codecs, e.g. direct,simdjson,zap (default by mode)\n"
    "  --arms LIST           zapbench,nginx,floor (default all)\n"
    "  --server-cpus LIST    CPUs of the server process (default: the first half)\n"
    "  --loader-cpus LIST    CPUs of the loader process (default: the second half)\n"
    "  --noisy FRACTION      flag cells whose (max-min)/median exceeds it (default 0.10)\n"
    "  --nginx PATH          nginx binary (default: nginx on PATH or /usr/sbin/nginx)\n"
    "  --no-micro            skip the microbenchmarks\n"
    "  --micro-filter REGEX  run only these microbenchmarks\n"
    "  --micro-repetitions N (default 3)\n"
    "  --micro-min-time S    per benchmark repetition (quick 0.2, full 0.5)\n";

// ---------------------------------------------------------------- plan

struct Plan {
  report::Config cfg;
  std::string out_dir;
  std::vector<unsigned> connections, pipelines;
  std::vector<std::string> scenarios{"hello", "rpc"}, framings{"http", "zap"}, bodies,
      arms{"zapbench", "nginx", "floor"};
  bool micro = true;
  std::string micro_filter;
  std::string nginx;
};

std::vector<std::string> split(const std::string& s, char sep = ',') {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<unsigned> uint_list(const std::string& flag, const std::string& v) {
  std::vector<unsigned> out;
  for (const std::string& s : split(v)) {
    unsigned n = 0;
    if (!parse_uint(s, n) || n == 0) die(flag + " wants a list of positive whole numbers, got '" + v + "'");
    out.push_back(n);
  }
  if (out.empty()) die(flag + " wants a non-empty list");
  return out;
}

std::vector<std::string> word_list(const std::string& flag, const std::string& v,
                                   const std::vector<std::string>& allowed) {
  std::vector<std::string> out = split(v);
  if (out.empty()) die(flag + " wants a non-empty list");
  for (const std::string& s : out)
    if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
      std::string all;
      for (const auto& a : allowed) all += (all.empty() ? "" : ", ") + a;
      die(flag + ": unknown '" + s + "' (one of: " + all + ")");
    }
  return out;
}

double seconds(const std::string& flag, const std::string& v, bool zero_ok = false) {
  char* end = nullptr;
  const double s = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(zero_ok ? s >= 0 : s > 0) || s > 86400)
    die(flag + " wants seconds " + (zero_ok ? ">= 0" : "> 0") + ", got '" + v + "'");
  return s;
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  if (out.empty()) out.push_back(0);
  return out;
}

std::string find_nginx() {
  for (const char* p : {"/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"})
    if (access(p, X_OK) == 0) return p;
  if (const char* path = std::getenv("PATH"))
    for (const std::string& d : split(path, ':'))
      if (access((d + "/nginx").c_str(), X_OK) == 0) return d + "/nginx";
  return "";
}

std::string utc_now(const char* fmt) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[64];
  std::strftime(b, sizeof b, fmt, &tm);
  return b;
}

std::string number_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  std::string s;
  for (int c : cpus) {
    if (!s.empty()) s += ',';
    s += std::to_string(c);
  }
  return s;
}

Plan parse(int argc, char** argv) {
  Plan p;
  bool full = false;
  std::string connections, pipelines, bodies, server_cpus, loader_cpus;
  std::optional<double> duration_s, warmup_s, micro_min_time_s;
  unsigned repeats = 3, micro_reps = 3;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] { return flag_value(argc, argv, i, "run"); };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--quick") {
      full = false;
    } else if (a == "--full") {
      full = true;
    } else if (a == "--out") {
      p.out_dir = value();
    } else if (a == "--repeats") {
      repeats = flag_uint<unsigned>(argc, argv, i, "run");
      if (repeats == 0 || repeats > 100) die("--repeats wants 1..100");
    } else if (a == "--duration") {
      duration_s = seconds(a, value());
    } else if (a == "--warmup") {
      warmup_s = seconds(a, value(), true);
    } else if (a == "--connections") {
      connections = value();
    } else if (a == "--pipeline") {
      pipelines = value();
    } else if (a == "--scenarios") {
      p.scenarios = word_list(a, value(), {"hello", "rpc"});
    } else if (a == "--framings") {
      p.framings = word_list(a, value(), {"http", "zap"});
    } else if (a == "--bodies") {
      bodies = value();
    } else if (a == "--arms") {
      p.arms = word_list(a, value(), {"zapbench", "nginx", "floor"});
    } else if (a == "--server-cpus") {
      server_cpus = value();
    } else if (a == "--loader-cpus") {
      loader_cpus = value();
    } else if (a == "--noisy") {
      const std::string v = value();
      char* end = nullptr;
      p.cfg.noisy_spread = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(p.cfg.noisy_spread > 0))
        die("--noisy wants a fraction > 0 (0.10 = 10%), got '" + v + "'");
    } else if (a == "--nginx") {
      p.nginx = value();
      if (access(p.nginx.c_str(), X_OK) != 0) die("--nginx " + p.nginx + ": not an executable");
    } else if (a == "--no-micro") {
      p.micro = false;
    } else if (a == "--micro-filter") {
      p.micro_filter = value();
    } else if (a == "--micro-repetitions") {
      micro_reps = flag_uint<unsigned>(argc, argv, i, "run");
      if (micro_reps == 0 || micro_reps > 100) die("--micro-repetitions wants 1..100");
    } else if (a == "--micro-min-time") {
      micro_min_time_s = seconds(a, value());
    } else {
      die("run: unknown option '" + a + "' (see 'zapbench run --help')");
    }
  }
  p.cfg.mode = full ? "full" : "quick";
  p.cfg.repeats = repeats;
  p.cfg.duration_s = duration_s.value_or(full ? 5.0 : 1.5);
  p.cfg.warmup_s = warmup_s.value_or(full ? 1.0 : 0.5);
  p.cfg.micro_repetitions = p.micro ? micro_reps : 0;
  p.cfg.micro_min_time_s = micro_min_time_s.value_or(full ? 0.5 : 0.2);
  p.connections = connections.empty()
                      ? (full ? std::vector<unsigned>{1, 16, 125, 1000} : std::vector<unsigned>{1, 16, 125})
                      : uint_list("--connections", connections);
  p.pipelines = pipelines.empty() ? std::vector<unsigned>{1, 16} : uint_list("--pipeline", pipelines);
  for (unsigned d : p.pipelines)
    if (d > 1024) die("--pipeline wants depths of 1..1024");

  std::vector<std::string> known;
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.name != "zap-fresh") known.emplace_back(c.name);
  if (!bodies.empty()) {
    p.bodies = word_list("--bodies", bodies, known);
  } else if (full) {
    p.bodies = known;  // unavailable ones too: they are reported as unavailable, never dropped
  } else {
    p.bodies = {std::string(record::default_json_codec().name), "zap"};
  }

  const std::vector<int> cpus = allowed_cpus();
  if (!server_cpus.empty() && !parse_cpu_list(server_cpus, p.cfg.server_cpus))
    die("--server-cpus wants a CPU list like 0 or 0-1, got '" + server_cpus + "'");
  if (!loader_cpus.empty() && !parse_cpu_list(loader_cpus, p.cfg.loader_cpus))
    die("--loader-cpus wants a CPU list like 1 or 2-3, got '" + loader_cpus + "'");
  const std::size_t half = std::max<std::size_t>(1, cpus.size() / 2);
  if (p.cfg.server_cpus.empty())
    p.cfg.server_cpus.assign(cpus.begin(), cpus.begin() + static_cast<long>(half));
  if (p.cfg.loader_cpus.empty())
    p.cfg.loader_cpus =
        cpus.size() > 1 ? std::vector<int>(cpus.begin() + static_cast<long>(half), cpus.end()) : cpus;
  for (int c : p.cfg.server_cpus)
    if (std::find(cpus.begin(), cpus.end(), c) == cpus.end())
      die("--server-cpus: CPU " + std::to_string(c) + " is not available to this process (" +
          cpu_list_text(cpus) + ")");
  for (int c : p.cfg.loader_cpus)
    if (std::find(cpus.begin(), cpus.end(), c) == cpus.end())
      die("--loader-cpus: CPU " + std::to_string(c) + " is not available to this process (" +
          cpu_list_text(cpus) + ")");

  if (p.nginx.empty()) p.nginx = find_nginx();
  if (p.out_dir.empty()) p.out_dir = "results/" + utc_now("%Y-%m-%dT%H%M%SZ");
  return p;
}

// ---------------------------------------------------------------- processes

std::atomic<bool> g_interrupted{false};
void on_interrupt(int) { g_interrupted = true; }

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) die("run: cannot find my own binary (/proc/self/exe): " + ec.message());
  return p.string();
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:,=+") ==
          std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  q += '\'';
  return q;
}

std::string command_text(const std::vector<std::string>& argv, const std::vector<int>& cpus) {
  std::string s = "taskset -c " + cpu_list_text(cpus);
  for (const std::string& a : argv) {
    s += ' ';
    s += shell_quote(a);
  }
  return s;
}

struct Child {
  pid_t pid = -1;
  int out_fd = -1;  // the child's stdout, when piped
};

// fork + exec with the CPU affinity set in between (inherited by the
// child's threads and children, nginx's workers included). stdout goes to a
// pipe (pipe_stdout) or to log_fd; stderr to log_fd.
Child spawn(const std::vector<std::string>& argv, const std::vector<int>& cpus, int log_fd,
            bool pipe_stdout) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  int fds[2] = {-1, -1};
  if (pipe_stdout && pipe2(fds, O_CLOEXEC) != 0) die(std::string("run: pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) die(std::string("run: fork: ") + std::strerror(errno));
  if (pid == 0) {
    sched_setaffinity(0, sizeof set, &set);
    dup2(pipe_stdout ? fds[1] : log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    setpgid(0, 0);  // Ctrl-C reaches the parent only; it stops its children itself
    execv(args[0], args.data());
    _exit(127);
  }
  if (pipe_stdout) close(fds[1]);
  return Child{pid, fds[0]};
}

// Waits for the child to exit for up to timeout_s; then SIGKILL. Returns the
// wait status; rusage covers the child and the children it reaped.
int reap(pid_t pid, double timeout_s, rusage* ru) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  for (;;) {
    const pid_t r = wait4(pid, &status, WNOHANG, ru);
    if (r == pid) return status;
    if (r < 0) return -1;
    if (Clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, ru);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Reads the child's stdout until a line contains `marker`; returns that line.
std::string wait_for_line(int fd, const std::string& marker, double timeout_s) {
  std::string buf;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  while (Clock::now() < deadline) {
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, 50) <= 0) continue;
    char b[512];
    const ssize_t n = read(fd, b, sizeof b);
    if (n <= 0) break;
    buf.append(b, static_cast<std::size_t>(n));
    for (std::size_t pos; (pos = buf.find('\n')) != std::string::npos;) {
      std::string line = buf.substr(0, pos);
      buf.erase(0, pos + 1);
      if (line.find(marker) != std::string::npos) return line;
    }
  }
  return "";
}

std::uint16_t port_of(const std::string& line) {
  const auto colon = line.rfind(':');
  std::uint16_t port = 0;
  if (colon == std::string::npos || !parse_uint(std::string_view(line).substr(colon + 1), port)) return 0;
  return port;
}

std::uint16_t free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  std::uint16_t port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

bool wait_accepting(std::uint16_t port, double timeout_s) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  while (Clock::now() < deadline) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    close(fd);
    if (ok) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) die("run: cannot write " + path);
}

std::string run_capture(const std::string& cmd) {
  std::string out;
  if (std::FILE* f = popen((cmd + " 2>/dev/null").c_str(), "r")) {
    char b[256];
    while (std::fgets(b, sizeof b, f) != nullptr) out += b;
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// ---------------------------------------------------------------- environment

report::Environment environment(int argc, char** argv) {
  report::Environment e;
  {
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
      if (line.rfind("model name", 0) == 0) {
        e.cpu_model = line.substr(line.find(':') + 2);
        break;
      }
  }
  e.cpu_count = static_cast<unsigned>(allowed_cpus().size());
  utsname u{};
  if (uname(&u) == 0) {
    e.kernel = std::string(u.sysname) + " " + u.release;
    e.hostname = u.nodename;
  }
#if defined(__clang__)
  e.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  e.compiler = std::string("g++ ") + __VERSION__;
#endif
  e.build_flags = ZAPBENCH_BUILD_FLAGS;
  const std::string src = ZAPBENCH_SOURCE_DIR;
  e.git_commit = run_capture("git -C " + shell_quote(src) + " rev-parse HEAD");
  if (e.git_commit.empty())
    e.git_commit = "unknown (no git checkout at " + src + ")";
  else if (!run_capture("git -C " + shell_quote(src) + " status --porcelain --untracked-files=no").empty())
    e.git_commit += "+dirty";
  // The Debian packages the build used (the versions installed now).
  const std::pair<const char*, const char*> libs[] = {{"simdjson", "libsimdjson-dev"},
                                                      {"RapidJSON", "rapidjson-dev"},
                                                      {"Boost.JSON", "libboost-json1.81-dev"},
                                                      {"nlohmann/json", "nlohmann-json3-dev"},
                                                      {"Google Benchmark", "libbenchmark-dev"},
                                                      {"http-parser", "libhttp-parser-dev"},
                                                      {"nginx", "nginx-light"},
                                                      {"libc", "libc6"}};
  for (auto [name, pkg] : libs) {
    const std::string v = run_capture(std::string("dpkg-query -W -f='${Version}' ") + pkg);
    e.libraries[name] = v.empty() ? std::string("not installed (") + pkg + ")" : v + " (Debian " + pkg + ")";
  }
  for (int i = 0; i < argc; ++i) {
    if (i != 0) e.command_line += ' ';
    e.command_line += shell_quote(argv[i]);
  }
  e.started_utc = utc_now("%Y-%m-%dT%H:%M:%SZ");
  return e;
}

std::vector<report::Codec> codecs() {
  std::vector<report::Codec> out;
  for (const record::CodecInfo& c : record::all_codecs())
    out.push_back(report::Codec{std::string(c.name), std::string(c.content_type), c.available,
                                std::string(c.unavailable_reason), std::string(c.encode_path),
                                std::string(c.decode_path)});
  return out;
}

// ---------------------------------------------------------------- micro

// Google Benchmark writes NaN for some aggregates, which JSON has no word for.
std::string json_without_nan(std::string s) {
  for (const char* bad : {"-NaN", "NaN", "-nan", "nan", "-Infinity", "Infinity", "-inf", "inf"}) {
    const std::string needle = std::string(": ") + bad;
    for (std::size_t pos; (pos = s.find(needle)) != std::string::npos;)
      s.replace(pos, needle.size(), ": null");
  }
  return s;
}

void run_micro(const Plan& p, const std::string& exe, report::Results& res) {
  const std::string json_path = p.out_dir + "/micro.json";
  std::vector<std::string> argv = {exe,
                                   "micro",
                                   "--repetitions",
                                   std::to_string(p.cfg.micro_repetitions),
                                   "--min-time",
                                   number_text(p.cfg.micro_min_time_s),
                                   "--cpu",
                                   std::to_string(p.cfg.loader_cpus.front()),
                                   "--json-out",
                                   json_path};
  if (!p.micro_filter.empty()) argv.insert(argv.end(), {"--filter", p.micro_filter});
  res.micro.command = command_text(argv, {p.cfg.loader_cpus.front()});
  const int log = open((p.out_dir + "/micro.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const Child c = spawn(argv, {p.cfg.loader_cpus.front()}, log, false);
  rusage ru{};
  const int status = reap(c.pid, 3600, &ru);
  close(log);
  if (status != 0) {
    res.notes.push_back("microbenchmarks failed (exit status " + std::to_string(status) + "); see micro.log");
    return;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_without_nan(read_text(json_path)));
  } catch (const std::exception& e) {
    res.notes.push_back(std::string("microbenchmark output unreadable: ") + e.what());
    return;
  }
  for (const auto& b : j.value("benchmarks", nlohmann::json::array())) {
    if (b.value("run_type", "") != "iteration") continue;
    const std::string name = b.value("run_name", b.value("name", ""));
    if (b.value("error_occurred", false)) {
      res.notes.push_back("microbenchmark " + name + " skipped itself: " + b.value("error_message", ""));
      continue;
    }
    auto it = std::find_if(res.micro.figures.begin(), res.micro.figures.end(),
                           [&](const report::MicroFigure& f) { return f.name == name; });
    if (it == res.micro.figures.end()) {
      report::MicroFigure f;
      f.name = name;
      const auto slash = name.find('/');
      f.op = name.substr(0, slash);
      f.codec = slash == std::string::npos ? "" : name.substr(slash + 1);
      res.micro.figures.push_back(f);
      it = res.micro.figures.end() - 1;
    }
    double ns = b.value("cpu_time", 0.0);
    const std::string unit = b.value("time_unit", "ns");
    if (unit == "us")
      ns *= 1e3;
    else if (unit == "ms")
      ns *= 1e6;
    else if (unit == "s")
      ns *= 1e9;
    it->ns_per_op.values.push_back(ns);
    if (b.contains("allocs/op") && b["allocs/op"].is_number())
      it->allocs_per_op = b["allocs/op"].get<double>();
    if (b.contains("wire_bytes") && b["wire_bytes"].is_number())
      it->wire_bytes = b["wire_bytes"].get<double>();
  }
  for (const report::Codec& codec : res.codecs)
    if (!codec.available) res.micro.unavailable_codecs.push_back({codec.name, codec.unavailable_reason});
}

// ---------------------------------------------------------------- e2e

// Bytes per request and per response of one real exchange, measured with the
// real server and loader, in-process, for a moment.
std::pair<double, double> exchange_bytes(const std::string& scenario, load::Wire wire) {
  server::Config sc;
  (wire == load::Wire::http ? sc.http : sc.zap).push_back(server::Endpoint{"127.0.0.1", 0});
  sc.json = &record::default_json_codec();
  server::Server srv(sc);
  std::thread t([&] { srv.run(); });
  load::Options o;
  o.wire = wire;
  o.port = srv.bound(wire == load::Wire::http ? server::Wire::http : server::Wire::zap).front().port;
  o.scenario = scenario == "hello" ? load::Scenario::hello : load::Scenario::rpc;
  o.zap_body = true;
  o.connections = 1;
  o.duration_s = 0.1;
  o.warmup_s = 0.02;
  load::Result r;
  try {
    r = load::run(o);
  } catch (...) {
  }
  srv.stop();
  t.join();
  if (r.responses == 0 || r.requests == 0) return {0, 0};
  return {double(r.bytes_sent) / double(r.requests), double(r.bytes_received) / double(r.responses)};
}

// The floor echoes the smallest byte counts any real exchange of its scenario
// has (ZAP bodies; each direction's minimum over both framings), so it bounds
// every arm from above.
std::pair<std::uint32_t, std::uint32_t> floor_bytes(const std::string& scenario) {
  const auto [http_req, http_resp] = exchange_bytes(scenario, load::Wire::http);
  const auto [zap_req, zap_resp] = exchange_bytes(scenario, load::Wire::zap);
  if (http_req == 0 || zap_req == 0) return {0, 0};
  return {static_cast<std::uint32_t>(std::min(http_req, zap_req) + 0.5),
          static_cast<std::uint32_t>(std::min(http_resp, zap_resp) + 0.5)};
}

struct CellPlan {
  report::Cell cell;
  std::vector<std::string> server_argv;  // empty for nginx (built per sample: the port)
  std::uint32_t floor_request_bytes = 0, floor_response_bytes = 0;
};

std::vector<CellPlan> plan_cells(const Plan& p, const std::string& exe) {
  std::vector<CellPlan> out;
  auto add = [&](const std::string& arm, const std::string& scenario, const std::string& framing,
                 const std::string& body, const std::string& unavailable) {
    for (unsigned c : p.connections)
      for (unsigned d : p.pipelines) {
        CellPlan cp;
        cp.cell.arm = arm;
        cp.cell.scenario = scenario;
        cp.cell.framing = framing;
        cp.cell.body = body;
        cp.cell.connections = c;
        cp.cell.pipeline = d;
        cp.cell.unavailable = unavailable;
        out.push_back(std::move(cp));
      }
  };
  auto arm_on = [&](const char* a) { return std::find(p.arms.begin(), p.arms.end(), a) != p.arms.end(); };
  auto scenario_on = [&](const char* s) {
    return std::find(p.scenarios.begin(), p.scenarios.end(), s) != p.scenarios.end();
  };
  if (arm_on("zapbench"))
    for (const std::string& s : p.scenarios)
      for (const std::string& f : p.framings) {
        if (s == "hello") {
          add("zapbench", s, f, "", "");
          continue;
        }
        for (const std::string& b : p.bodies) {
          const record::CodecInfo* c = record::find_codec(b);
          add("zapbench", s, f, b,
              c != nullptr && c->available ? "" : std::string(c ? c->unavailable_reason : "unknown codec"));
        }
      }
  if (arm_on("nginx") && scenario_on("hello")) {
    std::string why;
    if (p.nginx.empty()) why = "nginx not found (Debian package nginx-light; scripts/deps.sh installs it)";
    add("nginx", "hello", "http", "", why);
  }
  if (arm_on("floor"))
    for (const std::string& s : p.scenarios) {
      const auto [req, resp] = floor_bytes(s);
      const std::size_t first = out.size();
      add("floor", s, "tcp", "", req == 0 ? "could not measure the exchange's byte counts" : "");
      for (std::size_t i = first; i < out.size(); ++i) {
        out[i].floor_request_bytes = req;
        out[i].floor_response_bytes = resp;
      }
    }
  for (CellPlan& cp : out) {
    const report::Cell& c = cp.cell;
    if (c.arm == "zapbench") {
      cp.server_argv = {exe,
                        "serve",
                        c.framing == "http" ? "--http" : "--zap",
                        "127.0.0.1:0",
                        "--threads",
                        std::to_string(p.cfg.server_cpus.size()),
                        "--cpus",
                        cpu_list_text(p.cfg.server_cpus)};
      if (!c.body.empty() && c.body != "zap") cp.server_argv.insert(cp.server_argv.end(), {"--json", c.body});
    } else if (c.arm == "floor") {
      cp.server_argv = {exe,
                        "floor",
                        "--listen",
                        "127.0.0.1:0",
                        "--request-bytes",
                        std::to_string(cp.floor_request_bytes),
                        "--response-bytes",
                        std::to_string(cp.floor_response_bytes),
                        "--threads",
                        std::to_string(p.cfg.server_cpus.size()),
                        "--cpus",
                        cpu_list_text(p.cfg.server_cpus)};
    }
  }
  return out;
}

std::vector<std::string> loader_argv(const Plan& p, const std::string& exe, const CellPlan& cp,
                                     std::uint16_t port, const std::string& json_out) {
  const report::Cell& c = cp.cell;
  const unsigned threads = std::min<unsigned>(static_cast<unsigned>(p.cfg.loader_cpus.size()), c.connections);
  std::vector<std::string> a = {exe,      "load",
                                "--wire", c.arm == "floor" ? "floor" : c.framing,
                                "--addr", "127.0.0.1:" + std::to_string(port)};
  if (c.arm == "floor") {
    a.insert(a.end(), {"--request-bytes", std::to_string(cp.floor_request_bytes), "--response-bytes",
                       std::to_string(cp.floor_response_bytes)});
  } else {
    a.insert(a.end(), {"--scenario", c.scenario});
    if (c.scenario == "rpc") {
      if (c.body == "zap")
        a.insert(a.end(), {"--body", "zap"});
      else
        a.insert(a.end(), {"--body", "json", "--json", c.body});
    }
  }
  a.insert(a.end(),
           {"-c", std::to_string(c.connections), "-p", std::to_string(c.pipeline), "-t",
            std::to_string(threads), "--cpus", cpu_list_text(p.cfg.loader_cpus), "-d",
            number_text(p.cfg.duration_s), "--warmup", number_text(p.cfg.warmup_s), "--json-out", json_out});
  return a;
}

std::string nginx_conf(const std::string& dir, std::uint16_t port, std::size_t workers) {
  return "worker_processes " + std::to_string(workers) + ";\n" + "error_log " + dir + "/error.log;\n" +
         "pid " + dir +
         "/nginx.pid;\n"
         "events { worker_connections 8192; }\n"
         "http {\n"
         "  access_log off;\n"
         "  keepalive_requests 1000000000;\n"
         "  keepalive_timeout 300s;\n"
         "  client_body_temp_path " +
         dir +
         ";\n"
         "  server {\n"
         "    listen 127.0.0.1:" +
         std::to_string(port) +
         " reuseport;\n"
         "    location = /health { default_type text/plain; return 200 \"ok\"; }\n"
         "  }\n"
         "}\n";
}

report::E2ESample parse_load_json(const std::string& path) {
  const nlohmann::json j = nlohmann::json::parse(read_text(path));
  report::E2ESample s;
  s.requests_per_s = j.at("requests_per_s").get<double>();
  s.responses = j.at("responses").get<std::uint64_t>();
  const auto& lat = j.at("latency");
  const auto& pc = lat.at("percentiles_ns");
  s.p50_ns = pc.at("50").get<double>();
  s.p90_ns = pc.at("90").get<double>();
  s.p99_ns = pc.at("99").get<double>();
  s.p999_ns = pc.at("99.9").get<double>();
  s.max_ns = lat.at("max_ns").get<double>();
  s.mean_ns = lat.at("mean_ns").get<double>();
  for (const auto& [k, v] : j.at("errors").items()) {
    const auto n = v.get<std::uint64_t>();
    if (n != 0) s.errors_by_kind[k] = n;
    s.errors += n;
  }
  const auto requests = j.at("requests").get<std::uint64_t>();
  if (requests > 0) s.bytes_sent_per_request = j.at("bytes_sent").get<double>() / double(requests);
  if (s.responses > 0)
    s.bytes_received_per_response = j.at("bytes_received").get<double>() / double(s.responses);
  s.loader_cpu_s = j.at("loader_cpu_user_s").get<double>() + j.at("loader_cpu_sys_s").get<double>();
  return s;
}

std::string slug(const report::Cell& c) {
  std::string s = c.id();
  for (char& ch : s)
    if (ch == '/') ch = '_';
  return s;
}

double seconds_of(const rusage& ru) {
  return double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) / 1e6 + double(ru.ru_stime.tv_sec) +
         double(ru.ru_stime.tv_usec) / 1e6;
}

// How long a server may take to listen, and the slack beyond every expected
// duration: bounds that only catch a hang, generous for a slow or busy machine
// (a sanitizer build, other work on the CPUs).
constexpr double kStartTimeoutS = 30;
constexpr double kHangS = 30;

// One sample of one cell: a fresh server, a fresh loader, both pinned.
report::E2ESample run_sample(const Plan& p, const std::string& exe, CellPlan& cp, unsigned repeat,
                             std::string& failure) {
  const std::string base = p.out_dir + "/samples/" + slug(cp.cell) + "-r" + std::to_string(repeat + 1);
  const int log = open((base + ".server.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::vector<std::string> server_argv = cp.server_argv;
  std::uint16_t port = 0;
  Child srv;
  if (cp.cell.arm == "nginx") {
    const std::string dir = fs::absolute(p.out_dir + "/nginx").string();
    fs::create_directories(dir);
    port = free_port();
    write_text(dir + "/nginx.conf", nginx_conf(dir, port, p.cfg.server_cpus.size()));
    server_argv = {p.nginx, "-p", dir, "-c", dir + "/nginx.conf", "-g", "daemon off; master_process on;"};
    srv = spawn(server_argv, p.cfg.server_cpus, log, false);
    if (!wait_accepting(port, kStartTimeoutS))
      failure = "nginx did not start listening (see " + base + ".server.log)";
  } else {
    srv = spawn(server_argv, p.cfg.server_cpus, log, true);
    const std::string line = wait_for_line(srv.out_fd, "listening on", kStartTimeoutS);
    port = port_of(line);
    if (port == 0) failure = "the server did not start (see " + base + ".server.log)";
  }
  cp.cell.server_command = command_text(server_argv, p.cfg.server_cpus);
  report::E2ESample s;
  if (failure.empty()) {
    const std::string json_out = base + ".load.json";
    const std::vector<std::string> la = loader_argv(p, exe, cp, port, json_out);
    cp.cell.loader_command = command_text(la, p.cfg.loader_cpus);
    const int llog = open((base + ".load.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const Child ld = spawn(la, p.cfg.loader_cpus, llog, false);
    rusage lru{};
    // Warm-up, window, the drain (at most the loader's 5 s response timeout),
    // connection set-up: anything far beyond is a hang.
    const int st = reap(ld.pid, p.cfg.warmup_s + p.cfg.duration_s + 5 + kHangS, &lru);
    close(llog);
    if (st != 0) {
      failure = "the loader failed (status " + std::to_string(st) + "; see " + base + ".load.log)";
    } else {
      try {
        s = parse_load_json(json_out);
      } catch (const std::exception& e) {
        failure = std::string("the loader's JSON is unreadable: ") + e.what();
      }
    }
  }
  // SIGTERM: zapbench servers stop gracefully; nginx's master stops its workers
  // and reaps them, so the rusage below covers the workers too.
  kill(srv.pid, SIGTERM);
  rusage sru{};
  if (srv.out_fd >= 0) {
    // Drain the server's stdout (its counters) so it never blocks on a full pipe.
    std::thread drain([fd = srv.out_fd] {
      char b[512];
      while (read(fd, b, sizeof b) > 0) {
      }
    });
    reap(srv.pid, kHangS, &sru);
    drain.join();
    close(srv.out_fd);
  } else {
    reap(srv.pid, kHangS, &sru);
  }
  close(log);
  s.server_cpu_s = seconds_of(sru);
  if (!failure.empty()) {
    s = report::E2ESample{};
    s.errors = 1;
    s.errors_by_kind["run_failed"] = 1;
  }
  return s;
}

std::string duration_text(double s) {
  char b[32];
  if (s >= 60)
    std::snprintf(b, sizeof b, "%dm%02ds", int(s) / 60, int(s) % 60);
  else
    std::snprintf(b, sizeof b, "%.0fs", s);
  return b;
}

std::string cell_label(const report::Cell& c) {
  std::string s = c.scenario + " " + c.arm + " " + c.framing;
  if (!c.body.empty()) s += "+" + c.body;
  return s + " c" + std::to_string(c.connections) + " p" + std::to_string(c.pipeline);
}

void raise_fd_limit() {
  // 1000 connections need more than the usual soft limit of 1024 descriptors,
  // in the loader and the server alike; children inherit this.
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

}  // namespace

int cmd_run(int argc, char** argv) {
  Plan p = parse(argc, argv);
  const auto t_start = Clock::now();
  const std::string exe = self_exe();
  raise_fd_limit();
  std::error_code ec;
  fs::create_directories(p.out_dir + "/samples", ec);
  if (ec) die("run: cannot create " + p.out_dir + ": " + ec.message());
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  report::Results res;
  // The parent's own name in the command line, not /proc/self/exe's.
  std::vector<char*> full_argv = {const_cast<char*>("zapbench"), const_cast<char*>("run")};
  for (int i = 0; i < argc; ++i) full_argv.push_back(argv[i]);
  res.env = environment(static_cast<int>(full_argv.size()), full_argv.data());
  res.config = p.cfg;
  res.codecs = codecs();
  if (p.cfg.server_cpus == p.cfg.loader_cpus)
    res.notes.push_back("server and loader share CPUs " + cpu_list_text(p.cfg.server_cpus) +
                        ": this machine has one CPU for both, so their work is not separated");
  const bool tty = isatty(STDOUT_FILENO) != 0;

  std::printf("zapbench run (%s): results in %s\n", p.cfg.mode.c_str(), p.out_dir.c_str());
  std::printf("  server CPUs %s, loader CPUs %s, %u repeats, %.1f s + %.1f s warm-up per sample\n",
              cpu_list_text(p.cfg.server_cpus).c_str(), cpu_list_text(p.cfg.loader_cpus).c_str(),
              p.cfg.repeats, p.cfg.duration_s, p.cfg.warmup_s);
  std::fflush(stdout);

  if (p.micro) {
    std::printf("[micro] codec microbenchmarks, %u repetitions of %g s each (log: %s/micro.log)...\n",
                p.cfg.micro_repetitions, p.cfg.micro_min_time_s, p.out_dir.c_str());
    std::fflush(stdout);
    run_micro(p, exe, res);
    for (const std::string& n : res.notes) std::printf("[micro] %s\n", n.c_str());
    std::printf("[micro] %zu figures in %s\n", res.micro.figures.size(),
                duration_text(std::chrono::duration<double>(Clock::now() - t_start).count()).c_str());
  }

  std::vector<CellPlan> cells = plan_cells(p, exe);
  std::size_t runnable = 0;
  for (const CellPlan& cp : cells) {
    if (cp.cell.unavailable.empty())
      ++runnable;
    else
      std::printf("[e2e] %s: unavailable: %s\n", cell_label(cp.cell).c_str(), cp.cell.unavailable.c_str());
  }
  const std::size_t total = runnable * p.cfg.repeats;
  std::size_t done = 0;
  double per_sample_s = p.cfg.warmup_s + p.cfg.duration_s + 0.4;  // refined as samples finish
  const auto t_e2e = Clock::now();
  std::printf("[e2e] %zu cells x %u repeats = %zu samples, ~%s\n", runnable, p.cfg.repeats, total,
              duration_text(double(total) * per_sample_s).c_str());
  std::fflush(stdout);
  for (unsigned r = 0; r < p.cfg.repeats && !g_interrupted; ++r) {
    // Every cell once per round; odd rounds run backwards so no arm always
    // follows the same neighbour.
    for (std::size_t k = 0; k < cells.size() && !g_interrupted; ++k) {
      CellPlan& cp = cells[r % 2 == 0 ? k : cells.size() - 1 - k];
      if (!cp.cell.unavailable.empty()) continue;
      const double eta_s = double(total - done) * per_sample_s;
      if (tty) {
        constexpr int kBar = 30;
        const int fill = total ? int(double(done) * kBar / double(total)) : kBar;
        std::printf("\r\033[K[%.*s%.*s] %zu/%zu %s (round %u/%u)  ETA %s", fill,
                    "##############################", kBar - fill, "..............................", done,
                    total, cell_label(cp.cell).c_str(), r + 1, p.cfg.repeats, duration_text(eta_s).c_str());
        std::fflush(stdout);
      }
      std::string failure;
      report::E2ESample s = run_sample(p, exe, cp, r, failure);
      cp.cell.samples.push_back(s);
      ++done;
      per_sample_s = std::chrono::duration<double>(Clock::now() - t_e2e).count() / double(done);
      if (tty) std::printf("\r\033[K");
      if (failure.empty())
        std::printf("[%3zu/%zu] %-40s %10.0f req/s  p99 %8.1f us%s  ETA %s\n", done, total,
                    cell_label(cp.cell).c_str(), s.requests_per_s, s.p99_ns / 1000,
                    s.errors ? ("  " + std::to_string(s.errors) + " errors").c_str() : "",
                    duration_text(double(total - done) * per_sample_s).c_str());
      else {
        std::printf("[%3zu/%zu] %-40s FAILED: %s\n", done, total, cell_label(cp.cell).c_str(),
                    failure.c_str());
        res.notes.push_back(cell_label(cp.cell) + ", round " + std::to_string(r + 1) + ": " + failure);
      }
      std::fflush(stdout);
    }
  }
  if (g_interrupted) res.notes.push_back("interrupted: the run was stopped before every sample was taken");
  for (CellPlan& cp : cells) res.cells.push_back(std::move(cp.cell));
  res.env.wall_s = std::chrono::duration<double>(Clock::now() - t_start).count();

  write_text(p.out_dir + "/results.json", report::to_json(res));
  write_text(p.out_dir + "/report.md", report::markdown(res));
  write_text(p.out_dir + "/report.html", report::html(res));
  std::printf("zapbench run: done in %s\n  %s/results.json\n  %s/report.md\n  %s/report.html\n",
              duration_text(res.env.wall_s).c_str(), p.out_dir.c_str(), p.out_dir.c_str(), p.out_dir.c_str());
  return g_interrupted ? 130 : 0;
}

}  // namespace cli
