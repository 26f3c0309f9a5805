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
#include "report/model.hpp"

namespace cli {
namespace {

constexpr const char* kCompareUsage =
    "usage: zapbench compare A B\n"
    "\n"
    "Compares two result sets (each a directory holding results.json, or the\n"
    "results.json itself). For every end-to-end cell present in both (requests/s\n"
    "and p99) and every microbenchmark (ns/op) it prints the medians, the change\n"
    "B/A - 1, the noise (the larger relative spread, (max - min) / median, of the\n"
    "two runs) and a verdict: 'beyond noise' when |change| exceeds the spread of\n"
    "A and of B, 'within noise' otherwise, 'no noise estimate' when either side\n"
    "has a single sample. Cells present on one side only are listed.\n";

constexpr const char* kReportUsage =
    "usage: zapbench report DIR|results.json [--out DIR]\n"
    "\n"
    "Writes report.md and report.html from a results.json (or a directory\n"
    "holding one), next to it or into --out DIR, and prints their paths. The\n"
    "reports are a pure function of results.json: the same file gives the same\n"
    "bytes.\n"
    "\n"
    "  --out DIR   write the reports into DIR (created if missing)\n";

report::Results load(const std::string& path) {
  try {
    return report::load_file(path);
  } catch (const std::exception& e) {
    die(e.what());
  }
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) die(path.string() + ": cannot write");
  std::printf("wrote %s\n", path.string().c_str());
}

}  // namespace

int cmd_compare(int argc, char** argv) {
  std::vector<std::string> paths;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kCompareUsage, stdout);
      return 0;
    }
    if (a.starts_with("-") && a.size() > 1)
      die("compare: unknown option '" + std::string(a) + "' (see 'zapbench compare --help')");
    paths.emplace_back(a);
  }
  if (paths.size() != 2)
    die("compare wants two result sets, A and B, got " + std::to_string(paths.size()) +
        " (see 'zapbench compare --help')");
  const report::Results a = load(paths[0]), b = load(paths[1]);
  std::printf("A: %s\nB: %s\n\n%s", paths[0].c_str(), paths[1].c_str(),
              report::compare_text(report::compare(a, b)).c_str());
  return 0;
}

int cmd_report(int argc, char** argv) {
  std::string input, out_dir;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kReportUsage, stdout);
      return 0;
    }
    if (a == "--out") {
      out_dir = flag_value(argc, argv, i, "report");
    } else if (a.starts_with("-") && a.size() > 1) {
      die("report: unknown option '" + std::string(a) + "' (see 'zapbench report --help')");
    } else if (!input.empty()) {
      die("report wants one result set, got '" + input + "' and '" + std::string(a) + "'");
    } else {
      input = a;
    }
  }
  if (input.empty()) die("report wants a result directory or results.json (see 'zapbench report --help')");
  const report::Results r = load(input);
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = out_dir;
  if (dir.empty()) dir = fs::is_directory(input, ec) ? fs::path(input) : fs::path(input).parent_path();
  if (dir.empty()) dir = ".";
  fs::create_directories(dir, ec);
  if (ec) die(dir.string() + ": cannot create: " + ec.message());
  write_file(dir / "report.md", report::markdown(r));
  write_file(dir / "report.html", report::html(r));
  return 0;
}

}  // namespace cli
