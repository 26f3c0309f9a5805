// bench/children/supervisor.cpp — fork/exec with affinity, the ready channel, stop
// and reap (supervisor.hpp).
#include "bench/children/supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>

#include "net/affinity.hpp"
#include "proc/interrupt.hpp"
#include "proc/io.hpp"
#include "proc/ports.hpp"

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

// The descriptor number the child finds its ready channel on. 3 is the first
// after stdin/out/err; the child has nothing else open there (everything the
// parent opens is close-on-exec).
constexpr int kReadyFdInChild = 3;

// An interrupt's SIGTERM to SIGKILL: time for a server to close its
// listeners and valgrind or perf to end theirs, short enough that the run
// exits within seconds.
constexpr double kInterruptGraceS = 2;

double cpu_seconds(const rusage& ru) {
  return double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) / 1e6 + double(ru.ru_stime.tv_sec) +
         double(ru.ru_stime.tv_usec) / 1e6;
}

ExitStatus status_of(int wait_status, const rusage& ru) {
  ExitStatus s;
  if (WIFEXITED(wait_status)) {
    s.exited = true;
    s.code = WEXITSTATUS(wait_status);
  } else if (WIFSIGNALED(wait_status)) {
    s.signal = WTERMSIG(wait_status);
  }
  s.cpu_s = cpu_seconds(ru);
  return s;
}

}  // namespace

std::string ExitStatus::describe() const {
  if (!lost.empty()) return lost;
  if (hung) return "hung: killed";
  if (exited) return "exit " + std::to_string(code);
  return "signal " + std::to_string(signal);
}

Child::Child(const ChildSpec& spec) {
  if (spec.argv.empty()) throw std::runtime_error("supervisor: empty argv");
  if (!spec.cleanup) proc::throw_if_interrupted();
  cleanup_ = spec.cleanup;
  // Everything the child needs is prepared before fork: between fork and exec
  // it only makes async-signal-safe calls (the parent may have threads).
  std::vector<std::string> argv = spec.argv;
  if (spec.ready_channel) argv.insert(argv.end(), {"--ready-fd", std::to_string(kReadyFdInChild)});
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  // The environment: the parent's, less the names spec.env sets, plus spec.env.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view var(*e);
    const bool replaced = std::any_of(spec.env.begin(), spec.env.end(), [&](const std::string& mine) {
      return mine.substr(0, mine.find('=') + 1) == var.substr(0, var.find('=') + 1);
    });
    if (!replaced) env_strings.emplace_back(var);
  }
  env_strings.insert(env_strings.end(), spec.env.begin(), spec.env.end());
  std::vector<char*> envp;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : spec.cpus) CPU_SET(c, &set);
  // A copy of our own stderr, not a reopening of /dev/stderr: that would
  // truncate a file behind it and write from its start.
  const int log = spec.log_to_stderr ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
                                     : open(spec.log_path.empty() ? "/dev/null" : spec.log_path.c_str(),
                                            O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0)
    throw std::runtime_error("supervisor: cannot open " + (spec.log_to_stderr ? "stderr" : spec.log_path) +
                             ": " + std::strerror(errno));
  // Every pipe: the ready channel, stdin, stdout ([0] read end, [1] write end).
  int ready[2] = {-1, -1}, in[2] = {-1, -1}, out[2] = {-1, -1};
  const auto close_all = [&] {
    for (int fd : {log, ready[0], ready[1], in[0], in[1], out[0], out[1]})
      if (fd >= 0) close(fd);
  };
  if ((spec.ready_channel && pipe2(ready, O_CLOEXEC) != 0) ||
      (spec.pipe_stdio && (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0))) {
    const int err = errno;
    close_all();
    throw std::runtime_error(std::string("supervisor: pipe: ") + std::strerror(err));
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    close_all();
    throw std::runtime_error(std::string("supervisor: fork: ") + std::strerror(err));
  }
  if (pid == 0) {
    setpgid(0, 0);
    if (!spec.cpus.empty()) sched_setaffinity(0, sizeof set, &set);
    // dup2 onto 0..2 clears close-on-exec on the copy; the originals close at exec.
    dup2(spec.pipe_stdio ? out[1] : log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    const int input = spec.pipe_stdio ? in[0] : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (input >= 0) dup2(input, STDIN_FILENO);
    if (spec.ready_channel) {
      // dup2 onto another number clears close-on-exec; onto itself it does not.
      if (ready[1] == kReadyFdInChild)
        fcntl(kReadyFdInChild, F_SETFD, 0);
      else
        dup2(ready[1], kReadyFdInChild);
    }
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  close(log);
  if (spec.ready_channel) {
    close(ready[1]);  // so the read end sees EOF once the child closes its copy (or dies)
    ready_fd_ = ready[0];
  }
  if (spec.pipe_stdio) {
    close(in[0]);
    close(out[1]);  // as the ready channel's: EOF once the child and all it started are gone
    stdin_fd_ = in[1];
    stdout_fd_ = out[0];
  }
  pid_ = pid;
}

Child::Child(Child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      ready_fd_(std::exchange(other.ready_fd_, -1)),
      stdin_fd_(std::exchange(other.stdin_fd_, -1)),
      stdout_fd_(std::exchange(other.stdout_fd_, -1)),
      status_(other.status_),
      cleanup_(other.cleanup_) {}

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    kill_and_reap();
    pid_ = std::exchange(other.pid_, -1);
    ready_fd_ = std::exchange(other.ready_fd_, -1);
    stdin_fd_ = std::exchange(other.stdin_fd_, -1);
    stdout_fd_ = std::exchange(other.stdout_fd_, -1);
    status_ = other.status_;
    cleanup_ = other.cleanup_;
  }
  return *this;
}

