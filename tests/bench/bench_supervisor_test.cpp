// tests/bench_supervisor_test.cpp — the child-process supervisor
// (bench/children/supervisor.hpp) with small shell children: the ready channel
// (lines, then EOF; a child that dies first is not ready), pinning, the log,
// exit codes and signals, a child that ended before its stop told from one
// the stop ended, SIGTERM then SIGKILL for a child that ignores SIGTERM,
// piped stdin/stdout and a log on our own stderr (for ssh clients and
// zapbench child), RAII: a destroyed Child leaves no process, and the run's
// interrupt ending the child of the wait in progress. Every wait is for
// an event, bounded by a hang bound only.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "bench/children/supervisor.hpp"
#include "proc/interrupt.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;

class bench_supervisor_child : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("supervisor_test");
    dir_ = scratch_->path();
  }
  void TearDown() override { scratch_.reset(); }  // the child's log printed first if the test failed
  // A shell script as the child (no shell between us and it: sh is the program).
  bench::ChildSpec sh(const std::string& script, bool ready = false) {
    return bench::ChildSpec{{"/bin/sh", "-c", script, "child"}, {}, (dir_ / "log").string(), ready, {}};
  }
  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_;
};

bool gone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

TEST_F(bench_supervisor_child, env_adds_and_replaces_variables) {
  // The parent's environment reaches the child, less what spec.env replaces.
  setenv("ZAPBENCH_SUPERVISOR_KEEP", "kept", 1);
  setenv("ZAPBENCH_SUPERVISOR_SET", "parent", 1);
  bench::ChildSpec spec =
      sh(R"(echo "$ZAPBENCH_SUPERVISOR_KEEP $ZAPBENCH_SUPERVISOR_SET $ZAPBENCH_SUPERVISOR_NEW")");
  spec.env = {"ZAPBENCH_SUPERVISOR_SET=child", "ZAPBENCH_SUPERVISOR_NEW=new"};
  bench::Child c(spec);
  const bench::ExitStatus st = c.wait(zaptest::kHangS);
  unsetenv("ZAPBENCH_SUPERVISOR_KEEP");
  unsetenv("ZAPBENCH_SUPERVISOR_SET");
  ASSERT_TRUE(st.ok()) << st.describe();
  EXPECT_EQ(zaptest::read_text(dir_ / "log"), "kept child new\n");
}

TEST_F(bench_supervisor_child, pipe_stdio_carries_stdin_and_stdout_stderr_to_the_log) {
  // What an ssh client carrying a line protocol needs: we write its stdin, read its stdout; stderr is logged.
  bench::ChildSpec spec = sh("read line; echo \"got $line\"; echo to-log >&2");
  spec.pipe_stdio = true;
  bench::Child c(spec);
  ASSERT_GE(c.stdin_fd(), 0);
  ASSERT_GE(c.stdout_fd(), 0);
  ASSERT_EQ(write(c.stdin_fd(), "ping\n", 5), 5);
  c.close_stdin();
  EXPECT_EQ(c.stdin_fd(), -1);
  std::string out;
  char b[64];
  for (ssize_t n; (n = read(c.stdout_fd(), b, sizeof b)) > 0;)
    out.append(b, std::size_t(n));  // EOF: it exited
  EXPECT_EQ(out, "got ping\n");
  EXPECT_TRUE(c.wait(zaptest::kHangS).ok());
  EXPECT_EQ(zaptest::read_text(dir_ / "log"), "to-log\n");
}

TEST_F(bench_supervisor_child, log_to_stderr_shares_our_stderr) {
  // The child's stdout and stderr are our fd 2 (here redirected to a file we append to), never reopened.
  const fs::path err = dir_ / "our_stderr";
  const int saved = dup(STDERR_FILENO);
  const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "before\n", 7), 7);
  dup2(fd, STDERR_FILENO);
  close(fd);
  bench::ChildSpec spec = sh("echo out; echo err >&2");
  spec.log_to_stderr = true;
  spec.log_path = (dir_ / "unused").string();
  bench::ExitStatus st;
  {
    bench::Child c(spec);
    st = c.wait(zaptest::kHangS);
  }
  dup2(saved, STDERR_FILENO);
  close(saved);
  EXPECT_TRUE(st.ok()) << st.describe();
  EXPECT_EQ(zaptest::read_text(err), "before\nout\nerr\n");
  EXPECT_FALSE(fs::exists(dir_ / "unused"));
}

