// tests/load/load_engine_test.cpp — the load engine (src/load) end to end over loopback: against the
// project's own in-process server on every wire and body, and against raw test servers that lie, fail,
// close or stay silent; the start barrier, a full window, Little's law. Owns the engine's validation and
// its counting by error kind; ZAP-RPC's matching is load_zap_rpc_test's, allocations, the open loop and
// the end of a run load_run_test's, the histogram's arithmetic load_histogram_test's. Every load runs until
// the event its test needs (so many responses, errors) and is then stopped (background_load.hpp): no
// verdict depends on how fast the machine is. Where a figure is a time, it is one the test imposes (a
// server that waits D before answering), and the bound holds by construction.
#include <gtest/gtest.h>

#include "load_servers.hpp"
#include "proc/sanitized.hpp"

namespace {

using namespace loadtest;

// ---- against the project's server -----------------------------------------------

TEST(load_engine, validates_every_response_on_every_wire_and_body) {
  struct Case {
    const char* name;
    Scenario scenario;
    bool zap_body;
  };
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc}) {
    for (const Case& c : {Case{"hello", Scenario::hello, false}, Case{"rpc json", Scenario::rpc, false},
                          Case{"rpc zap", Scenario::rpc, true}}) {
      SCOPED_TRACE(std::string(matrix::to_string(wire)) + " " + c.name);
      zaptest::BackgroundLoad l(options(wire, OwnServer::get().port(wire), c.scenario, c.zap_body));
      // Every connection answered too: on a busy machine the first ones may carry the first 100 alone.
      l.await([](const load::Progress& p) { return p.responses >= 100 && p.connections_answered >= 4; },
              "100 valid responses on all 4 connections");
      const load::Result& r = l.finish();
      expect_clean(r);
      EXPECT_TRUE(r.stopped);
      EXPECT_GT(r.elapsed_s, 0);
      // The live counters end where the result does.
      EXPECT_EQ(l.progress().responses.load(), r.responses);
      EXPECT_EQ(l.progress().errors.load(), r.error_total());
      EXPECT_EQ(l.progress().connections_answered.load(), r.connections_answered);
      EXPECT_EQ(r.connections_answered, 4u);
    }
  }
}

// Every binary peer a server answers with, as the rpc body on every wire: sent with its content type (on
// ZAP-RPC, its method ordinal), every response decoded with the same codec and validated (id, balance, hash)
// like JSON and ZAP.
TEST(load_engine, validates_every_binary_peer_body_on_every_wire) {
  for (const record::CodecInfo& info : record::all_codecs()) {
    if (!info.available || info.trusted_input_only || info.family() != matrix::Family::peer) continue;
    for (matrix::Framing wire :
         {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc}) {
      SCOPED_TRACE(std::string(matrix::to_string(wire)) + " " + std::string(info.name));
      load::Options o = options(wire, OwnServer::get().port(wire), Scenario::rpc);
      o.body = &info;
      zaptest::BackgroundLoad l(o);
      l.await_responses(50, "50 valid responses");
      expect_clean(l.finish());
    }
  }
}

// The logs scenario against the project's server: every answer's content type and digest checked, on both
// HTTP wires, with ZAP and with every other codec that has the record; on ZAP-RPC (no content type: the
// method names the codec) with ZAP and the default JSON codec, to keep the suite's time; answers of 230 bytes
// to 2.3 MB (the loader's input grows to take them), pipelined.
// Under a sanitizer (10 to 50 times slower; TSan took minutes here) the megabyte answers cross the wires
// with ZAP and the default JSON codec only: every other codec's N = 10 000 read is the same code the
// release run checks, and its N = 1 answers still cross every wire under the sanitizer.
constexpr bool kSanitized = proc::kSanitized;

