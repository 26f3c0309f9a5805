// tests/bench/bench_netns_test.cpp — the namespace mode (bench/hosts/netns.hpp) on
// real namespaces, sshd and ssh: each host answers over ssh from its own
// namespace with its own address; a TCP connection crosses the bridge from a
// loader to the server; --link-rate installs a qdisc (never a speed
// asserted) and --link-delay needs netem (refused with the reason where the
// kernel has none); invalid options, not being root and a step failing
// midway leave nothing; teardown is idempotent and leaves no namespace, sshd
// or directory; a killed run's namespaces and directory are swept by the
// next one, a live run's are not. Root, sshd and nc needed: skipped otherwise.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/children/supervisor.hpp"
#include "bench/hosts/netns.hpp"
#include "bench/hosts/ssh.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kPrefix = "zb" + std::to_string(getpid()) + "-";

struct Ran {
  bench::ExitStatus status;
  std::string output;
};

class bench_netns : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "the namespace mode needs root";
    if (access("/usr/sbin/sshd", X_OK) != 0) GTEST_SKIP() << "no /usr/sbin/sshd (openssh-server)";
    if (proc::find_program("nc").empty()) GTEST_SKIP() << "no nc (netcat-openbsd)";
    ip_ = proc::find_program("ip");
    ASSERT_FALSE(ip_.empty());
    scratch_.emplace("netns_test");
  }
  void TearDown() override {
    // What a test made by hand, removed also when it failed midway.
    for (const std::string& ns : by_hand_) run({ip_, "netns", "del", ns});
    for (const fs::path& d : by_hand_dirs_) fs::remove_all(d);
    scratch_.reset();
  }

  // Runs a command (argv, no shell) to its end; its exit and its output.
  Ran run(const std::vector<std::string>& argv) {
    const fs::path log = scratch_->path() / ("command" + std::to_string(++commands_) + ".log");
    bench::Child c(bench::ChildSpec{argv, {}, log.string(), false, {}});
    Ran r{c.wait(zaptest::kHangS), zaptest::read_text(log)};
    return r;
  }
  // A command on a host over the mode's ssh config (ssh_argv: the run's own options).
  Ran over_ssh(const bench::NetnsHosts& h, const std::string& host, const std::vector<std::string>& remote) {
    bench::SshConfig ssh = h.ssh();
    ssh.program = proc::find_program(ssh.program);  // a ChildSpec's argv[0] is a path
    return run(bench::ssh_argv(ssh, host, remote));
  }
  void make_namespace_by_hand(const std::string& ns) {
    by_hand_.push_back(ns);
    const Ran r = run({ip_, "netns", "add", ns});
    ASSERT_TRUE(r.status.ok()) << r.output;
  }

  std::optional<zaptest::Scratch> scratch_;
  std::string ip_;
  std::vector<std::string> by_hand_;
  std::vector<fs::path> by_hand_dirs_;
  int commands_ = 0;
};

// The names under /run/netns starting with `prefix`.
std::vector<std::string> namespaces_named(const std::string& prefix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/run/netns", ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    if (it->path().filename().string().rfind(prefix, 0) == 0) out.push_back(it->path().filename().string());
  return out;
}

// The processes whose command line mentions `text` (our sshds: their config is in our directory).
std::vector<std::string> processes_mentioning(const std::string& text) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/proc", ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string pid = it->path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(getpid())) continue;
    std::string cmdline = zaptest::read_text(it->path() / "cmdline");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find(text) != std::string::npos) out.push_back(pid + ": " + cmdline);
  }
  return out;
}

// The netns mode's own directories in the temp directory of a pid.
std::vector<std::string> directories_of(pid_t pid) {
  std::vector<std::string> out;
  const std::string prefix = "zapbench-netns-" + std::to_string(pid) + "-";
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
  return out;
}

// Nothing of this process's namespace mode left: namespaces, sshds, directories.
void expect_nothing_left(const std::string& dir) {
  EXPECT_EQ(namespaces_named(kPrefix), std::vector<std::string>{});
  EXPECT_EQ(directories_of(getpid()), std::vector<std::string>{});
  if (!dir.empty()) {
    EXPECT_FALSE(fs::exists(dir)) << dir;
    EXPECT_EQ(processes_mentioning(dir), std::vector<std::string>{});
  }
}

