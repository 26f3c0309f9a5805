// tests/bench_remote_child_test.cpp — a child on another host and the
// preflight (docs/spec/hosts.md §2–§3, bench/hosts/remote_child.hpp, bench/hosts/ssh.hpp),
// over tests/support/fake_ssh.sh: the real `zapbench child` agent and
// `zapbench host-info` run on this host as they would behind sshd; a host
// named down* fails like an unreachable one. Every process a test starts is
// gone when it ends (RemoteChild closes its session; the agent kills what it
// started), which the tests check by pid.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/run/host.hpp"
#include "bench/hosts/remote_child.hpp"
#include "bench/hosts/ssh.hpp"
#include "bench/children/supervisor.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"
#include "proc/machine.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kFakeSsh = std::string(ZAPBENCH_SOURCE_DIR) + "/tests/support/fake_ssh.sh";

// The first line of `zapbench --version`: what host-info must report.
std::string local_version() {
  std::string out;
  if (std::FILE* f = popen((std::string(ZAPBENCH_BIN) + " --version").c_str(), "r")) {
    char b[512];
    if (std::fgets(b, sizeof b, f) != nullptr) out = b;
    pclose(f);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// GET /health on 127.0.0.1:port; the status line of the answer ("" when none).
std::string health_status_line(std::uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string in;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    const std::string req = "GET /health HTTP/1.1\r\nHost: t\r\n\r\n";
    if (send(fd, req.data(), req.size(), MSG_NOSIGNAL) == ssize_t(req.size())) {
      while (in.find("\r\n") == std::string::npos) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, int(zaptest::kHang.count())) <= 0) break;
        char b[1024];
        const ssize_t n = read(fd, b, sizeof b);
        if (n <= 0) break;
        in.append(b, std::size_t(n));
      }
    }
  }
  close(fd);
  return in.substr(0, in.find("\r\n"));
}

// A process that is gone or a zombie (killed, not yet reaped by whoever inherited it).
bool process_exists(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return false;
  const std::string stat = zaptest::read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto paren = stat.rfind(')');
  return paren == std::string::npos || stat.size() < paren + 3 || stat[paren + 2] != 'Z';
}

class RemoteChildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ssh_.program = kFakeSsh;
    ssh_.remote_zapbench = ZAPBENCH_BIN;
  }

  // A spec whose log is in the scratch directory.
  bench::ServerLaunch spec(std::vector<std::string> argv, bool ready = false) {
    bench::ServerLaunch s;
    s.spec.argv = std::move(argv);
    s.spec.ready_channel = ready;
    s.spec.log_path = (scratch_ / "remote.log").string();
    return s;
  }

  // An agent driven by hand (stdin and stdout piped), started on a program
  // that writes its pid (`pid`) and sleeps.
  bench::Child start_agent(pid_t& pid) {
    bench::ChildSpec s;
    s.argv = {ZAPBENCH_BIN, "child", "--",
              "/bin/sh",    "-c",    "echo $$ > " + (scratch_ / "pid").string() + "; exec sleep 1000"};
    s.log_path = (scratch_ / "agent.log").string();
    s.pipe_stdio = true;
    bench::Child agent(s);
    if (write(agent.stdin_fd(), "start\n", 6) == 6) pid = pid_from(scratch_ / "pid");
    return agent;
  }

  // The pid a program wrote (`echo $$ > FILE`), once the whole line is there.
  pid_t pid_from(const fs::path& file) {
    std::string text;
    EXPECT_TRUE(zaptest::await([&] {
      text = zaptest::read_text(file);
      return !text.empty() && text.back() == '\n';
    })) << "no pid in "
        << file << "\n"
        << zaptest::read_text(scratch_ / "remote.log");
    return text.empty() ? -1 : pid_t(std::stol(text));
  }

  zaptest::Scratch scratch_{"remote_child_test"};
  bench::SshConfig ssh_;
};

