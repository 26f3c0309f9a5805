// bench/hosts/coordinated_loader.cpp — a coordinated loader's protocol
// (coordinated_loader.hpp): the reader of the coordinator's commands, the
// `warm` ticker and the one writer of stdout.
#include "bench/hosts/coordinated_loader.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "bench/children/load_result.hpp"
#include "bench/hosts/remote_protocol.hpp"
#include "net/clock.hpp"
#include "proc/io.hpp"

namespace bench {
namespace {

// The process's: the reader thread is detached and outlives any caller.
std::atomic<bool> g_go{false};
std::atomic<std::int64_t> g_go_ns{-1};  // when `go` was read (net::now_ns, the engine's clock)
std::mutex g_protocol_mutex;            // one writer at a time: `result` is longer than PIPE_BUF
void (*g_on_stop)() = nullptr;

void protocol_write(std::string_view text) {
  const std::lock_guard<std::mutex> lock(g_protocol_mutex);
  if (!proc::write_all(STDOUT_FILENO, text)) _exit(3);  // the coordinator is gone
}

// The coordinator's lines on stdin: `go`, `stop`; its end of file ends the
// loader at once (the session closed: nothing would read the result).
void read_coordinator() {
  std::string buf;
  char b[256];
  for (;;) {
    const ssize_t n = read(STDIN_FILENO, b, sizeof b);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    buf.append(b, std::size_t(n));
    proc::take_lines(buf, [](const std::string& line) {
      const std::optional<LoaderCommand> command = parse_loader_command(line);
      if (command == LoaderCommand::go) {
        if (!g_go.load()) {
          g_go_ns.store(net::now_ns());
          g_go.store(true, std::memory_order_relaxed);
        }
        protocol_write(kGoAckLine);
      } else if (command == LoaderCommand::stop) {
        g_on_stop();
      }
    });
  }
}

}  // namespace

load::Result run_coordinated_load(load::Options o, void (*on_stop)()) {
  // `warm` once every thread passed its warm-up; `go` on stdin then starts
  // the windows (the reader thread never returns: end of file ends the
  // process).
  g_on_stop = on_stop;
  o.go = &g_go;
  std::thread(read_coordinator).detach();
  load::Progress progress;
  std::atomic<bool> done{false};
  std::thread ticker([&] {
    while (!done.load()) {
      const unsigned n = progress.threads.load();
      if (n != 0 && progress.warm_threads.load() == n) {
        protocol_write(kWarmLine);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  load::Result r;
  try {
    r = load::run(o, &progress);
  } catch (...) {
    done = true;
    ticker.join();
    throw;
  }
  done = true;
  ticker.join();
  if (r.window_first_send_ns >= 0 && g_go_ns.load() >= 0)
    r.go_to_first_send_ns = r.window_first_send_ns - g_go_ns.load();
  return r;
}

void send_load_result(const load::Options& o, const load::Result& r) {
  protocol_write(result_text(load_result_json(o, r)));
}

}  // namespace bench
