// tests/bench/bench_loaders_test.cpp — one load over several loader hosts
// (bench/hosts/loaders.hpp, docs/spec/hosts.md §4–§5): the shares, and run_loaders
// driving real `zapbench load --coordinated` processes through
// tests/support/fake_ssh.sh (ssh's stand-in: the "hosts" are this machine)
// against a real `zapbench serve`: the exact merge, the barrier's figures,
// a host that cannot be reached, a loader killed mid-run, and a stop. Every
// loader is found by its pid (its environment names its fake host, unique
// to this test process) and must be gone at the end. No figure is asserted.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/hosts/loaders.hpp"
#include "bench/children/supervisor.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;

TEST(bench_split_load, connections_as_evenly_as_possible_the_first_hosts_taking_the_remainder) {
  load::Options o;
  o.connections = 16;
  o.threads = 8;
  const std::vector<load::Options> s = bench::split_load(o, 3);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].connections, 6u);
  EXPECT_EQ(s[1].connections, 5u);
  EXPECT_EQ(s[2].connections, 5u);
  for (const load::Options& h : s) EXPECT_EQ(h.threads, std::min(8u, h.connections));
  EXPECT_EQ(s[0].rate_per_s, 0);  // closed loop stays closed

  o.connections = 1;
  o.threads = 1;
  const std::vector<load::Options> one = bench::split_load(o, 2);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].connections, 1u);
  EXPECT_EQ(one[1].connections, 0u);  // it does not run
  EXPECT_EQ(one[1].threads, 0u);
}

TEST(bench_split_load, the_rate_split_the_same_way_over_the_hosts_that_run) {
  load::Options o;
  o.connections = 16;
  o.rate_per_s = 1000;
  const std::vector<load::Options> s = bench::split_load(o, 3);
  EXPECT_EQ(s[0].rate_per_s, 334);
  EXPECT_EQ(s[1].rate_per_s, 333);
  EXPECT_EQ(s[2].rate_per_s, 333);

  o.connections = 2;  // the third host has no connection: no rate either
  const std::vector<load::Options> two = bench::split_load(o, 3);
  EXPECT_EQ(two[0].rate_per_s, 500);
  EXPECT_EQ(two[1].rate_per_s, 500);
  EXPECT_EQ(two[2].rate_per_s, 0);

  o.rate_per_s = 1000.5;  // not whole: an even split
  const std::vector<load::Options> frac = bench::split_load(o, 2);
  EXPECT_EQ(frac[0].rate_per_s, 500.25);
  EXPECT_EQ(frac[1].rate_per_s, 500.25);
}

// The text of a /proc file with NULs (cmdline, environ) as a list.
std::vector<std::string> proc_list(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::vector<std::string> out;
  for (std::string item; std::getline(f, item, '\0');) out.push_back(item);
  return out;
}

// The pids of `zapbench load --coordinated` (this build's) run for fake host `host`, zombies left out.
std::vector<pid_t> loaders_of(const std::string& host) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::vector<std::string> argv = proc_list(e.path() / "cmdline");
    if (argv.empty() || argv[0] != ZAPBENCH_BIN ||
        std::find(argv.begin(), argv.end(), "--coordinated") == argv.end())
      continue;
    const std::vector<std::string> env = proc_list(e.path() / "environ");
    if (std::find(env.begin(), env.end(), "FAKE_SSH_HOST=" + host) == env.end()) continue;
    out.push_back(pid_t(std::stol(name)));
  }
  return out;
}

