// tests/e2e/interrupt_test.cpp — SIGINT or SIGTERM in each phase of `zapbench
// run` (the microbenchmarks, the Go reference's, the instruction counts, an
// end-to-end sample of the zapbench, grpc++ and Go arms, the namespace
// hosts' set-up): the run ends its children at once and exits 130 with
// results.json and the report marked interrupted, holding what was measured
// before; no process (every descendant carries a token in its environment,
// looked for in /proc after the exit), namespace or temp directory is left.
// Each phase is made to last (a microbenchmark of an hour, a sample of an
// hour, a stand-in that sleeps) and the signal is sent once its child is seen
// running: nothing depends on the machine's speed; the only bound is the hang
// bound on the exit.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "proc/sanitized.hpp"  // valgrind cannot run a sanitized zapbench (bench/run/instructions.cpp)
#include "report/model.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kTokenVar = "ZAPBENCH_INTERRUPT_TEST";

// A live process of the run (the run itself or any descendant: they inherit the token).
struct Tagged {
  pid_t pid = 0;
  std::string cmdline;  // argv joined with spaces
};

// Every process, zombies aside, whose environment carries `token`.
std::vector<Tagged> tagged(const std::string& token) {
  const std::string want = std::string(kTokenVar) + "=" + token;
  std::vector<Tagged> out;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/proc", ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string env = zaptest::read_text(it->path() / "environ");
    bool has = false;
    for (std::size_t from = 0; from < env.size() && !has;) {
      const std::size_t end = std::min(env.find('\0', from), env.size());
      has = env.compare(from, end - from, want) == 0;
      from = end + 1;
    }
    if (!has) continue;
    const std::string stat = zaptest::read_text(it->path() / "stat");
    if (stat.empty() || stat.find(") Z") != std::string::npos) continue;  // gone, or a zombie: not running
    std::string cmd = zaptest::read_text(it->path() / "cmdline");
    for (char& c : cmd)
      if (c == '\0') c = ' ';
    out.push_back({pid_t(std::stol(name)), cmd});
  }
  return out;
}

bool any_runs(const std::string& token, const std::string& part) {
  for (const Tagged& t : tagged(token))
    if (t.cmdline.find(part) != std::string::npos) return true;
  return false;
}

// The namespaces `ip netns list` shows.
std::string netns_list() {
  std::string out;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/run/netns", ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    out += it->path().filename().string() + "\n";
  return out;
}