TEST(load_engine, validates_every_logs_answer_on_every_wire) {
  for (const record::CodecInfo& info : record::all_codecs()) {
    if (!record::logs_refusal(info).empty()) continue;
    const bool on_zap_rpc = info.name == "zap" || &info == &record::default_json_codec();
    for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc})
      for (const std::uint32_t n : {1u, 10'000u}) {
        if (wire == matrix::Framing::zap_rpc && !on_zap_rpc) continue;
        if (kSanitized && n == 10'000 && !on_zap_rpc) continue;
        SCOPED_TRACE(std::string(matrix::to_string(wire)) + " " + std::string(info.name) +
                     " N=" + std::to_string(n));
        load::Options o = logs_options(wire, OwnServer::get().port(wire), n);
        o.body = &info;
        o.connections = 2;
        o.pipeline = 2;
        zaptest::BackgroundLoad l(o);
        l.await_responses(20, "20 valid logs answers");
        const load::Result& r = l.finish();
        expect_clean(r);
        EXPECT_GT(r.received_mb_per_s(), 0);
        EXPECT_EQ(r.bytes_received / std::max<std::uint64_t>(r.responses, 1) > 1'000'000, n == 10'000)
            << "N=10 000 answers are megabytes";
      }
  }
}

// Every field of every log counts: an answer with one value changed, one log fewer, the right logs under
// another content type — each a validation error; a 500 a status error. The honest server is the control.
TEST(load_engine, counts_tampered_logs_answers_as_validation_errors) {
  struct Case {
    const char* name;
    RawServer::Handler handler;
    load::ErrorKind kind;
  };
  const Case cases[] = {
      {"one block number", logs_handler([](record::LogSet& s) { ++s.logs[s.logs.size() / 2].block_number; }),
       load::ErrorKind::validation},
      {"one byte of the last log", logs_handler([](record::LogSet& s) { s.bytes.back() ^= 1; }),
       load::ErrorKind::validation},
      {"one log fewer", logs_handler([](record::LogSet& s) { s.logs.pop_back(); }),
       load::ErrorKind::validation},
      {"removed flipped", logs_handler([](record::LogSet& s) { s.logs[0].removed = !s.logs[0].removed; }),
       load::ErrorKind::validation},
      {"another content type", logs_handler(kHonestLogs, "application/json"), load::ErrorKind::validation},
      {"status 500", logs_handler(kHonestLogs, "application/zap", 500), load::ErrorKind::status},
  };
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http}) {
    {
      SCOPED_TRACE(std::string(matrix::to_string(wire)) + " honest");
      RawServer srv(wire, logs_handler(kHonestLogs));
      expect_clean(run_until_responses(logs_options(wire, srv.port(), 100), 20));
    }
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(wire == matrix::Framing::http1 ? "http " : "zap ") + c.name);
      RawServer srv(wire, c.handler);
      const load::Result r = run_until_errors(logs_options(wire, srv.port(), 100), 10);
      EXPECT_GT(errors_of(r, c.kind), 0u);
      EXPECT_EQ(r.error_total(), errors_of(r, c.kind)) << describe_errors(r);
      EXPECT_EQ(r.responses, 0u);
    }
  }
}

// What the logs scenario cannot run with is refused before anything is sent.
TEST(load_engine, refuses_a_logs_scenario_it_cannot_validate) {
  const auto error_of = [](const load::Options& o) -> std::string {
    try {
      load::run(o);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(no error)";
  };
  load::Options o = logs_options(matrix::Framing::http1, OwnServer::get().port(matrix::Framing::http1), 0);
  EXPECT_EQ(error_of(o), "the logs scenario needs N from 1 to 100000, got 0");
  o.logs = record::kMaxLogs + 1;
  EXPECT_EQ(error_of(o), "the logs scenario needs N from 1 to 100000, got 100001");
  for (const record::CodecInfo& info : record::all_codecs())
    if (info.available && !info.trusted_input_only && !info.has_logs) {
      o.logs = 1;
      o.body = &info;
      EXPECT_EQ(error_of(o), "the logs scenario: codec " + std::string(info.name) +
                                 " has no logs record yet (record::LogsCodec)");
      break;
    }
}

TEST(load_engine, pipelines_eight_deep_on_every_wire_without_errors) {
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    load::Options o = options(wire, OwnServer::get().port(wire), Scenario::rpc);
    o.pipeline = 8;
    o.threads = 2;  // also merges two threads' results
    const load::Result r = run_until_responses(o, 500);
    expect_clean(r);
    // No error and a drain that waits for every answer: each request of the window was answered.
    EXPECT_EQ(r.responses, r.requests);
  }
}

