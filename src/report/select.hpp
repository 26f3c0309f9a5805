// report/select.hpp — which figures the report compares: a codec's family
// (ZAP, JSON, binary peer), the fastest C++ codec of a family, the end-to-end
// groups (scenario × depth) with their rows, and the logs microbenchmarks as
// a table of op × codec × N. Shared by the tables (document.cpp) and the
// findings (findings.cpp); outside the report component, the fastest of a
// family is also micro's summary's and a run's instruction counts' (the one copy).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/model.hpp"

namespace report::doc {

inline constexpr const char* kOps[] = {"Decode", "Encode", "Serde", "Handler"};
inline constexpr const char* kLogOps[] = {"Encode", "DecodeAll", "AccessOne", "ScanField"};

// The three families every table groups codecs by (matrix::Family): as the
// run recorded the codec, by name otherwise (runs before the binary peers had
// ZAP and JSON codecs only).
using matrix::Family;
Family family(const Results& r, const std::string& name);
bool is_json(const Results& r, const std::string& name);
bool trusted_input_only(const Results& r, const std::string& name);
// "text" (JSON) or "binary" (ZAP and the binary peers): the groups of every table; "limit" for a
// limit of the machine (is_limit).
const char* format_of(const Results& r, const std::string& name);
// A limit row, not a codec: <op>/limit (micro/limit_codec.hpp: the least work any codec of the eth
// record must do for the op), and the logs record's Logs/Copy/memcpy/<N> and Logs/ScanField/structs/<N>.
// Never the fastest of a family, always last in a table.
bool is_limit(std::string_view codec);
// The name of the limit rows of the eth record's ops.
inline constexpr std::string_view kLimitCodec = "limit";
std::size_t codec_rank(const Results& r, const std::string& name);

// The figure of `op` on `codec`, or null.
const MicroFigure* find_figure(const Micro& m, std::string_view op, std::string_view codec);
// The fastest C++ codec of family `fam` for `op` by median, ties to the codec
// the registry lists first; null when none ran. The Go reference's rows are
// not C++ codecs; a decoder for trusted input only is not a peer a server
// could use, so it is never "the fastest binary peer" (its rows still show).
const MicroFigure* fastest_of(const Results& r, std::string_view op, Family fam);
inline const MicroFigure* fastest_json(const Results& r, std::string_view op) {
  return fastest_of(r, op, Family::json);
}
inline const MicroFigure* fastest_peer(const Results& r, std::string_view op) {
  return fastest_of(r, op, Family::peer);
}

// --- cost against work: Logs/<op>/<codec>/<N> --------------------------------------

// One Logs/<op>/<codec>/<N> figure, its name taken apart. The limits are
// Logs/Copy/memcpy/<N> and Logs/ScanField/structs/<N> (is_limit): not codecs.
struct LogFigure {
  std::string op, codec;
  double n = 0;
  const MicroFigure* f = nullptr;
};
struct LogTable {
  std::vector<LogFigure> figs;
  std::vector<double> ns;           // every N measured, ascending
  std::vector<std::string> codecs;  // grouped: text, then binary, each in registry order
  const LogFigure* find(std::string_view op, std::string_view codec, double n) const;
  // The slope of ln(ns/op) against ln(N) over every N measured (least squares).
  double slope(std::string_view op, std::string_view codec) const;
  // The fastest codec of a family for op at N (a trusted-input decoder never counts as a peer).
  const LogFigure* fastest(const Results& r, std::string_view op, double n, Family fam) const;
};
LogTable log_table(const Results& r);

// --- end to end ----------------------------------------------------------------------

// A cell that ran: available and with samples.
bool usable(const Cell& c);

// One row of an end-to-end table: an arm, a framing, a body, the server's I/O
// interface (an io_uring row is a row of its own, after its epoll row), and
// the control copy of a row is a row of its own too.
struct RowKey {
  matrix::Arm arm;
  matrix::Framing framing;
  std::string body;
  matrix::Io io = matrix::Io::epoll;
  bool control = false;
  auto operator<=>(const RowKey&) const = default;
};
inline RowKey row_key(const Cell& c) { return {c.arm, c.framing, c.body, c.io, c.control}; }
bool row_before(const Results& r, const RowKey& a, const RowKey& b);

// The cells of one scenario (and N) at one depth: one table, rows × connections.
struct Group {
  matrix::Scenario scenario = matrix::Scenario::hello;
  unsigned logs = 0;  // logs: N (one group per N and depth)
  unsigned pipeline = 1;
  std::vector<const Cell*> cells;
  std::vector<RowKey> rows;
  std::vector<unsigned> connections;  // of the cells that ran

  [[nodiscard]] std::vector<const Cell*> row_cells(const RowKey& k) const;
  [[nodiscard]] const Cell* find(const RowKey& k, unsigned conns) const;
};
// "rpc", "logs N=100".
std::string group_scenario(const Group& g);
// "e2e-rpc-p16", "e2e-logs-100-p1": the anchor of its heading.
std::string group_id(const Group& g);
std::vector<Group> groups(const Results& r);

// The zapbench cell of the group whose body is of family `fam`, on `framing`
// at `conns` connections with the server on `io`, with the highest median
// requests/s (ties to the first); null when none ran. Never the control copy.
const Cell* fastest_body(const Results& r, const Group& g, Family fam, matrix::Framing framing,
                         unsigned conns, matrix::Io io = matrix::Io::epoll);

// "1 connection", "16 connections".
std::string connections_text(unsigned n);

}  // namespace report::doc