TEST_F(RemoteChildTest, ServesThenStopsWithItsCpuTime) {
  bench::RemoteChild rc(ssh_, "host1", spec({ZAPBENCH_BIN, "serve", "--http", "127.0.0.1:0"}, true));
  EXPECT_EQ(rc.host(), "host1");
  const std::vector<proc::ReadyListener> ready = rc.wait_ready(zaptest::kHangS);
  ASSERT_EQ(ready.size(), 1u) << zaptest::read_text(scratch_ / "remote.log");
  EXPECT_EQ(ready[0].kind, "http");
  EXPECT_EQ(ready[0].host, "127.0.0.1");
  ASSERT_NE(ready[0].port, 0);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(health_status_line(ready[0].port), "HTTP/1.1 200 OK");
  const bench::ExitStatus st = rc.stop(zaptest::kHangS);
  EXPECT_TRUE(st.ok()) << st.describe() << "\n" << zaptest::read_text(scratch_ / "remote.log");
  EXPECT_GT(st.cpu_s, 0);  // a process that started and served has run: its CPU time is never 0
  EXPECT_LT(st.cpu_s, 1e4);
  EXPECT_TRUE(st.lost.empty());
  // The program's output reached the local log through ssh's stderr.
  EXPECT_NE(zaptest::read_text(scratch_ / "remote.log").find("zapbench child: started"), std::string::npos);
  // A second wait gives the same report.
  EXPECT_EQ(rc.wait(1).describe(), st.describe());
}

TEST_F(RemoteChildTest, TmpdirFilesPortAndWaitAccepting) {
  const fs::path seen = scratch_ / "seen";
  bench::ServerLaunch s = spec({"/bin/sh", "{tmpdir}/run.sh", seen.string()});
  s.tmpdir = true;
  s.wait_accepting = true;
  // A program with no ready channel: it learns its port and directory from the file.
  s.files.push_back({"run.sh",
                     "echo '{tmpdir} {port}' > \"$1\"\n"
                     "exec python3 -m http.server --bind 127.0.0.1 --directory '{tmpdir}' {port}\n"});
  bench::RemoteChild rc(ssh_, "host1", s);
  const std::vector<proc::ReadyListener> ready = rc.wait_ready(zaptest::kHangS);
  ASSERT_EQ(ready.size(), 1u) << zaptest::read_text(scratch_ / "remote.log");
  EXPECT_EQ(ready[0].kind, "http");
  EXPECT_EQ(ready[0].host, "0.0.0.0");
  const std::string text = zaptest::read_text(seen);
  const auto space = text.find(' ');
  ASSERT_NE(space, std::string::npos) << text;
  const fs::path tmpdir = text.substr(0, space);
  EXPECT_EQ(std::stoi(text.substr(space + 1)), ready[0].port) << text;
  EXPECT_TRUE(fs::is_directory(tmpdir)) << tmpdir;
  EXPECT_TRUE(fs::exists(tmpdir / "run.sh"));
  EXPECT_EQ(tmpdir.filename().string().rfind("zapbench-child-", 0), 0u) << tmpdir;
  EXPECT_NE(health_status_line(ready[0].port).find("HTTP/1.0 404"), std::string::npos);
  const bench::ExitStatus st = rc.stop(zaptest::kHangS);
  EXPECT_TRUE(st.lost.empty()) << st.describe();
  EXPECT_FALSE(st.hung);
  EXPECT_EQ(st.describe(), "signal 15");  // python's default SIGTERM
  EXPECT_FALSE(fs::exists(tmpdir)) << "the agent left " << tmpdir;
}

TEST_F(RemoteChildTest, WaitAcceptingWithoutAPortIsRefused) {
  bench::ServerLaunch s = spec({"/bin/sleep", "1000"});
  s.wait_accepting = true;
  bench::RemoteChild rc(ssh_, "host1", s);
  EXPECT_TRUE(rc.wait_ready(zaptest::kHangS).empty());
  const bench::ExitStatus st = rc.wait(zaptest::kHangS);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.lost, "ssh: exit 2: zapbench child: --wait-accepting needs {port} in an argument or a file");
}