TEST_F(bench_netns, hosts_answer_over_ssh_each_in_its_own_namespace_and_reach_the_server_across_the_bridge) {
  std::string dir;
  {
    bench::NetnsHosts h(bench::NetnsOptions{2, 0, ""});
    dir = fs::path(h.ssh().config_file).parent_path().string();
    EXPECT_EQ(h.server_host(), "root@10.251.0.1");
    EXPECT_EQ(h.loader_hosts(), (std::vector<std::string>{"root@10.251.0.2", "root@10.251.0.3"}));
    EXPECT_EQ(h.namespaces(),
              (std::vector<std::string>{kPrefix + "server", kPrefix + "loader1", kPrefix + "loader2"}));
    EXPECT_EQ(h.link(), "netns veth+bridge");
    EXPECT_EQ(h.ssh().program, "ssh");
    EXPECT_EQ(fs::status(dir).permissions() & fs::perms::all, fs::perms::owner_all) << dir;
    EXPECT_EQ(namespaces_named(kPrefix).size(), 4u);  // and the link's

    // Each host is its own namespace: its eth0 has its address, and no other host's.
    std::vector<std::string> hosts = {h.server_host()};
    hosts.insert(hosts.end(), h.loader_hosts().begin(), h.loader_hosts().end());
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      const Ran r = over_ssh(h, hosts[i], {"ip", "-o", "-4", "addr", "show"});
      ASSERT_TRUE(r.status.ok()) << hosts[i] << ": " << r.status.describe() << ": " << r.output;
      for (std::size_t j = 0; j < hosts.size(); ++j) {
        const std::string addr = "10.251.0." + std::to_string(j + 1) + "/24";
        EXPECT_EQ(r.output.find(addr) != std::string::npos, i == j) << hosts[i] << " shows " << addr << ":\n"
                                                                    << r.output;
      }
      EXPECT_NE(r.output.find("127.0.0.1/8"), std::string::npos) << r.output;  // lo up
    }

    // A TCP connection from loader1's namespace to a listener in the server's, across the bridge.
    const fs::path got = scratch_->path() / "listener.log";
    bench::Child listener(
        bench::ChildSpec{{ip_, "netns", "exec", h.namespaces()[0], "nc", "-l", "10.251.0.1", "7341"},
                         {},
                         got.string(),
                         false,
                         {}});
    // Until the listener is up the connection is refused (exit 1): retried.
    Ran sent;
    ASSERT_TRUE(zaptest::await([&] {
      sent = run({ip_, "netns", "exec", h.namespaces()[1], "sh", "-c",
                  "echo across the bridge | nc -N 10.251.0.1 7341"});
      if (!sent.status.ok()) usleep(20'000);
      return sent.status.ok();
    })) << sent.output;
    const bench::ExitStatus st = listener.wait(zaptest::kHangS);
    EXPECT_TRUE(st.ok()) << st.describe();
    EXPECT_EQ(zaptest::read_text(got), "across the bridge\n");
    // The machine's own namespace has no such address: the hosts live apart from it.
    const Ran own = run({ip_, "-o", "-4", "addr", "show"});
    EXPECT_EQ(own.output.find("10.251.0."), std::string::npos) << own.output;

    // A process a test leaves in a namespace goes with the teardown.
    bench::Child left(
        bench::ChildSpec{{ip_, "netns", "exec", h.namespaces()[2], "sleep", "600"}, {}, "", false, {}});
    h.teardown();
    expect_nothing_left(dir);
    const bench::ExitStatus left_st = left.wait(zaptest::kHangS);
    EXPECT_EQ(left_st.signal, SIGKILL) << left_st.describe();
    h.teardown();  // idempotent
    expect_nothing_left(dir);
  }  // and the destructor after it
  expect_nothing_left(dir);
}

TEST_F(bench_netns, the_destructor_alone_removes_everything) {
  std::string dir;
  {
    bench::NetnsHosts h(bench::NetnsOptions{1, 0, ""});
    dir = fs::path(h.ssh().config_file).parent_path().string();
    EXPECT_FALSE(processes_mentioning(dir).empty());  // the sshds, while they run
  }
  expect_nothing_left(dir);
}

TEST_F(bench_netns, a_rate_installs_a_qdisc_on_every_hosts_veth) {
  bench::NetnsHosts h(bench::NetnsOptions{2, 0, "100mbit"});
  const bool netem = h.link().find("netem") != std::string::npos;
  EXPECT_EQ(h.link(),
            netem ? "netns veth+bridge, netem rate 100mbit" : "netns veth+bridge, tbf rate 100mbit");
  for (const std::string& ns : h.namespaces()) {
    const Ran r = run({proc::find_program("tc"), "-n", ns, "qdisc", "show", "dev", "eth0"});
    ASSERT_TRUE(r.status.ok()) << r.output;
    EXPECT_NE(r.output.find(netem ? "qdisc netem" : "qdisc tbf"), std::string::npos)
        << ns << ": " << r.output;
    EXPECT_NE(r.output.find("rate 100Mbit"), std::string::npos) << ns << ": " << r.output;
  }
  // Shaped or not, the hosts answer.
  const Ran r = over_ssh(h, h.loader_hosts()[1], {"true"});
  EXPECT_TRUE(r.status.ok()) << r.output;
}

