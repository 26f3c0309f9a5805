// report/doc_end_to_end.cpp — the end-to-end sections: per scenario and
// framing, the tables of requests/s, latency and server CPU per request with
// their ÷ columns, the Go arms' ratios, the charts, the rounds each cell got
// (and a cell's modes, where its rounds fall in separate ones), and the loader
// hosts' own figures.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "report/document_parts.hpp"
#include "report/findings.hpp"
#include "report/gbench.hpp"
#include "report/select.hpp"

namespace report::doc {

// --- end to end ----------------------------------------------------------------------

using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

std::string row_label(const Results& r, const RowKey& k, const std::vector<const Cell*>& cells) {
  if (k.control) {
    RowKey original = k;
    original.control = false;
    return row_label(r, original, cells) + " — control copy";
  }
  if (k.io != matrix::Io::epoll) {  // the same row's server on io_uring
    RowKey on_epoll = k;
    on_epoll.io = matrix::Io::epoll;
    return row_label(r, on_epoll, cells) + " on " + std::string(matrix::to_string(k.io));
  }
  if (k.arm == Arm::floor) {
    for (const Cell* c : cells)
      if (usable(*c))
        return "floor (raw TCP echo, " + count(std::round(c->samples[0].bytes_sent_per_request)) + " B → " +
               count(std::round(c->samples[0].bytes_received_per_response)) + " B)";
    return "floor (raw TCP echo)";
  }
  // Named by its server when the arm's name does not say it (the Go ZAP-RPC cells: zapbench-go-rpc).
  std::string label =
      std::string(matrix::to_string(k.arm)) + " " + std::string(matrix::display_name(k.framing));
  for (const Cell* c : cells)
    if (!c->server.empty()) {
      label = c->server;
      break;
    }
  if (k.body.empty()) return label;
  const std::string server_codec = cells.empty() ? "" : cells.front()->server_codec;
  if (!server_codec.empty() && is_json(r, k.body))
    return label + " + JSON (" + server_codec.substr(server_codec.find('/') + 1) + "; loader " + k.body + ")";
  if (is_json(r, k.body)) return label + " + JSON (" + k.body + ")";
  if (k.body == "zap") return label + " + ZAP";
  if (family(r, k.body) == Family::peer) return label + " + " + k.body;
  return label + " + ZAP (" + k.body + ")";
}

std::uint64_t errors(const Cell& c) {
  std::uint64_t n = 0;
  for (const E2ESample& s : c.samples) n += s.errors;
  return n;
}

// The reason when every cell of the row is unavailable for the same reason.
std::string whole_row_unavailable(const std::vector<const Cell*>& cells) {
  if (cells.empty() || cells[0]->unavailable.empty()) return "";
  for (const Cell* c : cells)
    if (c->unavailable != cells[0]->unavailable) return "";
  return cells[0]->unavailable;
}

enum class Figure { rate, p99, server_cpu, mb_per_s };

// One e2e table: rows = arm/framing/body, columns = connections.
// mode_notes: a line per cell whose rounds fall in separate modes (its cell marked).
Table e2e_table(const Results& r, const Group& g, Figure fig, std::vector<std::string>* error_notes,
                bool* any_noisy, std::vector<std::string>* busy_notes, std::vector<Runs>* mode_notes) {
  Table t{{fig == Figure::rate       ? "requests/s"
           : fig == Figure::p99      ? "p99 µs"
           : fig == Figure::mb_per_s ? "MB/s of responses"
                                     : "server CPU µs/request"},
          "l",
          {}};
  for (unsigned c : g.connections) {
    t.header.push_back("c " + std::to_string(c));
    t.align += "r";
  }
  if (g.connections.empty()) {
    t.header.push_back("");
    t.align += "l";
  }
  for (const RowKey& k : g.rows) {
    const std::vector<const Cell*> cells = g.row_cells(k);
    const std::string label = row_label(r, k, cells);
    std::vector<Text> row{label};
    if (const std::string reason = whole_row_unavailable(cells); !reason.empty()) {
      row.emplace_back("unavailable: " + reason);
      while (row.size() < t.header.size()) row.emplace_back("unavailable");
      t.rows.push_back(std::move(row));
      continue;
    }
    for (unsigned conns : g.connections) {
      const Cell* c = g.find(k, conns);
      const std::string where = label + ", c " + std::to_string(conns);  // a note's name for the cell
      if (!c) {
        row.emplace_back("—");
      } else if (!c->unavailable.empty()) {
        row.emplace_back("unavailable: " + c->unavailable);
      } else if (c->samples.empty()) {
        row.emplace_back("no samples");
      } else if (fig == Figure::p99) {
        const Samples p99 = c->p99();
        row.emplace_back(with_modes(med_range(p99, 1000, false), p99, where, ns_text, *mode_notes));
      } else if (fig == Figure::server_cpu) {
        const Samples cpu = c->server_cpu_per_request_ns(r.config);
        row.emplace_back(with_modes(med_range(cpu, 1000, false), cpu, where, ns_text, *mode_notes));
      } else if (fig == Figure::mb_per_s) {
        const Samples mb = c->mb_per_s();
        row.emplace_back(with_modes(
            med_range(mb, 1, false), mb, where, [](double v) { return with_unit(v * 1e6, "B/s"); },
            *mode_notes));
      } else {
        const Samples rate = c->rate();
        std::string s = with_modes(
            med_range(rate, 1, true), rate, where, [](double v) { return grouped(v) + " requests/s"; },
            *mode_notes);
        if (c->noisy(r.config.noisy_spread)) {
          s += " ⚠";
          *any_noisy = true;
        }
        bool busy_mark = false;
        for (std::size_t i = 0; i < c->samples.size(); ++i)
          if (busy(c->samples[i], busy_load_threshold(r))) {
            busy_mark = true;
            busy_notes->push_back(label + ", c " + std::to_string(conns) + ", sample " +
                                  std::to_string(i + 1) + ": load average " +
                                  fixed(c->samples[i].load_avg_1m, 2));
          }
        if (busy_mark) s += " ⚑";
        if (const std::uint64_t n = errors(*c); n > 0) {
          s += " ‡ " + std::to_string(n) + " errors";
          std::map<std::string, std::uint64_t> kinds;
          for (const E2ESample& e : c->samples)
            for (const auto& [kind, m] : e.errors_by_kind) kinds[kind] += m;
          std::string by;
          for (const auto& [kind, m] : kinds)
            if (m > 0) by += (by.empty() ? "" : ", ") + kind + " " + std::to_string(m);
          error_notes->push_back(label + ", c " + std::to_string(conns) + ": " + std::to_string(n) +
                                 " errors over " + std::to_string(c->samples.size()) + " samples" +
                                 (by.empty() ? "" : " (" + by + ")"));
        }
        row.emplace_back(std::move(s));
      }
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

void ratios(const Results& r, const Group& g, Out& out) {
  // Which comparisons this group has at all.
  bool has_json = false, has_peer = false, has_floor = false;
  for (const Cell* c : g.cells) {
    if (!usable(*c)) continue;
    const bool rpc = c->arm == Arm::zapbench && g.scenario != Scenario::hello;
    has_json |= rpc && is_json(r, c->body);
    has_peer |= rpc && !c->body.empty() && family(r, c->body) == Family::peer;
    has_floor |= c->arm == Arm::floor;
  }
  if (!has_json && !has_peer && !has_floor) return;
  // logs: the floor's comparison is of MB/s (it carries ZAP's byte counts at
  // that N; another body's answers are larger or smaller than its).
  const bool by_bytes = g.scenario == Scenario::logs;
  Table t{{std::string(matrix::to_string(Arm::zapbench))}, "l", {}};
  for (unsigned conns : g.connections) {
    for (auto [on, what] : {std::pair{has_json, " ÷ best JSON"}, std::pair{has_peer, " ÷ best binary"},
                            std::pair{has_floor, by_bytes ? " MB/s ÷ floor" : " ÷ floor"}}) {
      if (!on) continue;
      t.header.push_back("c " + std::to_string(conns) + what);
      t.align += "r";
    }
  }
  // On the row's own I/O interface: an io_uring row against the io_uring floor.
  auto floor_cell = [&](unsigned conns, matrix::Io io) -> const Cell* {
    for (const Cell* c : g.cells)
      if (c->arm == Arm::floor && c->io == io && c->connections == conns && usable(*c)) return c;
    return nullptr;
  };
  // The row's cell against another of the group, paired by round; "itself" against itself.
  auto against = [&](const Cell* mine, const Cell* other, bool bytes) -> Text {
    if (!mine || !other || !usable(*mine)) return "—";
    if (mine == other) return "1× (itself)";
    return verdict_cell(bytes ? paired(mine->mb_per_s(), other->mb_per_s(), stats::Better::higher, r.config)
                              : paired(mine->rate(), other->rate(), stats::Better::higher, r.config),
                        stats::Better::higher);
  };
  bool io_uring_rows = false;
  for (const RowKey& k : g.rows) {
    if (k.arm != Arm::zapbench) continue;
    io_uring_rows |= k.io != matrix::Io::epoll;
    std::vector<Text> row{row_label(r, k, g.row_cells(k))};
    for (unsigned conns : g.connections) {
      const Cell* mine = g.find(k, conns);
      if (has_json)
        row.push_back(against(mine, fastest_body(r, g, Family::json, k.framing, conns, k.io), false));
      if (has_peer)
        row.push_back(against(mine, fastest_body(r, g, Family::peer, k.framing, conns, k.io), false));
      if (has_floor) row.push_back(against(mine, floor_cell(conns, k.io), by_bytes));
    }
    t.rows.push_back(std::move(row));
  }
  Runs caption{
      "Requests/s against the best of each kind, paired by round (above 1× = this row faster; the geometric "
      "mean of the ratios of the rounds both cells ran, so not always the quotient of the medians above, "
      "each over its own cell's rounds): "};
  if (has_json)
    caption.push_back(
        "÷ best JSON divides by the fastest zapbench JSON body on the same framing, connections and depth; ");
  if (has_peer)
    caption.push_back(
        "÷ best binary divides by the fastest binary peer body on the same framing, connections and depth; ");
  if (has_floor)
    caption.push_back(by_bytes
                          ? "MB/s ÷ floor divides the row's MB/s of responses by the raw TCP echo's, at the "
                            "same connections and depth (the echo carries ZAP's byte counts at this N); "
                          : "÷ floor divides by the raw TCP echo at the same connections and depth; ");
  if (io_uring_rows) caption.push_back("an io_uring row against the cells on io_uring too; ");
  caption.push_back("— where there is nothing to compare with.");
  out.para(std::move(caption));
  out.table(std::move(t));
  out.para(mark_legend(r));
}

// Our server against the Go reference's on the cells both served: the same
// framing, the same body on the wire (the loader's codec), the same
// connections and depth — requests/s, and the server CPU per request of the
// Go arm ÷ ours (above 1× = ours faster / cheaper), paired by round.
void go_ratios(const Results& r, const Group& g, Out& out) {
  // A column per Go arm and server (a Go ZAP-RPC cell is named by its own, Cell::server), in report order.
  std::set<std::pair<Arm, std::string>> go_arms;
  for (const Cell* c : g.cells)
    if (matrix::is_go_arm(c->arm) && usable(*c)) go_arms.insert({c->arm, c->server});
  if (go_arms.empty()) return;
  Table t{{"zapbench against the Go reference"}, "l", {}};
  for (const auto& [a, server] : go_arms)
    for (unsigned conns : g.connections) {
      t.header.push_back((server.empty() ? std::string(matrix::to_string(a)) : server) + " c " +
                         std::to_string(conns) + ": rate, CPU");
      t.align += "r";
    }
  for (const RowKey& k : g.rows) {
    // The Go servers are on epoll: our epoll rows against them (io_uring against epoll: What it found).
    if (k.arm != Arm::zapbench || k.control || k.io != matrix::Io::epoll) continue;
    std::vector<Text> row{row_label(r, k, g.row_cells(k))};
    bool any = false;
    for (const auto& [a, server] : go_arms)
      for (unsigned conns : g.connections) {
        const Cell* mine = g.find(k, conns);
        const Cell* go = g.find(RowKey{a, k.framing, k.body}, conns);
        if (!mine || !go || !usable(*mine) || !usable(*go) || go->server != server) {
          row.emplace_back("—");
          continue;
        }
        any = true;
        row.emplace_back(
            verdict_cell(paired(mine->rate(), go->rate(), stats::Better::higher, r.config),
                         stats::Better::higher) +
            ", " +
            verdict_cell(paired(mine->server_cpu_per_request_ns(r.config),
                                go->server_cpu_per_request_ns(r.config), stats::Better::lower, r.config),
                         stats::Better::lower));
      }
    if (any) t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) return;
  out.para(
      {"Against the Go reference's servers on the same cells, paired by round (over the rounds both cells "
       "ran, so not always the quotient of the medians above): zapbench's requests/s ÷ the Go arm's, then "
       "the Go arm's server CPU per request ÷ zapbench's (above 1× = zapbench faster, cheaper). The body "
       "on the wire is the same JSON; the Go arm decodes it with its own codec."});
  out.table(std::move(t));
  out.para(mark_legend(r));
}

// Requests/s and p99 against connections, one line per row; where the run
// measured one connection count (a quick run at depth 16), one bar per row.
void charts(const Results& r, const Group& g, const std::string& where, Out& out) {
  const std::string id = group_id(g);
  Chart rate{id + "-rate",
             "requests/s against connections — " + where,
             "connections (log scale)",
             "requests/s (median, whisker min–max)",
             false,
             {},
             {}};
  rate.unit = "";
  rate.to_base = 1;
  Chart p99{id + "-p99",
            "p99 latency against connections — " + where,
            "connections (log scale)",
            "p99 latency (log scale)",
            true,
            {},
            {}};
  for (const RowKey& k : g.rows) {
    const std::vector<const Cell*> cells = g.row_cells(k);
    Series sr{
        row_label(r, k, cells), {}, k.arm == Arm::floor, k.body.empty() ? Family::json : family(r, k.body)};
    Series sp = sr;
    for (unsigned conns : g.connections) {
      const Cell* c = g.find(k, conns);
      if (!c || !usable(*c)) continue;
      const Samples rs = c->rate(), ps = c->p99();
      sr.points.push_back({double(conns), rs.median(), rs.min(), rs.max()});
      sp.points.push_back({double(conns), ps.median(), ps.min(), ps.max()});
    }
    if (!sr.points.empty()) {
      rate.series.push_back(std::move(sr));
      p99.series.push_back(std::move(sp));
    }
  }
  if (rate.series.empty()) return;
  const std::string at = g.connections.size() == 1 ? connections_text(g.connections.front()) : "";
  out.chart(bars_if_one_x(std::move(rate), "requests/s at " + at + " — " + where));
  out.chart(bars_if_one_x(std::move(p99), "p99 latency at " + at + " — " + where));
}

// How many rounds the group's cells got: the first rounds every cell had,
// and the cells the findings gave more. Empty for runs without rounds.
Runs rounds_note(const Results& r, const Group& g) {
  if (!rounds_recorded(r)) return {};
  std::size_t least = SIZE_MAX;
  for (const Cell* c : g.cells)
    if (usable(*c)) least = std::min(least, c->samples.size());
  if (least == SIZE_MAX) return {};
  std::string more;
  for (const RowKey& k : g.rows)
    for (unsigned conns : g.connections)
      if (const Cell* c = g.find(k, conns); c && usable(*c) && c->samples.size() > least)
        more += (more.empty() ? "" : "; ") + row_label(r, k, g.row_cells(k)) + ", c " +
                std::to_string(conns) + ": " + std::to_string(c->samples.size());
  return {"Rounds: " + std::to_string(least) + " for every cell" +
          (more.empty() ? "." : "; more where a finding needed them — " + more + ".")};
}

// The Go reference's rows as built: each with the Go modules its server used
// (Cell::go_modules), versions as its binary links them — the ZAP-RPC rows'
// zap-proto/go is zapbench-go-rpc's, a build of its own.
void go_rows(const Results& r, Out& out) {
  Table t{{"Go row", "Go modules it served with"}, "ll", {}};
  std::set<std::string> seen;
  for (const Group& g : groups(r))
    for (const RowKey& k : g.rows) {
      if (!matrix::is_go_arm(k.arm)) continue;
      for (const Cell* c : g.row_cells(k)) {
        if (c->go_modules.empty()) continue;
        std::string modules;
        for (const auto& [path, version] : c->go_modules)
          modules += (modules.empty() ? "" : ", ") + path + " " + version;
        const std::string label = row_label(r, k, g.row_cells(k));
        if (seen.insert(label + "\n" + modules).second) t.rows.push_back({label, modules});
      }
    }
  if (t.rows.empty()) return;
  out.para(
      {"The Go reference's rows and the module versions each one's server used (as its binary links "
       "them): zapbench-go, and zapbench-go-rpc for ZAP-RPC, a build of its own on zap-proto/go's "
       "newer transport."});
  out.table(std::move(t));
}

void end_to_end(const Results& r, Out& out) {
  out.heading(2, "End to end");
  if (r.cells.empty()) {
    out.para({"No end-to-end runs in this run."});
    return;
  }
  out.para(
      {"Rows: server arm, framing and body codec; columns: concurrent connections. Each figure: median of "
       "the cell's samples (min–max)" +
       (rounds_recorded(r) ? std::string(", one a round; ") + kModesMark +
                                 " where its rounds fall in separate modes, named under the table with "
                                 "their rounds."
                           : std::string("."))});
  go_rows(r, out);
  for (const Group& g : groups(r)) {
    const std::string where = group_scenario(g) + ", pipeline depth " + std::to_string(g.pipeline);
    out.heading(3, where, group_id(g));
    std::vector<std::string> error_notes, busy_notes;
    std::vector<Runs> mode_notes;
    bool any_noisy = false;
    Table rate = e2e_table(r, g, Figure::rate, &error_notes, &any_noisy, &busy_notes, &mode_notes);
    std::vector<std::string> unused_notes_mb;
    bool unused_noisy_mb = false;
    // The notes on modes under the table they mark.
    auto modes_after = [&](std::vector<Runs>& notes) {
      if (!notes.empty()) out.bullets(std::exchange(notes, {}));
    };
    out.para({strong("Requests per second")});
    out.table(std::move(rate));
    modes_after(mode_notes);
    if (Runs note = rounds_note(r, g); !note.empty()) out.para(std::move(note));
    if (any_noisy)
      out.para({"⚠ noisy: requests/s spread (max − min) / median above " +
                fixed(r.config.noisy_spread * 100, 0) +
                "% across the samples; shown, not hidden — read with care."});
    if (!busy_notes.empty()) {
      std::vector<Runs> items;
      for (std::string& n : busy_notes) items.push_back({std::move(n)});
      out.para({"⚑ busy machine: samples taken while the 1-minute load average was above " +
                fixed(busy_load_threshold(r), 0) +
                " (see How it was measured); shown, not hidden — other work competed with them:"});
      out.bullets(std::move(items));
    }
    if (!error_notes.empty()) {
      std::vector<Runs> items;
      for (std::string& n : error_notes) items.push_back({std::move(n)});
      out.para({"‡ responses the loader counted as errors (failed, late or invalid), by kind:"});
      out.bullets(std::move(items));
    }
    if (g.scenario == Scenario::logs) {
      // A workload that grows: bytes per second say what requests per second cannot.
      out.para({strong("MB/s of responses"),
                " — response bytes received per second of the window (10^6 bytes), framing included."});
      out.table(e2e_table(r, g, Figure::mb_per_s, &unused_notes_mb, &unused_noisy_mb, &unused_notes_mb,
                          &mode_notes));
      modes_after(mode_notes);
    }
    out.para({strong("p99 latency, µs")});
    std::vector<std::string> unused_notes;
    bool unused_noisy = false;
    out.table(e2e_table(r, g, Figure::p99, &unused_notes, &unused_noisy, &unused_notes, &mode_notes));
    modes_after(mode_notes);
    out.para({strong("Server CPU per request, µs"),
              " — the server process's CPU time (user + system, all its threads or workers) over the sample "
              "÷ the requests it served at the measured rate; the cost that stays when the loader is the "
              "bottleneck."});
    out.table(e2e_table(r, g, Figure::server_cpu, &unused_notes, &unused_noisy, &unused_notes, &mode_notes));
    modes_after(mode_notes);
    ratios(r, g, out);
    go_ratios(r, g, out);
    charts(r, g, where, out);
  }
}

// --- loader hosts ----------------------------------------------------------------------

bool has_loader_hosts(const Cell& c) {
  for (const E2ESample& s : c.samples)
    if (!s.loader_hosts.empty()) return true;
  return false;
}

// Several loader hosts: per cell, each host's own requests/s, the bound on how far apart their windows
// started, and the hosts that delivered no result. Only when some sample has loader hosts.
void loader_hosts(const Results& r, Out& out) {
  std::vector<std::string> hosts;  // in order of first appearance
  for (const Cell& c : r.cells)
    for (const E2ESample& s : c.samples)
      for (const LoaderHostRow& h : s.loader_hosts)
        if (std::find(hosts.begin(), hosts.end(), h.host) == hosts.end()) hosts.push_back(h.host);
  if (hosts.empty()) return;
  out.heading(2, "Loader hosts", "loader-hosts");
  out.para(
      {"Per cell: each loader host's requests/s (median of its samples, min–max), the largest start "
       "skew over the cell's samples (a bound on how far apart the hosts' windows started, ms; "
       "docs/spec/hosts.md §5) and the host results that never came (failures, with the first reason). "
       "The cell's figures in End to end are the exact merge of its hosts' results."});
  Table t{{"cell"}, "l", {}};
  for (const std::string& h : hosts) {
    t.header.push_back(h + " requests/s");
    t.align += "r";
  }
  t.header.insert(t.header.end(), {"start skew ms (max)", "failures"});
  t.align += "rl";
  for (const Group& g : groups(r))
    for (const RowKey& k : g.rows)
      for (unsigned conns : g.connections) {
        const Cell* c = g.find(k, conns);
        if (!c || !has_loader_hosts(*c)) continue;
        std::vector<Text> row{row_label(r, k, g.row_cells(k)) + ", " + group_scenario(g) + ", depth " +
                              std::to_string(g.pipeline) + ", c " + std::to_string(conns)};
        for (const std::string& host : hosts) {
          Samples rate;  // the samples this host delivered
          for (const E2ESample& s : c->samples)
            for (const LoaderHostRow& h : s.loader_hosts)
              if (h.host == host && h.failure.empty()) rate.values.push_back(h.requests_per_s);
          row.emplace_back(rate.values.empty() ? "—" : med_range(rate, 1, true));
        }
        double skew_ns = NAN;
        std::size_t failures = 0;
        std::string first_failure;
        for (const E2ESample& s : c->samples) {
          if (std::isfinite(s.start_skew_ns) && !(skew_ns >= s.start_skew_ns)) skew_ns = s.start_skew_ns;
          for (const LoaderHostRow& h : s.loader_hosts) {
            if (h.failure.empty()) continue;
            if (failures++ == 0)
              first_failure =
                  h.failure.starts_with("host " + h.host + ":") ? h.failure : h.host + ": " + h.failure;
          }
        }
        row.emplace_back(std::isfinite(skew_ns) ? fixed(skew_ns / 1e6, 2) : "—");
        row.emplace_back(failures == 0 ? "0" : std::to_string(failures) + " (first: " + first_failure + ")");
        t.rows.push_back(std::move(row));
      }
  out.table(std::move(t));
}

}  // namespace report::doc