class bench_loaders : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("loaders_test");
    dir_ = scratch_->path();
    std::vector<std::string> argv = {ZAPBENCH_BIN, "serve", "--http", "127.0.0.1:0"};
    server_.emplace(bench::ChildSpec{argv, {}, (dir_ / "server.log").string(), true, {}});
    for (const proc::ReadyListener& l : server_->wait_ready(zaptest::kHangS))
      if (l.kind == "http") port_ = l.port;
    ASSERT_NE(port_, 0) << zaptest::read_text(dir_ / "server.log");
  }
  void TearDown() override {
    // No loader of this test outlives it.
    for (const std::string& h : hosts_)
      EXPECT_TRUE(zaptest::await([&] { return loaders_of(h).empty(); })) << "a loader of " << h << " is left";
    server_.reset();
    scratch_.reset();
  }

  // A fake host name unique to this test process (found in the loaders' environment).
  std::string host(const std::string& name) {
    hosts_.push_back(name + "-" + std::to_string(getpid()));
    return hosts_.back();
  }

  bench::LoaderRun run(std::vector<std::string> hosts, double duration_s) {
    bench::LoaderRun r;
    r.ssh.program = FAKE_SSH;
    r.ssh.remote_zapbench = ZAPBENCH_BIN;
    r.hosts = std::move(hosts);
    r.options.port = port_;
    r.options.connections = 4;
    r.options.threads = 2;
    r.options.duration_s = duration_s;
    r.options.warmup_s = 0.05;
    r.options.timeout_ms = 10000;
    r.log_prefix = (dir_ / "loader").string();
    return r;
  }

  std::string logs() const {
    std::string s;
    for (int i = 0; i < 3; ++i) s += zaptest::read_text(dir_ / ("loader" + std::to_string(i + 1) + ".log"));
    return s;
  }

  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_;
  std::optional<bench::Child> server_;
  std::uint16_t port_ = 0;
  std::vector<std::string> hosts_;
};

TEST_F(bench_loaders, two_hosts_merge_exactly_with_the_barrier_figures) {
  const bench::MultiLoad m = bench::run_loaders(run({host("a"), host("b")}, 0.3));
  ASSERT_TRUE(m.failure.empty()) << m.failure << "\n" << logs();
  ASSERT_TRUE(m.merged.has_value());
  ASSERT_EQ(m.hosts.size(), 2u);
  std::uint64_t responses = 0, requests = 0;
  load::Histogram latency, actual;
  for (const bench::LoaderHostResult& h : m.hosts) {
    ASSERT_TRUE(h.report.has_value()) << h.host << ": " << h.failure;
    EXPECT_GT(h.report->result.responses, 0u);
    EXPECT_EQ(h.report->options.connections, 2u);
    EXPECT_GE(h.go_rtt_ns, 0);
    EXPECT_GE(h.go_to_first_send_ns, 0);
    EXPECT_NE(h.command.find("--coordinated"), std::string::npos) << h.command;
    responses += h.report->result.responses;
    requests += h.report->result.requests;
    latency.merge(h.report->result.latency);
    actual.merge(h.report->result.latency_actual);
  }
  EXPECT_EQ(m.merged->result.responses, responses);
  EXPECT_EQ(m.merged->result.requests, requests);
  EXPECT_TRUE(m.merged->result.latency == latency);
  EXPECT_TRUE(m.merged->result.latency_actual == actual);
  EXPECT_EQ(m.merged->options.connections, 4u);
  EXPECT_GE(m.start_skew_ns, 0);
  // The bound over the pair, max(hi_1 - lo_2, hi_2 - lo_1), is at least half their sum, which is the sum
  // of the two hosts' own uncertainties (hi_i - lo_i = go RTT_i).
  ASSERT_EQ(m.hosts.size(), 2u);
  EXPECT_GE(2 * m.start_skew_ns, m.hosts[0].go_rtt_ns + m.hosts[1].go_rtt_ns);
}

TEST_F(bench_loaders, an_unreachable_host_is_named_and_the_other_kept) {
  const std::string a = host("a");
  const bench::MultiLoad m = bench::run_loaders(run({a, "down1"}, 0.2));
  EXPECT_EQ(m.failure.rfind("host down1: its session ended without a result (ssh exit 255", 0), 0u)
      << m.failure;
  EXPECT_NE(m.failure.find("Connection refused"), std::string::npos) << m.failure;  // ssh's last line
  EXPECT_FALSE(m.merged.has_value());
  ASSERT_EQ(m.hosts.size(), 2u);
  ASSERT_TRUE(m.hosts[0].report.has_value()) << m.hosts[0].failure << "\n" << logs();
  EXPECT_GT(m.hosts[0].report->result.responses, 0u);
  EXPECT_FALSE(m.hosts[1].report.has_value());
}

