// bench/arms/h2o.cpp — the h2o arm: its config, its command line and its row (h2o.hpp).
#include "bench/arms/h2o.hpp"

#include "bench/arms/web_server.hpp"
#include "bench/children/launch.hpp"
#include "bench/plan/cells.hpp"
#include "bench/plan/plan.hpp"

namespace bench {

std::string h2o_conf(const std::string& dir, const std::string& host, std::size_t threads) {
  return "num-threads: " + std::to_string(threads) +
         "\n"
         "user: {user}\n"
         "pid-file: " +
         dir +
         "/h2o.pid\n"
         "access-log: /dev/null\n"
         "error-log: " +
         dir +
         "/error.log\n"
         "listen:\n"
         "  host: " +
         host +
         "\n"
         "  port: {port}\n"
         "hosts:\n"
         "  default:\n"
         "    paths:\n"
         "      /health:\n"
         "        file.file: " +
         dir + "/health\n";
}

namespace {

constexpr ArmFlag kH2oFlags[] = {{"--h2o", "PATH", "the h2o binary", "h2o in /usr/sbin or on PATH", ""}};

FoundArm h2o_find(const std::map<std::string, std::string>& flags) {
  return find_web_server({"h2o", "--h2o", "h2o", "--version", 2, 2}, flags);
}

void h2o_cells(CellPlanner& planner, matrix::Arm arm) {
  web_cells(planner, arm, {matrix::Framing::http1, matrix::Framing::http2});
}

ServerLaunch h2o_launch(const RunPlan& p, const std::string&, const CellPlan& cp) {
  return web_launch(
      p, {p.arm(cp.cell.arm).binary, "-c", "{tmpdir}/h2o.conf"},
      {{"h2o.conf", h2o_conf("{tmpdir}", p.listen_host, p.cfg.server_cpus.size())}, {"health", "ok"}});
}

}  // namespace

extern const ArmHooks h2o_hooks{kH2oFlags, h2o_find, h2o_cells, every_cell, h2o_launch, nullptr, nullptr};

}  // namespace bench