Child::~Child() { kill_and_reap(); }

void Child::close_stdin() noexcept {
  if (stdin_fd_ >= 0) close(std::exchange(stdin_fd_, -1));
}

void Child::kill_and_reap() noexcept {
  if (ready_fd_ >= 0) close(std::exchange(ready_fd_, -1));
  close_stdin();
  if (stdout_fd_ >= 0) close(std::exchange(stdout_fd_, -1));
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  int st = 0;
  while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

void Child::end_interrupted(int signal) {
  if (pid_ > 0) {
    kill(-pid_, SIGTERM);
    kill(pid_, SIGTERM);  // before its setpgid, the group is not there yet
    // Until the leader exits (left unreaped: its pid, the group's id, stays
    // ours) or the grace passes; then kill_and_reap SIGKILLs the group,
    // whatever of it outlived the leader too.
    const auto deadline = proc::deadline_after(kInterruptGraceS);
    for (;;) {
      if (proc::child_ended(pid_)) break;
      if (Clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  kill_and_reap();
  throw proc::Interrupted{signal};
}

std::vector<proc::ReadyListener> Child::wait_ready(double timeout_s) {
  std::vector<proc::ReadyListener> out;
  if (ready_fd_ < 0) return out;
  const auto deadline = proc::deadline_after(timeout_s);
  std::string buf;
  bool closed = false;
  while (!closed && Clock::now() < deadline) {
    // The interrupt's self-pipe beside the channel: an interrupt wakes this at once.
    pollfd pfd[2] = {{ready_fd_, POLLIN, 0}, {cleanup_ ? -1 : proc::interrupt_fd(), POLLIN, 0}};
    const int n = poll(pfd, 2, 50);
    if (!cleanup_ && proc::interrupted()) end_interrupted(proc::interrupt_signal());
    if (n < 0 && errno != EINTR) break;
    if (n <= 0 || pfd[0].revents == 0) continue;
    char b[512];
    const ssize_t got = read(ready_fd_, b, sizeof b);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      closed = true;  // EOF: the child announced everything (or died)
    } else {
      buf.append(b, std::size_t(got));
    }
  }
  close(std::exchange(ready_fd_, -1));
  if (!closed) return out;  // the bound passed: whatever came is incomplete
  proc::take_lines(buf, [&out](const std::string& line) {
    if (const auto l = proc::parse_ready_line(line)) out.push_back(*l);
  });
  return out;
}

ExitStatus Child::wait(double timeout_s) {
  if (pid_ <= 0) return status_;
  const auto deadline = proc::deadline_after(timeout_s);
  int st = 0;
  rusage ru{};
  for (;;) {
    if (!cleanup_ && proc::interrupted()) end_interrupted(proc::interrupt_signal());
    const pid_t r = wait4(pid_, &st, WNOHANG, &ru);
    if (r == pid_) {
      status_ = status_of(st, ru);
      break;
    }
    if (r < 0 && errno != EINTR) {
      status_ = ExitStatus{};
      break;
    }
    if (Clock::now() >= deadline) {
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
      while (wait4(pid_, &st, 0, &ru) < 0 && errno == EINTR) {
      }
      status_ = status_of(st, ru);
      status_.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  if (ready_fd_ >= 0) close(std::exchange(ready_fd_, -1));
  close_stdin();
  if (stdout_fd_ >= 0) close(std::exchange(stdout_fd_, -1));
  return status_;
}

ExitStatus Child::stop(double grace_s) {
  if (pid_ <= 0) return status_;
  // Asked without reaping (wait() reaps it below): has it ended by itself?
  const bool gone = proc::child_ended(pid_);
  if (!gone) kill(pid_, SIGTERM);
  wait(grace_s);
  status_.ended_before_stop = gone;
  return status_;
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:,=+") ==
          std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q.append("'\\''");
    else
      q.push_back(c);
  }
  return q.append("'");
}

std::string command_text(const std::vector<std::string>& argv, const std::vector<int>& cpus,
                         const std::vector<std::string>& env) {
  std::string s;
  auto word = [&](const std::string& w) { s.append(s.empty() ? "" : " ").append(w); };
  // NAME=value: the value quoted, never the name (a quoted name is no assignment).
  for (const std::string& e : env)
    word(e.substr(0, e.find('=') + 1) + shell_quote(e.substr(e.find('=') + 1)));
  if (!cpus.empty()) word("taskset -c " + net::cpu_list_text(cpus));
  for (const std::string& a : argv) word(shell_quote(a));
  return s;
}

ProgramAnswer ask_program(const std::vector<std::string>& argv, double timeout_s) {
  char path[] = "/tmp/zapbench-ask-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("cannot make a temporary file for what " + argv.at(0) + " prints");
  close(fd);
  ProgramAnswer a;
  try {
    Child child(ChildSpec{argv, {}, path, false, {}});
    a.status = child.wait(timeout_s);
    a.output = proc::read_file(path);
  } catch (...) {
    unlink(path);
    throw;
  }
  unlink(path);
  return a;
}

}  // namespace bench