TEST(load_engine, a_window_that_runs_its_full_duration_reports_it) {
  load::Options o =
      options(matrix::Framing::http1, OwnServer::get().port(matrix::Framing::http1), Scenario::hello);
  o.duration_s = 0.25;
  o.warmup_s = 0;
  const load::Result r = load::run(o);
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(r.elapsed_s, 0.25);
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, r.requests);  // warm-up 0: the first request of each connection is in the window
}

// A load of 2 threads behind a start barrier (Options::go, docs/spec/hosts.md §4), both threads warm.
struct BarrierLoad {
  explicit BarrierLoad(double rate) : l(barrier_options(rate, go)) {
    l.await([](const load::Progress& p) { return p.threads.load() == 2 && p.warm_threads.load() == 2; },
            "both threads warm");
  }
  static load::Options barrier_options(double rate, const std::atomic<bool>& go) {
    load::Options o =
        options(matrix::Framing::http1, OwnServer::get().port(matrix::Framing::http1), Scenario::hello);
    o.threads = 2;
    o.rate_per_s = rate;
    o.warmup_s = 0.05;
    o.go = &go;
    return o;
  }
  std::atomic<bool> go{false};
  zaptest::BackgroundLoad l;
};

// Options::go, the start barrier of several loader hosts (docs/spec/hosts.md §4): never set, the threads
// count themselves warm and keep the warm-up load going unrecorded; a stop then leaves an empty window.
TEST(load_engine, a_start_barrier_never_given_records_nothing) {
  for (const double rate : {0.0, 2000.0}) {  // closed loop, then open loop
    SCOPED_TRACE(rate > 0 ? "open loop" : "closed loop");
    BarrierLoad b(rate);
    zaptest::BackgroundLoad& l = b.l;
    const load::Result& r = l.finish();
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.elapsed_s, 0);
    EXPECT_EQ(r.requests, 0u);
    EXPECT_EQ(r.responses, 0u);
    EXPECT_EQ(r.latency.count(), 0u);
    EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
    EXPECT_EQ(r.window_first_send_ns, -1);
    EXPECT_EQ(l.progress().responses.load(), 0u);
  }
}

// go set once every thread is warm: the window starts when each thread sees it, never before (the
// first recorded send is at or after the moment go was set, on the engine's clock, net/clock.hpp).
TEST(load_engine, a_start_barrier_starts_the_window_at_go) {
  for (const double rate : {0.0, 2000.0}) {
    SCOPED_TRACE(rate > 0 ? "open loop" : "closed loop");
    BarrierLoad b(rate);
    zaptest::BackgroundLoad& l = b.l;
    std::atomic<bool>& go = b.go;
    EXPECT_EQ(l.progress().responses.load(), 0u);  // nothing recorded before go
    const std::int64_t go_ns = net::now_ns();
    go = true;
    l.await_responses(100, "100 valid responses after go");
    const load::Result& r = l.finish();
    expect_clean(r);
    EXPECT_TRUE(r.stopped);
    EXPECT_GE(r.window_first_send_ns, go_ns);
    EXPECT_LE(r.window_first_send_ns, net::now_ns());
  }
}

// Little's law, L = rate x W, as the inequalities a closed loop obeys exactly. Against a server that waits
// D before each answer: every latency is at least D; a connection (one request in flight) is answered at
// most once per D; and the latencies of one connection never overlap, so their sum is at most the time the
// run lasted, per connection. Inflated latencies (a stale clock) break the last; deflated ones the first.
TEST(load_engine, closed_loop_latency_and_rate_obey_littles_law) {
  constexpr auto kDelay = 20ms;
  DelayingServer srv(kDelay);
  const load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  const auto start = Clock::now();
  const load::Result r = run_until_responses(o, 100);
  const double run_s = std::chrono::duration<double>(Clock::now() - start).count();
  expect_clean(r);
  const double delay_ns = std::chrono::duration<double, std::nano>(kDelay).count();
  EXPECT_GE(double(r.latency.min()), delay_ns) << "a latency shorter than the server's own wait";
  EXPECT_LE(double(r.responses), o.connections * (r.elapsed_s * 1e9 / delay_ns + 1))
      << "more answers than " << o.connections << " connections can get at one per " << kDelay.count()
      << " ms";
  EXPECT_LE(r.latency.mean() * double(r.latency.count()), o.connections * run_s * 1e9)
      << "the latencies add up to more time than the run had";
}

