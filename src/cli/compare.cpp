// cli/compare.cpp — `zapbench compare A B`: two result sets read back and
// compared. Argument handling and output only; what is compared belongs to
// src/report (report.cpp is `zapbench report`).
#include "report/compare.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "flags/flags.hpp"
#include "report/model.hpp"

namespace cli {
namespace {

report::Results load(const std::string& path) {
  try {
    return report::load_file(path);
  } catch (const std::exception& e) {
    die(e.what());
  }
}

}  // namespace

int cmd_compare(int argc, char** argv) {
  std::string path_a, path_b;
  report::CompareOptions o;
  bool gate = false;
  flags::Table t("compare");
  t.summary(std::string(summary("compare")));
  t.about(
      "Compares two result sets (each a directory holding results.json, or the\n"
      "results.json itself), B against A: every figure present in both — per cell\n"
      "requests/s, p99, server CPU per request and (logs) MB/s; per microbenchmark\n"
      "ns/op and allocations per op; per request path instructions per request.\n"
      "\n"
      "The machine moves between two runs, so each of our figures (zapbench's server,\n"
      "the floor, our microbenchmarks) is judged against a yardstick no change to this\n"
      "repository can move: the reference arms (nginx, grpc++, the Go arms) and the\n"
      "calibration every run measures in each round (src/calibrate: a fixed CPU loop,\n"
      "memcpy, a loopback ping-pong of its own). The summary says which moved: the\n"
      "build, the machine (by how much, with its interval), both or neither. Runs\n"
      "without a common calibration fall back to the rule of earlier versions (the\n"
      "whole run's move), and say so.\n"
      "\n"
      "Within each run, each round's effect on the figures measured in it (a slow\n"
      "phase of the machine moves every cell of the round, a microbenchmark process's\n"
      "layout every row of it) is removed first: no build moves one round apart from\n"
      "another (--no-round-effects keeps the samples as measured).\n"
      "\n"
      "Each figure: the ratio of the runs' geometric means, judged against the\n"
      "machine's move of its kind with a 95% interval and a t test on the log samples\n"
      "(the variance moderated over the figures of its kind, so 3 samples a side are\n"
      "testable), the false-discovery rate held at --fdr by Benjamini-Hochberg.\n"
      "Allocations and instructions are exact: any difference beyond a repeat's is a\n"
      "change. Verdicts: improved, regressed, held (the interval within +-margin),\n"
      "undecided, untestable (with what would make it testable).\n"
      "\n"
      "--gate makes it a CI step: exit 1 when any figure of ours regressed by more\n"
      "than --threshold against the machine's move, the offending figures printed\n"
      "last; exit 0 otherwise. A results.json that cannot be read, or holds a figure\n"
      "that is no measurement, is an error naming the file and the field: exit 2.");
  t.usage("[--gate [--threshold FRACTION]] [flags] A B");
  t.positional("A", &path_a, "the first result set (before)").positional("B", &path_b, "the second (after)");
  t.set("--gate", &gate, true,
        "exit 1 when a figure of ours regressed by more than --threshold (the offending lines last)");
  t.fraction("--threshold", &o.threshold, {.min = 0, .max = 10, .min_exclusive = true},
             "the change the gate fails on and each figure's resolution is judged at (5% or 0.05)");
  t.fraction("--margin", &o.margin, {.min = 0, .max = 1, .min_exclusive = true},
             "'held' is an interval within 1 +- this");
  t.set("--absolute", &o.absolute, true, "judge each figure against 1, not against the machine's move");
  t.set("--no-round-effects", &o.round_effects, false,
        "take each figure's samples as measured, without removing each run's rounds' effects first");
  t.fraction("--fdr", &o.fdr, {.min = 0, .max = 0.5, .min_exclusive = true},
             "false-discovery rate of the tests over our figures");
  t.parse(argc, argv);
  const report::Results a = load(path_a), b = load(path_b);
  for (const auto& [path, r] : {std::pair{&path_a, &a}, std::pair{&path_b, &b}})
    if (const std::string bad = report::nonsense(*r); !bad.empty())
      die(*path + ": " + bad + "; nothing of it is compared");
  const report::Comparison c = report::compare(a, b, o);
  if (c.changes.empty() && c.yardstick.empty())
    die("nothing to compare: " + path_a + " and " + path_b + " have no figure in common (" +
        std::to_string(c.only_in_a.size()) + " only in A, " + std::to_string(c.only_in_b.size()) +
        " only in B)");
  std::printf("A: %s (%s, commit %s, %s)\nB: %s (%s, commit %s, %s)\n\n%s", path_a.c_str(),
              a.env.started_utc.c_str(), a.env.git_commit.c_str(), a.env.cpu_model.c_str(), path_b.c_str(),
              b.env.started_utc.c_str(), b.env.git_commit.c_str(), b.env.cpu_model.c_str(),
              report::compare_text(c, gate).c_str());
  return gate && report::gate_failures(c).any() ? 1 : 0;
}

}  // namespace cli
