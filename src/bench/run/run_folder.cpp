// bench/run/run_folder.cpp — file names of a run and paths relative to its folder
// (run_folder.hpp).
#include "bench/run/run_folder.hpp"

namespace bench {

namespace fs = std::filesystem;

RunFolder::RunFolder(const fs::path& dir) : dir_(fs::absolute(dir).lexically_normal()) {
  if (dir_.has_filename() == false && dir_.has_parent_path())
    dir_ = dir_.parent_path();  // drop a trailing '/'
}

fs::path RunFolder::sample_file(const std::string& cell_id, unsigned round, const std::string& what) const {
  std::string slug = cell_id;
  for (char& ch : slug)
    if (ch == '/') ch = '_';
  return dir_ / "samples" / (slug + "-r" + std::to_string(round) + what);
}

std::string RunFolder::portable(const std::string& arg) const {
  if (arg.empty() || arg.front() != '/') return arg;
  for (const char* system : {"/usr/", "/bin/", "/sbin/"})
    if (arg.starts_with(system)) return arg;
  const fs::path rel = fs::path(arg).lexically_normal().lexically_relative(dir_);
  return rel.empty() ? arg : rel.string();
}

std::vector<std::string> RunFolder::portable(const std::vector<std::string>& argv) const {
  std::vector<std::string> out;
  out.reserve(argv.size());
  for (const std::string& a : argv) out.push_back(portable(a));
  return out;
}

}  // namespace bench
