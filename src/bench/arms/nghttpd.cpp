// bench/arms/nghttpd.cpp — the nghttpd arm: its command line and its row (nghttpd.hpp).
#include "bench/arms/nghttpd.hpp"

#include "bench/arms/web_server.hpp"
#include "bench/children/launch.hpp"
#include "bench/plan/cells.hpp"
#include "bench/plan/plan.hpp"

namespace bench {

std::vector<std::string> nghttpd_argv(const std::string& binary, const std::string& dir,
                                      const std::string& host, std::size_t workers) {
  return {binary, "--no-tls", "-n",    std::to_string(workers == 0 ? 1 : workers), "-d", dir,
          "-a",   host,       "{port}"};
}

namespace {

constexpr ArmFlag kNghttpdFlags[] = {
    {"--nghttpd", "PATH", "the nghttpd binary", "nghttpd in /usr/sbin or on PATH", ""}};

FoundArm nghttpd_find(const std::map<std::string, std::string>& flags) {
  return find_web_server({"nghttpd", "--nghttpd", "nghttp2-server", "--version", 1, 0}, flags);
}

void nghttpd_cells(CellPlanner& planner, matrix::Arm arm) {
  web_cells(planner, arm, {matrix::Framing::http2});
}

ServerLaunch nghttpd_launch(const RunPlan& p, const std::string&, const CellPlan& cp) {
  return web_launch(
      p, nghttpd_argv(p.arm(cp.cell.arm).binary, "{tmpdir}", p.listen_host, p.cfg.server_cpus.size()),
      {{"health", "ok"}});
}

}  // namespace

extern const ArmHooks nghttpd_hooks{kNghttpdFlags,  nghttpd_find, nghttpd_cells, every_cell,
                                    nghttpd_launch, nullptr,      nullptr};

}  // namespace bench