TEST_F(RemoteChildTest, AFileNameWithASlashIsRefusedBeforeAnythingStarts) {
  bench::ServerLaunch s = spec({"/bin/true"});
  s.tmpdir = true;
  s.files.push_back({"../x", "text"});
  EXPECT_THROW(bench::RemoteChild(ssh_, "host1", s), std::runtime_error);
}

// An agent that says something else than §3's reports (here a script standing in for the remote
// zapbench, which then hangs): the session is ended at once and lost with the protocol error.
TEST_F(RemoteChildTest, ReportsThatAreNotTheProtocolEndTheSession) {
  const fs::path fake = scratch_ / "not_zapbench.sh";
  zaptest::write_bytes(fake, "#!/bin/sh\nprintf 'ready http 127.0.0.1:1\\nWelcome!\\n'\nexec sleep 1000\n");
  fs::permissions(fake, fs::perms::owner_all);
  ssh_.remote_zapbench = fake.string();
  bench::RemoteChild rc(ssh_, "host1", spec({"/bin/true"}, true));
  EXPECT_TRUE(rc.wait_ready(zaptest::kHangS).empty());
  const bench::ExitStatus st = rc.wait(zaptest::kHangS);
  EXPECT_EQ(st.lost, "zapbench child's reports: unexpected line \"Welcome!\"");
  EXPECT_FALSE(st.ok());
}

TEST_F(RemoteChildTest, AnUnreachableHostIsLostWithSshsMessage) {
  bench::RemoteChild rc(ssh_, "down1", spec({ZAPBENCH_BIN, "serve", "--http", "127.0.0.1:0"}, true));
  EXPECT_TRUE(rc.wait_ready(zaptest::kHangS).empty());
  const bench::ExitStatus st = rc.wait(zaptest::kHangS);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.lost, "ssh: exit 255: ssh: connect to host down1 port 22: Connection refused");
  EXPECT_EQ(st.describe(), st.lost);
}

TEST_F(RemoteChildTest, DestroyingItKillsTheRemoteProgram) {
  const fs::path pid_file = scratch_ / "pid";
  pid_t pid = -1;
  {
    bench::RemoteChild rc(ssh_, "host1",
                          spec({"/bin/sh", "-c", "echo $$ > " + pid_file.string() + "; exec sleep 1000"}));
    pid = pid_from(pid_file);
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(process_exists(pid));
  }
  EXPECT_FALSE(process_exists(pid)) << "pid " << pid << " outlived its RemoteChild";
  if (process_exists(pid)) kill(pid, SIGKILL);
}

TEST_F(RemoteChildTest, AProgramKilledFromOutsideIsReported) {
  const fs::path pid_file = scratch_ / "pid";
  bench::RemoteChild rc(ssh_, "host1",
                        spec({"/bin/sh", "-c", "echo $$ > " + pid_file.string() + "; exec sleep 1000"}));
  const pid_t pid = pid_from(pid_file);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  const bench::ExitStatus st = rc.wait(zaptest::kHangS);
  EXPECT_EQ(st.describe(), "signal 9");
  EXPECT_EQ(st.signal, 9);
  EXPECT_TRUE(st.lost.empty());
}

TEST_F(RemoteChildTest, AProgramThatExitsReportsItsCode) {
  // Pinned and with its variables, as a local Child; its output in the local log.
  const int cpu = proc::allowed_cpus().back();
  bench::ServerLaunch s = spec(
      {"/bin/sh", "-c", "echo \"env=$ZB_REMOTE_TEST\"; grep Cpus_allowed_list /proc/self/status; exit 7"});
  s.spec.env = {"ZB_REMOTE_TEST=a b"};
  s.spec.cpus = {cpu};
  bench::RemoteChild rc(ssh_, "host1", s);
  const bench::ExitStatus st = rc.wait(zaptest::kHangS);
  EXPECT_EQ(st.describe(), "exit 7");
  const std::string log = zaptest::read_text(scratch_ / "remote.log");
  EXPECT_NE(log.find("env=a b\n"), std::string::npos) << log;
  EXPECT_NE(log.find("Cpus_allowed_list:\t" + std::to_string(cpu) + "\n"), std::string::npos) << log;
}

