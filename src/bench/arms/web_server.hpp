// bench/arms/web_server.hpp — what the web servers people deploy (nginx, h2o,
// nghttpd) have alike as arms: found by name or by their flag, refused with
// the reason when missing, too old or failing to say their version; hello
// cells on the HTTP framings they serve; a launch of a config file in a
// private directory and a port chosen for them, ready once it accepts (none
// has a ready channel). Each server's own file says its config and command.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bench/children/launch.hpp"
#include "bench/plan/arm.hpp"

namespace bench {

struct WebServer {
  std::string_view program;          // its executable's name ("h2o"), looked for by proc::find_program
  std::string_view flag;             // the run's flag that names it instead ("--h2o")
  std::string_view package;          // the Debian package that installs it ("h2o")
  std::string_view version_arg;      // what makes it print its version and exit ("--version", "-v")
  int min_major = 0, min_minor = 0;  // the oldest version it may be
};

// The server as `flags` name it (its flag) or as found by name; unavailable
// when missing ("h2o not found (Debian package h2o; scripts/deps.sh installs
// it)"), when its version query fails or hangs (its output), or when older
// than its minimum (both versions). (results.json records its Debian package's
// version: matrix/arms.def's debian column.)
FoundArm find_web_server(const WebServer& server, const std::map<std::string, std::string>& flags);

// The first "MAJOR.MINOR" in `text` ("nginx version: nginx/1.22.1" -> 1, 22);
// false when there is none.
bool leading_version(std::string_view text, int& major, int& minor);

// The hello cells of a web server on each of `framings` the run has (every
// connection count and depth); unavailable with its reason when it was not found.
void web_cells(CellPlanner& planner, matrix::Arm arm, const std::vector<matrix::Framing>& framings);

// Its launch: argv (which names {tmpdir} and {port}), pinned to the run's
// server CPUs, in a private directory holding `files`, ready once {port}
// accepts on the run's listen host.
ServerLaunch web_launch(const RunPlan& plan, std::vector<std::string> argv, std::vector<LaunchFile> files);

}  // namespace bench
