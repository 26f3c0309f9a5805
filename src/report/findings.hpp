// report/findings.hpp — what a run found: the comparisons "What it found"
// states, each two figures of the run compared by stats (paired by round),
// with its verdict. One list for both of its readers: the report, which
// states the decided ones and names the undecided, and zapbench run, which
// gives the cells and microbenchmarks they compare more rounds until each is
// precise (bench). Which figures are compared (the fastest JSON codec, ZAP's
// best connection count) is chosen from the run's medians, as the tables do.
// The report's table at a glance (doc_found.cpp) is these findings too: per
// op ZAP against the fastest JSON and binary peer, and end to end each
// framing × body's server CPU per request against the floor. Every finding
// but io_uring against epoll's compares cells on epoll (a run's io_uring
// cells change none of them). The figures a finding shows are over the rounds
// its ratio pairs, with their modes (paired_figures.hpp).
#pragma once

#include <string>
#include <vector>

#include "report/model.hpp"
#include "report/paired_figures.hpp"

namespace report {

struct Finding {
  // floor: end to end, a body on a framing against the floor in server CPU
  // per request; shown in the table only, the prose has the rest. io: the
  // same cell with its server on io_uring against on epoll.
  enum class Section { micro, logs, e2e, floor, io, control };
  // What the baseline is, for the table: the fastest JSON codec (or body),
  // the fastest binary peer, the floor; the op's limit in process (the
  // <op>/limit row, or memcpy of the logs answer); a web server people deploy
  // (matrix/arms.def's web column: nginx, h2o, nghttpd), on hello, against
  // zapbench's own HTTP server on the same framing; other: anything else.
  enum class Against { other, fastest_json, fastest_peer, floor, limit, web };
  // What the figures are, for their display: ns per op in process; requests
  // per second; ns of server CPU per request; MB (10^6 bytes) of responses
  // per second.
  enum class Unit { ns, requests_per_s, cpu_ns, mb_per_s };
  Section section = Section::micro;
  std::string title;  // "Decode", "HTTP/1.1, rpc, depth 16, 1 connection"
  Unit unit = Unit::ns;
  std::string subject, baseline;  // "ZAP", "the fastest JSON, simdjson"
  Against against = Against::other;
  // The codecs compared, as the table names them ("zap", "simdjson"; floor:
  // the subject's body, and no baseline codec), and the subject's framing
  // end to end ("HTTP/1.1"; empty in process).
  std::string subject_codec, baseline_codec, framing;
  // floor: which body the subject is (the fastest JSON or binary peer; other: ZAP's, or an arm's own).
  Against subject_kind = Against::other;
  // The figures shown beside the ratio, in `unit`: each side's geometric
  // mean over the rounds the ratio pairs, so subject_value ÷ baseline_value
  // is estimate.ratio (paired_figures.hpp says why not medians); in a run
  // without rounds, the medians of all samples (and the ratio is theirs).
  double subject_value = NAN, baseline_value = NAN;
  // Those rounds, ascending (empty: none recorded), and each side's modes in
  // them (empty: one), which the report names beside the figure.
  std::vector<unsigned> rounds;
  std::vector<Mode> subject_modes, baseline_modes;
  stats::Better better = stats::Better::lower;
  stats::Estimate estimate;  // subject ÷ baseline
  // The figures compared, as zapbench run names what it samples: a cell's
  // id (Cell::id), or "micro/<name>" (MicroFigure::name).
  std::vector<std::string> keys;
  std::string anchor;  // the heading of the table it comes from
};

std::vector<Finding> findings(const Results& r);

// The "micro/" prefix of a finding's key that names a microbenchmark.
inline constexpr std::string_view kMicroKey = "micro/";

}  // namespace report
