// cli/compare.cpp — `zapbench compare A B` and `zapbench report DIR`: the two
// subcommands that read results back. Argument handling and file output only;
// what is compared and written belongs to src/report.
#include <cstdio>
#include <filesystem>
#include <fstream>
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
  flags::Table t("compare");
  t.summary(std::string(summary("compare")));
  t.about(
      "Compares two result sets (each a directory holding results.json, or the\n"
      "results.json itself): every end-to-end cell present in both (requests/s and\n"
      "p99) and every microbenchmark (ns/op). Two runs share no rounds, so each\n"
      "figure is compared unpaired: B / A as the ratio of the medians with its 95%\n"
      "bootstrap interval, and a Mann-Whitney U test, whose false-discovery rate is\n"
      "held at --fdr over every figure by Benjamini-Hochberg. Verdicts: 'improved' or\n"
      "'regressed' (a discovery whose interval excludes 1), 'held' (the interval\n"
      "lies within +-margin), 'undecided' (neither). Each figure is judged against\n"
      "how the whole run moved for its kind (requests/s, p99, ns/op: the median of\n"
      "their B/A, printed with its interval): a machine that changed between the\n"
      "runs moves every figure alike, and two runs cannot tell that from the code;\n"
      "--absolute judges against 1 instead. A figure with fewer than 5\n"
      "samples on a side (runs before verdicts took 3) cannot be tested: it gets the\n"
      "older spread rule ('beyond noise' when the change exceeds both runs' spread\n"
      "(max - min) / median), labelled so. Cells present on one side only are listed.");
  t.positional("A", &path_a, "the first result set (before)").positional("B", &path_b, "the second (after)");
  t.real("--margin", &o.margin, {.min = 0, .max = 1, .min_exclusive = true},
         "'held' is B/A within 1 +- this (0.03 = 3%)", "FRACTION");
  t.set("--absolute", &o.absolute, true, "judge each figure against 1, not against its kind's run shift");
  t.real("--fdr", &o.fdr, {.min = 0, .max = 0.5, .min_exclusive = true},
         "false-discovery rate of the tests over every figure", "Q");
  t.parse(argc, argv);
  const report::Results a = load(path_a), b = load(path_b);
  std::printf("A: %s\nB: %s\n\n%s", path_a.c_str(), path_b.c_str(),
              report::compare_text(report::compare(a, b, o)).c_str());
  return 0;
}

int cmd_report(int argc, char** argv) {
  std::string input, out_dir;
  flags::Table t("report");
  t.summary(std::string(summary("report")));
  t.about(
      "Writes report.md and report.html from a results.json (or a directory\n"
      "holding one), next to it or into --out DIR, with findings.md (the tables\n"
      "What it found opens with) and their charts as findings-*.svg, and prints\n"
      "their paths. The reports are a pure function of results.json: the same\n"
      "file gives the same bytes.");
  t.positional("DIR|results.json", &input, "the result set");
  t.text("--out", &out_dir, "DIR",
         "write the reports into DIR (created if missing; default: beside results.json)");
  t.parse(argc, argv);
  const report::Results r = load(input);
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = out_dir;
  if (dir.empty()) dir = fs::is_directory(input, ec) ? fs::path(input) : fs::path(input).parent_path();
  if (dir.empty()) dir = ".";
  fs::create_directories(dir, ec);
  if (ec) die(dir.string() + ": cannot create: " + ec.message());
  try {
    for (const std::string& path : report::write_reports(r, dir.string()))
      std::printf("wrote %s\n", path.c_str());
  } catch (const std::exception& e) {
    die(e.what());
  }
  return 0;
}

}  // namespace cli
