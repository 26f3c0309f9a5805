// bench/arms/launch.cpp — a cell's server as one launch description (launch.hpp).
#include "bench/arms/launch.hpp"

#include <algorithm>
#include <fstream>

#include "bench/arms/arm.hpp"

namespace bench {
namespace {

std::string replace_all(std::string s, std::string_view from, const std::string& to) {
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

ServerLaunch server_launch(const RunPlan& p, const std::string& zapbench_exe, const CellPlan& cp) {
  return arm_row(cp.cell.arm).launch(p, zapbench_exe, cp);
}

bool mentions_port(const std::vector<std::string>& argv, const std::vector<RemoteFile>& files) {
  return std::any_of(argv.begin(), argv.end(),
                     [](const std::string& a) { return a.find("{port}") != a.npos; }) ||
         std::any_of(files.begin(), files.end(),
                     [](const RemoteFile& f) { return f.text.find("{port}") != f.text.npos; });
}

std::string materialize(std::vector<std::string>& argv, const std::vector<RemoteFile>& files,
                        const std::filesystem::path* tmpdir, int port) {
  const auto substitute = [&](std::string s) {
    if (tmpdir) s = replace_all(std::move(s), "{tmpdir}", tmpdir->string());
    if (port > 0) s = replace_all(std::move(s), "{port}", std::to_string(port));
    return s;
  };
  for (std::string& a : argv) a = substitute(std::move(a));
  for (const RemoteFile& f : files) {
    if (tmpdir == nullptr) return "file " + f.name + ": no directory to write it into";
    const std::filesystem::path file = *tmpdir / f.name;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << substitute(f.text);
    if (!out.good()) return "cannot write " + file.string();
  }
  return "";
}

}  // namespace bench
