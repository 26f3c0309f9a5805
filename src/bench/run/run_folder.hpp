// bench/run/run_folder.hpp — the folder a run writes (results/<UTC date-time>/ by
// default): where each file of the run goes, and how a path is recorded in
// results.json and the reports — relative to this folder, so a shared result
// carries no one's directory layout and its command lines work when rerun
// from inside the folder. Owns naming only; nothing here writes files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace bench {

class RunFolder {
 public:
  explicit RunFolder(const std::filesystem::path& dir);  // made absolute once, here

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  [[nodiscard]] std::filesystem::path file(const std::string& name) const { return dir_ / name; }
  // samples/<cell slug>-r<round>.<what>, e.g. .server.log, .load.json, .load.log
  [[nodiscard]] std::filesystem::path sample_file(const std::string& cell_id, unsigned round,
                                                  const std::string& what) const;

  // An argument as recorded: an absolute path (the zapbench binary, a file
  // of the run, a folder the user typed) becomes relative to the folder
  // ("samples/x.load.json", "../../build/release/src/cli/zapbench"); a
  // system program's path (/usr, /bin, /sbin) and any other argument stay.
  [[nodiscard]] std::string portable(const std::string& arg) const;
  [[nodiscard]] std::vector<std::string> portable(const std::vector<std::string>& argv) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace bench
