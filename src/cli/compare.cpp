// cli/compare.cpp — placeholder while being written.
#include "cli/args.hpp"
namespace cli {
int cmd_compare(int, char**) { die("compare: not built yet"); }
int cmd_report(int, char**) { die("report: not built yet"); }
}  // namespace cli
