// bench/children/supervisor.hpp — the child processes of a run: start one from an
// argv (no shell), pinned to its CPUs, output to a log; learn that it is
// ready through an explicit channel (a pipe it gets as --ready-fd N and on
// which it writes one line per bound listener, then closes); stop it
// (SIGTERM, then SIGKILL after a bound) and reap it with its CPU time. A
// Child owns its process: destroying it kills and reaps whatever is left,
// so an early return or an exception never leaves a process behind.
// An interrupt of the run (proc/interrupt.hpp) ends the child of whichever
// wait is running at once (SIGTERM to its group, SIGKILL past a short grace)
// and throws proc::Interrupted; no child starts after one. That is how every
// phase of `zapbench run` stops: the phases have no check of their own.
// Owns process mechanics only: what to start is plan.hpp's, when is run's;
// the ready channel's lines, whole writes and line reads are proc's (src/proc).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proc/interrupt.hpp"
#include "proc/io.hpp"
#include "proc/programs.hpp"
#include "proc/ready.hpp"

namespace bench {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the program's path (no PATH search)
  std::vector<int> cpus;          // CPU affinity of the child and all it starts; empty: inherited
  std::string log_path;           // stdout and stderr, truncated; empty: /dev/null
  // Give the child a ready channel: `--ready-fd N` is appended to argv (so
  // the program must accept it: zapbench serve and floor do). The flag is
  // plumbing, not part of the command a user would rerun.
  bool ready_channel = false;
  // Variables added to (or replacing those of) the parent's environment,
  // "NAME=value" each: GOMAXPROCS for the Go arms.
  std::vector<std::string> env;
  // The child's stdout and stderr are this process's stderr (log_path
  // unused): `zapbench child`, whose stderr ssh carries to the coordinator.
  bool log_to_stderr = false;
  // The child's stdin is a pipe this side writes (stdin_fd()) and its stdout a
  // pipe this side reads (stdout_fd()); stderr alone goes to the log. For an
  // ssh client carrying a line protocol (remote_child.hpp).
  bool pipe_stdio = false;
  // A clean-up command (the namespace mode's `ip netns del`): it starts and
  // runs to its end after an interrupt too, and its waits never throw one.
  bool cleanup = false;
};

// How a child ended.
struct ExitStatus {
  bool exited = false;  // it exited by itself (code below)...
  int code = -1;
  int signal = 0;     // ...or a signal ended it
  bool hung = false;  // it outlived its bound and was killed
  double cpu_s = 0;   // user + system CPU of it and the children it reaped
  // A remote child (remote_child.hpp) whose ssh session ended without its
  // exit report: why ("ssh: exit 255: Connection reset by peer"); empty otherwise.
  std::string lost;
  // stop() found it had already ended by itself, before it was asked to (a
  // server that crashed or was killed mid-sample): the status above is that
  // end's, not the stop's. Local children only (Child::stop).
  bool ended_before_stop = false;
  [[nodiscard]] bool ok() const { return exited && code == 0 && !hung && lost.empty(); }
  [[nodiscard]] std::string describe() const;  // "exit 0", "exit 2", "signal 9", "hung: killed"
};

class Child {
 public:
  // Forks and execs spec.argv in its own process group (a Ctrl-C reaches the
  // parent only; it stops its children itself). Throws std::runtime_error when
  // it cannot fork or open the log; an exec failure is exit code 127. Throws
  // proc::Interrupted, starting nothing, once an interrupt came (unless
  // spec.cleanup).
  explicit Child(const ChildSpec& spec);
  Child(Child&& other) noexcept;
  Child& operator=(Child&& other) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();  // SIGKILL to the group and reap, when still running

  [[nodiscard]] pid_t pid() const { return pid_; }
  // With ChildSpec::pipe_stdio: the write end of its stdin and the read end
  // of its stdout (-1 otherwise); the Child closes them. close_stdin() gives
  // the child end of file on its stdin.
  [[nodiscard]] int stdin_fd() const { return stdin_fd_; }
  [[nodiscard]] int stdout_fd() const { return stdout_fd_; }
  void close_stdin() noexcept;
  // The read end of the ready channel (-1 without one, or once wait_ready
  // read it), for a caller that polls it beside other descriptors
  // (zapbench child) instead of calling wait_ready; the Child closes it.
  [[nodiscard]] int ready_fd() const { return ready_fd_; }

  // Reads the ready channel until the child closes it; the listeners it
  // announced. Empty when the child closed it without a line, exited, or
  // `timeout_s` passed (a hang bound, not an expectation). An interrupt ends
  // the child and throws proc::Interrupted.
  std::vector<proc::ReadyListener> wait_ready(double timeout_s);

  // Waits up to `timeout_s` for the child to exit by itself; past it, kills
  // the group (hung = true). Reaps either way. An interrupt ends the child
  // and throws proc::Interrupted (unless spec.cleanup).
  ExitStatus wait(double timeout_s);

  // SIGTERM now, then wait(grace_s) (SIGKILL past it). A child that had
  // already ended gets no signal: its own end is returned, marked
  // ended_before_stop.
  ExitStatus stop(double grace_s);

 private:
  void kill_and_reap() noexcept;
  // The interrupt's end: SIGTERM to the group, SIGKILL past kInterruptGraceS, reaped; then throws.
  [[noreturn]] void end_interrupted(int signal);
  pid_t pid_ = -1;
  int ready_fd_ = -1;   // the read end of the ready channel
  int stdin_fd_ = -1;   // pipe_stdio: the write end of the child's stdin
  int stdout_fd_ = -1;  // pipe_stdio: the read end of the child's stdout
  ExitStatus status_;
  bool cleanup_ = false;  // spec.cleanup
};

// A program run to its end for what it prints (`h2o --version`, `zapbench-go
// capabilities`): its exit and its output (stdout and stderr, through a
// private temporary file). A program that outlives `timeout_s` (a hang bound)
// is killed: status.hung. Throws std::runtime_error when it cannot start.
struct ProgramAnswer {
  ExitStatus status;
  std::string output;
};
ProgramAnswer ask_program(const std::vector<std::string>& argv, double timeout_s);

// The command as a user would rerun it: "GOMAXPROCS=2 taskset -c 0,1 prog arg
// 'a b'" (shell-quoted; a ChildSpec's env first; no taskset without cpus).
std::string command_text(const std::vector<std::string>& argv, const std::vector<int>& cpus,
                         const std::vector<std::string>& env = {});
std::string shell_quote(const std::string& s);

}  // namespace bench
