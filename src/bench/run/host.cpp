// bench/run/host.cpp — probing the machine and the build (host.hpp).
#include "bench/run/host.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <utility>

#include "bench/children/supervisor.hpp"
#include "proc/machine.hpp"
#include "record/registry.hpp"

#ifndef ZAPBENCH_BUILD_FLAGS
#define ZAPBENCH_BUILD_FLAGS "unknown"
#endif
#ifndef ZAPBENCH_SOURCE_DIR
#define ZAPBENCH_SOURCE_DIR "."
#endif

namespace bench {
namespace {

// A command's stdout, trailing blanks trimmed ("" on failure). Only for the
// fixed probes below (git, dpkg-query): never for user input.
std::string run_capture(const std::string& cmd) {
  std::string out;
  if (std::FILE* f = popen((cmd + " 2>/dev/null").c_str(), "r")) {
    char b[256];
    while (std::fgets(b, sizeof b, f) != nullptr) out += b;
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

report::Environment environment(const std::vector<std::string>& command_line, const RunFolder& folder) {
  report::Environment e;
  e.cpu_model = proc::cpu_model();
  e.cpu_count = static_cast<unsigned>(proc::allowed_cpus().size());
  e.online_cpus = proc::online_cpus();
  proc::KernelName k = proc::kernel_name();
  e.kernel = std::move(k.kernel);
  e.hostname = std::move(k.hostname);
#if defined(__clang__)
  e.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  e.compiler = std::string("g++ ") + __VERSION__;
#endif
  e.build_flags = ZAPBENCH_BUILD_FLAGS;
  const std::string src = ZAPBENCH_SOURCE_DIR;
  e.git_commit = run_capture("git -C " + shell_quote(src) + " rev-parse HEAD");
  if (e.git_commit.empty())
    e.git_commit = "unknown (no git checkout at " + folder.portable(src) + ")";
  else if (!run_capture("git -C " + shell_quote(src) + " status --porcelain --untracked-files=no").empty())
    e.git_commit += "+dirty";
  // The Debian packages the build used (the versions installed now): every codec's library, from the
  // codec table (record::CodecInfo::debian_package, keyed by codec name), then the tools around them.
  // A row's first package is its library (then its schema compiler); a variant's is its base's, listed once.
  std::vector<std::pair<std::string, std::string>> libs;
  for (const record::CodecInfo& c : record::all_codecs()) {
    const std::string pkg(c.debian_package.substr(0, c.debian_package.find(' ')));
    if (pkg.empty() || std::any_of(libs.begin(), libs.end(), [&](const auto& l) { return l.second == pkg; }))
      continue;
    libs.emplace_back(c.name, pkg);
  }
  for (auto [name, pkg] : {std::pair<const char*, const char*>{"Google Benchmark", "libbenchmark-dev"},
                           {"http-parser", "libhttp-parser-dev"},
                           {"libc", "libc6"}})
    libs.emplace_back(name, pkg);
  // Every arm whose server is a Debian package (matrix/arms.def's debian column: nginx, h2o, nghttpd).
  for (matrix::Arm a : matrix::kArms)
    if (const std::string_view pkgs = matrix::facts(a).debian; !pkgs.empty())
      libs.emplace_back(matrix::to_string(a), pkgs.substr(0, pkgs.find(' ')));
  for (const auto& [name, pkg] : libs) {
    const std::string v = run_capture("dpkg-query -W -f='${Version}' " + pkg);
    // scripts/deps.sh unpacks what cannot be installed beside the rest (its unpack_only) and records the
    // version in build/debs/<package>.unpacked.
    std::string unpacked;
    std::getline(std::ifstream(src + "/build/debs/" + pkg + ".unpacked"), unpacked);
    e.libraries[name] = !v.empty()          ? v + " (Debian " + pkg + ")"
                        : !unpacked.empty() ? unpacked + " (Debian " + pkg + ", unpacked into build/debs)"
                                            : "not installed (" + pkg + ")";
  }
  for (const std::string& a : command_line) {
    if (!e.command_line.empty()) e.command_line += ' ';
    e.command_line += shell_quote(folder.portable(a));
  }
  e.started_utc = proc::utc_now("%Y-%m-%dT%H:%M:%SZ");
  return e;
}

std::vector<report::Codec> codecs() {
  std::vector<report::Codec> out;
  for (const record::CodecInfo& c : record::all_codecs())
    out.push_back(report::Codec{std::string(c.name), std::string(c.content_type), c.available,
                                std::string(c.unavailable_reason), std::string(c.encode_path),
                                std::string(c.decode_path), c.trusted_input_only, c.family()});
  return out;
}

}  // namespace bench