class run_interrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("interrupt_test");
    dir_ = scratch_->path();
    out_ = dir_ / "r";
    token_ = std::to_string(getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  // However the test ended: the run and everything it started gone, its namespaces too.
  void TearDown() override {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    for (const Tagged& t : tagged(token_)) kill(t.pid, SIGKILL);
    if (netns_pid_ > 0) {
      const std::string prefix = "zb" + std::to_string(netns_pid_) + "-";
      std::string list = netns_list();
      for (std::size_t at; (at = list.find(prefix)) != std::string::npos;) {
        const std::string ns = list.substr(at, list.find('\n', at) - at);
        std::system(("ip netns del " + ns + " 2>/dev/null").c_str());
        list.erase(at, ns.size());
      }
    }
    scratch_.reset();
  }

  // Starts `zapbench <args> --out r` (`zapbench <args>` for a command without
  // --out) with the token in its environment, its output in run.log.
  void start(std::vector<std::string> args, bool with_out = true) {
    args.insert(args.begin(), ZAPBENCH_BIN);
    if (with_out) args.insert(args.end(), {"--out", out_.string()});
    const std::string log = (dir_ / "run.log").string();
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string token = token_;
    pid_ = fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      setenv(kTokenVar, token.c_str(), 1);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }

  std::string log() const { return zaptest::read_text(dir_ / "run.log"); }

  // The run exited (left unreaped: interrupt() reaps it): a wait for its phase is over.
  bool ended() const {
    siginfo_t info{};
    return waitid(P_PID, id_t(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
  }

  // Waits for the run's line `line`, then for one of its processes whose
  // command line holds `child` (the phase's child, running).
  [[nodiscard]] bool await_phase(const std::string& line, const std::string& child) {
    const auto has_line = [&] { return log().find(line) != std::string::npos; };
    if (!zaptest::await([&] { return has_line() || ended(); }) || !has_line()) {
      ADD_FAILURE() << "awaited the line '" << line << "':\n" << log();
      return false;
    }
    if (!zaptest::await([&] { return any_runs(token_, child) || ended(); }) || ended()) {
      ADD_FAILURE() << "awaited a child running '" << child << "':\n" << log();
      return false;
    }
    return true;
  }

  // Sends `sig`, waits for the exit (the hang bound only) and checks what
  // every interrupt leaves: exit 130, the results and report written and
  // marked, nothing running, no temp directory. The results, for the
  // phase's own checks.
  report::Results interrupt(int sig) {
    kill(pid_, sig);
    int st = 0;
    const bool exited = zaptest::await([&] { return waitpid(pid_, &st, WNOHANG) == pid_; });
    EXPECT_TRUE(exited) << "the run did not exit within " << zaptest::kHang.count() << " ms:\n" << log();
    if (!exited) return {};
    pid_ = 0;
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 130) << "status " << st << ":\n" << log();
    for (const Tagged& t : tagged(token_)) ADD_FAILURE() << "left running: " << t.pid << " " << t.cmdline;
    EXPECT_FALSE(fs::exists(out_ / "instructions")) << "the instruction counts' directory is left";
    report::Results r;
    try {
      r = report::load_file(out_.string());
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << "\n" << log();
      return r;
    }
    EXPECT_EQ(r.interrupted.rfind(sig == SIGINT ? "SIGINT during " : "SIGTERM during ", 0), 0u)
        << r.interrupted;
    EXPECT_NE(zaptest::read_text(out_ / "report.md").find("Interrupted: " + r.interrupted),
              std::string::npos);
    EXPECT_NE(zaptest::read_text(out_ / "report.html").find("<strong>Interrupted: SIG"), std::string::npos);
    EXPECT_NE(log().find("zapbench run: interrupted"), std::string::npos) << log();
    return r;
  }

  std::size_t samples(const report::Results& r) const {
    std::size_t n = 0;
    for (const report::Cell& c : r.cells) n += c.samples.size();
    return n;
  }

  // A run whose end-to-end phase, if it comes, lasts an hour: a phase ending
  // early never lets the run end before the signal.
  static std::vector<std::string> run_args(std::vector<std::string> more) {
    std::vector<std::string> a = {"run",        "--repeats",  "1",        "--budget",    "0",
                                  "--duration", "3600",       "--warmup", "0",           "--connections",
                                  "1",          "--pipeline", "1",        "--scenarios", "hello"};
    a.insert(a.end(), more.begin(), more.end());
    return a;
  }

  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_, out_;
  std::string token_;
  pid_t pid_ = 0;
  pid_t netns_pid_ = 0;  // the run of the namespace mode: its namespaces are zb<pid>-*
};

// A microbenchmark of an hour, in its first round.
TEST_F(run_interrupt, in_the_microbenchmarks) {
  start(run_args({"--arms", "floor", "--micro-filter", "^Decode/zap$", "--micro-repetitions", "1",
                  "--micro-min-time", "3600"}));
  ASSERT_TRUE(await_phase("[micro] round 1/1", " micro --no-go "));
  const report::Results r = interrupt(SIGTERM);
  EXPECT_EQ(r.interrupted, "SIGTERM during the microbenchmarks");
  EXPECT_TRUE(r.micro.figures.empty()) << "the round it cut short is not recorded";
  EXPECT_EQ(samples(r), 0u);
}

// A stand-in for zapbench-go that answers its capabilities, then, asked for its
// microbenchmarks, writes its arguments to `started` and sleeps an hour.
fs::path sleeping_go(const fs::path& dir, const fs::path& started) {
  const fs::path go = dir / "zapbench-go";
  zaptest::write_bytes(
      go, std::string("#!/bin/sh\nif [ \"$1\" = capabilities ]; then echo '") +
              R"({"go_version":"go1.26.8","modules":{},"frameworks":{"fasthttp":"","nethttp":"","zip":""},)"
              R"("transports":{"http":"","zap":""},"codecs":{"goccy":"","sonic":"","stdlib":"","zap":""}})" +
              "'; exit 0; fi\necho \"$@\" >" + started.string() + "\nexec sleep 3600\n");
  fs::permissions(go, fs::perms::owner_all);
  return go;
}

// The Go reference's microbenchmarks, on the stand-in: the C++ round before it is kept.
TEST_F(run_interrupt, in_the_go_microbenchmarks) {
  const fs::path started = dir_ / "go-micro-started";
  const fs::path go = sleeping_go(dir_, started);
  start(run_args({"--arms", "floor", "--go", go.string(), "--micro-filter", "^Decode/zap$",
                  "--micro-repetitions", "1", "--micro-min-time", "0.01"}));
  ASSERT_TRUE(zaptest::await([&] { return fs::exists(started); })) << "the Go micro never started:\n"
                                                                   << log();
  ASSERT_TRUE(zaptest::await([&] { return any_runs(token_, "sleep 3600"); })) << log();
  report::Results r = interrupt(SIGTERM);
  EXPECT_EQ(r.interrupted, "SIGTERM during the microbenchmarks");
  // The C++ round measured before is kept: its row, and the calibration's rows beside it.
  EXPECT_EQ(std::erase_if(r.micro.figures,
                          [](const report::MicroFigure& f) {
                            return f.name.starts_with(report::kCalibrationMicroPrefix);
                          }),
            4u);
  ASSERT_EQ(r.micro.figures.size(), 1u) << "the C++ round measured before is kept";
  EXPECT_EQ(r.micro.figures[0].name, "Decode/zap");
}

// `zapbench micro` on its own: Ctrl-C in its Go phase ends the Go child too (it runs in a process
// group of its own, out of the terminal's reach), removes the temporary file and exits 130.
TEST_F(run_interrupt, zapbench_micro_in_its_go_phase) {
  const fs::path started = dir_ / "go-micro-started";
  const fs::path go = sleeping_go(dir_, started);
  start({"micro", "--filter", "^Decode/zap$", "--min-time", "10ms", "--go", go.string()}, false);
  ASSERT_TRUE(zaptest::await([&] { return fs::exists(started) || ended(); }) && fs::exists(started))
      << "the Go micro never started:\n"
      << log();
  ASSERT_TRUE(zaptest::await([&] { return any_runs(token_, "sleep 3600"); })) << log();
  // The temporary file the Go figures go to, from the child's arguments.
  const std::string args = zaptest::read_text(started);
  const std::size_t at = args.find("/tmp/zapbench-go-micro-");
  const std::string json_out =
      at == std::string::npos ? "" : args.substr(at, args.find_first_of(" \n", at) - at);
  kill(pid_, SIGINT);
  int st = 0;
  ASSERT_TRUE(zaptest::await([&] { return waitpid(pid_, &st, WNOHANG) == pid_; })) << log();
  pid_ = 0;
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 130) << "status " << st << ":\n" << log();
  for (const Tagged& t : tagged(token_)) ADD_FAILURE() << "left running: " << t.pid << " " << t.cmdline;
  EXPECT_NE(log().find("zapbench micro: interrupted (SIGINT)"), std::string::npos) << log();
  EXPECT_FALSE(json_out.empty()) << "the Go child names no /tmp/zapbench-go-micro-* file";
  if (!json_out.empty()) {
    EXPECT_FALSE(fs::exists(json_out)) << json_out << " is left";
  }
}