// ---- servers that answer wrongly ------------------------------------------------

TEST(load_engine, counts_wrong_balance_and_wrong_hello_body_as_validation_errors) {
  for (const bool honest : {true, false}) {  // the honest control proves the raw server itself is right
    RawServer srv(matrix::Framing::http1, honest
                                              ? rpc_handler("ok", kHonest)
                                              : rpc_handler("no", [](record::Response& r) { ++r.balance; }));
    for (Scenario s : {Scenario::rpc, Scenario::hello}) {
      SCOPED_TRACE(std::string(honest ? "honest " : "lying ") + (s == Scenario::rpc ? "rpc" : "hello"));
      const load::Options o = options(matrix::Framing::http1, srv.port(), s);
      if (honest) {
        expect_clean(run_until_responses(o, 20));
        continue;
      }
      const load::Result r = run_until_errors(o, 20);
      EXPECT_GT(errors_of(r, load::ErrorKind::validation), 0u);
      EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::validation)) << describe_errors(r);
      EXPECT_EQ(r.responses, 0u);
      EXPECT_EQ(r.latency.count(), 0u);
    }
  }
}

TEST(load_engine, counts_wrong_rpc_id_over_the_zap_wire_as_validation_errors) {
  for (const bool honest : {true, false}) {
    RawServer srv(matrix::Framing::zap_http,
                  rpc_handler(
                      "ok", honest ? kHonest : [](record::Response& r) { ++r.id; }));
    for (const bool zap_body : {false, true}) {
      SCOPED_TRACE(std::string(honest ? "honest " : "lying ") + (zap_body ? "zap body" : "json body"));
      const load::Options o = options(matrix::Framing::zap_http, srv.port(), Scenario::rpc, zap_body);
      if (honest) {
        expect_clean(run_until_responses(o, 20));
        continue;
      }
      const load::Result r = run_until_errors(o, 20);
      EXPECT_GT(errors_of(r, load::ErrorKind::validation), 0u);
      EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::validation)) << describe_errors(r);
      EXPECT_EQ(r.responses, 0u);
    }
  }
}

// The whole block hash is compared, not only what a charitable JSON decode checks: an answer with a wrong
// first byte, which every codec decodes, is a validation error.
TEST(load_engine, counts_a_wrong_block_hash_as_a_validation_error) {
  RawServer srv(matrix::Framing::http1, rpc_handler("ok", [](record::Response& r) { r.block_hash[0] ^= 1; }));
  const load::Result r = run_until_errors(options(matrix::Framing::http1, srv.port(), Scenario::rpc), 10);
  EXPECT_GT(errors_of(r, load::ErrorKind::validation), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, 0u);
}

// A server that answers and then closes, as its Connection: close says, is
// not failing: the loader reconnects and records the answers, no errors.
TEST(load_engine, an_announced_connection_close_is_not_an_error) {
  RawServer srv(matrix::Framing::http1, [](const Req&) { return Reply{200, "text/plain", "ok", true}; });
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 1;
  const load::Result r = run_until_responses(o, 5);
  EXPECT_GT(r.responses, 1u) << describe_errors(r);  // more than one connection's worth: it reconnected
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
}

TEST(load_engine, counts_a_non_200_answer_as_a_status_error) {
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    RawServer srv(wire, [](const Req&) {
      return Reply{500, "text/plain", "ok"};
    });  // a valid body, wrong status
    const load::Result r = run_until_errors(options(wire, srv.port(), Scenario::hello), 10);
    EXPECT_GT(errors_of(r, load::ErrorKind::status), 0u);
    EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::status)) << describe_errors(r);
    EXPECT_EQ(r.responses, 0u);
  }
}

TEST(load_engine, counts_a_silent_server_as_timeouts_and_still_ends) {
  RawServer srv(matrix::Framing::http1, [](const Req&) { return std::optional<Reply>{}; });
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 2;
  o.timeout_ms = 100;
  const load::Result r = run_until_errors(o, 2);
  EXPECT_GT(errors_of(r, load::ErrorKind::timeout), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, 0u);
}

// ---- ZAP-RPC: answers matched by PromiseID ---------------------------------------

}  // namespace
