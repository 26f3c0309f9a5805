// bench/supervisor.hpp — the child processes of a run: start one from an
// argv (no shell), pinned to its CPUs, output to a log; learn that it is
// ready through an explicit channel (a pipe it gets as --ready-fd N and on
// which it writes one line per bound listener, then closes); stop it
// (SIGTERM, then SIGKILL after a bound) and reap it with its CPU time. A
// Child owns its process: destroying it kills and reaps whatever is left,
// so an early return or an exception never leaves a process behind.
// Owns process mechanics only: what to start is plan.hpp's, when is run's.
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
};

// One line of the ready channel: "<kind> <host>:<port>", e.g. "http 127.0.0.1:8080".
struct ReadyListener {
  std::string kind;  // http, zap, floor...
  std::string host;
  std::uint16_t port = 0;
};
// Parses one ready line; nullopt when it is not "<kind> <host>:<port>".
std::optional<ReadyListener> parse_ready_line(const std::string& line);
// The line for a listener ("zap [::1]:9999\n" for IPv6 hosts).
std::string ready_line(const ReadyListener& l);

// The child's side (zapbench serve and floor, after every listener is
// bound): writes one line per listener to `fd`, then closes it. False when
// the write failed (the parent is gone): the caller carries on regardless.
bool announce_ready(int fd, const std::vector<ReadyListener>& listeners);

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
  [[nodiscard]] bool ok() const { return exited && code == 0 && !hung && lost.empty(); }
  [[nodiscard]] std::string describe() const;  // "exit 0", "exit 2", "signal 9", "hung: killed"
};

class Child {
 public:
  // Forks and execs spec.argv in its own process group (a Ctrl-C reaches the
  // parent only; it stops its children itself). Throws std::runtime_error when
  // it cannot fork or open the log; an exec failure is exit code 127.
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
  // `timeout_s` passed (a hang bound, not an expectation).
  std::vector<ReadyListener> wait_ready(double timeout_s);

  // Waits up to `timeout_s` for the child to exit by itself; past it, kills
  // the group (hung = true). Reaps either way.
  ExitStatus wait(double timeout_s);

  // SIGTERM now, then wait(grace_s) (SIGKILL past it).
  ExitStatus stop(double grace_s);

 private:
  void kill_and_reap() noexcept;
  pid_t pid_ = -1;
  int ready_fd_ = -1;   // the read end of the ready channel
  int stdin_fd_ = -1;   // pipe_stdio: the write end of the child's stdin
  int stdout_fd_ = -1;  // pipe_stdio: the read end of the child's stdout
  ExitStatus status_;
};

// A file a child wrote (its log, its result file), whole; empty when it
// cannot be read.
std::string read_file(const std::filesystem::path& path);

// Writes all of `text` to `fd` (a pipe to a child, or to whoever reads this
// process): false when the reader is gone (EPIPE) or on another error.
// SIGPIPE is blocked around the write (and a pending one consumed), so a
// reader that is gone is an error to handle whatever the process's own
// disposition of SIGPIPE.
bool write_all(int fd, std::string_view text);

// Calls on_line(line) for every complete line at the front of `buf` (without
// its '\n') and erases them; a partial last line stays for the next read.
template <class OnLine>
void take_lines(std::string& buf, OnLine on_line) {
  std::size_t from = 0;
  for (std::size_t nl; (nl = buf.find('\n', from)) != std::string::npos; from = nl + 1)
    on_line(buf.substr(from, nl - from));
  buf.erase(0, from);
}

// Waits up to `wait_ms` for any of `fds` (the read ends of children's
// stdout) to be readable, then reads each that is: on_read(i, bytes) with
// what came, or on_read(i, {}) at its end of file (or a read error). False
// when poll itself failed. The caller's loop owns its deadline and state.
bool read_some(const std::vector<int>& fds, int wait_ms,
               const std::function<void(std::size_t, std::string_view)>& on_read);

// A steady-clock deadline `seconds` from now.
inline std::chrono::steady_clock::time_point deadline_after(double seconds) {
  return std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                std::chrono::duration<double>(seconds));
}

// A private directory (mkdtemp, mode 0700) under the temporary directory,
// named `prefix` + 6 random characters, removed with everything in it when
// the object goes. Throws std::runtime_error naming what failed.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// This program's own binary (/proc/self/exe), for the children a command
// starts of itself. Throws std::runtime_error naming what failed.
std::string own_executable();

// An executable named `name`: in /usr/sbin, /usr/local/sbin, /usr/bin, then
// on PATH (a ChildSpec's argv[0] is never searched); "" when there is none.
std::string find_program(const std::string& name);

// The command as a user would rerun it: "GOMAXPROCS=2 taskset -c 0,1 prog arg
// 'a b'" (shell-quoted; a ChildSpec's env first; no taskset without cpus).
std::string command_text(const std::vector<std::string>& argv, const std::vector<int>& cpus,
                         const std::vector<std::string>& env = {});
std::string shell_quote(const std::string& s);

}  // namespace bench
