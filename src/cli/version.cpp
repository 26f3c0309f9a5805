// cli/version.cpp — `zapbench version` (and `zapbench --version`): what this binary is, from the build's
// identity (identity.hpp).
#include <cstdio>
#include <string>

#include "cli/commands.hpp"
#include "cli/identity.hpp"
#include "flags/flags.hpp"

namespace cli {

int cmd_version(int argc, char** argv) {
  flags::Table t("version");
  t.summary(std::string(summary("version")));
  t.about(
      "Prints what this binary is. The first line has one fixed format, for\n"
      "scripts and for comparing the builds of several hosts:\n"
      "  zapbench VERSION commit COMMIT (BUILD TYPE: FLAGS)\n"
      "COMMIT is the git commit the binary was built from (12 hex digits),\n"
      "with -dirty when tracked files had changes, or 'unknown' outside git.\n"
      "The second line names the compiler. Same as 'zapbench --version'.");
  t.parse(argc, argv);
  std::printf("%s\ncompiler %.*s\n", version_line().c_str(), int(compiler().size()), compiler().data());
  return 0;
}

}  // namespace cli
