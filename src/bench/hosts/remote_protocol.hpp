// bench/hosts/remote_protocol.hpp — the line protocols that cross ssh between the
// coordinator and its hosts (docs/spec/hosts.md §3–§4), as byte-stream
// parsers with no I/O: what a coordinated loader prints (LoaderStream), what
// the `zapbench child` agent reads (ControlStream) and reports
// (AgentReports), and the writers of the same lines. Every one is bounded:
// a host that is broken or hostile gets a clear protocol error, and never
// makes the other side buffer without bound (a line is at most
// kMaxProtocolLineBytes, a result kMaxLoadResultBytes, a file
// kMaxRemoteFileBytes). Owns the bytes only: the processes, ssh and timing
// are loaders.cpp's and remote_child.cpp's. Fuzzed by fuzz/loader_stream_fuzz
// and fuzz/remote_child_fuzz.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/children/launch.hpp"
#include "bench/children/supervisor.hpp"

namespace bench {

// Every protocol line is a few dozen bytes; a line longer than this (no
// '\n' within it) is an error, not something to keep buffering.
inline constexpr std::size_t kMaxProtocolLineBytes = 4096;
// A load result file is a few MB at most: two histograms of at most 65,536
// buckets ("[low, high, count]", < 60 bytes each) plus a few KB of figures.
inline constexpr std::size_t kMaxLoadResultBytes = std::size_t(64) << 20;
// A file sent to the agent (nginx's config) is a few KB.
inline constexpr std::size_t kMaxRemoteFileBytes = std::size_t(1) << 20;
inline constexpr std::size_t kMaxRemoteFiles = 64;
// A server announces a handful of listeners.
inline constexpr std::size_t kMaxReadyListeners = 64;

// Bytes as they arrive, cut into lines (without their '\n') and blocks of a
// known length; consumed bytes are dropped as it goes.
class ProtocolInput {
 public:
  void append(std::string_view bytes);
  // The next whole line; nullopt when none is complete yet or the line is
  // longer than kMaxProtocolLineBytes (overlong() then holds).
  std::optional<std::string> line();
  // The next `bytes` bytes once they all arrived.
  std::optional<std::string> block(std::size_t bytes);
  [[nodiscard]] bool overlong() const { return overlong_; }
  [[nodiscard]] std::size_t buffered() const { return buf_.size() - pos_; }

 private:
  std::string buf_;
  std::size_t pos_ = 0;   // consumed up to here
  std::size_t scan_ = 0;  // no '\n' in [pos_, scan_)
  bool overlong_ = false;
};

// ---------------------------------------------------------------- a coordinated loader (§4)

// The loader's side: the lines `zapbench load --coordinated` writes on its
// stdout (LoaderStream reads them), and its reading of what the coordinator
// writes on its stdin.
inline constexpr std::string_view kWarmLine = "warm\n";     // every thread past its warm-up
inline constexpr std::string_view kGoAckLine = "go-ack\n";  // `go` read
// "result BYTES\n" and the result file's BYTES bytes.
std::string result_text(const std::string& load_result_json);
// What the coordinator sends a loader: `go` (start the windows), `stop` (as
// SIGINT); a line that is neither is ignored by the loader.
enum class LoaderCommand : std::uint8_t { go, stop };
std::string_view loader_command_line(LoaderCommand c);                     // "go\n", "stop\n"
std::optional<LoaderCommand> parse_loader_command(std::string_view line);  // a line without its '\n'

// The coordinator's reading of one `zapbench load --coordinated` stdout:
// `warm`, `go-ack` (any number, the first one timed), then `result BYTES\n`
// and BYTES of result file, and nothing after it. The first protocol error
// is kept and everything after it ignored.
class LoaderStream {
 public:
  // What arrived, read at `now_ns` (the coordinator's clock; the first
  // go-ack's time is the `now_ns` of the bytes that completed its line).
  void feed(std::string_view bytes, std::int64_t now_ns);

  [[nodiscard]] bool warm() const { return warm_; }
  [[nodiscard]] std::int64_t ack_ns() const { return ack_ns_; }  // -1: no go-ack yet
  [[nodiscard]] const std::optional<std::string>& result() const { return result_; }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] bool failed() const { return !error_.empty(); }

 private:
  ProtocolInput in_;
  bool warm_ = false;
  std::int64_t ack_ns_ = -1;
  std::optional<std::size_t> result_bytes_;  // a `result` line read, its body awaited
  std::optional<std::string> result_;
  std::string error_;
};

// ---------------------------------------------------------------- the remote child (§3)

// The files the agent writes into its private directory before it starts the
// program are a launch's (children/launch.hpp: LaunchFile, at most
// kMaxRemoteFileBytes each).

// Whether `name` may name a LaunchFile.
bool valid_remote_file_name(std::string_view name);

// The control text the coordinator sends before anything else: one `file`
// command per file, then `start`. Throws std::invalid_argument for a file
// whose name is not valid_remote_file_name, larger than kMaxRemoteFileBytes,
// or more than kMaxRemoteFiles files.
std::string control_text(const std::vector<LaunchFile>& files);

// The agent's reading of its stdin. Before `start`: `file NAME BYTES\n<bytes>`,
// `start`, `stop`; any other line is an error. After `start`: `stop`, and
// any other line handed over as `other` (the agent logs and ignores it).
class ControlStream {
 public:
  struct Command {
    enum class Kind { file, start, stop, other };
    Kind kind = Kind::other;
    LaunchFile file;   // kind == file
    std::string line;  // kind == other
  };

  void feed(std::string_view bytes);
  // The next whole command, in order; nullopt when none is complete yet, or
  // on a protocol error (error() then says which, for good).
  std::optional<Command> next();
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] bool started() const { return started_; }

 private:
  ProtocolInput in_;
  std::optional<LaunchFile> file_;  // a `file` line read (name, text empty), its bytes awaited
  std::size_t file_bytes_ = 0;
  std::size_t files_ = 0;
  bool started_ = false;
  std::string error_;
};

// "exit STATUS cpu_s SECONDS\n" for how the program ended (STATUS "hung",
// "exit N" or "signal N"; SECONDS with 6 decimals).
std::string exit_report_line(const ExitStatus& status);
// "exit STATUS cpu_s SECONDS" (no '\n') -> the status; nullopt when it is not that.
std::optional<ExitStatus> parse_exit_report(const std::string& line);

// The coordinator's reading of the agent's stdout: `ready KIND HOST:PORT`
// (at most kMaxReadyListeners, none after ready-end), `ready-end`, then
// `exit STATUS cpu_s SECONDS`, and nothing after it. The first protocol
// error is kept and everything after it ignored.
class AgentReports {
 public:
  void feed(std::string_view bytes);

  [[nodiscard]] const std::vector<proc::ReadyListener>& listeners() const { return listeners_; }
  [[nodiscard]] bool ready_end() const { return ready_end_; }
  [[nodiscard]] const std::optional<ExitStatus>& exit() const { return exit_; }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] bool failed() const { return !error_.empty(); }

 private:
  ProtocolInput in_;
  std::vector<proc::ReadyListener> listeners_;
  bool ready_end_ = false;
  std::optional<ExitStatus> exit_;
  std::string error_;
};

}  // namespace bench
