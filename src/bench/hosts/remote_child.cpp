// bench/hosts/remote_child.cpp — a child on another host (remote_child.hpp,
// docs/spec/hosts.md §3): the agent (`zapbench child`), which starts the
// program as a local bench::Child there and reports on its stdout, and
// RemoteChild, the coordinator's side, which reads those reports from a
// local Child of ssh. Both sides write with SIGPIPE blocked: a peer that is
// gone is an error to handle (the session ended), never a signal that kills.
#include "bench/hosts/remote_child.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "bench/children/launch.hpp"
#include "net/affinity.hpp"
#include "proc/interrupt.hpp"
#include "proc/ports.hpp"

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kAgentGraceS = 30;   // `stop`: SIGTERM, then SIGKILL after this (§3)
constexpr double kAcceptBoundS = 30;  // --wait-accepting: the hang bound of its connects
// How long an ssh client may take to end once its remote command has (or
// once its stdin closed): past it the client is killed. A dead link ends it
// in ~6 s (ServerAlive); a live one at once.
constexpr double kSessionEndS = 10;

// ---------------------------------------------------------------- the agent

volatile sig_atomic_t g_agent_signal = 0;  // SIGTERM/SIGINT/SIGHUP: end as on end of file
extern "C" void on_agent_signal(int s) { g_agent_signal = s; }

[[nodiscard]] int agent_fail(const std::string& message) {
  std::fprintf(stderr, "zapbench child: %s\n", message.c_str());
  return 2;
}

// Feeds what arrived on stdin to `control`; false at end of file (or an error).
bool read_stdin(ControlStream& control) {
  char b[4096];
  for (;;) {
    const ssize_t n = read(STDIN_FILENO, b, sizeof b);
    if (n > 0) {
      control.feed(std::string_view(b, std::size_t(n)));
      return true;
    }
    if (n < 0 && errno == EINTR) {
      if (g_agent_signal != 0) return false;
      continue;
    }
    return false;
  }
}

// Before `start`: the files, in order, into `files`. -1 once `start` came;
// else the agent's exit code (stopped before it started, the coordinator
// gone, a protocol error).
int receive_files(const ChildAgentOptions& o, ControlStream& control, bool& input_ended,
                  std::vector<LaunchFile>& files) {
  while (!control.started()) {
    while (std::optional<ControlStream::Command> c = control.next()) {
      if (c->kind == ControlStream::Command::Kind::stop) return 0;  // stopped before it started
      if (c->kind == ControlStream::Command::Kind::start) break;
      if (!o.tmpdir) return agent_fail("file " + c->file.name + ": needs --tmpdir");
      files.push_back(std::move(c->file));
    }
    if (!control.error().empty()) return agent_fail(control.error());
    if (control.started()) break;
    if (input_ended || g_agent_signal != 0) return 3;  // the coordinator is gone: nothing was started
    pollfd p{STDIN_FILENO, POLLIN, 0};
    if (poll(&p, 1, 100) > 0 && !read_stdin(control)) input_ended = true;
  }
  return -1;
}

// The program made concrete (children/launch.hpp): a free port on every address
// for {port} when the argv or a file names it, {tmpdir} and {port} replaced,
// the files written into `tmp`. The error, or "".
std::string prepare(const ChildAgentOptions& o, const std::vector<LaunchFile>& files,
                    const proc::TempDir* tmp, std::vector<std::string>& argv, int& port) {
  if (mentions_port(argv, files)) {
    port = proc::free_port(/*any_address=*/true);
    if (port <= 0) return "cannot find a free port: " + std::string(std::strerror(errno));
  } else if (o.wait_accepting) {
    return "--wait-accepting needs {port} in an argument or a file";
  }
  return materialize(argv, files, tmp ? &tmp->path() : nullptr, port);
}

