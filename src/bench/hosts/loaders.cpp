// bench/hosts/loaders.cpp — one load over several loader hosts (loaders.hpp,
// docs/spec/hosts.md §4–§5): the shares, one `zapbench load --coordinated`
// per host over ssh (a local Child with piped stdin/stdout), the line
// protocol read from all of them with poll(), the start barrier and its skew
// bound, the per-host faults, and the merge of what came back.
#include "bench/hosts/loaders.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <functional>
#include <stdexcept>

#include "bench/children/load_command.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/hosts/remote_protocol.hpp"
#include "net/clock.hpp"
#include "proc/interrupt.hpp"

namespace bench {

std::vector<load::Options> split_load(const load::Options& o, std::size_t hosts) {
  std::vector<load::Options> out;
  if (hosts == 0) return out;
  // The hosts that run: those with at least one connection (the first ones).
  const std::size_t running = std::min<std::size_t>(hosts, o.connections);
  // An integral rate is split in whole requests/s, the first hosts taking the
  // remainder, so the shares add up to it exactly; any other is split evenly.
  const bool whole_rate = o.rate_per_s > 0 && o.rate_per_s == std::floor(o.rate_per_s) && o.rate_per_s < 1e15;
  for (std::size_t i = 0; i < hosts; ++i) {
    load::Options s = o;
    s.stop = nullptr;  // process-local: each loader has its own
    s.go = nullptr;
    s.connections = unsigned(o.connections / hosts + (i < o.connections % hosts ? 1 : 0));
    s.threads = std::min(o.threads, s.connections);
    if (o.rate_per_s > 0) {
      if (i >= running) {
        s.rate_per_s = 0;
      } else if (whole_rate) {
        const auto rate = static_cast<std::uint64_t>(o.rate_per_s);
        s.rate_per_s = double(rate / running + (i < rate % running ? 1 : 0));
      } else {
        s.rate_per_s = o.rate_per_s / double(running);
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

using net::now_ns;

// One loader host's session: its ssh client, what it said so far.
struct Session {
  std::size_t host = 0;  // index in LoaderRun::hosts
  std::optional<Child> child;
  std::string log_path;
  LoaderStream stream;  // its stdout, read (remote_protocol.hpp: warm, go-ack, the result)
  bool eof = false;     // its stdout ended (the loader, or the session, is gone)
  std::int64_t go_sent_ns = -1;

  // Nothing more to wait for from it: gone, or it broke §4's protocol.
  [[nodiscard]] bool over() const { return eof || stream.failed(); }
};

// Reads every session's stdout until done() holds, `deadline_ns` passes or
// *stop is set; false for the last two.
bool pump(std::vector<Session>& sessions, std::int64_t deadline_ns, const std::atomic<bool>* stop,
          const std::function<bool()>& done) {
  for (;;) {
    if (done()) return true;
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) return false;
    proc::throw_if_interrupted();  // the run's: the sessions' Childs end the ssh clients as it unwinds
    const std::int64_t now = now_ns();
    if (now >= deadline_ns) return done();
    std::vector<int> fds;
    std::vector<Session*> of;
    for (Session& s : sessions)
      if (!s.over() && s.child && s.child->stdout_fd() >= 0) {
        fds.push_back(s.child->stdout_fd());
        of.push_back(&s);
      }
    // 10 ms at most: a stop is seen that soon.
    const int wait_ms = int(std::min<std::int64_t>((deadline_ns - now) / net::kNsPerMs + 1, 10));
    if (fds.empty()) {
      usleep(unsigned(wait_ms) * 1000);
      continue;
    }
    const bool polled = proc::read_some(fds, wait_ms, [&of](std::size_t i, std::string_view bytes) {
      if (bytes.empty())
        of[i]->eof = true;
      else
        of[i]->stream.feed(bytes, now_ns());
    });
    if (!polled) return done();
  }
}

// Ends the session (its stdin closed: the loader ends on end of file; the
// ssh client reaped, killed past `grace_s`); why it failed when it brought
// no result: its exit status and the last line of its log.
std::string finish(Session& s, double grace_s) {
  if (!s.child) return "";
  s.child->close_stdin();
  const ExitStatus st = s.child->wait(grace_s);
  s.child.reset();
  const std::string line = last_line(proc::read_file(s.log_path));
  return "its session ended without a result (ssh " + st.describe() + (line.empty() ? "" : ": " + line) + ")";
}

// Starts one coordinated loader per host with its share, over ssh; a host
// with no connection share gets a note and no session. Every host has its
// row in out.hosts, in order.
std::vector<Session> start_sessions(const LoaderRun& run, const std::vector<load::Options>& shares,
                                    MultiLoad& out) {
  const load::Options& o = run.options;
  std::vector<Session> sessions;
  for (std::size_t i = 0; i < run.hosts.size(); ++i) {
    LoaderHostResult row;
    row.host = run.hosts[i];
    if (shares[i].connections == 0) {  // a note, not a failure
      out.notes.push_back("host " + row.host + ": no connection share (" + std::to_string(o.connections) +
                          " connections over " + std::to_string(run.hosts.size()) + " hosts)");
      out.hosts.push_back(std::move(row));
      continue;
    }
    std::vector<std::string> remote = load_argv(remote_zapbench(run.ssh), shares[i], "");
    remote.emplace_back("--coordinated");
    row.command = command_text(remote, {});
    out.hosts.push_back(std::move(row));
    Session s;
    s.host = i;
    s.log_path = run.log_prefix + std::to_string(i + 1) + ".log";
    ChildSpec spec;
    spec.argv = ssh_argv(run.ssh, run.hosts[i], remote);
    spec.log_path = s.log_path;
    spec.pipe_stdio = true;
    s.child.emplace(spec);
    sessions.push_back(std::move(s));
  }
  return sessions;
}

// The start skew's bound (§5): host i's window started within
// [go_sent_i + d_i, ack_i + d_i] (it read go between the two), so two
// hosts' starts are at most max(hi_i - lo_j) apart over pairs i != j; one
// host has no skew; -1 when no host started.
std::int64_t start_skew_bound_ns(const std::vector<Session>& sessions,
                                 const std::vector<LoaderHostResult>& hosts) {
  std::int64_t skew_ns = -1;
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;  // [lo, hi] per host that started
  for (const Session& s : sessions) {
    const LoaderHostResult& row = hosts[s.host];
    if (s.go_sent_ns < 0 || s.stream.ack_ns() < 0 || row.go_to_first_send_ns < 0) continue;
    spans.emplace_back(s.go_sent_ns + row.go_to_first_send_ns, s.stream.ack_ns() + row.go_to_first_send_ns);
  }
  if (!spans.empty()) skew_ns = 0;
  for (std::size_t i = 0; i < spans.size(); ++i)
    for (std::size_t j = 0; j < spans.size(); ++j)
      if (i != j) skew_ns = std::max(skew_ns, spans[i].second - spans[j].first);

  return skew_ns;
}

// The first host's failure as the load's, else the hosts' results merged exactly.
void merge_results(MultiLoad& out) {
  std::vector<LoadReport> reports;
  std::vector<std::string> names;
  for (const LoaderHostResult& row : out.hosts) {
    if (!row.failure.empty() && out.failure.empty()) out.failure = "host " + row.host + ": " + row.failure;
    if (row.report) {
      reports.push_back(*row.report);
      names.push_back("host " + row.host);
    }
  }
  if (out.failure.empty() && !reports.empty()) {
    try {
      out.merged = merge_load_reports(reports, names);
    } catch (const std::exception& e) {
      out.failure = e.what();
    }
  }
}

}  // namespace

MultiLoad run_loaders(const LoaderRun& run) {
  MultiLoad out;
  if (run.hosts.empty()) {
    out.failure = "no loader hosts";
    return out;
  }
  const load::Options& o = run.options;
  std::vector<Session> sessions = start_sessions(run, split_load(o, run.hosts.size()), out);
  const auto stopped = [&] { return run.stop != nullptr && run.stop->load(std::memory_order_relaxed); };
  const auto stop_all = [&] {
    // Every ssh client killed first, then reaped: the remote loaders see end
    // of file together (§5 Ctrl-C).
    for (Session& s : sessions)
      if (s.child) {
        s.child->close_stdin();
        kill(-s.child->pid(), SIGKILL);
      }
    for (Session& s : sessions) {
      s.child.reset();
      out.hosts[s.host].failure = "stopped";
    }
    out.failure = "stopped";
    return out;
  };

  // The barrier: every loader warm (or gone), then go to each, back to back.
  const std::int64_t warm_deadline_ns = now_ns() + std::int64_t((o.warmup_s + 30) * 1e9);
  const bool all_warm = pump(sessions, warm_deadline_ns, run.stop, [&] {
    return std::all_of(sessions.begin(), sessions.end(),
                       [](const Session& s) { return s.stream.warm() || s.over(); });
  });
  if (stopped()) return stop_all();
  for (Session& s : sessions) {
    if (s.stream.failed()) {  // it broke the protocol: ended now, whatever it said
      finish(s, 0);
      out.hosts[s.host].failure = "protocol error: " + s.stream.error();
      continue;
    }
    if (s.stream.warm()) continue;
    if (s.eof) {  // gone before its warm-up ended (ssh failed, the loader refused its flags...)
      out.hosts[s.host].failure = finish(s, 30);
    } else {  // still not warm at the bound: ended now
      finish(s, 0);
      out.hosts[s.host].failure = "no `warm` within " + exact_number(o.warmup_s + 30) + " s (warm-up + 30 s)";
    }
  }
  (void)all_warm;  // the sessions say which were not
  for (Session& s : sessions) {
    if (!s.stream.warm() || !s.child) continue;
    s.go_sent_ns = now_ns();
    if (!proc::write_all(s.child->stdin_fd(), loader_command_line(LoaderCommand::go)))
      s.go_sent_ns = -1;  // gone: its end of file follows
  }

  // The windows, the drains, the results: until every session ended.
  const std::int64_t end_deadline_ns =
      now_ns() + std::int64_t((o.duration_s + o.timeout_ms / 1000.0 + 30) * 1e9);
  const bool ended = pump(sessions, end_deadline_ns, run.stop, [&] {
    return std::all_of(sessions.begin(), sessions.end(),
                       [](const Session& s) { return s.over() || !s.child; });
  });
  if (stopped()) return stop_all();
  for (Session& s : sessions) {
    if (!s.child) continue;  // failed before go
    LoaderHostResult& row = out.hosts[s.host];
    const bool hung = !ended && !s.over();
    // A session that broke the protocol is ended at once: it may never end by itself.
    const std::string why = finish(s, hung || s.stream.failed() ? 0 : 30);
    if (s.stream.failed()) {
      row.failure = "protocol error: " + s.stream.error();
    } else if (hung) {
      row.failure = "no result within " + exact_number(o.duration_s + o.timeout_ms / 1000.0 + 30) +
                    " s (duration + timeout + 30 s)";
    } else if (!s.stream.result()) {
      row.failure = why;
    } else {
      try {
        row.report = parse_load_result(*s.stream.result());
      } catch (const std::exception& e) {
        row.failure = std::string("its result does not parse: ") + e.what();
      }
    }
    if (s.go_sent_ns >= 0 && s.stream.ack_ns() >= 0) row.go_rtt_ns = s.stream.ack_ns() - s.go_sent_ns;
    if (row.report) row.go_to_first_send_ns = row.report->result.go_to_first_send_ns;
  }

  out.start_skew_ns = start_skew_bound_ns(sessions, out.hosts);
  merge_results(out);
  return out;
}

}  // namespace bench