// The agent alone, as sshd would run it: end of file before `start` ends it
// and nothing is started.
TEST_F(RemoteChildTest, AgentEndOfFileBeforeStartStartsNothing) {
  const fs::path marker = scratch_ / "started";
  bench::ChildSpec s;
  s.argv = {ZAPBENCH_BIN, "child", "--", "/bin/sh", "-c", "echo yes > " + marker.string()};
  s.log_path = (scratch_ / "agent.log").string();
  s.pipe_stdio = true;
  bench::Child agent(s);
  agent.close_stdin();
  const bench::ExitStatus st = agent.wait(zaptest::kHangS);
  EXPECT_EQ(st.describe(), "exit 3") << zaptest::read_text(scratch_ / "agent.log");
  EXPECT_FALSE(fs::exists(marker));
}

// The agent given `input` on its stdin (then end of file): how it ended, its stderr in agent.log.
bench::ExitStatus run_agent(const zaptest::Scratch& scratch, std::vector<std::string> flags,
                            const std::string& input) {
  bench::ChildSpec s;
  s.argv = {ZAPBENCH_BIN, "child"};
  s.argv.insert(s.argv.end(), flags.begin(), flags.end());
  s.argv.insert(s.argv.end(), {"--", "/bin/sh", "-c", "echo yes > " + (scratch / "started").string()});
  s.log_path = (scratch / "agent.log").string();
  s.pipe_stdio = true;
  bench::Child agent(s);
  EXPECT_EQ(write(agent.stdin_fd(), input.data(), input.size()), ssize_t(input.size()));
  agent.close_stdin();
  return agent.wait(zaptest::kHangS);
}

TEST_F(RemoteChildTest, AgentRefusesWhatItCannotDo) {
  EXPECT_EQ(run_agent(scratch_, {}, "bogus\n").describe(), "exit 2");
  EXPECT_EQ(zaptest::read_text(scratch_ / "agent.log"), "zapbench child: bad control line: \"bogus\"\n");
  EXPECT_EQ(run_agent(scratch_, {}, "file a 1\nxstart\n").describe(), "exit 2");
  EXPECT_EQ(zaptest::read_text(scratch_ / "agent.log"), "zapbench child: file a: needs --tmpdir\n");
  EXPECT_EQ(run_agent(scratch_, {"--tmpdir"}, "file a/b 1\nx").describe(), "exit 2");
  EXPECT_EQ(zaptest::read_text(scratch_ / "agent.log"),
            "zapbench child: file \"a/b\": wants a name without '/'\n");
  EXPECT_EQ(run_agent(scratch_, {"--tmpdir"}, "file a -1\n").describe(), "exit 2");
  EXPECT_EQ(zaptest::read_text(scratch_ / "agent.log"), "zapbench child: bad control line: \"file a -1\"\n");
  // The bounds (bench/hosts/remote_protocol.hpp): a file over 1 MiB is refused before its bytes come.
  EXPECT_EQ(run_agent(scratch_, {"--tmpdir"}, "file big 1048577\n").describe(), "exit 2");
  EXPECT_EQ(zaptest::read_text(scratch_ / "agent.log"),
            "zapbench child: file \"big\": 1048577 bytes, more than the bound of 1048576\n");
  EXPECT_EQ(run_agent(scratch_, {}, std::string(5000, 'x')).describe(), "exit 2");
  EXPECT_EQ(zaptest::read_text(scratch_ / "agent.log"),
            "zapbench child: a control line longer than 4096 bytes\n");
  EXPECT_FALSE(fs::exists(scratch_ / "started"));
  // `stop` before `start`: nothing started, nothing to report, a clean exit.
  EXPECT_EQ(run_agent(scratch_, {}, "stop\n").describe(), "exit 0");
  EXPECT_FALSE(fs::exists(scratch_ / "started"));
}