// The instruction counts under callgrind: every request path of the server
// (dozens of cases, seconds each under valgrind), interrupted in the first.
TEST_F(run_interrupt, in_the_instruction_counts) {
  if (proc::kSanitized) GTEST_SKIP() << "valgrind cannot run a sanitized zapbench: no callgrind phase";
  if (access("/usr/bin/valgrind", X_OK) != 0) GTEST_SKIP() << "valgrind is not installed";
  start(run_args({"--arms", "floor", "--micro-filter", "^Server/", "--micro-repetitions", "1",
                  "--micro-min-time", "0.01"}));
  ASSERT_TRUE(await_phase("instructions per request", "--tool=callgrind"));
  const report::Results r = interrupt(SIGTERM);
  EXPECT_EQ(r.interrupted, "SIGTERM during the instruction counts");
  EXPECT_FALSE(r.micro.figures.empty()) << "the microbenchmarks measured before are kept";
}

// An end-to-end sample of the zapbench arm, by Ctrl-C: server and loader end.
TEST_F(run_interrupt, in_a_zapbench_sample) {
  start(run_args({"--no-micro", "--arms", "zapbench", "--framings", "http"}));
  ASSERT_TRUE(await_phase("[e2e] ", " serve "));
  ASSERT_TRUE(zaptest::await([&] { return any_runs(token_, " load "); })) << log();
  const report::Results r = interrupt(SIGINT);
  EXPECT_EQ(r.interrupted, "SIGINT during the end-to-end samples");
  EXPECT_EQ(samples(r), 0u) << "the sample it cut short is not recorded";
  ASSERT_FALSE(r.cells.empty());
}

