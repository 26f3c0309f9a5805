// bench/arms/web_server.cpp — finding, planning and launching a web server arm (web_server.hpp).
#include "bench/arms/web_server.hpp"

#include <cctype>
#include <stdexcept>

#include "bench/children/launch.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/plan/cells.hpp"
#include "bench/plan/plan.hpp"
#include "proc/programs.hpp"

namespace bench {
namespace {

// How long a version query may take before it counts as hung: it only prints.
constexpr double kVersionTimeoutS = 30;

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  return line;
}

}  // namespace

bool leading_version(std::string_view text, int& major, int& minor) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i])) ||
        (i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]))))
      continue;
    std::size_t j = i;
    int a = 0, b = 0;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])) && a < 100000)
      a = a * 10 + (text[j++] - '0');
    if (j + 1 >= text.size() || text[j] != '.' || !std::isdigit(static_cast<unsigned char>(text[j + 1])))
      continue;
    ++j;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])) && b < 100000)
      b = b * 10 + (text[j++] - '0');
    major = a;
    minor = b;
    return true;
  }
  return false;
}

FoundArm find_web_server(const WebServer& w, const std::map<std::string, std::string>& flags) {
  FoundArm f;
  const auto given = flags.find(std::string(w.flag));
  f.binary = given != flags.end() ? given->second : proc::find_program(std::string(w.program));
  const std::string name(w.program);
  if (f.binary.empty()) {
    f.unavailable =
        name + " not found (Debian package " + std::string(w.package) + "; scripts/deps.sh installs it)";
    return f;
  }
  ProgramAnswer a;
  try {
    a = ask_program({f.binary, std::string(w.version_arg)}, kVersionTimeoutS);
  } catch (const std::exception& e) {
    f.unavailable = f.binary + " cannot start: " + e.what();
    return f;
  }
  const std::string line = first_line(a.output);
  if (!a.status.ok()) {
    f.unavailable = f.binary + " " + std::string(w.version_arg) + " failed (" + a.status.describe() +
                    (line.empty() ? ")" : "): " + line);
    return f;
  }
  int major = 0, minor = 0;
  if (!leading_version(a.output, major, minor)) {
    f.unavailable = f.binary + " " + std::string(w.version_arg) + " says no version: '" + line + "'";
    return f;
  }
  if (major < w.min_major || (major == w.min_major && minor < w.min_minor)) {
    f.unavailable = f.binary + " is " + std::to_string(major) + "." + std::to_string(minor) +
                    ", older than " + std::to_string(w.min_major) + "." + std::to_string(w.min_minor) +
                    " ('" + line + "')";
    return f;
  }
  return f;
}

void web_cells(CellPlanner& planner, matrix::Arm arm, const std::vector<matrix::Framing>& framings) {
  if (!planner.scenario_on(matrix::Scenario::hello)) return;
  const std::string why = planner.plan().arm(arm).unavailable;
  for (matrix::Framing f : framings)
    if (planner.framing_on(f)) planner.add(arm, matrix::Scenario::hello, f, "", why);
}

ServerLaunch web_launch(const RunPlan& p, std::vector<std::string> argv, std::vector<LaunchFile> files) {
  ServerLaunch l;
  l.spec = ChildSpec{std::move(argv), p.cfg.server_cpus, "", false, {}};
  l.tmpdir = true;
  l.wait_accepting = true;
  l.files = std::move(files);
  return l;
}

}  // namespace bench
