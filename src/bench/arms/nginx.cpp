// bench/arms/nginx.cpp — the nginx arm's binary, configuration and readiness
// probe (nginx.hpp).
#include "bench/arms/nginx.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "bench/arms/launch.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/run/cells.hpp"
#include "proc/interrupt.hpp"
namespace bench {

std::string find_nginx() { return proc::find_program("nginx"); }

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

std::uint16_t free_port(bool any_address) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(any_address ? INADDR_ANY : INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  std::uint16_t port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

bool accepting(std::uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  if (!ok && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof err;
    ok = poll(&p, 1, 100) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
  }
  close(fd);
  return ok;
}

bool wait_accepting(std::uint16_t port, double timeout_s) {
  const auto deadline = proc::deadline_after(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    proc::throw_if_interrupted();  // the server's Child (the caller's) ends it as it unwinds
    if (accepting(port)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

void nginx_cells(CellPlanner& planner, Arm arm) {
  if (!planner.scenario_on(Scenario::hello)) return;
  std::string why;
  if (planner.plan().nginx.empty())
    why = "nginx not found (Debian package nginx-light; scripts/deps.sh installs it)";
  // HTTP/1.1, and HTTP/2 (h2c, `listen ... http2`) where the run has it.
  for (Framing f : {Framing::http1, Framing::http2})
    if (planner.framing_on(f) || f == Framing::http1) planner.add(arm, Scenario::hello, f, "", why);
}

ServerLaunch nginx_launch(const RunPlan& p, const std::string&, const CellPlan& cp) {
  ServerLaunch l;
  l.spec = ChildSpec{nginx_argv(p.nginx, "{tmpdir}"), p.cfg.server_cpus, "", false, {}};
  l.tmpdir = true;
  l.wait_accepting = true;
  l.files.push_back({"nginx.conf", nginx_conf("{tmpdir}", p.listen_host + ":{port}", p.cfg.server_cpus.size(),
                                              cp.cell.framing == Framing::http2)});
  return l;
}

}  // namespace bench