// The cells of `args` as a dry run lists them; "" when one is unavailable (the reason).
std::string unavailable(const std::vector<std::string>& args, const fs::path& dir) {
  std::string cmd = std::string(ZAPBENCH_BIN);
  for (const std::string& a : args) cmd += " '" + a + "'";
  cmd += " --dry-run >" + (dir / "dry.log").string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) return "the dry run failed: " + zaptest::read_text(dir / "dry.log");
  const std::string out = zaptest::read_text(dir / "dry.log");
  const std::size_t at = out.find(": unavailable: ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

// An end-to-end sample of the grpc++ arm (zapbench-grpc serve).
TEST_F(run_interrupt, in_a_grpc_cpp_sample) {
  const std::vector<std::string> args =
      run_args({"--no-micro", "--arms", "grpc-cpp", "--framings", "grpc", "--scenarios", "rpc"});
  if (const std::string why = unavailable(args, dir_); !why.empty()) GTEST_SKIP() << why;
  start(args);
  ASSERT_TRUE(await_phase("[e2e] ", "zapbench-grpc"));
  const report::Results r = interrupt(SIGTERM);
  EXPECT_EQ(r.interrupted, "SIGTERM during the end-to-end samples");
  EXPECT_EQ(samples(r), 0u);
}

// An end-to-end sample of a Go arm (zapbench-go serve).
TEST_F(run_interrupt, in_a_go_sample) {
  const std::vector<std::string> args =
      run_args({"--no-micro", "--arms", "go-fasthttp", "--framings", "http"});
  if (const std::string why = unavailable(args, dir_); !why.empty()) GTEST_SKIP() << why;
  start(args);
  ASSERT_TRUE(await_phase("[e2e] ", "zapbench-go"));
  const report::Results r = interrupt(SIGTERM);
  EXPECT_EQ(r.interrupted, "SIGTERM during the end-to-end samples");
  EXPECT_EQ(samples(r), 0u);
}

// The namespace mode's hosts, interrupted once their sshds run (root, sshd
// and nc; skipped otherwise): every namespace and the keys' directory removed.
TEST_F(run_interrupt, in_the_hosts_set_up) {
  if (geteuid() != 0) GTEST_SKIP() << "the namespace mode needs root";
  if (access("/usr/sbin/sshd", X_OK) != 0 || access("/usr/bin/nc", X_OK) != 0)
    GTEST_SKIP() << "the namespace mode needs sshd and nc";
  start(run_args({"--no-micro", "--netns", "1", "--arms", "zapbench", "--framings", "http"}));
  netns_pid_ = pid_;
  ASSERT_TRUE(await_phase("as network namespaces", "sshd"));
  const pid_t run_pid = pid_;
  const report::Results r = interrupt(SIGTERM);
  // The sshds run from the set-up to the teardown: the signal lands in the
  // set-up or, on a machine that finished it meanwhile, in the sample after.
  EXPECT_TRUE(r.interrupted == "SIGTERM during the hosts' set-up" ||
              r.interrupted == "SIGTERM during the end-to-end samples")
      << r.interrupted;
  EXPECT_EQ(netns_list().find("zb" + std::to_string(run_pid) + "-"), std::string::npos) << netns_list();
  std::error_code ec;
  for (auto it = fs::directory_iterator(fs::temp_directory_path(), ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    EXPECT_NE(it->path().filename().string().rfind("zapbench-netns-" + std::to_string(run_pid) + "-", 0), 0u)
        << "left: " << it->path();
}

}  // namespace