// End of file after `start`: the program's group is killed at once.
TEST_F(RemoteChildTest, AgentEndOfFileAfterStartKillsTheProgram) {
  pid_t pid = -1;
  bench::Child agent = start_agent(pid);
  ASSERT_GT(pid, 0);
  agent.close_stdin();
  const bench::ExitStatus st = agent.wait(zaptest::kHangS);
  EXPECT_EQ(st.describe(), "exit 3") << zaptest::read_text(scratch_ / "agent.log");
  EXPECT_FALSE(process_exists(pid));
}

// An overlong control line after `start`: the program's group is killed and
// the agent exits 2 with the reason (the coordinator shows it as `lost`).
TEST_F(RemoteChildTest, AgentOverlongLineAfterStartKillsTheProgram) {
  pid_t pid = -1;
  bench::Child agent = start_agent(pid);
  ASSERT_GT(pid, 0);
  const std::string line(5000, 'y');
  ASSERT_EQ(write(agent.stdin_fd(), line.data(), line.size()), ssize_t(line.size()));
  const bench::ExitStatus st = agent.wait(zaptest::kHangS);
  const std::string log = zaptest::read_text(scratch_ / "agent.log");
  EXPECT_EQ(st.describe(), "exit 2") << log;
  EXPECT_NE(log.find("zapbench child: a control line longer than 4096 bytes\n"), std::string::npos) << log;
  EXPECT_FALSE(process_exists(pid));
}

// ---------------------------------------------------------------- preflight