// ---- running: stdin, the ready channel, the program's exit. The agent's
// exit code: 0 with the program's exit report, 2 on a protocol error, 3 when
// the coordinator is gone or a signal came (the program killed at once).
int supervise(const ChildAgentOptions& o, ControlStream& control, bool input_ended,
              std::optional<Child>& child, int port) {
  const pid_t pid = child->pid();
  // Wakes the poll below when the program exits (Linux 5.3+); without it the
  // poll's timeout paces the checks.
  const int pidfd = int(syscall(SYS_pidfd_open, pid, 0));

  bool coordinator_gone = false, hung = false, accept_pending = o.wait_accepting;
  std::optional<Clock::time_point> kill_at;  // after `stop`: SIGKILL past the grace
  const auto accept_deadline = proc::deadline_after(kAcceptBoundS);
  std::string ready_buf;
  bool ready_open = child->ready_fd() >= 0;
  const auto report = [&](const std::string& text) {
    if (!proc::write_all(STDOUT_FILENO, text)) coordinator_gone = true;
  };
  // Forwards what the ready channel has; at its end, `ready-end`. `wait_ms`: how long to wait for it.
  const auto pump_ready = [&](int wait_ms) {
    while (ready_open) {
      pollfd p{child->ready_fd(), POLLIN, 0};
      if (poll(&p, 1, wait_ms) <= 0) return;
      char b[512];
      const ssize_t n = read(child->ready_fd(), b, sizeof b);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        ready_buf.append(b, std::size_t(n));
        proc::take_lines(ready_buf, [&](const std::string& l) { report("ready " + l + "\n"); });
        continue;
      }
      ready_open = false;  // EOF (or an error): every listener announced, or the program is gone
      report("ready-end\n");
    }
  };
  // `stop` (also one that came with `start`): SIGTERM to the group, SIGKILL past the grace.
  // False on a protocol error (an overlong line): the agent ends as when its
  // coordinator is gone, and says why.
  const auto handle_control = [&] {
    while (std::optional<ControlStream::Command> c = control.next()) {
      if (c->kind == ControlStream::Command::Kind::stop && !kill_at) {
        kill(-pid, SIGTERM);
        kill_at = proc::deadline_after(kAgentGraceS);
      } else if (c->kind == ControlStream::Command::Kind::other) {
        std::fprintf(stderr, "zapbench child: ignored control line after start: %s\n", c->line.c_str());
      }
    }
    if (control.error().empty()) return true;
    std::fprintf(stderr, "zapbench child: %s\n", control.error().c_str());
    return false;
  };
  bool bad_control = !handle_control();
  if (input_ended) coordinator_gone = true;
  for (;;) {
    if (proc::child_ended(pid)) break;
    if (g_agent_signal != 0 || coordinator_gone || bad_control) break;
    const auto now = Clock::now();
    if (kill_at && now >= *kill_at && !hung) {
      kill(-pid, SIGKILL);
      hung = true;
    }
    if (accept_pending) {
      if (proc::accepting(std::uint16_t(port))) {
        report("ready http 0.0.0.0:" + std::to_string(port) + "\nready-end\n");
        accept_pending = false;
      } else if (now >= accept_deadline) {
        std::fprintf(stderr, "zapbench child: nothing accepted on 127.0.0.1:%d within %gs\n", port,
                     kAcceptBoundS);
        report("ready-end\n");
        accept_pending = false;
      }
    }
    pollfd fds[3];
    nfds_t n = 0;
    fds[n++] = pollfd{STDIN_FILENO, POLLIN, 0};
    const nfds_t ready_at = n;
    if (ready_open) fds[n++] = pollfd{child->ready_fd(), POLLIN, 0};
    if (pidfd >= 0) fds[n++] = pollfd{pidfd, POLLIN, 0};
    if (poll(fds, n, accept_pending ? 20 : 100) <= 0) continue;
    if (ready_open && fds[ready_at].revents != 0) pump_ready(0);
    if (fds[0].revents != 0) {
      if (!read_stdin(control)) {
        coordinator_gone = true;
        break;
      }
      if (!handle_control()) {
        bad_control = true;
        break;
      }
    }
  }
  if (pidfd >= 0) close(pidfd);
  if (coordinator_gone || g_agent_signal != 0 || bad_control) {
    child.reset();  // SIGKILL to its group at once, and reaped
    return bad_control ? 2 : 3;
  }
  pump_ready(0);  // what it announced before it exited, and the channel's end
  const ExitStatus st = child->wait(kAgentGraceS);  // reaps at once: it has exited
  kill(-pid, SIGKILL);                              // whatever it started and left in its group
  ExitStatus reported = st;
  reported.hung = hung || st.hung;
  report(exit_report_line(reported));
  return 0;
}

}  // namespace

