// tests/flags/flags_test.cpp — flags/flags.hpp: the value parsers (units, bounds,
// malformed text), the argument walk of a table (spellings, repeats, switches,
// positionals, "--"), its one-line errors and deprecation warnings, its --help,
// and a table holding every flag of `zapbench run`. Tables of small named cases;
// nothing here times anything.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flags/flags.hpp"

namespace {

using namespace flags;

Outcome parse(Table& t, std::vector<std::string> args) { return t.try_parse(args); }

// ---------------------------------------------------------------- value parsers

TEST(parse_whole, accepts_digits_only) {
  EXPECT_EQ(parse_whole("0"), 0u);
  EXPECT_EQ(parse_whole("10"), 10u);
  EXPECT_EQ(parse_whole("18446744073709551615"), UINT64_MAX);
  for (const char* bad : {"", "-1", "+1", "1.5", "10k", " 1", "1 ", "0x10", "18446744073709551616"})
    EXPECT_EQ(parse_whole(bad), std::nullopt) << bad;
}

TEST(parse_duration_s, plain_numbers_are_seconds_and_units_scale) {
  const std::pair<const char*, double> cases[] = {
      {"10", 10},   {"10s", 10}, {"1.5s", 1.5}, {"500ms", 0.5}, {"250us", 250e-6}, {"1m", 60},
      {"2h", 7200}, {"0", 0},    {"0s", 0},     {".5", 0.5},    {"0.25m", 15}};
  for (auto [text, seconds] : cases) {
    const std::optional<double> s = parse_duration_s(text);
    ASSERT_TRUE(s.has_value()) << text;
    EXPECT_DOUBLE_EQ(*s, seconds) << text;
  }
}

TEST(parse_duration_s, rejects_malformed_and_negative) {
  for (const char* bad : {"", "s", "ms", "-1", "-1s", "10x", "10 s", "10S", "1d", "10sec", "inf", "nan",
                          "1e999", "10/s", "1,5s"})
    EXPECT_EQ(parse_duration_s(bad), std::nullopt) << bad;
}

TEST(parse_rate_per_s, counts_per_second_with_or_without_the_unit) {
  EXPECT_EQ(parse_rate_per_s("1000"), 1000.0);
  EXPECT_EQ(parse_rate_per_s("1000/s"), 1000.0);
  EXPECT_EQ(parse_rate_per_s("2.5/s"), 2.5);
  // The old bug: --rate was read as seconds. A duration is not a rate.
  for (const char* bad : {"", "/s", "1000/m", "1000s", "10ms", "-5", "fast"})
    EXPECT_EQ(parse_rate_per_s(bad), std::nullopt) << bad;
}

TEST(parse_host_port, host_v6_in_brackets_and_every_interface) {
  EXPECT_EQ(parse_host_port("127.0.0.1:8080"), (HostPort{"127.0.0.1", 8080}));
  EXPECT_EQ(parse_host_port("[::1]:9999"), (HostPort{"::1", 9999}));
  EXPECT_EQ(parse_host_port(":0"), (HostPort{"", 0}));
  EXPECT_EQ(parse_host_port("localhost:65535"), (HostPort{"localhost", 65535}));
  for (const char* bad : {"", "nonsense", "127.0.0.1", "h:", "h:x", "h:65536", "::1:80", "h:-1"})
    EXPECT_EQ(parse_host_port(bad), std::nullopt) << bad;
  EXPECT_EQ(to_string(HostPort{"::1", 80}), "[::1]:80");
  EXPECT_EQ(to_string(HostPort{"127.0.0.1", 80}), "127.0.0.1:80");
}

TEST(parse_cpu_list, single_cpus_and_ranges) {
  EXPECT_EQ(parse_cpu_list("1"), (std::vector<int>{1}));
  EXPECT_EQ(parse_cpu_list("0,2-3"), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(parse_cpu_list("4-7"), (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(parse_cpu_list("1023"), (std::vector<int>{1023}));
  for (const char* bad : {"", ",", "x", "3-1", "1-", "-1", "1024", "0-1024", "1;2"})
    EXPECT_EQ(parse_cpu_list(bad), std::nullopt) << bad;
  EXPECT_EQ(cpu_list_text({0, 2, 3}), "0,2,3");
}

TEST(split_list, drops_empty_items) {
  EXPECT_EQ(split_list("a,b,,c,"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(split_list("").empty());
}

TEST(format_duration, picks_the_unit_that_gives_a_whole_number) {
  EXPECT_EQ(format_duration(10), "10s");
  EXPECT_EQ(format_duration(0.5), "500ms");
  EXPECT_EQ(format_duration(250e-6), "250us");
  EXPECT_EQ(format_duration(60), "1m");
  EXPECT_EQ(format_duration(7200), "2h");
  EXPECT_EQ(format_duration(1.5), "1500ms");
  EXPECT_EQ(format_duration(0), "0s");
  // Every formatted default parses back to itself.
  for (double s : {10.0, 0.5, 250e-6, 60.0, 7200.0, 1.5, 0.0, 86400.0})
    EXPECT_DOUBLE_EQ(*parse_duration_s(format_duration(s)), s) << s;
}

TEST(describe, bounds_read_as_a_person_writes_them) {
  auto n = [](unsigned v) { return std::to_string(v); };
  auto d = [](double v) { return format_duration(v); };
  EXPECT_EQ(describe<unsigned>({1, 1024}, n), "1..1024");
  EXPECT_EQ(describe<unsigned>({1}, n), "at least 1");
  EXPECT_EQ(describe<unsigned>({}, n), "");
  EXPECT_EQ(describe<double>({0, 86400, true}, d), "> 0s and at most 24h");
  EXPECT_EQ(describe<double>({0}, d), ">= 0s");
}

// ---------------------------------------------------------------- the table

// A table shaped like `zapbench load`'s, with each kind of flag once.
struct LoadLike {
  unsigned connections = 10, threads = 1;
  std::uint32_t timeout_ms = 5000;
  double duration_s = 10, warmup_s = 1, rate_per_s = 0;
  enum class Framing { http, zap, floor } framing = Framing::http;
  std::string body = "json", json_codec, json_out;
  HostPort addr;
  std::vector<int> cpus;
  Table t{"load"};
  LoadLike() {
    t.choice("--framing", &framing,
             {{"http", Framing::http}, {"zap", Framing::zap}, {"floor", Framing::floor}}, "the framing")
        .deprecated_alias("--wire");
    t.host_port("--addr", &addr, "the server", false);
    t.text("--body", &body, "CODEC", "the body codec");
    t.text("--json", &json_codec, "CODEC", "").deprecated("--body CODEC");
    t.number("-c, --connections", &connections, {1}, "connections");
    t.number("-t, --threads", &threads, {1, 1024}, "threads");
    t.duration("-d, --duration", &duration_s, {0, 86400, true}, "recorded time");
    t.duration("--warmup", &warmup_s, {0, 86400}, "unrecorded time first");
    t.rate("-R, --rate", &rate_per_s, {.min = 0, .min_exclusive = true}, "open loop at this rate");
    t.number("--timeout-ms", &timeout_ms, {1}, "a response later than this is a timeout");
    t.cpu_list("--cpus", &cpus, "pin thread i to the i-th CPU");
    t.text("--json-out", &json_out, "FILE", "write the results as JSON");
  }
};

TEST(table, every_spelling_of_a_value) {
  LoadLike l;
  const Outcome o = parse(l.t, {"-c", "4", "--threads=2", "-d10s", "--warmup", "500ms", "--rate", "2000/s",
                                "--addr", "[::1]:80", "--cpus", "0-1", "--framing", "zap"});
  ASSERT_EQ(o.kind, Outcome::ok) << o.message;
  EXPECT_EQ(l.connections, 4u);
  EXPECT_EQ(l.threads, 2u);
  EXPECT_EQ(l.duration_s, 10.0);
  EXPECT_EQ(l.warmup_s, 0.5);
  EXPECT_EQ(l.rate_per_s, 2000.0);
  EXPECT_EQ(l.addr, (HostPort{"::1", 80}));
  EXPECT_EQ(l.cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(l.framing, LoadLike::Framing::zap);
  EXPECT_TRUE(o.warnings.empty());
  EXPECT_TRUE(l.t.seen("-c"));
  EXPECT_TRUE(l.t.seen("--connections"));
  EXPECT_FALSE(l.t.seen("--json-out"));
}

TEST(table, untouched_flags_keep_their_defaults_and_the_last_value_wins) {
  LoadLike l;
  ASSERT_EQ(parse(l.t, {"-c", "4", "-c", "8"}).kind, Outcome::ok);
  EXPECT_EQ(l.connections, 8u);
  EXPECT_EQ(l.threads, 1u);
  EXPECT_EQ(l.duration_s, 10.0);
  EXPECT_EQ(l.timeout_ms, 5000u);
  // seen() answers for the last parse only.
  ASSERT_EQ(parse(l.t, {"-t", "2"}).kind, Outcome::ok);
  EXPECT_FALSE(l.t.seen("-c"));
  EXPECT_TRUE(l.t.seen("--threads"));
}

TEST(table, errors_name_the_flag_as_typed_the_value_and_what_it_wants) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"-c", "0"}, "-c wants at least 1, got '0'"},
      {{"--connections", "many"}, "--connections wants a whole number at least 1, got 'many'"},
      {{"-t", "0"}, "-t wants 1..1024, got '0'"},
      {{"--threads", "2000"}, "--threads wants 1..1024, got '2000'"},
      {{"-c", "99999999999"}, "-c wants at least 1, got '99999999999'"},  // past unsigned
      {{"-d", "0"},
       "-d wants a duration > 0s and at most 24h (e.g. 10s, 500ms, 250us, 1m, 2h; a plain number is "
       "seconds), "
       "got '0'"},
      {{"--warmup", "1x"},
       "--warmup wants a duration >= 0s and at most 24h (e.g. 10s, 500ms, 250us, 1m, 2h; a plain number is "
       "seconds), got '1x'"},
      {{"--rate", "5s"}, "--rate wants requests per second > 0 (e.g. 1000 or 1000/s), got '5s'"},
      {{"--addr", "nonsense"}, "--addr wants HOST:PORT, got 'nonsense'"},
      {{"--addr", "127.0.0.1:0"}, "--addr wants HOST:PORT, got '127.0.0.1:0': the port must not be 0"},
      {{"--cpus", "3-1"}, "--cpus wants a CPU list like 1 or 0,2-3 (CPUs below 1024), got '3-1'"},
      {{"--framing", "smoke"}, "--framing wants one of http, zap, floor, got 'smoke'"},
      {{"--wire", "smoke"}, "--wire wants one of http, zap, floor, got 'smoke'"},
      {{"--scenario", "hello"}, "unknown option '--scenario'"},
      {{"-x"}, "unknown option '-x'"},
      {{"--conections", "4"}, "unknown option '--conections' (did you mean --connections?)"},
      {{"--warm-up=1s"}, "unknown option '--warm-up' (did you mean --warmup?)"},
      {{"--timeout", "1"}, "unknown option '--timeout' (did you mean --timeout-ms?)"},
      {{"--latency"}, "unknown option '--latency'"},  // nothing near: no guess
      {{"-c"}, "-c needs a value (N)"},
      {{"--json-out"}, "--json-out needs a value (FILE)"},
      {{"stray"}, "unexpected argument 'stray'"},
  };
  for (const auto& [args, error] : cases) {
    LoadLike l;
    const Outcome o = parse(l.t, args);
    EXPECT_EQ(o.kind, Outcome::error) << args[0];
    EXPECT_EQ(o.message, error);
  }
}

TEST(table, error_line_says_where_to_look) {
  LoadLike l;
  EXPECT_EQ(l.t.error_line("-c wants at least 1, got '0'"),
            "zapbench load: -c wants at least 1, got '0' (see 'zapbench load --help')");
}

TEST(table, a_refused_value_leaves_the_target_alone) {
  LoadLike l;
  EXPECT_EQ(parse(l.t, {"-t", "2000"}).kind, Outcome::error);
  EXPECT_EQ(l.threads, 1u);
  EXPECT_FALSE(l.t.seen("-t"));
}

TEST(table, old_spellings_work_and_warn_once_naming_the_new_one) {
  LoadLike l;
  const Outcome o = parse(l.t, {"--wire", "floor", "--json", "simdjson", "--wire", "zap"});
  ASSERT_EQ(o.kind, Outcome::ok) << o.message;
  EXPECT_EQ(l.framing, LoadLike::Framing::zap);
  EXPECT_EQ(l.json_codec, "simdjson");
  EXPECT_EQ(o.warnings, (std::vector<std::string>{"--wire is deprecated: use --framing",
                                                  "--json is deprecated: use --body CODEC"}));
  EXPECT_TRUE(l.t.seen("--framing"));
  EXPECT_TRUE(l.t.seen("--wire"));
}

TEST(table, help_is_asked_for_anywhere) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--help"}, {"-h"}, {"-c", "4", "--help"}}) {
    LoadLike l;
    EXPECT_EQ(parse(l.t, args).kind, Outcome::help);
  }
}

TEST(table, help_lists_each_flag_with_value_name_default_and_help) {
  LoadLike l;
  l.t.about("One load engine for every framing.");
  const std::string h = l.t.help();
  EXPECT_EQ(h.rfind("usage: zapbench load [--framing http|zap|floor] [--addr HOST:PORT]", 0), 0u) << h;
  for (const char* line : {
           "\nOne load engine for every framing.\n",
           "\n  --framing http|zap|floor  the framing (default http) (formerly --wire)\n",
           "\n  -c, --connections N       connections (default 10)\n",
           "\n  -d, --duration DURATION   recorded time (default 10s)\n",
           "\n  --warmup DURATION         unrecorded time first (default 1s)\n",
           "\n  -R, --rate RATE           open loop at this rate\n",
           "\n  --timeout-ms N            a response later than this is a timeout (default 5000)\n",
           "\n  -h, --help                print this help\n",
           "print this help\n\ndeprecated (still accepted, with a warning):\n  --json CODEC              use "
           "--body CODEC\n",
       })
    EXPECT_NE(h.find(line), std::string::npos) << "missing: " << line << "\nin:\n" << h;
  // The usage line leaves the deprecated flag out.
  EXPECT_EQ(l.t.usage_text().find("--json CODEC"), std::string::npos);
}

TEST(table, help_wraps_long_help_under_its_column_and_puts_long_names_above) {
  Table t("x");
  std::string s;
  t.text("--a-rather-long-flag-name", &s, "VALUE",
         "a help text long enough that it has to wrap onto a second line, indented under the help column "
         "and not under the flag");
  const std::string h = t.help();
  EXPECT_NE(
      h.find("\n  --a-rather-long-flag-name VALUE\n                            a help text long enough"),
      std::string::npos)
      << h;
  for (std::size_t start = 0, nl; (nl = h.find('\n', start)) != std::string::npos; start = nl + 1)
    EXPECT_LE(nl - start, 100u) << h.substr(start, nl - start);
}

TEST(table, explicit_usage_lines_and_sections) {
  Table t("load");
  unsigned n = 1, m = 1;
  t.usage("--framing http|zap --addr HOST:PORT").usage("--framing floor --addr HOST:PORT");
  t.number("--a", &n, {1}, "first");
  t.section("limits:");
  t.number("--b", &m, {1}, "second");
  const std::string h = t.help();
  EXPECT_EQ(h.rfind("usage: zapbench load --framing http|zap --addr HOST:PORT\n"
                    "       zapbench load --framing floor --addr HOST:PORT\n",
                    0),
            0u)
      << h;
  EXPECT_NE(h.find("(default 1)\n\nlimits:\n  --b N"), std::string::npos) << h;
}

TEST(table, required_flags_are_named_all_then_the_missing_ones) {
  Table t("floor");
  HostPort listen;
  std::size_t req = 0, resp = 0;
  t.host_port("--listen", &listen, "where to listen").required();
  t.number("--request-bytes", &req, {1}, "bytes of one request").required();
  t.number("--response-bytes", &resp, {1}, "bytes of one response").required();
  EXPECT_EQ(t.usage_text(),
            "usage: zapbench floor --listen HOST:PORT --request-bytes N --response-bytes N\n");
  Outcome o = parse(t, {"--listen", ":0", "--request-bytes", "82"});
  EXPECT_EQ(o.message,
            "--listen, --request-bytes and --response-bytes are required; missing --response-bytes");
  Table u("floor");
  u.host_port("--listen", &listen, "").required();
  EXPECT_EQ(parse(u, {}).message, "--listen is required");
}

TEST(table, switches_store_their_value_and_bools_take_true_or_false) {
  Table t("run");
  enum class Mode { quick, full } mode = Mode::quick;
  bool micro = true;
  t.set("--quick", &mode, Mode::quick, "the quick matrix");
  t.set("--full", &mode, Mode::full, "the full matrix");
  t.set("--no-micro", &micro, false, "skip the microbenchmarks");
  ASSERT_EQ(parse(t, {"--full", "--no-micro"}).kind, Outcome::ok);
  EXPECT_EQ(mode, Mode::full);
  EXPECT_FALSE(micro);
  ASSERT_EQ(parse(t, {"--no-micro=false", "--quick"}).kind, Outcome::ok);
  EXPECT_TRUE(micro);
  EXPECT_EQ(mode, Mode::quick);
  EXPECT_EQ(parse(t, {"--no-micro=maybe"}).message,
            "--no-micro wants no value, or =true / =false, got 'maybe'");
  EXPECT_EQ(parse(t, {"--full=1"}).message, "--full wants no value, got '1'");
  // A switch never swallows the next argument.
  EXPECT_EQ(parse(t, {"--full", "x"}).message, "unexpected argument 'x'");
}

TEST(table, lists_of_choices_and_of_numbers) {
  Table t("run");
  std::vector<std::string> scenarios{"hello", "rpc"};
  std::vector<unsigned> pipeline{1, 16};
  t.choice_list("--scenarios", &scenarios, {{"hello", "hello"}, {"rpc", "rpc"}}, "scenarios to run");
  t.number_list("--pipeline", &pipeline, {1, 1024}, "depths");
  const std::string h = t.help();
  EXPECT_NE(h.find("--scenarios LIST          scenarios to run; any of hello,rpc (default hello,rpc)"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("--pipeline LIST           depths (default 1,16)"), std::string::npos) << h;
  ASSERT_EQ(parse(t, {"--scenarios", "rpc", "--pipeline", "1,2,4"}).kind, Outcome::ok);
  EXPECT_EQ(scenarios, (std::vector<std::string>{"rpc"}));
  EXPECT_EQ(pipeline, (std::vector<unsigned>{1, 2, 4}));
  EXPECT_EQ(parse(t, {"--scenarios", "hello,logs"}).message,
            "--scenarios wants a comma-separated list of hello, rpc, got 'hello,logs': unknown 'logs'");
  EXPECT_EQ(parse(t, {"--scenarios", ","}).message,
            "--scenarios wants a comma-separated list of hello, rpc, got ','");
  EXPECT_EQ(
      parse(t, {"--pipeline", "1,0"}).message,
      "--pipeline wants a comma-separated list of whole numbers, each 1..1024, got '1,0': bad item '0'");
  EXPECT_EQ(scenarios, (std::vector<std::string>{"rpc"}));  // refused lists change nothing
}

TEST(table, repeatable_host_ports_append) {
  Table t("serve");
  std::vector<HostPort> http;
  t.host_port("--http", &http, "an HTTP/1.1 listener (repeatable)");
  ASSERT_EQ(parse(t, {"--http", ":0", "--http=127.0.0.1:8080"}).kind, Outcome::ok);
  EXPECT_EQ(http, (std::vector<HostPort>{{"", 0}, {"127.0.0.1", 8080}}));
}

TEST(table, optional_targets_record_whether_given) {
  Table t("run");
  std::optional<double> duration_s;
  std::optional<unsigned> repeats;
  t.duration("--duration", &duration_s, {0, 86400, true}, "per sample").default_text("1.5s quick, 5s full");
  t.number("--repeats", &repeats, {1, 100}, "samples per cell");
  EXPECT_NE(t.help().find("per sample (default 1.5s quick, 5s full)"), std::string::npos);
  ASSERT_EQ(parse(t, {"--duration", "2s"}).kind, Outcome::ok);
  EXPECT_EQ(duration_s, 2.0);
  EXPECT_FALSE(repeats.has_value());
}

TEST(table, checks_run_before_storing) {
  Table t("serve");
  std::string codec = "direct";
  t.text("--json", &codec, "CODEC", "JSON codec").check([](std::string_view v) -> std::optional<Problem> {
    if (v == "direct" || v == "simdjson") return std::nullopt;
    return Problem{"an available JSON codec (available JSON codecs: direct, simdjson)", "unknown"};
  });
  EXPECT_EQ(
      parse(t, {"--json", "nope"}).message,
      "--json wants an available JSON codec (available JSON codecs: direct, simdjson), got 'nope': unknown");
  EXPECT_EQ(codec, "direct");
  ASSERT_EQ(parse(t, {"--json", "simdjson"}).kind, Outcome::ok);
  EXPECT_EQ(codec, "simdjson");
}

TEST(table, positionals_in_order_and_double_dash_ends_the_flags) {
  Table t("compare");
  std::string a, b;
  t.positional("A", &a, "the first result set").positional("B", &b, "the second");
  EXPECT_EQ(parse(t, {"x"}).message, "wants A and B, got 1 argument");
  EXPECT_EQ(parse(t, {"-q", "x"}).message, "unknown option '-q'");
  ASSERT_EQ(parse(t, {"--", "-odd-name", "y"}).kind, Outcome::ok);
  EXPECT_EQ(a, "-odd-name");
  EXPECT_EQ(b, "y");
  EXPECT_EQ(parse(t, {"1", "2", "3"}).message, "unexpected argument '3'");
  EXPECT_EQ(t.usage_text(), "usage: zapbench compare A B\n");
  ASSERT_EQ(parse(t, {"-", "b"}).kind, Outcome::ok);  // "-" is a name, not a flag
}

TEST(table, passthrough_keeps_a_library_s_own_flags_as_written) {
  Table t("micro");
  std::vector<std::string> rest;
  std::string filter;
  t.text("--filter", &filter, "REGEX", "only these");
  t.passthrough("--benchmark_", &rest, "passed to Google Benchmark unchanged");
  ASSERT_EQ(parse(t, {"--benchmark_color=false", "--filter", "Decode/", "--benchmark_list_tests"}).kind,
            Outcome::ok);
  EXPECT_EQ(rest, (std::vector<std::string>{"--benchmark_color=false", "--benchmark_list_tests"}));
  EXPECT_EQ(filter, "Decode/");
  EXPECT_NE(t.help().find("  --benchmark_*"), std::string::npos);
}

// Every flag of `zapbench run` (src/cli/run.cpp's usage and parse loop) in one
// table: the API covers them, with run's bounds.
TEST(table, expresses_every_flag_of_run) {
  struct Run {
    bool full = false, micro = true;
    std::string out_dir, micro_filter, nginx;
    std::optional<unsigned> repeats, micro_reps;
    std::optional<double> duration_s, warmup_s, micro_min_time_s;
    std::vector<unsigned> connections, pipelines;
    std::vector<std::string> scenarios{"hello", "rpc"}, framings{"http", "zap"}, bodies,
        arms{"zapbench", "nginx", "floor"};
    std::vector<int> server_cpus, loader_cpus;
    double noisy = 0.10;
  } r;
  Table t("run");
  t.set("--quick", &r.full, false, "the quick matrix (default)");
  t.set("--full", &r.full, true, "the full matrix");
  t.text("--out", &r.out_dir, "DIR", "results directory");
  t.number("--repeats", &r.repeats, {1, 100}, "samples per cell");
  t.duration("--duration", &r.duration_s, {0, 86400, true}, "recorded time per sample");
  t.duration("--warmup", &r.warmup_s, {0, 86400}, "unrecorded time before each sample");
  t.number_list("--connections", &r.connections, {1}, "connections");
  t.number_list("--pipeline", &r.pipelines, {1, 1024}, "depths");
  t.choice_list("--scenarios", &r.scenarios, {{"hello", "hello"}, {"rpc", "rpc"}}, "");
  t.choice_list("--framings", &r.framings, {{"http", "http"}, {"zap", "zap"}}, "");
  t.choice_list("--bodies", &r.bodies, {{"direct", "direct"}, {"simdjson", "simdjson"}, {"zap", "zap"}}, "");
  t.choice_list("--arms", &r.arms, {{"zapbench", "zapbench"}, {"nginx", "nginx"}, {"floor", "floor"}}, "");
  t.cpu_list("--server-cpus", &r.server_cpus, "");
  t.cpu_list("--loader-cpus", &r.loader_cpus, "");
  t.real("--noisy", &r.noisy, {0, 1e9, true}, "flag cells whose spread exceeds it", "FRACTION");
  t.text("--nginx", &r.nginx, "PATH", "nginx binary");
  t.set("--no-micro", &r.micro, false, "skip the microbenchmarks");
  t.text("--micro-filter", &r.micro_filter, "REGEX", "");
  t.number("--micro-repetitions", &r.micro_reps, {1, 100}, "");
  t.duration("--micro-min-time", &r.micro_min_time_s, {0, 86400, true}, "");
  const Outcome o = parse(t, {"--full",
                              "--out",
                              "/tmp/r",
                              "--repeats",
                              "2",
                              "--duration",
                              "2",
                              "--warmup",
                              "0",
                              "--connections",
                              "1,16",
                              "--pipeline",
                              "1",
                              "--scenarios",
                              "rpc",
                              "--framings",
                              "zap",
                              "--bodies",
                              "simdjson,zap",
                              "--arms",
                              "zapbench,floor",
                              "--server-cpus",
                              "0",
                              "--loader-cpus",
                              "1",
                              "--noisy",
                              "0.2",
                              "--nginx",
                              "/usr/sbin/nginx",
                              "--no-micro",
                              "--micro-filter",
                              "Decode/",
                              "--micro-repetitions",
                              "5",
                              "--micro-min-time",
                              "200ms"});
  ASSERT_EQ(o.kind, Outcome::ok) << o.message;
  EXPECT_TRUE(r.full);
  EXPECT_FALSE(r.micro);
  EXPECT_EQ(r.repeats, 2u);
  EXPECT_EQ(r.duration_s, 2.0);
  EXPECT_EQ(r.warmup_s, 0.0);
  EXPECT_EQ(r.connections, (std::vector<unsigned>{1, 16}));
  EXPECT_EQ(r.bodies, (std::vector<std::string>{"simdjson", "zap"}));
  EXPECT_EQ(r.arms, (std::vector<std::string>{"zapbench", "floor"}));
  EXPECT_EQ(r.loader_cpus, (std::vector<int>{1}));
  EXPECT_DOUBLE_EQ(r.noisy, 0.2);
  EXPECT_DOUBLE_EQ(*r.micro_min_time_s, 0.2);
  EXPECT_EQ(r.micro_reps, 5u);
  // run_test's usage errors name the flag.
  for (const auto& [args, flag] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--repeats", "0"}, "--repeats"},
           {{"--duration", "-1"}, "--duration"},
           {{"--connections", "1,x"}, "--connections"},
           {{"--pipeline", "0"}, "--pipeline"},
           {{"--loader-cpus", "x"}, "--loader-cpus"},
           {{"--noisy", "0"}, "--noisy"}}) {
    const Outcome bad = parse(t, args);
    EXPECT_EQ(bad.kind, Outcome::error);
    EXPECT_EQ(bad.message.rfind(flag + " wants ", 0), 0u) << bad.message;
  }
}

}  // namespace
