// bench/hosts/loaders.hpp — one load spread over several loader hosts
// (docs/spec/hosts.md §4–§5): each host runs `zapbench load --coordinated`
// with its share over ssh; the coordinator waits for every `warm`, sends
// `go` to all back to back, bounds the start skew, collects every result
// (histograms included) and merges them exactly. Faults are per host: a host
// that fails is named with its reason, the others' results are kept.
// Owns the coordination; the load is load/engine's, the file and the merge
// are load_result.hpp's, ssh is ssh.hpp's, the reading of a loader's stdout
// (bounded: LoaderStream) is remote_protocol.hpp's.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/children/load_result.hpp"
#include "bench/hosts/ssh.hpp"
#include "load/engine.hpp"

namespace bench {

// `o` split over `hosts` loader hosts (§5 Shares): connections (closed loop)
// and rate (open loop) as evenly as possible, the first hosts taking the
// remainder; threads min(o.threads, the host's connections). A host whose
// share is 0 connections gets connections = 0 (it does not run).
std::vector<load::Options> split_load(const load::Options& o, std::size_t hosts);

// One loader host's part of a multi-host load.
struct LoaderHostResult {
  std::string host;
  std::string failure;  // empty: ok; else "<reason>" (the host is named by `host`)
  std::optional<LoadReport> report;
  std::int64_t go_rtt_ns = -1;            // ack_i - go_sent_i, the coordinator's clock; -1: none
  std::int64_t go_to_first_send_ns = -1;  // d_i, from the host's result; -1: none
  std::string command;                    // the loader's command as run there (for results.json)
};

struct MultiLoad {
  std::vector<LoaderHostResult> hosts;  // one per loader host, in order (also those that did not run)
  std::optional<LoadReport> merged;     // when every host that ran succeeded
  std::int64_t start_skew_ns = -1;      // §5's bound; -1 when no window started
  std::string failure;                  // empty: ok; else "host H: <reason>" (the first failure)
  std::vector<std::string> notes;       // "host H: no connection share (16 connections over 20 hosts)"
};

struct LoaderRun {
  SshConfig ssh;
  std::vector<std::string> hosts;
  load::Options options;  // the whole load; split here
  // Local log file per host: "<log_prefix><i>.log", i from 1, gets its stderr (the
  // loader's human report, ssh's messages).
  std::string log_prefix;
  // Set (`zapbench load --loader-hosts`'s own signal flag, a test): the
  // coordinator stops at once — every session closed, every remote loader
  // ended (§5 Ctrl-C); the result says "stopped". The run's interrupt
  // (proc/interrupt.hpp) ends them the same way and throws proc::Interrupted.
  const std::atomic<bool>* stop = nullptr;
};

// Runs the load across the hosts and returns every host's part and the
// merge. Never throws for a host's failure (it is in the result); throws
// std::runtime_error only when a local ssh client cannot be started.
MultiLoad run_loaders(const LoaderRun& run);

}  // namespace bench
