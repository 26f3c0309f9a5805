// cli/instructions.cpp — `zapbench instructions`: instructions per request of
// the server's request path and per op of the codecs (bench/run/instructions.hpp
// runs callgrind and perf around this same binary), and the child mode --one
// that they run.
#include "bench/run/instructions.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>

#include "bench/children/supervisor.hpp"
#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "flags/flags.hpp"
#include "micro/codec_case.hpp"
#include "micro/request_path.hpp"
#include "proc/interrupt.hpp"
#include "proc/programs.hpp"

namespace cli {

namespace {

// The child: check the case, then exactly requests ÷ 16 batches in
// run_batches (where callgrind collects), or `requests` ops of a codec case in
// run_ops. Exit 0 only when the answers were right.
int run_one(const std::string& name, std::uint64_t requests) {
  if (micro::CodecCase op; micro::find_codec_case(name, op)) {
    micro::CodecRun run(op);
    if (const std::string why = run.check(); !why.empty()) die("instructions: " + name + ": " + why);
    run.run_ops(requests);
    if (const std::string why = run.check(); !why.empty())
      die("instructions: " + name + " after the ops: " + why);
    return 0;
  }
  micro::PathCase c;
  if (!micro::find_path_case(name, c)) die("instructions: no request path or codec op '" + name + "'");
  micro::RequestPath path(c);
  if (const std::string why = path.check(); !why.empty()) die("instructions: " + name + ": " + why);
  path.run_batches(requests / micro::RequestPath::kBatchRequests);
  if (const std::string why = path.check(); !why.empty())
    die("instructions: " + name + " after the batches: " + why);
  return 0;
}

}  // namespace

int cmd_instructions(int argc, char** argv) {
  std::string filter, one, markdown_out;
  std::uint64_t requests = 16'000;
  bool no_perf = false;
  flags::Table t("instructions");
  t.summary(std::string(summary("instructions")));
  t.about(
      "Counts the instructions the server's request path executes per request,\n"
      "and each codec op per op, figures that do not move with the machine's\n"
      "noise: each Server/<framing>/<body> case of `zapbench micro` (16 pipelined\n"
      "requests per batch, answered by the server's own code on in-memory bytes,\n"
      "no syscalls) and each <op>/<codec> case (Decode, Encode, Serde, Handler of\n"
      "every codec and of the limit, the code the benchmarks time) runs as a\n"
      "child under valgrind --tool=callgrind, collecting only inside the loop\n"
      "(Ir ÷ requests or ops, exact), and under perf stat -e instructions:u where\n"
      "the machine has the counter (two runs; their difference ÷ the difference\n"
      "of requests). A missing tool is reported with the reason.");
  t.text("--filter", &filter, "REGEX", "only cases whose name matches (e.g. 'zap-http/zap$', '^Encode/')");
  t.number("--requests", &requests, {16, 1'000'000'000},
           "requests (codec cases: ops) per case (rounded up to a multiple of 16)");
  t.set("--no-perf", &no_perf, true, "do not try perf stat (callgrind only)");
  t.text("--markdown", &markdown_out, "FILE", "also write the table to FILE");
  t.text("--one", &one, "CASE",
         "run one case's batches in this process and exit (what callgrind and perf run)");
  t.parse(argc, argv);
  requests = (requests + micro::RequestPath::kBatchRequests - 1) / micro::RequestPath::kBatchRequests *
             micro::RequestPath::kBatchRequests;
  if (t.seen("--one")) return run_one(one, requests);

  bench::InstructionOptions o;
  try {
    o.self = proc::own_executable();
  } catch (const std::exception& e) {
    die(std::string("instructions: ") + e.what());
  }
  o.requests = requests;
  o.perf = !no_perf;
  std::regex re;
  try {
    re = std::regex(filter.empty() ? "." : filter);
  } catch (const std::regex_error& e) {
    die("instructions: --filter '" + filter + "' is not a regular expression: " + e.what());
  }
  for (const micro::PathCase& c : micro::path_cases())
    if (std::regex_search(c.name(), re)) o.cases.push_back(c.name());
  for (const micro::CodecCase& c : micro::codec_cases())
    if (std::regex_search(c.name(), re)) o.cases.push_back(c.name());
  if (o.cases.empty()) die("instructions: no case matches --filter '" + filter + "'");

  // Ctrl-C or SIGTERM ends valgrind or perf at once (their own process
  // groups never see it) and this command with 130, its directory removed.
  proc::catch_interrupts();
  report::Instructions counts;
  std::string failure;
  int interrupt = 0;
  {
    std::optional<proc::TempDir> dir;
    try {
      dir.emplace("zapbench-instructions-");
      o.work_dir = dir->path();
      bench::count_instructions(o, counts,
                                [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
    } catch (const std::exception& e) {
      failure = std::string(e.what());
    } catch (const proc::Interrupted& i) {
      interrupt = i.signal;
    }
  }  // the directory removed before any exit: die() does not unwind
  if (interrupt != 0) {
    std::fprintf(stderr, "zapbench: instructions: %s: stopped\n", proc::signal_name(interrupt));
    return 130;
  }
  if (!failure.empty()) die(failure);
  std::string text = bench::instructions_markdown(counts);
  text = "Instructions per request of the server's request path, per op of the codecs (" +
         std::to_string(counts.requests) + " requests or ops per case; " +
         (counts.tools.empty() ? "no valgrind" : counts.tools) + "):\n\n" + text;
  std::fputs(text.c_str(), stdout);
  if (t.seen("--markdown")) {
    std::FILE* f = std::fopen(markdown_out.c_str(), "w");
    if (f == nullptr || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0)
      die("instructions: cannot write " + markdown_out);
  }
  return 0;
}

}  // namespace cli