TEST_F(bench_netns, a_delay_needs_netem_and_is_refused_with_the_reason_where_the_kernel_has_none) {
  std::optional<bench::NetnsHosts> h;
  std::string error;
  try {
    h.emplace(bench::NetnsOptions{1, 1.5, "1gbit"});
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  if (h) {  // a kernel with sch_netem: the delay and the rate in one netem qdisc
    EXPECT_EQ(h->link(), "netns veth+bridge, netem delay 1.5ms rate 1gbit");
    for (const std::string& ns : h->namespaces()) {
      const Ran r = run({proc::find_program("tc"), "-n", ns, "qdisc", "show", "dev", "eth0"});
      EXPECT_NE(r.output.find("qdisc netem"), std::string::npos) << ns << ": " << r.output;
      EXPECT_NE(r.output.find("delay 1.5ms"), std::string::npos) << ns << ": " << r.output;
    }
    h.reset();
  } else {
    EXPECT_EQ(error,
              "--link-delay needs the kernel's netem qdisc (sch_netem), which this kernel does not have: tc: "
              "Specified qdisc kind is unknown");
  }
  expect_nothing_left("");
}

TEST_F(bench_netns, invalid_options_are_refused_before_anything_is_built) {
  EXPECT_THROW(bench::NetnsHosts(bench::NetnsOptions{0, 0, ""}), std::invalid_argument);
  EXPECT_THROW(bench::NetnsHosts(bench::NetnsOptions{17, 0, ""}), std::invalid_argument);
  EXPECT_THROW(bench::NetnsHosts(bench::NetnsOptions{1, -1, ""}), std::invalid_argument);
  EXPECT_THROW(bench::NetnsHosts(bench::NetnsOptions{1, 0, "fast"}), std::invalid_argument);
  EXPECT_THROW(bench::NetnsHosts(bench::NetnsOptions{1, 0, "10furlongs"}), std::invalid_argument);
  expect_nothing_left("");
}

TEST_F(bench_netns, a_user_other_than_root_is_refused_with_the_reason) {
  // In a forked child that gives up root (the test itself stays root).
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) _exit(3);
    try {
      bench::NetnsHosts h(bench::NetnsOptions{1, 0, ""});
    } catch (const std::runtime_error& e) {
      _exit(std::string(e.what()) == "netns: the namespace mode needs root (it creates network namespaces)"
                ? 0
                : 1);
    }
    _exit(2);
  }
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "child status " << st;
  expect_nothing_left("");
}

TEST_F(bench_netns, a_step_failing_midway_removes_what_was_built_and_only_that) {
  // loader2's namespace exists already: its `ip netns add` fails after the
  // link's, the server's and loader1's were built (nothing else yet).
  const std::string taken = kPrefix + "loader2";
  make_namespace_by_hand(taken);
  std::string error;
  try {
    bench::NetnsHosts h(bench::NetnsOptions{3, 0, ""});
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("netns: creating namespace " + taken + ": "), std::string::npos) << error;
  EXPECT_NE(error.find("File exists"), std::string::npos) << error;       // ip's own message
  EXPECT_EQ(namespaces_named(kPrefix), std::vector<std::string>{taken});  // not ours to delete
  EXPECT_EQ(directories_of(getpid()), std::vector<std::string>{});
}

TEST_F(bench_netns, a_killed_runs_namespaces_and_directory_are_swept_and_a_live_runs_are_not) {
  // A pid that no process has (pids are below 2^22).
  pid_t dead = 4194303;
  while (kill(dead, 0) == 0 || errno != ESRCH) --dead;
  const std::string stale = "zb" + std::to_string(dead) + "-link";
  make_namespace_by_hand(stale);
  const fs::path stale_dir =
      fs::temp_directory_path() / ("zapbench-netns-" + std::to_string(dead) + "-Ab12Cd");
  by_hand_dirs_.push_back(stale_dir);
  fs::create_directories(stale_dir / "inside");
  // A process left in the stale namespace (a killed run's sshd, say).
  // Its output in a file: when it never becomes `sleep`, what `ip netns exec` said is the failure's text.
  const fs::path left_log =
      stale_dir.parent_path() / ("zapbench-netns-test-left-" + std::to_string(getpid()));
  by_hand_dirs_.push_back(left_log);
  bench::Child left(
      bench::ChildSpec{{ip_, "netns", "exec", stale, "sleep", "600"}, {}, left_log.string(), false, {}});
  // A live process's namespace: another run, in progress.
  const std::string live = "zb" + std::to_string(getppid()) + "-loader9";
  make_namespace_by_hand(live);
  ASSERT_TRUE(zaptest::await([&] {
    return !zaptest::read_text("/proc/" + std::to_string(left.pid()) + "/cmdline").empty() &&
           zaptest::read_text("/proc/" + std::to_string(left.pid()) + "/comm") == "sleep\n";
  })) << "`ip netns exec "
      << stale << " sleep 600` never became sleep; it said: " << zaptest::read_text(left_log);

  bench::NetnsHosts h(bench::NetnsOptions{1, 0, ""});
  EXPECT_EQ(namespaces_named(stale), std::vector<std::string>{});
  EXPECT_FALSE(fs::exists(stale_dir));
  const bench::ExitStatus st = left.wait(zaptest::kHangS);
  EXPECT_EQ(st.signal, SIGKILL) << st.describe();
  EXPECT_EQ(namespaces_named(live), std::vector<std::string>{live});
}

}  // namespace