// A loader host that breaks §4's protocol (a script standing in for the remote zapbench, which then
// hangs): a result over the bound, or a line that is no part of it, fails that host at once with the
// reason; nothing waits for the hang bounds.
TEST_F(bench_loaders, a_host_breaking_the_protocol_is_named_with_the_reason) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"warm\\nresult 999999999\\n",
       "protocol error: a result of 999999999 bytes, more than the bound of 67108864 bytes"},
      {"Welcome to host a!\\n", "protocol error: unexpected line \"Welcome to host a!\""},
      {"result 1x\\n", "protocol error: bad result length in \"result 1x\""}};
  for (const auto& [out, why] : cases) {
    const fs::path fake = dir_ / "not_zapbench.sh";
    zaptest::write_bytes(fake, "#!/bin/sh\nprintf '" + out + "'\nexec sleep 1000\n");
    fs::permissions(fake, fs::perms::owner_all);
    bench::LoaderRun r = run({"broken"}, 0.2);
    r.ssh.remote_zapbench = fake.string();
    const bench::MultiLoad m = bench::run_loaders(r);
    // The reason is the protocol's, not the warm-up + 30 s bound's ("no `warm` within ..."): the
    // session was ended when it broke the protocol (no time is measured).
    EXPECT_EQ(m.failure, "host broken: " + why);
    ASSERT_EQ(m.hosts.size(), 1u);
    EXPECT_EQ(m.hosts[0].failure, why);
    EXPECT_FALSE(m.merged.has_value());
  }
}

// A loader killed while the run goes on (in its warm-up or its window: either way its session ends
// without a result): that host is named, the other's result is kept, no process is left.
TEST_F(bench_loaders, a_loader_killed_mid_run_is_named_and_the_other_kept) {
  const std::string a = host("a"), b = host("b");
  std::optional<bench::MultiLoad> m;
  std::thread t([&, r = run({a, b}, 2)] { m = bench::run_loaders(r); });
  std::vector<pid_t> victims;
  EXPECT_TRUE(zaptest::await([&] { return !(victims = loaders_of(b)).empty(); })) << "no loader of " << b;
  for (pid_t p : victims) kill(p, SIGKILL);
  t.join();
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->failure.rfind("host " + b + ": ", 0), 0u) << m->failure;
  EXPECT_FALSE(m->merged.has_value());
  ASSERT_TRUE(m->hosts[0].report.has_value()) << m->hosts[0].failure << "\n" << logs();
  EXPECT_GT(m->hosts[0].report->result.responses, 0u);
  EXPECT_FALSE(m->hosts[1].failure.empty());
}

TEST_F(bench_loaders, a_stop_ends_every_loader_at_once) {
  const std::string a = host("a"), b = host("b");
  std::atomic<bool> stop{false};
  bench::LoaderRun r = run({a, b}, 3600);  // a window that never ends by itself in the test's time
  r.stop = &stop;
  std::optional<bench::MultiLoad> m;
  std::thread t([&] { m = bench::run_loaders(r); });
  std::vector<pid_t> pids;
  EXPECT_TRUE(zaptest::await([&] {
    const std::vector<pid_t> pa = loaders_of(a), pb = loaders_of(b);
    pids = pa;
    pids.insert(pids.end(), pb.begin(), pb.end());
    return !pa.empty() && !pb.empty();
  }));
  stop = true;
  t.join();  // returns without the window: a hang here is the test's own bound (ctest's timeout)
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->failure, "stopped");
  EXPECT_FALSE(m->merged.has_value());
  for (pid_t p : pids)
    EXPECT_TRUE(zaptest::await([&] {
      const std::string stat = zaptest::read_text("/proc/" + std::to_string(p) + "/stat");
      return stat.empty() ||
             stat.find(") Z") != std::string::npos;  // gone (or only a zombie, not ours to reap)
    })) << "loader "
        << p << " still runs";
}

}  // namespace
