// cli/floor.cpp — `zapbench floor`: flags to server::Floor::Config, signals to
// a stop, counters printed at exit. The echo itself is server/floor.cpp; the
// loader side is `zapbench load --framing tcp`.
#include "server/floor.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/matrix_choices.hpp"
#include "flags/flags.hpp"
#include "net/uring_loop.hpp"
#include "proc/ready.hpp"
#include "proc/stop_signals.hpp"

namespace cli {

int cmd_floor(int argc, char** argv) {
  server::Floor::Config cfg;
  flags::HostPort listen;
  flags::Table t("floor");
  t.summary(std::string(summary("floor")));
  t.about(
      "The floor arm's server: a raw TCP echo of fixed byte counts. For every N\n"
      "bytes a connection receives it sends M bytes of a constant response; nothing\n"
      "is parsed and nothing allocated per request. Driven by 'zapbench load --framing\n"
      "tcp' with the byte counts of a real exchange, it marks what the kernel and\n"
      "loopback allow on this machine for that exchange. Port 0 picks a free port;\n"
      "the bound address is printed. SIGINT or SIGTERM stops it and prints the\n"
      "counters.");
  t.host_port("--listen", &listen, "where to listen").required();
  t.number("--request-bytes", &cfg.request_bytes, {1}, "bytes of one request").required().no_default();
  t.number("--response-bytes", &cfg.response_bytes, {1}, "bytes of the response to each request", "M")
      .required()
      .no_default();
  t.number("--threads", &cfg.threads, {1, 1024}, "event-loop threads");
  t.cpu_list("--cpus", &cfg.cpus, "pin thread i to the i-th CPU of LIST, e.g. 1 or 0,2-3");
  t.choice("--io", &cfg.io, choices(matrix::kIos), kIoHelp);
  std::optional<unsigned> ready_fd;
  t.number("--ready-fd", &ready_fd, {0, 1u << 20},
           "once listening, write 'floor HOST:PORT' to descriptor N, then close it");
  t.parse(argc, argv);
  cfg.listen = server::Endpoint{listen.host, listen.port};

  // Signals go to one thread that stops the echo; the workers never see them.
  const proc::StopSignals stop_signals;

  std::unique_ptr<server::Floor> floor;
  try {
    floor = std::make_unique<server::Floor>(cfg);
  } catch (const std::exception& e) {
    die(std::string("floor: ") + e.what());
  }
  if (cfg.io == net::Io::io_uring) std::printf("zapbench floor: %s\n", net::UringLoop::describe().c_str());
  std::printf("zapbench floor: listening on %s:%u\n", floor->bound().host.c_str(),
              unsigned(floor->bound().port));
  std::fflush(stdout);
  if (ready_fd) proc::announce_ready(int(*ready_fd), {{"floor", floor->bound().host, floor->bound().port}});

  std::thread signal_thread = stop_signals.on_signal("zapbench floor", [&] { floor->stop(); });
  floor->run();
  signal_thread.join();

  const server::Floor::Counters c = floor->counters();
  std::printf("zapbench floor: stopped\n  connections %llu\n  requests echoed %llu\n",
              static_cast<unsigned long long>(c.connections), static_cast<unsigned long long>(c.requests));
  if (c.io_errors != 0) std::printf("  error io %llu\n", static_cast<unsigned long long>(c.io_errors));
  std::fflush(stdout);
  return 0;
}

}  // namespace cli
