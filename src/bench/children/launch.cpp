// bench/children/launch.cpp — a server's launch made real: {tmpdir} and {port} (launch.hpp).
#include "bench/children/launch.hpp"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace bench {
namespace {

std::string replace_all(std::string s, std::string_view from, const std::string& to) {
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

bool mentions_port(const std::vector<std::string>& argv, const std::vector<LaunchFile>& files) {
  return std::any_of(argv.begin(), argv.end(),
                     [](const std::string& a) { return a.find("{port}") != a.npos; }) ||
         std::any_of(files.begin(), files.end(),
                     [](const LaunchFile& f) { return f.text.find("{port}") != f.text.npos; });
}

std::string materialize(std::vector<std::string>& argv, const std::vector<LaunchFile>& files,
                        const std::filesystem::path* tmpdir, int port) {
  // The user this process runs as (h2o started as root would otherwise serve as nobody, who cannot read
  // {tmpdir}; started as anyone else, it may only stay who it is).
  const passwd* pw = getpwuid(geteuid());
  const std::string user = pw != nullptr ? pw->pw_name : std::to_string(geteuid());
  const auto substitute = [&](std::string s) {
    if (tmpdir) s = replace_all(std::move(s), "{tmpdir}", tmpdir->string());
    if (port > 0) s = replace_all(std::move(s), "{port}", std::to_string(port));
    s = replace_all(std::move(s), "{user}", user);
    return s;
  };
  for (std::string& a : argv) a = substitute(std::move(a));
  for (const LaunchFile& f : files) {
    if (tmpdir == nullptr) return "file " + f.name + ": no directory to write it into";
    const std::filesystem::path file = *tmpdir / f.name;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << substitute(f.text);
    if (!out.good()) return "cannot write " + file.string();
  }
  return "";
}

}  // namespace bench
