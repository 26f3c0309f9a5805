// tests/load/load_zap_rpc_test.cpp — the load engine on ZAP-RPC against a test server that answers out of
// order on purpose, to calls never made, with swapped answers, with a status or frames that are no
// responses, or not at all: calls are matched by PromiseID and every kind of wrong answer counted.
#include <gtest/gtest.h>

#include "load_servers.hpp"

namespace {

using namespace loadtest;

load::Options zap_rpc_options(const RpcServer& srv, Scenario scenario, const char* body) {
  load::Options o = options(matrix::Framing::zap_rpc, srv.port(), scenario);
  o.body = record::find_codec(body);
  o.pipeline = 8;
  o.connections = 2;
  return o;
}

// A server that answers each batch of calls in reverse order: every answer is matched to its call by
// PromiseID and validated against that call (its id), so nothing is an error and every request of the window
// is answered. Hello and logs are fixed requests (built once, their PromiseID patched per send); rpc is built
// per call; the logs answers carry no content type on this wire.
TEST(load_engine, zap_rpc_matches_answers_given_in_reverse_order_to_their_calls) {
  struct Case {
    const char* name;
    Scenario scenario;
    const char* body;
  };
  for (const Case& c : {Case{"hello", Scenario::hello, "zap"}, Case{"rpc zap", Scenario::rpc, "zap"},
                        Case{"rpc json", Scenario::rpc, "direct"}, Case{"logs zap", Scenario::logs, "zap"}}) {
    SCOPED_TRACE(c.name);
    RpcServer srv(*record::find_codec(c.body), 8);
    load::Options o = zap_rpc_options(srv, c.scenario, c.body);
    // Both connections answered: on a busy machine one may carry the first 500 alone.
    const load::Result r = run_until(
        o, [](const load::Progress& p) { return p.responses >= 500 && p.connections_answered >= 2; },
        "500 valid responses on both connections");
    expect_clean(r);
    EXPECT_EQ(r.responses, r.requests);
    EXPECT_EQ(r.connections_answered, 2u);
    EXPECT_GT(srv.reversed_batches(), 0) << "no batch of two or more calls: nothing was reordered";
  }
}

// An answer to a PromiseID never sent and a second answer to one already answered are each counted once as
// unknown_promise, and the connection goes on: no other error, every request answered.
TEST(load_engine, zap_rpc_counts_answers_to_no_call_in_flight_as_unknown_promise) {
  EXPECT_EQ(load::describe(load::ErrorKind::unknown_promise), "unknown_promise");
  RpcServer srv(*record::find_codec("zap"), 8, RpcServer::Misbehave::inject_once);
  load::Options o = zap_rpc_options(srv, Scenario::rpc, "zap");
  o.warmup_s = 0;  // the injected answers fall in the window
  const load::Result r = run_until(
      o,
      [](const load::Progress& p) {
        return p.errors.load() >= 2 && p.responses.load() >= 200 && p.connections_answered >= 2;
      },
      "the two answers to no call in flight, and 200 valid responses on both connections");
  EXPECT_TRUE(srv.injected());
  EXPECT_EQ(errors_of(r, load::ErrorKind::unknown_promise), 2u) << describe_errors(r);
  EXPECT_EQ(r.error_total(), 2u) << describe_errors(r);
  EXPECT_EQ(r.responses, r.requests);
  EXPECT_EQ(r.connections_answered, 2u);
}

// Two calls answered with each other's answers: each answer is validated against the call its PromiseID
// names, whose record id it does not carry, so both are validation errors (and nothing else is).
TEST(load_engine, zap_rpc_validates_an_answer_against_the_call_its_promise_names) {
  for (const char* body : {"zap", "direct"}) {
    SCOPED_TRACE(body);
    RpcServer srv(*record::find_codec(body), 8, RpcServer::Misbehave::swap_once);
    load::Options o = zap_rpc_options(srv, Scenario::rpc, body);
    o.warmup_s = 0;
    const load::Result r = run_until(
        o, [](const load::Progress& p) { return p.errors.load() >= 2 && p.responses.load() >= 200; },
        "the two swapped answers, and 200 valid responses");
    EXPECT_TRUE(srv.swapped());
    EXPECT_EQ(errors_of(r, load::ErrorKind::validation), 2u) << describe_errors(r);
    EXPECT_EQ(r.error_total(), 2u) << describe_errors(r);
    EXPECT_EQ(r.responses + 2, r.requests);
  }
}

TEST(load_engine, zap_rpc_counts_a_non_200_answer_as_a_status_error) {
  RpcServer srv(*record::find_codec("zap"), 8, RpcServer::Misbehave::status_500);
  const load::Result r = run_until_errors(zap_rpc_options(srv, Scenario::rpc, "zap"), 10);
  EXPECT_GT(errors_of(r, load::ErrorKind::status), 0u);
  EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::status)) << describe_errors(r);
  EXPECT_EQ(r.responses, 0u);
}

// A frame that is not a response (another direction byte, an envelope that is no ZAP message) is a read
// error: the connection is dropped and reconnected, as on the other framings.
TEST(load_engine, zap_rpc_counts_a_frame_that_is_not_a_response_as_a_read_error) {
  for (const RpcServer::Misbehave m :
       {RpcServer::Misbehave::wrong_dir, RpcServer::Misbehave::malformed_envelope}) {
    SCOPED_TRACE(m == RpcServer::Misbehave::wrong_dir ? "wrong dir" : "malformed envelope");
    RpcServer srv(*record::find_codec("zap"), 8, m);
    const load::Result r = run_until_errors(zap_rpc_options(srv, Scenario::hello, "zap"), 3);
    EXPECT_GE(errors_of(r, load::ErrorKind::read), 3u);
    EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::read)) << describe_errors(r);
    EXPECT_EQ(r.responses, 0u);
  }
}

// One call left unanswered while the later ones are answered: the connection sends until its call table is
// full (4 x the pipeline, at least 64 calls from the unanswered one on: docs/spec/zap-rpc.md §4), then
// nothing more until that call times out, which drops and reconnects the connection.
TEST(load_engine, zap_rpc_holds_sends_behind_an_unanswered_call_until_it_times_out) {
  RpcServer srv(*record::find_codec("zap"), 8, RpcServer::Misbehave::hold_first);
  load::Options o = zap_rpc_options(srv, Scenario::hello, "zap");
  o.connections = 1;
  o.timeout_ms = 200;
  const load::Result r = run_until_errors(o, 2);
  EXPECT_EQ(srv.most_calls_per_connection(), 64u) << "the call table of pipeline 8 holds 64 calls";
  EXPECT_GE(errors_of(r, load::ErrorKind::timeout), 2u);
  EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::timeout)) << describe_errors(r);
  EXPECT_GT(r.responses, 0u);
}

// ---- the loader's steady state allocates nothing ----------------------------------

}  // namespace
