// cli/floor.cpp — placeholder while being written.
#include "cli/args.hpp"
namespace cli {
int cmd_floor(int, char**) { die("floor: not built yet"); }
}  // namespace cli