class PreflightTest : public RemoteChildTest {
 protected:
  // An executable script standing in for the remote zapbench.
  std::string script(const std::string& name, const std::string& body) {
    const fs::path p = scratch_ / name;
    zaptest::write_bytes(p, "#!/bin/sh\n" + body);
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
  std::string preflight_error(const std::vector<bench::HostCheck>& hosts,
                              double timeout_s = zaptest::kHangS) {
    try {
      bench::preflight(ssh_, hosts, local_version(), timeout_s);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(PreflightTest, HostInfoRoundTrip) {
  const bench::HostInfo h = bench::parse_host_info(bench::host_info_text("zapbench 9.9.9 commit x (R: -O2)"));
  EXPECT_EQ(h.version, "zapbench 9.9.9 commit x (R: -O2)");
  EXPECT_EQ(h.cpu_model, proc::cpu_model());
  EXPECT_EQ(h.kernel, proc::kernel_name().kernel);
  EXPECT_EQ(h.hostname, proc::kernel_name().hostname);
  EXPECT_EQ(h.cpu_count, proc::online_cpus());
  EXPECT_EQ(h.allowed_cpus, proc::allowed_cpus());
}

TEST_F(PreflightTest, UnreadableHostInfo) {
  const auto error = [](const std::string& text) {
    try {
      bench::parse_host_info(text);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string good = bench::host_info_text("zapbench 1");
  EXPECT_EQ(error("garbage\n"), "host-info output unreadable: garbage");
  EXPECT_EQ(error("version: zapbench 1\n"), "host-info output unreadable: no hostname line");
  EXPECT_EQ(error(good + "cpu_count: many\n"), "host-info output unreadable: cpu_count: many");
  EXPECT_EQ(error(good + "allowed_cpus: 0-x\n"), "host-info output unreadable: allowed_cpus: 0-x");
  EXPECT_EQ(error(good + "later_key: ignored\n"), "(no error)");
  EXPECT_EQ(bench::last_line("a\nb\n\n  \n"), "b");
  EXPECT_EQ(bench::last_line(""), "");
}

TEST_F(PreflightTest, EveryHostOnceInOrderWithItsRole) {
  const std::string local = local_version();
  ASSERT_EQ(local.rfind("zapbench ", 0), 0u) << local;
  const std::vector<bench::HostInfo> info =
      bench::preflight(ssh_,
                       {{"host1", "server", {}},
                        {"root@host2", "loader", {proc::allowed_cpus().front()}},
                        {"host1", "loader", {}}},
                       local);
  ASSERT_EQ(info.size(), 3u);
  EXPECT_EQ(info[0].host, "host1");
  EXPECT_EQ(info[0].role, "server");
  EXPECT_EQ(info[1].host, "root@host2");
  EXPECT_EQ(info[1].role, "loader");
  EXPECT_EQ(info[2].host, "host1");
  EXPECT_EQ(info[2].role, "loader");
  for (const bench::HostInfo& h : info) {
    EXPECT_EQ(h.version, local);
    EXPECT_GE(h.cpu_count, 1u);
    EXPECT_FALSE(h.allowed_cpus.empty());
    EXPECT_FALSE(h.hostname.empty());
    EXPECT_EQ(h.kernel.rfind("Linux ", 0), 0u) << h.kernel;
  }
}

TEST_F(PreflightTest, AnUnreachableHostIsNamedWithSshsMessage) {
  EXPECT_EQ(preflight_error({{"host1", "server", {}}, {"down1", "loader", {}}, {"down2", "loader", {}}}),
            "host down1: ssh failed (exit 255): ssh: connect to host down1 port 22: Connection refused");
}

TEST_F(PreflightTest, ADifferentBuildIsRefused) {
  ssh_.remote_zapbench =
      script("zapbench", R"(printf 'version: zapbench 0.0.1 commit 111111111111 (Debug: -O0)
hostname: h
kernel: Linux 1
cpu_model: m
cpu_count: 2
allowed_cpus: 0-1
'
)");
  EXPECT_EQ(
      preflight_error({{"h1", "server", {}}}),
      "host h1: zapbench differs: remote \"zapbench 0.0.1 commit 111111111111 (Debug: -O0)\", local \"" +
          local_version() + "\"");
}

TEST_F(PreflightTest, ACpuNotAllowedIsRefused) {
  const std::string allowed = [] {
    std::string s;
    for (int c : proc::allowed_cpus()) s += (s.empty() ? "" : ",") + std::to_string(c);
    return s;
  }();
  EXPECT_EQ(preflight_error({{"h1", "server", {}}, {"h1", "loader", {4095}}}),
            "host h1: CPU 4095 is not among its allowed CPUs " + allowed);
}

TEST_F(PreflightTest, OutputThatDoesNotParseIsRefused) {
  ssh_.remote_zapbench = script("zapbench", "echo 'hello there'\n");
  EXPECT_EQ(preflight_error({{"h1", "server", {}}}), "host h1: host-info output unreadable: hello there");
}

TEST_F(PreflightTest, ARemoteCommandThatFailsIsNamed) {
  ssh_.remote_zapbench = script("zapbench", "echo 'zapbench: unknown command' >&2; exit 2\n");
  EXPECT_EQ(preflight_error({{"h1", "server", {}}}),
            "host h1: zapbench host-info failed (exit 2): zapbench: unknown command");
}

TEST_F(PreflightTest, AHostThatDoesNotAnswerIsBounded) {
  const fs::path pid_file = scratch_ / "pid";
  ssh_.remote_zapbench = script("zapbench", "echo $$ > " + pid_file.string() + "\nexec sleep 1000\n");
  EXPECT_EQ(preflight_error({{"h1", "server", {}}}, 0.5), "host h1: no answer within 500ms");
  const std::string pid = zaptest::read_text(pid_file);
  // The probe's group was SIGKILLed; the orphaned sleep dies when the signal is delivered.
  if (!pid.empty()) {
    EXPECT_TRUE(zaptest::await([&] { return !process_exists(pid_t(std::stol(pid))); }))
        << "the probe outlived the preflight";
  }
}

}  // namespace