int run_child_agent(const ChildAgentOptions& o) {
  if (o.argv.empty()) return agent_fail("no program to run (-- PROGRAM ARG...)");
  if (o.ready && o.wait_accepting) return agent_fail("--ready and --wait-accepting exclude each other");
  // A signal ends the agent as end of file does (the program killed, the
  // directory removed); a handler, not SIG_IGN, so the program (after exec)
  // gets the default dispositions back.
  struct sigaction sa {};
  sa.sa_handler = on_agent_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaction(s, &sa, nullptr);

  // The private directory (--tmpdir), removed however the agent ends.
  std::optional<proc::TempDir> tmp;
  if (o.tmpdir) {
    try {
      tmp.emplace("zapbench-child-");
    } catch (const std::exception& e) {
      return agent_fail(e.what());
    }
  }

  // ---- before `start`: the files (remote_protocol.hpp bounds them and their names).
  ControlStream control;
  bool input_ended = false;
  std::vector<LaunchFile> files;
  if (const int code = receive_files(o, control, input_ended, files); code >= 0) return code;

  // ---- start: {tmpdir} and {port}, the files, the program.
  std::vector<std::string> argv = o.argv;
  int port = -1;
  if (const std::string error = prepare(o, files, tmp ? &*tmp : nullptr, argv, port); !error.empty())
    return agent_fail(error);
  ChildSpec spec;
  spec.argv = argv;
  spec.cpus = o.cpus;
  spec.ready_channel = o.ready;
  spec.env = o.env;
  spec.log_to_stderr = true;
  std::optional<Child> child;
  try {
    child.emplace(spec);
  } catch (const std::exception& e) {
    return agent_fail(e.what());
  }
  const pid_t pid = child->pid();
  std::fprintf(stderr, "zapbench child: started %s (pid %d)\n", command_text(argv, o.cpus, o.env).c_str(),
               int(pid));
  return supervise(o, control, input_ended, child, port);
}

// ---------------------------------------------------------------- RemoteChild

struct RemoteChild::Impl {
  std::optional<Child> ssh;
  std::string log_path;
  bool wants_ready = false;
  AgentReports reports;  // the agent's stdout, read (remote_protocol.hpp)
  bool eof = false;      // the session's stdout ended
  std::optional<ExitStatus> final_status;

  ~Impl() {
    if (!ssh) return;
    // End of file on the agent's stdin: it SIGKILLs the program's group and
    // exits, and so does the ssh client. Killing the client alone would not
    // do with a stand-in for ssh whose agent shares its process group.
    ssh->close_stdin();
    try {
      ssh->wait(kSessionEndS);
    } catch (const proc::Interrupted&) {  // the client is ended and reaped; the interrupt stays recorded
    }
  }

  // Reads the agent's reports until `done()`, the session's end, a protocol
  // error, or `deadline`.
  template <class Done>
  void read_until(Done done, Clock::time_point deadline) {
    while (!done() && !eof && !reports.failed()) {
      const auto left_ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left_ms <= 0) return;
      const bool polled = proc::read_some({ssh->stdout_fd()}, int(std::min<long long>(left_ms, 100)),
                                          [this](std::size_t, std::string_view bytes) {
                                            if (bytes.empty())
                                              eof = true;
                                            else
                                              reports.feed(bytes);
                                          });
      if (!polled) return;
    }
  }

  ExitStatus wait(double timeout_s) {
    if (final_status) return *final_status;
    read_until([this] { return reports.exit().has_value(); }, proc::deadline_after(timeout_s));
    if (reports.exit()) {
      ssh->wait(kSessionEndS);  // the agent exits right after its report
      final_status = *reports.exit();
    } else if (reports.failed()) {  // the session carries something else than §3's reports: ended
      ssh->close_stdin();           // the agent kills the program and ends the session
      ssh->wait(kSessionEndS);
      ExitStatus lost;
      lost.lost = "zapbench child's reports: " + reports.error();
      final_status = lost;
    } else if (eof) {
      const ExitStatus st = ssh->wait(kSessionEndS);
      const std::string why = log_path.empty() ? "" : last_line(proc::read_file(log_path));
      ExitStatus lost;
      lost.lost = "ssh: " + st.describe() + (why.empty() ? "" : ": " + why);
      final_status = lost;
    } else {
      ssh->close_stdin();  // the agent kills the program and ends the session
      ssh->wait(kSessionEndS);
      ExitStatus hung;
      hung.hung = true;
      final_status = hung;
    }
    return *final_status;
  }
};

