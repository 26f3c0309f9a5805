// cli/run.cpp — placeholder while being written.
#include "cli/args.hpp"
namespace cli {
int cmd_run(int, char**) { die("run: not built yet"); }
}  // namespace cli
