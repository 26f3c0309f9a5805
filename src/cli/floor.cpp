// cli/floor.cpp — `zapbench floor`: flags to server::Floor::Config, signals to
// a stop, counters printed at exit. The echo itself is server/floor.cpp; the
// loader side is `zapbench load --wire floor`.
#include "server/floor.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "bench/supervisor.hpp"
#include "cli/args.hpp"
#include "cli/stop_signals.hpp"

namespace cli {
namespace {

constexpr const char* kUsage =
    "usage: zapbench floor --listen HOST:PORT --request-bytes N --response-bytes M\n"
    "                      [--threads N] [--cpus LIST]\n"
    "\n"
    "The floor arm's server: a raw TCP echo of fixed byte counts. For every N\n"
    "bytes a connection receives it sends M bytes of a constant response; nothing\n"
    "is parsed and nothing allocated per request. Driven by 'zapbench load --wire\n"
    "floor' with the byte counts of a real exchange, it marks what the kernel and\n"
    "loopback allow on this machine for that exchange. Port 0 picks a free port;\n"
    "the bound address is printed. SIGINT or SIGTERM stops it and prints the\n"
    "counters.\n"
    "\n"
    "  --listen HOST:PORT       where to listen\n"
    "  --request-bytes N        bytes of one request (at least 1)\n"
    "  --response-bytes M       bytes of the response to each request (at least 1)\n"
    "  --threads N              event-loop threads (default 1)\n"
    "  --cpus LIST              pin thread i to the i-th CPU of LIST, e.g. 1 or 0,2-3\n"
    "  --ready-fd N             once bound, write 'floor HOST:PORT' to descriptor N and close it\n";

}  // namespace

int cmd_floor(int argc, char** argv) {
  server::Floor::Config cfg;
  bool have_listen = false;
  int ready_fd = -1;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--listen") {
      const std::string v = flag_value(argc, argv, i, "floor");
      if (!parse_host_port(v, cfg.listen.host, cfg.listen.port))
        die("--listen wants HOST:PORT, got '" + v + "'");
      have_listen = true;
    } else if (a == "--request-bytes") {
      cfg.request_bytes = flag_uint<std::size_t>(argc, argv, i, "floor");
      if (cfg.request_bytes == 0) die("--request-bytes wants at least 1");
    } else if (a == "--response-bytes") {
      cfg.response_bytes = flag_uint<std::size_t>(argc, argv, i, "floor");
      if (cfg.response_bytes == 0) die("--response-bytes wants at least 1");
    } else if (a == "--threads") {
      cfg.threads = flag_uint<unsigned>(argc, argv, i, "floor");
      if (cfg.threads == 0 || cfg.threads > 1024) die("--threads wants 1..1024");
    } else if (a == "--cpus") {
      const std::string v = flag_value(argc, argv, i, "floor");
      if (!parse_cpu_list(v, cfg.cpus)) die("--cpus wants a CPU list like 1 or 0,2-3, got '" + v + "'");
    } else if (a == "--ready-fd") {
      ready_fd = flag_uint<int>(argc, argv, i, "floor");
    } else {
      die("floor: unknown option '" + std::string(a) + "' (see 'zapbench floor --help')");
    }
  }
  if (!have_listen || cfg.request_bytes == 0 || cfg.response_bytes == 0)
    die("floor: --listen, --request-bytes and --response-bytes are required (see 'zapbench floor --help')");

  // Signals go to one thread that stops the echo; the workers never see them.
  const StopSignals stop_signals;

  std::unique_ptr<server::Floor> floor;
  try {
    floor = std::make_unique<server::Floor>(cfg);
  } catch (const std::exception& e) {
    die(std::string("floor: ") + e.what());
  }
  std::printf("zapbench floor: listening on %s:%u\n", floor->bound().host.c_str(),
              unsigned(floor->bound().port));
  std::fflush(stdout);
  if (ready_fd >= 0) bench::announce_ready(ready_fd, {{"floor", floor->bound().host, floor->bound().port}});

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
