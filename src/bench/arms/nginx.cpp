// bench/arms/nginx.cpp — the nginx arm: its configuration, command line and row (nginx.hpp).
#include "bench/arms/nginx.hpp"

#include "bench/arms/web_server.hpp"
#include "bench/children/launch.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/plan/cells.hpp"
#include "bench/plan/plan.hpp"

namespace bench {

std::string nginx_conf(const std::string& dir, const std::string& listen, std::size_t workers, bool http2) {
  return "worker_processes " + std::to_string(workers) + ";\n" + "error_log " + dir + "/error.log;\n" +
         "pid " + dir +
         "/nginx.pid;\n"
         "events { worker_connections 8192; }\n"
         "http {\n"
         "  access_log off;\n"
         "  keepalive_requests 1000000000;\n"
         "  keepalive_timeout 300s;\n"
         "  client_body_temp_path " +
         dir +
         ";\n"
         "  server {\n"
         "    listen " +
         listen + (http2 ? " http2" : "") +
         " reuseport;\n"
         "    location = /health { default_type text/plain; return 200 \"ok\"; }\n"
         "  }\n"
         "}\n";
}

std::vector<std::string> nginx_argv(const std::string& nginx, const std::filesystem::path& dir) {
  return {
      nginx, "-p", dir.string(), "-c", (dir / "nginx.conf").string(), "-g", "daemon off; master_process on;"};
}

void nginx_cells(CellPlanner& planner, Arm arm) {
  if (!planner.scenario_on(Scenario::hello)) return;
  const std::string why = planner.plan().arm(arm).unavailable;
  // HTTP/1.1, and HTTP/2 (h2c, `listen ... http2`) where the run has it.
  for (Framing f : {Framing::http1, Framing::http2})
    if (planner.framing_on(f) || f == Framing::http1) planner.add(arm, Scenario::hello, f, "", why);
}

ServerLaunch nginx_launch(const RunPlan& p, const std::string&, const CellPlan& cp) {
  return web_launch(
      p, nginx_argv(p.arm(cp.cell.arm).binary, "{tmpdir}"),
      {{"nginx.conf", nginx_conf("{tmpdir}", p.listen_host + ":{port}", p.cfg.server_cpus.size(),
                                 cp.cell.framing == Framing::http2)}});
}

namespace {

constexpr ArmFlag kNginxFlags[] = {
    {"--nginx", "PATH", "the nginx binary", "nginx in /usr/sbin or on PATH", ""}};

// 1.9.5 brought `listen ... http2`.
FoundArm nginx_find(const std::map<std::string, std::string>& flags) {
  return find_web_server({"nginx", "--nginx", "nginx-light", "-v", 1, 10}, flags);
}

}  // namespace

extern const ArmHooks nginx_hooks{kNginxFlags,  nginx_find, nginx_cells, every_cell,
                                  nginx_launch, nullptr,    nullptr};

}  // namespace bench
