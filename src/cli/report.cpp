// cli/report.cpp — `zapbench report DIR`: report.md, report.html, findings.md and the findings' charts
// from a results.json. Argument handling and file output only; what is written belongs to src/report.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "flags/flags.hpp"
#include "report/model.hpp"

namespace cli {

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
  report::Results r;
  try {
    r = report::load_file(input);
  } catch (const std::exception& e) {
    die(e.what());
  }
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
