// bench/run/conformance.cpp — h2spec against each HTTP/2 arm (conformance.hpp).
#include "bench/run/conformance.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "bench/children/supervisor.hpp"
#include "proc/io.hpp"
#include "proc/programs.hpp"

namespace bench {
namespace {

namespace fs = std::filesystem;

// A hang bound: h2spec's 145 cases take 2 s against a server that answers;
// one that never answers costs each case its -o timeout.
constexpr double kH2specHangS = 600;
constexpr const char* kCaseTimeoutS = "2";

std::string unescaped(std::string s) {
  static constexpr std::pair<const char*, const char*> kEntities[] = {
      {"&#34;", "\""}, {"&quot;", "\""}, {"&#39;", "'"}, {"&apos;", "'"},
      {"&lt;", "<"},   {"&gt;", ">"},    {"&amp;", "&"}};
  for (const auto& [from, to] : kEntities)
    for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += std::string_view(to).size())
      s.replace(at, std::string_view(from).size(), to);
  return s;
}

// The value of attribute `name` in the tag text `tag`; "" when absent.
std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t at = tag.find(key);
  if (at == std::string::npos) return "";
  const std::size_t from = at + key.size(), to = tag.find('"', from);
  return to == std::string::npos ? "" : unescaped(tag.substr(from, to - from));
}

}  // namespace

std::string find_h2spec(std::string& why) {
  if (const char* env = std::getenv("ZAPBENCH_H2SPEC"); env != nullptr && *env != '\0') return env;
#ifdef ZAPBENCH_GO_BINARY
  const std::string binary = (fs::path(ZAPBENCH_GO_BINARY).parent_path() / "h2spec").string();
#else
  const std::string binary = "h2spec";
#endif
  if (access(binary.c_str(), X_OK) == 0) return binary;
  why = proc::missing_build_reason(binary);
  return "";
}

bool read_h2spec(const std::string& text, const std::string& junit, report::Conformance& c) {
  static const std::regex kCount(R"((\d+) tests, (\d+) passed, (\d+) skipped, (\d+) failed)");
  std::smatch m;
  bool counted = false;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kCount); it != std::sregex_iterator(); ++it) {
    m = *it;  // the last count line: the summary
    counted = true;
  }
  if (!counted) return false;
  c.cases = unsigned(std::stoul(m[1]));
  c.passed = unsigned(std::stoul(m[2]));
  c.skipped = unsigned(std::stoul(m[3]));
  c.failed = unsigned(std::stoul(m[4]));
  // Each <testcase ...> up to its </testcase> (or its self-closing end): failed when it holds <error> or
  // <failure>.
  for (std::size_t at = 0; (at = junit.find("<testcase ", at)) != std::string::npos;) {
    const std::size_t tag_end = junit.find('>', at);
    if (tag_end == std::string::npos) break;
    const std::string tag = junit.substr(at, tag_end - at);
    std::size_t end = tag_end;
    if (junit[tag_end - 1] != '/') {
      end = junit.find("</testcase>", tag_end);
      if (end == std::string::npos) end = junit.size();
      const std::string body = junit.substr(tag_end, end - tag_end);
      // h2spec writes a case that failed as <error> (what it expected, what it got); <failure> too.
      if (body.find("<error") != std::string::npos || body.find("<failure") != std::string::npos)
        c.failures.push_back(attribute(tag, "package") + ": " + attribute(tag, "classname"));
    }
    at = end;
  }
  return true;
}

std::vector<const CellPlan*> conformance_servers(const std::vector<CellPlan>& cells) {
  std::vector<const CellPlan*> servers;
  for (const CellPlan& cp : cells) {
    const report::Cell& c = cp.cell;
    if (c.framing != Framing::http2 || c.scenario != Scenario::hello || c.io != Io::epoll || c.control ||
        !c.unavailable.empty())
      continue;
    if (std::none_of(servers.begin(), servers.end(), [&](const CellPlan* s) { return s->cell.arm == c.arm; }))
      servers.push_back(&cp);
  }
  return servers;
}

void run_conformance(const SampleContext& ctx, const std::vector<CellPlan>& cells, report::Results& res) {
  const std::vector<const CellPlan*> servers = conformance_servers(cells);
  if (servers.empty()) return;
  std::string why;
  const std::string h2spec = find_h2spec(why);
  if (ctx.plan.hosts.several()) why = "h2spec runs here and the servers on another host";
  for (const CellPlan* cp : servers) {
    report::Conformance c;
    c.arm = std::string(matrix::to_string(cp->cell.arm));
    c.framing = std::string(matrix::to_string(Framing::http2));
    c.tool = "h2spec";
    if (!why.empty()) {
      c.unavailable = why;
      res.conformance.push_back(std::move(c));
      continue;
    }
    const std::string stem = "h2spec-" + c.arm;
    const fs::path junit = ctx.folder.file(stem + ".xml"), log = ctx.folder.file(stem + ".log");
    std::string server_command, h2spec_command;
    const std::string server_log = ctx.folder.file(stem + ".server.log").string();
    const std::string not_ready = with_server(ctx, *cp, server_log, server_command, [&](std::uint16_t port) {
      const std::vector<std::string> argv = {h2spec,    "-h", "127.0.0.1",   "-p", std::to_string(port), "-P",
                                             "/health", "-o", kCaseTimeoutS, "-j", junit.string()};
      std::vector<std::string> shown = argv;
      shown.front() = ctx.folder.portable(shown.front());
      shown.back() = ctx.folder.portable(shown.back());
      h2spec_command = command_text(shown, {});
      ProgramAnswer a;
      try {
        a = ask_program(argv, kH2specHangS);
      } catch (const std::exception& e) {
        c.unavailable = std::string("h2spec: ") + e.what();
        return;
      }
      std::ofstream(log, std::ios::binary | std::ios::trunc) << a.output;
      // h2spec exits 1 when a case fails: its counts say how it went; no count line is a failure to run.
      if (!read_h2spec(a.output, proc::read_file(junit), c))
        c.unavailable = "h2spec said no count (" + a.status.describe() + "; see " +
                        ctx.folder.portable(log.string()) + ")";
    });
    if (!not_ready.empty() && c.unavailable.empty())
      c.unavailable = "the server: " + not_ready + " (see " + ctx.folder.portable(server_log) + ")";
    c.command = server_command + " & " + h2spec_command;
    res.conformance.push_back(std::move(c));
  }
}

}  // namespace bench