TEST_F(bench_supervisor_child, ready_channel_gives_every_listener_then_eof) {
  // The child finds the channel as "--ready-fd 3" after its own arguments ($1 $2 in sh).
  bench::Child c(sh(
      R"(fd=$2; eval "printf 'http 127.0.0.1:8080\nzap [::1]:9999\n' >&$fd"; eval "exec $fd>&-"; exec sleep 600)",
      true));
  const std::vector<proc::ReadyListener> ready = c.wait_ready(zaptest::kHangS);
  ASSERT_EQ(ready.size(), 2u) << zaptest::read_text(dir_ / "log");
  EXPECT_EQ(ready[0].kind, "http");
  EXPECT_EQ(ready[0].host, "127.0.0.1");
  EXPECT_EQ(ready[0].port, 8080);
  EXPECT_EQ(ready[1].kind, "zap");
  EXPECT_EQ(ready[1].host, "::1");
  EXPECT_EQ(ready[1].port, 9999);
  const bench::ExitStatus st = c.stop(zaptest::kHangS);
  EXPECT_FALSE(st.exited);
  EXPECT_EQ(st.signal, SIGTERM);
  EXPECT_FALSE(st.hung);
}

TEST_F(bench_supervisor_child, a_child_that_exits_before_announcing_is_not_ready) {
  bench::Child c(sh("exit 3", true));
  EXPECT_TRUE(c.wait_ready(zaptest::kHangS).empty());
  const bench::ExitStatus st = c.wait(zaptest::kHangS);
  EXPECT_TRUE(st.exited);
  EXPECT_EQ(st.code, 3);
  EXPECT_EQ(st.describe(), "exit 3");
  EXPECT_FALSE(st.ok());
}

