// report/select.cpp — codec families, the fastest of each, the end-to-end
// groups and the logs table (select.hpp).
#include "report/select.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "report/gbench.hpp"

namespace report::doc {

using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

Family family(const Results& r, const std::string& name) {
  for (const Codec& c : r.codecs)
    if (c.name == name) return c.effective_family();
  return name == "zap" || name == "zap-fresh" ? Family::zap : Family::json;
}

bool is_json(const Results& r, const std::string& name) {
  return !name.empty() && !is_limit(name) && family(r, name) == Family::json;
}

bool trusted_input_only(const Results& r, const std::string& name) {
  for (const Codec& c : r.codecs)
    if (c.name == name) return c.trusted_input_only;
  return false;
}

const char* format_of(const Results& r, const std::string& name) {
  return is_limit(name) ? "limit" : is_json(r, name) ? "text" : "binary";
}

bool is_limit(std::string_view codec) {
  return codec == kLimitCodec || codec == "memcpy" || codec == "structs";
}

std::size_t codec_rank(const Results& r, const std::string& name) {
  for (std::size_t i = 0; i < r.codecs.size(); ++i)
    if (r.codecs[i].name == name) return i;
  return r.codecs.size();
}

const MicroFigure* find_figure(const Micro& m, std::string_view op, std::string_view codec) {
  for (const MicroFigure& f : m.figures)
    if (f.op == op && f.codec == codec) return &f;
  return nullptr;
}

const MicroFigure* fastest_of(const Results& r, std::string_view op, Family fam) {
  const MicroFigure* best = nullptr;
  for (const MicroFigure& f : r.micro.figures) {
    if (f.op != op || is_go_codec(f.codec) || is_limit(f.codec) || family(r, f.codec) != fam ||
        trusted_input_only(r, f.codec))
      continue;
    const double ns = f.ns_per_op.median();
    if (!best || ns < best->ns_per_op.median() ||
        (ns == best->ns_per_op.median() && codec_rank(r, f.codec) < codec_rank(r, best->codec)))
      best = &f;
  }
  return best;
}

// --- cost against work ---------------------------------------------------------------

namespace {

std::vector<LogFigure> log_figures(const Micro& m) {
  std::vector<LogFigure> out;
  for (const MicroFigure& f : m.figures) {
    if (f.op != "Logs") continue;
    const auto a = f.codec.find('/'), b = f.codec.rfind('/');
    if (a == std::string::npos || b == a) continue;
    LogFigure lf{f.codec.substr(0, a), f.codec.substr(a + 1, b - a - 1), 0, &f};
    if (is_go_codec(lf.codec)) continue;  // the Go reference's reads: its own section, beside their C++ rows
    try {
      lf.n = std::stod(f.codec.substr(b + 1));
    } catch (const std::exception&) {
      continue;
    }
    if (lf.n > 0 && f.ns_per_op.median() > 0) out.push_back(std::move(lf));
  }
  return out;
}

}  // namespace

const LogFigure* LogTable::find(std::string_view op, std::string_view codec, double n) const {
  for (const LogFigure& f : figs)
    if (f.op == op && f.codec == codec && f.n == n) return &f;
  return nullptr;
}

double LogTable::slope(std::string_view op, std::string_view codec) const {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;
  for (double n : ns)
    if (const LogFigure* f = find(op, codec, n)) {
      const double x = std::log(n), y = std::log(f->f->ns_per_op.median());
      sx += x, sy += y, sxx += x * x, sxy += x * y, k += 1;
    }
  if (k < 2 || k * sxx - sx * sx <= 0) return NAN;
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

const LogFigure* LogTable::fastest(const Results& r, std::string_view op, double n, Family fam) const {
  const LogFigure* best = nullptr;
  for (const LogFigure& f : figs)
    if (f.op == op && f.n == n && !is_limit(f.codec) && family(r, f.codec) == fam &&
        !trusted_input_only(r, f.codec) && (!best || f.f->ns_per_op.median() < best->f->ns_per_op.median()))
      best = &f;
  return best;
}

LogTable log_table(const Results& r) {
  LogTable t;
  t.figs = log_figures(r.micro);
  for (const LogFigure& f : t.figs) {
    if (std::find(t.ns.begin(), t.ns.end(), f.n) == t.ns.end()) t.ns.push_back(f.n);
    if (!is_limit(f.codec) && std::find(t.codecs.begin(), t.codecs.end(), f.codec) == t.codecs.end())
      t.codecs.push_back(f.codec);
  }
  std::sort(t.ns.begin(), t.ns.end());
  std::stable_sort(t.codecs.begin(), t.codecs.end(), [&](const std::string& a, const std::string& b) {
    return std::make_tuple(!is_json(r, a), codec_rank(r, a)) <
           std::make_tuple(!is_json(r, b), codec_rank(r, b));
  });
  return t;
}

// --- end to end ----------------------------------------------------------------------

bool usable(const Cell& c) { return c.unavailable.empty() && !c.samples.empty(); }

bool row_before(const Results& r, const RowKey& a, const RowKey& b) {
  auto key = [&](const RowKey& k) {
    // Within a framing: no body (hello) first, then the text bodies (JSON), then the binary ones (ZAP, then
    // the binary peers), each in registry order; a control copy right after its row, the io_uring row
    // after both.
    const int body_kind = k.body.empty() ? 0 : is_json(r, k.body) ? 1 : 2;
    return std::make_tuple(k.arm, k.framing, body_kind, codec_rank(r, k.body), k.body, k.io, k.control);
  };
  return key(a) < key(b);
}

std::vector<const Cell*> Group::row_cells(const RowKey& k) const {
  std::vector<const Cell*> v;
  for (const Cell* c : cells)
    if (row_key(*c) == k) v.push_back(c);
  return v;
}

const Cell* Group::find(const RowKey& k, unsigned conns) const {
  for (const Cell* c : cells)
    if (c->connections == conns && row_key(*c) == k) return c;
  return nullptr;
}

std::string group_scenario(const Group& g) {
  std::string s(matrix::to_string(g.scenario));
  if (g.scenario == Scenario::logs) s += " N=" + std::to_string(g.logs);
  return s;
}

std::string group_id(const Group& g) {
  std::string s = "e2e-" + std::string(matrix::to_string(g.scenario));
  if (g.scenario == Scenario::logs) s += "-" + std::to_string(g.logs);
  return s + "-p" + std::to_string(g.pipeline);
}

std::vector<Group> groups(const Results& r) {
  std::vector<Group> gs;
  for (const Cell& c : r.cells) {
    auto it = std::find_if(gs.begin(), gs.end(), [&](const Group& g) {
      return g.scenario == c.scenario && g.logs == c.logs && g.pipeline == c.pipeline;
    });
    if (it == gs.end()) it = gs.insert(gs.end(), Group{c.scenario, c.logs, c.pipeline, {}, {}, {}});
    it->cells.push_back(&c);
  }
  std::stable_sort(gs.begin(), gs.end(), [](const Group& a, const Group& b) {
    return std::make_tuple(a.scenario, a.logs, a.pipeline) < std::make_tuple(b.scenario, b.logs, b.pipeline);
  });
  for (Group& g : gs) {
    std::set<unsigned> conns;
    for (const Cell* c : g.cells) {
      const RowKey k = row_key(*c);
      if (std::find(g.rows.begin(), g.rows.end(), k) == g.rows.end()) g.rows.push_back(k);
      if (c->unavailable.empty()) conns.insert(c->connections);
    }
    std::stable_sort(g.rows.begin(), g.rows.end(),
                     [&](const RowKey& a, const RowKey& b) { return row_before(r, a, b); });
    g.connections.assign(conns.begin(), conns.end());
  }
  return gs;
}

const Cell* fastest_body(const Results& r, const Group& g, Family fam, Framing framing, unsigned conns,
                         matrix::Io io) {
  const Cell* best = nullptr;
  for (const Cell* c : g.cells)
    if (c->arm == Arm::zapbench && !c->control && c->io == io && c->framing == framing &&
        c->connections == conns && !c->body.empty() && family(r, c->body) == fam && usable(*c) &&
        (!best || c->rate().median() > best->rate().median()))
      best = c;
  return best;
}

std::string connections_text(unsigned n) {
  return std::to_string(n) + (n == 1 ? " connection" : " connections");
}

}  // namespace report::doc