RemoteChild::RemoteChild(const SshConfig& ssh, const std::string& host, const ServerLaunch& spec)
    : host_(host) {
  if (spec.spec.argv.empty()) throw std::runtime_error("remote child: empty argv");
  std::vector<std::string> agent = {remote_zapbench(ssh), "child"};
  if (!spec.spec.cpus.empty()) agent.insert(agent.end(), {"--cpus", net::cpu_list_text(spec.spec.cpus)});
  if (spec.spec.ready_channel) agent.push_back("--ready");
  for (const std::string& e : spec.spec.env) agent.insert(agent.end(), {"--env", e});
  if (spec.tmpdir) agent.push_back("--tmpdir");
  if (spec.wait_accepting) agent.push_back("--wait-accepting");
  agent.push_back("--");
  agent.insert(agent.end(), spec.spec.argv.begin(), spec.spec.argv.end());
  std::string control;
  try {
    control = control_text(spec.files);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }

  auto impl = std::make_unique<Impl>();
  impl->log_path = spec.spec.log_path;
  impl->wants_ready = spec.spec.ready_channel || spec.wait_accepting;
  ChildSpec client;
  client.argv = ssh_argv(ssh, host, agent);
  client.log_path = spec.spec.log_path;
  client.pipe_stdio = true;
  impl->ssh.emplace(client);
  // Small (a config file, a line; bounded by control_text): the agent reads
  // it all before it starts the program. A failed write means the session
  // already ended: wait() says why.
  proc::write_all(impl->ssh->stdin_fd(), control);
  impl_ = impl.release();
}

RemoteChild::RemoteChild(RemoteChild&& other) noexcept
    : host_(std::move(other.host_)), impl_(std::exchange(other.impl_, nullptr)) {}

RemoteChild& RemoteChild::operator=(RemoteChild&& other) noexcept {
  if (this != &other) {
    delete impl_;
    host_ = std::move(other.host_);
    impl_ = std::exchange(other.impl_, nullptr);
  }
  return *this;
}

RemoteChild::~RemoteChild() { delete impl_; }

std::vector<proc::ReadyListener> RemoteChild::wait_ready(double timeout_s) {
  if (impl_ == nullptr || !impl_->wants_ready) return {};
  const AgentReports& r = impl_->reports;
  impl_->read_until([&r] { return r.ready_end() || r.exit().has_value(); }, proc::deadline_after(timeout_s));
  return r.ready_end() && !r.failed() ? r.listeners() : std::vector<proc::ReadyListener>{};
}

ExitStatus RemoteChild::wait(double timeout_s) {
  if (impl_ == nullptr) return ExitStatus{};
  return impl_->wait(timeout_s);
}

ExitStatus RemoteChild::stop(double grace_s) {
  if (impl_ == nullptr) return ExitStatus{};
  if (!impl_->final_status && !impl_->reports.exit() && !impl_->eof)
    proc::write_all(impl_->ssh->stdin_fd(), "stop\n");
  // The agent's own grace (SIGKILL after 30 s, reported "hung"), and the session's end.
  return impl_->wait(std::max(grace_s, kAgentGraceS) + kSessionEndS);
}

}  // namespace bench