TEST_F(bench_supervisor_child, output_goes_to_the_log_and_the_cpu_is_pinned) {
  const int cpu = sched_getcpu() >= 0 ? sched_getcpu() : 0;
  bench::ChildSpec spec = sh("grep Cpus_allowed_list /proc/self/status; echo to-stderr >&2");
  spec.cpus = {cpu};
  bench::Child c(spec);
  EXPECT_TRUE(c.wait(zaptest::kHangS).ok());
  const std::string log = zaptest::read_text(dir_ / "log");
  EXPECT_NE(log.find("Cpus_allowed_list:\t" + std::to_string(cpu) + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find("to-stderr"), std::string::npos) << log;
}

TEST_F(bench_supervisor_child, argv_reaches_the_program_untouched) {
  bench::Child c(bench::ChildSpec{{"/bin/sh", "-c", "printf '[%s]' \"$@\"", "sh", "a b", "$HOME", "'q'"},
                                  {},
                                  (dir_ / "log").string(),
                                  false,
                                  {}});
  EXPECT_TRUE(c.wait(zaptest::kHangS).ok());
  EXPECT_EQ(zaptest::read_text(dir_ / "log"), "[a b][$HOME]['q']");
}

TEST_F(bench_supervisor_child, a_missing_program_exits_127) {
  bench::Child c(bench::ChildSpec{{(dir_ / "no-such-program").string()}, {}, "", false, {}});
  const bench::ExitStatus st = c.wait(zaptest::kHangS);
  EXPECT_TRUE(st.exited);
  EXPECT_EQ(st.code, 127);
}

TEST_F(bench_supervisor_child, stop_kills_a_child_that_ignores_sigterm_after_the_grace) {
  // The child says when its trap is set, so SIGTERM cannot arrive before it.
  bench::Child c(sh(R"(trap '' TERM; echo trapped; while :; do sleep 1; done)"));
  ASSERT_TRUE(
      zaptest::await([&] { return zaptest::read_text(dir_ / "log").find("trapped") != std::string::npos; }));
  const bench::ExitStatus st = c.stop(0.2);  // a grace the child will never use: it ignores SIGTERM
  EXPECT_TRUE(st.hung);
  EXPECT_EQ(st.signal, SIGKILL);
  EXPECT_EQ(st.describe(), "hung: killed");
}

TEST_F(bench_supervisor_child, stop_tells_a_child_that_ended_by_itself_from_one_it_stopped) {
  // Killed from outside before the stop: its own end, marked, and no SIGTERM sent after it.
  bench::Child killed(sh("echo up; exec sleep 600"));
  ASSERT_TRUE(
      zaptest::await([&] { return zaptest::read_text(dir_ / "log").find("up") != std::string::npos; }));
  kill(killed.pid(), SIGKILL);
  ASSERT_TRUE(zaptest::await([&] {
    siginfo_t info{};
    return waitid(P_PID, id_t(killed.pid()), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0;
  }));
  const bench::ExitStatus st = killed.stop(zaptest::kHangS);
  EXPECT_TRUE(st.ended_before_stop);
  EXPECT_EQ(st.signal, SIGKILL);
  EXPECT_EQ(st.describe(), "signal 9");
  // Running when stopped: the stop's SIGTERM, not marked.
  bench::Child running(sh("exec sleep 600"));
  const bench::ExitStatus stopped = running.stop(zaptest::kHangS);
  EXPECT_FALSE(stopped.ended_before_stop);
  EXPECT_EQ(stopped.signal, SIGTERM);
}

TEST_F(bench_supervisor_child, wait_past_its_bound_kills_the_whole_group) {
  bench::Child c(sh("sleep 600 & echo $! > " + (dir_ / "grandchild").string() + "; wait"));
  ASSERT_TRUE(zaptest::await([&] { return !zaptest::read_text(dir_ / "grandchild").empty(); }));
  const pid_t grandchild = std::stoi(zaptest::read_text(dir_ / "grandchild"));
  EXPECT_TRUE(c.wait(0.1).hung);
  // The grandchild was in the child's group; once killed it is reaped by init.
  EXPECT_TRUE(zaptest::await([&] {
    std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
    std::string s;
    std::getline(stat, s);
    return s.empty() || s.find(") Z") != std::string::npos;
  }));
}

TEST_F(bench_supervisor_child, destroying_a_child_kills_and_reaps_it) {
  pid_t pid = -1;
  {
    bench::Child c(sh("exec sleep 600"));
    pid = c.pid();
    ASSERT_GT(pid, 0);
    EXPECT_FALSE(gone(pid));
    bench::Child moved = std::move(c);  // ownership moves; one kill, one reap
    EXPECT_EQ(c.pid(), -1);
  }
  EXPECT_TRUE(gone(pid));  // reaped: not even a zombie is left
}

// An interrupt of the run (proc/interrupt.hpp), by a real signal to this
// process: the wait in progress ends its child's whole group and throws; no
// child starts after it but a clean-up one; read_some throws too.
class bench_supervisor_interrupt : public bench_supervisor_child {
 protected:
  void SetUp() override {
    bench_supervisor_child::SetUp();
    proc::catch_interrupts();
  }
  void TearDown() override {
    proc::clear_interrupt();  // the next test (in this process) starts clean
    bench_supervisor_child::TearDown();
  }
};

TEST_F(bench_supervisor_interrupt, the_wait_in_progress_ends_the_group_and_throws) {
  const fs::path gc = dir_ / "grandchild";
  bench::Child c(sh("sleep 600 & echo $! > " + gc.string() + "; wait"));
  // Signalled once the grandchild runs, whether or not the wait has begun: either way it ends it.
  std::thread signaller([&] {
    if (zaptest::await([&] { return !zaptest::read_text(gc).empty(); })) kill(getpid(), SIGTERM);
  });
  int signal = 0;
  try {
    c.wait(zaptest::kHangS);
  } catch (const proc::Interrupted& i) {
    signal = i.signal;
  }
  signaller.join();
  EXPECT_EQ(signal, SIGTERM);
  EXPECT_EQ(c.pid(), -1) << "ended and reaped";
  const pid_t grandchild = std::stoi(zaptest::read_text(gc));
  EXPECT_TRUE(zaptest::await([&] {
    const std::string stat = zaptest::read_text("/proc/" + std::to_string(grandchild) + "/stat");
    return stat.empty() || stat.find(") Z") != std::string::npos;
  })) << "the grandchild outlived the interrupt";
}

TEST_F(bench_supervisor_interrupt, wait_ready_wakes_and_throws) {
  bench::Child c(sh("exec sleep 600", true));  // holds its ready channel open, never announces
  const pid_t pid = c.pid();
  kill(getpid(), SIGINT);
  EXPECT_THROW(c.wait_ready(zaptest::kHangS), proc::Interrupted);
  EXPECT_TRUE(gone(pid));
}

TEST_F(bench_supervisor_interrupt, no_child_starts_after_it_but_a_cleanup_one) {
  kill(getpid(), SIGTERM);
  EXPECT_EQ(proc::interrupt_signal(), SIGTERM);
  EXPECT_THROW(bench::Child(sh("true")), proc::Interrupted);
  bench::ChildSpec cleanup = sh("echo cleaned");
  cleanup.cleanup = true;
  bench::Child c(cleanup);
  EXPECT_TRUE(c.wait(zaptest::kHangS).ok());
  EXPECT_EQ(zaptest::read_text(dir_ / "log"), "cleaned\n");
}

TEST_F(bench_supervisor_interrupt, read_some_throws) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  kill(getpid(), SIGTERM);
  EXPECT_THROW(proc::read_some({p[0]}, int(zaptest::kHang.count()), [](std::size_t, std::string_view) {}),
               proc::Interrupted);
  close(p[0]);
  close(p[1]);
}

TEST(bench_supervisor, ready_lines_parse_strictly) {
  EXPECT_TRUE(proc::parse_ready_line("floor 127.0.0.1:1"));
  EXPECT_FALSE(proc::parse_ready_line("127.0.0.1:8080"));
  EXPECT_FALSE(proc::parse_ready_line("http 127.0.0.1"));
  EXPECT_FALSE(proc::parse_ready_line("http 127.0.0.1:"));
  EXPECT_FALSE(proc::parse_ready_line("http 127.0.0.1:65536"));
  EXPECT_FALSE(proc::parse_ready_line("http 127.0.0.1:80x"));
}

TEST(bench_supervisor, announced_lines_parse_back_and_end_with_eof) {
  const std::vector<proc::ReadyListener> sent = {{"http", "127.0.0.1", 8080}, {"zap", "::1", 9999}};
  EXPECT_EQ(proc::ready_line(sent[1]), "zap [::1]:9999\n");
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_TRUE(proc::announce_ready(fds[1], sent));  // and closes fds[1]
  std::string text;
  char b[256];
  for (ssize_t n; (n = read(fds[0], b, sizeof b)) > 0;) text.append(b, std::size_t(n));  // ends: EOF
  close(fds[0]);
  EXPECT_EQ(text, "http 127.0.0.1:8080\nzap [::1]:9999\n");
  const auto back = proc::parse_ready_line("zap [::1]:9999");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->host, "::1");
  EXPECT_EQ(back->port, 9999);
}

TEST(bench_supervisor, command_text_is_what_a_user_would_type) {
  EXPECT_EQ(bench::command_text({"zapbench", "serve", "--http", "127.0.0.1:0"}, {0, 1}),
            "taskset -c 0,1 zapbench serve --http 127.0.0.1:0");
  EXPECT_EQ(bench::command_text({"nginx", "-g", "daemon off;"}, {}), "nginx -g 'daemon off;'");
  EXPECT_EQ(bench::command_text({"zapbench-go", "micro"}, {1}, {"GOMAXPROCS=1"}),
            "GOMAXPROCS=1 taskset -c 1 zapbench-go micro");
  EXPECT_EQ(bench::command_text({"go"}, {}, {"A=b c"}), "A='b c' go");
  EXPECT_EQ(bench::shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(bench::shell_quote(""), "''");
}

}  // namespace
