// report/findings.cpp — the findings of a run (findings.hpp): in process, ZAP
// against the fastest JSON codec, the fastest binary peer and the op's limit
// per op and on the logs record; end to end, ZAP against the fastest JSON and binary bodies
// on each framing, ZAP-RPC against ZAP-HTTP, ZAP-RPC + ZAP against gRPC C++
// and the floor with the body and framing corners between them, the logs
// answer against the floor; each framing × body's server CPU per request
// against the floor; the server on io_uring against on epoll, per framing and
// for the floor; and the control copy against its original.
#include "report/findings.hpp"

#include <algorithm>

#include "report/document.hpp"
#include "report/select.hpp"

namespace report {
namespace {

using matrix::Arm;
using matrix::Family;
using matrix::Framing;
using matrix::Scenario;
using Section = Finding::Section;
using Unit = Finding::Unit;

std::string micro_key(const MicroFigure& f) { return std::string(kMicroKey) + f.name; }

// The figures a finding shows beside its ratio: over the rounds it pairs.
void shown(Finding& f, const Samples& subject, const Samples& baseline) {
  PairedFigures p = paired_figures(subject, baseline);
  f.subject_value = p.subject_value;
  f.baseline_value = p.baseline_value;
  f.rounds = std::move(p.rounds);
  f.subject_modes = std::move(p.subject_modes);
  f.baseline_modes = std::move(p.baseline_modes);
}

struct Add {
  const Results& r;
  std::vector<Finding>& out;

  void micro(Section section, std::string title, std::string subject, const MicroFigure& s,
             std::string baseline, const MicroFigure& b, std::string anchor) {
    Finding f;
    f.section = section;
    f.title = std::move(title);
    f.unit = Unit::ns;
    f.subject = std::move(subject);
    f.baseline = std::move(baseline);
    f.better = stats::Better::lower;
    f.estimate = paired(s.ns_per_op, b.ns_per_op, f.better, r.config);
    shown(f, s.ns_per_op, b.ns_per_op);
    f.keys = {micro_key(s), micro_key(b)};
    f.anchor = std::move(anchor);
    f.subject_codec = s.codec;
    f.baseline_codec = b.codec;
    out.push_back(std::move(f));
  }

  // Two cells compared on one figure: requests/s, server CPU per request or MB/s.
  void cells(Section section, std::string title, Unit unit, std::string subject, const Cell& s,
             std::string baseline, const Cell& b, std::string anchor) {
    Finding f;
    f.section = section;
    f.title = std::move(title);
    f.unit = unit;
    f.subject = std::move(subject);
    f.baseline = std::move(baseline);
    const Samples ss = unit == Unit::requests_per_s ? s.rate()
                       : unit == Unit::mb_per_s     ? s.mb_per_s()
                                                    : s.server_cpu_per_request_ns(r.config);
    const Samples bs = unit == Unit::requests_per_s ? b.rate()
                       : unit == Unit::mb_per_s     ? b.mb_per_s()
                                                    : b.server_cpu_per_request_ns(r.config);
    f.better = unit == Unit::cpu_ns ? stats::Better::lower : stats::Better::higher;
    f.estimate = paired(ss, bs, f.better, r.config);
    shown(f, ss, bs);
    f.keys = {s.id(), b.id()};
    f.anchor = std::move(anchor);
    f.subject_codec = s.body;
    f.baseline_codec = b.body;
    f.framing = matrix::display_name(s.framing);
    out.push_back(std::move(f));
  }
};

Finding::Against against(Family fam) {
  return fam == Family::json ? Finding::Against::fastest_json : Finding::Against::fastest_peer;
}

// "the fastest JSON, simdjson", "the fastest binary peer body, flatbuffers".
std::string fastest_text(Family fam, const std::string& codec, bool body) {
  return std::string(fam == Family::json ? "the fastest JSON" : "the fastest binary peer") +
         (body ? " body" : "") + ", " + codec;
}

void per_op(const Results& r, Add& add) {
  for (const char* op : doc::kOps) {
    const MicroFigure* z = doc::find_figure(r.micro, op, "zap");
    if (!z) continue;
    for (Family fam : {Family::json, Family::peer})
      if (const MicroFigure* best = doc::fastest_of(r, op, fam)) {
        add.micro(Section::micro, op, "ZAP", *z, fastest_text(fam, best->codec, false), *best, "micro");
        add.out.back().against = against(fam);
      }
    // How close ZAP comes to what the machine allows for the op (micro/limit_codec.hpp).
    if (const MicroFigure* l = doc::find_figure(r.micro, op, doc::kLimitCodec)) {
      add.micro(Section::micro, op, "ZAP", *z, "its limit", *l, "micro");
      add.out.back().against = Finding::Against::limit;
    }
  }
}

void logs(const Results& r, Add& add) {
  const doc::LogTable t = doc::log_table(r);
  if (t.ns.empty()) return;
  const double n_max = t.ns.back();
  // DecodeAll at N = 1,000 where ZAP has it, else at ZAP's largest N (the
  // limits' rows may have N the codecs do not).
  double n_mid = 0;
  for (double n : t.ns)
    if (t.find("DecodeAll", "zap", n) && n_mid != 1000) n_mid = n;
  auto n_text = [](double n) { return doc::grouped(n); };
  if (const doc::LogFigure* z = t.find("DecodeAll", "zap", n_mid))
    for (Family fam : {Family::json, Family::peer})
      if (const doc::LogFigure* b = t.fastest(r, "DecodeAll", n_mid, fam)) {
        add.micro(Section::logs, "DecodeAll, N = " + n_text(n_mid), "ZAP", *z->f,
                  fastest_text(fam, b->codec, false), *b->f, "logs");
        add.out.back().against = against(fam);
        add.out.back().subject_codec = z->codec;
        add.out.back().baseline_codec = b->codec;
      }
  const doc::LogFigure* a1 = t.find("AccessOne", "zap", t.ns.front());
  const doc::LogFigure* an = t.find("AccessOne", "zap", n_max);
  if (a1 && an && n_max > t.ns.front())
    add.micro(Section::logs, "AccessOne (log N/2)", "ZAP at N = " + n_text(n_max), *an->f,
              "ZAP at N = " + n_text(t.ns.front()), *a1->f, "logs");
  const doc::LogFigure* e = t.find("Encode", "zap", n_max);
  const doc::LogFigure* c = t.find("Copy", "memcpy", n_max);
  if (e && c && e->f->wire_bytes > 0 && c->f->wire_bytes > 0) {
    add.micro(Section::logs, "Encode, N = " + n_text(n_max), "ZAP writing the answer", *e->f,
              "memcpy of the same bytes", *c->f, "logs");
    add.out.back().against = Finding::Against::limit;
    add.out.back().subject_codec = e->codec;
    add.out.back().baseline_codec = c->codec;
  }
}

// The zapbench cell of `g` on `framing` with `body`, at `conns` connections (0: the one with the highest
// median `by`), its server on epoll; null when none ran.
template <class By>
const Cell* zap_cell(const doc::Group& g, Framing framing, const char* body, unsigned conns, By by) {
  const Cell* best = nullptr;
  for (const Cell* c : g.cells)
    if (c->arm == Arm::zapbench && !c->control && c->io == matrix::Io::epoll && c->framing == framing &&
        c->body == body && doc::usable(*c) &&
        (conns == 0 ? (!best || by(*c) > by(*best)) : c->connections == conns))
      best = c;
  return best;
}

void end_to_end(const Results& r, Add& add) {
  const std::vector<doc::Group> gs = doc::groups(r);
  auto rate = [](const Cell& c) { return c.rate().median(); };
  // rpc at the deepest pipeline (where the body's cost shows most), ZAP's best connection count.
  const doc::Group* deepest = nullptr;
  for (const doc::Group& g : gs)
    if (g.scenario == Scenario::rpc && (!deepest || g.pipeline > deepest->pipeline)) deepest = &g;
  if (deepest) {
    const doc::Group& g = *deepest;
    for (Framing framing : matrix::kFramings) {
      const Cell* zap = zap_cell(g, framing, "zap", 0, rate);
      if (!zap) continue;
      const std::string title = std::string(matrix::display_name(framing)) + ", rpc, depth " +
                                std::to_string(g.pipeline) + ", " + doc::connections_text(zap->connections);
      for (Family fam : {Family::json, Family::peer})
        if (const Cell* b = doc::fastest_body(r, g, fam, framing, zap->connections))
          for (Unit u : {Unit::requests_per_s, Unit::cpu_ns}) {
            add.cells(Section::e2e, title, u, "ZAP", *zap, fastest_text(fam, b->body, true), *b,
                      doc::group_id(g));
            add.out.back().against = against(fam);
          }
    }
    // Multiplexing against in-order pipelining: one connection, every call of it in flight at once.
    const Cell* rpc = zap_cell(g, Framing::zap_rpc, "zap", 1, rate);
    const Cell* http = zap_cell(g, Framing::zap_http, "zap", 1, rate);
    if (rpc && http)
      for (Unit u : {Unit::requests_per_s, Unit::cpu_ns})
        add.cells(Section::e2e,
                  "ZAP-RPC against ZAP-HTTP, rpc, depth " + std::to_string(g.pipeline) + ", 1 connection", u,
                  "ZAP-RPC, multiplexed", *rpc, "ZAP-HTTP, pipelined in order", *http, doc::group_id(g));
  }
  // ZAP against what binary RPC runs on, at every depth: ZAP-RPC + ZAP against the grpc++ arm; the floor
  // (what no server can shed); and on zapbench's own server the corners of body × framing, so the reader
  // sees which share of the saving is the body (gRPC + ZAP) and which the framing (ZAP-RPC + protobuf).
  for (const doc::Group& g : gs) {
    if (g.scenario != Scenario::rpc) continue;
    const Cell* ref = nullptr;
    for (const Cell* c : g.cells)
      if (c->arm == Arm::grpc_cpp && doc::usable(*c) && (!ref || c->connections < ref->connections)) ref = c;
    if (!ref) continue;
    const Cell* zap = zap_cell(g, Framing::zap_rpc, "zap", ref->connections, rate);
    if (!zap) continue;
    const std::string title = "ZAP-RPC + ZAP against gRPC C++ (grpc++, protobuf), rpc, depth " +
                              std::to_string(g.pipeline) + ", " + doc::connections_text(ref->connections);
    for (Unit u : {Unit::cpu_ns, Unit::requests_per_s})
      add.cells(Section::e2e, title, u, "ZAP-RPC + ZAP", *zap, "grpc++", *ref, doc::group_id(g));
    for (const Cell* c : g.cells)
      if (c->arm == Arm::floor && c->io == matrix::Io::epoll && c->connections == ref->connections &&
          doc::usable(*c)) {
        add.cells(Section::e2e, title, Unit::cpu_ns, "ZAP-RPC + ZAP", *zap, "the floor, a raw TCP echo", *c,
                  doc::group_id(g));
        break;
      }
    if (const Cell* proto = zap_cell(g, Framing::grpc, "protobuf", ref->connections, rate)) {
      if (const Cell* body = zap_cell(g, Framing::grpc, "zap", ref->connections, rate))
        add.cells(Section::e2e, title, Unit::cpu_ns, "zapbench's gRPC + ZAP, the body changed", *body,
                  "its gRPC + protobuf", *proto, doc::group_id(g));
      if (const Cell* framing = zap_cell(g, Framing::zap_rpc, "protobuf", ref->connections, rate))
        add.cells(Section::e2e, title, Unit::cpu_ns, "zapbench's ZAP-RPC + protobuf, the framing changed",
                  *framing, "its gRPC + protobuf", *proto, doc::group_id(g));
    }
  }
  // Our server against the reference's own ZAP servers, on the same framing and body, at every depth and
  // connection count both ran: ZAP-HTTP is zap-proto/http on fasthttp (the go-fasthttp cell), ZAP-RPC
  // zap-proto/go's own transport (zapbench-go-rpc, under the go-zip arm; named by its server and version).
  for (const doc::Group& g : gs) {
    if (g.scenario != Scenario::rpc) continue;
    for (const Cell* go : g.cells) {
      const bool zap_http = go->arm == Arm::go_fasthttp && go->framing == Framing::zap_http;
      const bool zap_rpc = go->arm == Arm::go_zip && go->framing == Framing::zap_rpc;
      if (!(zap_http || zap_rpc) || go->body != "zap" || go->control || !doc::usable(*go)) continue;
      const Cell* ours = zap_cell(g, go->framing, "zap", go->connections, rate);
      if (!ours) continue;
      if (zap_rpc) {
        const std::string title =
            "ZAP-RPC + ZAP against the reference's transport (zap-proto/go), rpc, depth " +
            std::to_string(g.pipeline) + ", " + doc::connections_text(go->connections);
        for (Unit u : {Unit::requests_per_s, Unit::cpu_ns})
          add.cells(
              Section::e2e, title, u, "zapbench", *ours,
              "the Go reference (" + (go->server.empty() ? "zap-proto/go's transport" : go->server) + ")",
              *go, doc::group_id(g));
        continue;
      }
      const std::string title =
          "ZAP-HTTP + ZAP against the reference's server (zap-proto/http on fasthttp), rpc, depth " +
          std::to_string(g.pipeline) + ", " + doc::connections_text(go->connections);
      for (Unit u : {Unit::requests_per_s, Unit::cpu_ns})
        add.cells(Section::e2e, title, u, "zapbench", *ours, "the Go reference (go-fasthttp)", *go,
                  doc::group_id(g));
    }
  }
  // zapbench's HTTP/1.1 and HTTP/2 servers against the web servers people deploy (matrix/arms.def's web
  // column: nginx, h2o, nghttpd) on hello, at every depth and connection count both ran: the same request
  // and the same two-byte answer on the same framing, so what differs is the server.
  for (const doc::Group& g : gs) {
    if (g.scenario != Scenario::hello) continue;
    for (const Cell* web : g.cells) {
      if (!matrix::facts(web->arm).web || web->control || !doc::usable(*web)) continue;
      const Cell* ours = zap_cell(g, web->framing, "", web->connections, rate);
      if (!ours) continue;
      const std::string name(matrix::display_name(web->arm));
      const std::string title = "zapbench's " + std::string(matrix::display_name(web->framing)) +
                                " server against " + name + ", hello, depth " + std::to_string(g.pipeline) +
                                ", " + doc::connections_text(web->connections);
      for (Unit u : {Unit::requests_per_s, Unit::cpu_ns}) {
        add.cells(Section::e2e, title, u, "zapbench", *ours, name, *web, doc::group_id(g));
        add.out.back().against = Finding::Against::web;
        add.out.back().baseline_codec = name;  // the table's column: whose server
      }
    }
  }
  // logs at the largest N (where bytes dominate) and the shallowest depth: ZAP's best MB/s against the
  // floor's at the same connections (the floor carries ZAP's byte counts at that N).
  const doc::Group* largest = nullptr;
  for (const doc::Group& g : gs)
    if (g.scenario == Scenario::logs &&
        (!largest || g.logs > largest->logs || (g.logs == largest->logs && g.pipeline < largest->pipeline)))
      largest = &g;
  if (largest) {
    const doc::Group& g = *largest;
    auto mb = [](const Cell& c) { return c.mb_per_s().median(); };
    for (Framing framing : matrix::kFramings) {
      const Cell* zap = zap_cell(g, framing, "zap", 0, mb);
      if (!zap) continue;
      for (const Cell* c : g.cells)
        if (c->arm == Arm::floor && c->io == matrix::Io::epoll && c->connections == zap->connections &&
            doc::usable(*c)) {
          add.cells(Section::e2e,
                    std::string(matrix::display_name(framing)) + ", " + doc::group_scenario(g) + ", depth " +
                        std::to_string(g.pipeline) + ", " + doc::connections_text(zap->connections),
                    Unit::mb_per_s, "ZAP", *zap, "the floor, a raw TCP echo of the same bytes", *c,
                    doc::group_id(g));
          break;
        }
    }
  }
}

// End to end at a glance: on rpc at the deepest pipeline, at the fewest
// connections the floor ran at (one count for every row, so the rows compare
// with each other too), each framing's server CPU per request with ZAP, the
// fastest JSON and the fastest binary peer body, and the grpc++ arm's,
// against the floor's: how much a request costs above what no server can shed.
void against_floor(const Results& r, Add& add) {
  const std::vector<doc::Group> gs = doc::groups(r);
  const doc::Group* g = nullptr;
  for (const doc::Group& x : gs)
    if (x.scenario == Scenario::rpc && (!g || x.pipeline > g->pipeline)) g = &x;
  if (!g) return;
  const Cell* echo = nullptr;
  for (const Cell* c : g->cells)
    if (c->arm == Arm::floor && c->io == matrix::Io::epoll && doc::usable(*c) &&
        (!echo || c->connections < echo->connections))
      echo = c;
  if (!echo) return;
  const unsigned conns = echo->connections;
  const std::string title = "rpc, depth " + std::to_string(g->pipeline) + ", " + doc::connections_text(conns);
  auto add_row = [&](const Cell& c, std::string subject, Finding::Against kind) {
    add.cells(Section::floor, title, Unit::cpu_ns, std::move(subject), c, "the floor, a raw TCP echo", *echo,
              doc::group_id(*g));
    add.out.back().against = Finding::Against::floor;
    add.out.back().subject_kind = kind;
  };
  auto rate = [](const Cell& c) { return c.rate().median(); };
  for (Framing framing : matrix::kFramings) {
    const std::string name(matrix::display_name(framing));
    if (const Cell* zap = zap_cell(*g, framing, "zap", conns, rate))
      add_row(*zap, name + " + ZAP", Finding::Against::other);
    for (Family fam : {Family::json, Family::peer})
      if (const Cell* b = doc::fastest_body(r, *g, fam, framing, conns))
        add_row(*b, name + " + " + fastest_text(fam, b->body, true), against(fam));
  }
  for (const Cell* c : g->cells)
    if (c->arm == Arm::grpc_cpp && !c->control && c->connections == conns && doc::usable(*c)) {
      add_row(*c, "grpc++ (gRPC C++) + " + c->body, Finding::Against::other);
      add.out.back().framing += " (grpc++)";
    }
}

// io_uring against epoll: on rpc at the deepest depth and at depth 1, each
// framing's zapbench cell with a ZAP body, its server on io_uring against the
// same cell on epoll in server CPU per request, at the connection count where
// ZAP peaks on epoll (of those both ran); then the floor's at those counts
// (at its fewest when no framing had both). The floor is little but the
// kernel's work, so its ratio is the kernel's share moving; the codec does the
// same work on both, so a framing's ratio is that share moving against the rest.
void io_uring_against_epoll(const Results& r, Add& add) {
  const std::vector<doc::Group> gs = doc::groups(r);
  const doc::Group* deepest = nullptr;
  const doc::Group* depth1 = nullptr;
  for (const doc::Group& g : gs) {
    if (g.scenario != Scenario::rpc) continue;
    if (!deepest || g.pipeline > deepest->pipeline) deepest = &g;
    if (g.pipeline == 1) depth1 = &g;
  }
  std::vector<const doc::Group*> at;
  if (deepest) at.push_back(deepest);
  if (depth1 && depth1 != deepest) at.push_back(depth1);
  for (const doc::Group* g : at) {
    // The cell's io_uring twin that ran; null when none did.
    auto on_io_uring = [&](const Cell& e) -> const Cell* {
      const Cell* c = g->find({e.arm, e.framing, e.body, matrix::Io::io_uring}, e.connections);
      return c && doc::usable(*c) ? c : nullptr;
    };
    auto on_epoll = [&](Arm arm, Framing framing, const std::string& body, unsigned conns) -> const Cell* {
      const Cell* best = nullptr;
      for (const Cell* c : g->cells)
        if (c->arm == arm && c->framing == framing && c->body == body && c->io == matrix::Io::epoll &&
            !c->control && doc::usable(*c) && on_io_uring(*c) &&
            (conns != 0 ? c->connections == conns : !best || c->rate().median() > best->rate().median()))
          best = c;
      return best;
    };
    const std::string depth = ", rpc, depth " + std::to_string(g->pipeline) + ", ";
    std::vector<unsigned> floor_conns;
    for (Framing framing : matrix::kFramings) {
      const Cell* e = on_epoll(Arm::zapbench, framing, "zap", 0);
      if (!e) continue;
      add.cells(Section::io,
                std::string(matrix::display_name(framing)) + " + ZAP" + depth +
                    doc::connections_text(e->connections),
                Unit::cpu_ns, "io_uring", *on_io_uring(*e), "epoll", *e, doc::group_id(*g));
      if (std::find(floor_conns.begin(), floor_conns.end(), e->connections) == floor_conns.end())
        floor_conns.push_back(e->connections);
    }
    std::sort(floor_conns.begin(), floor_conns.end());
    if (floor_conns.empty())  // no framing had both: the floor at its fewest connections
      for (unsigned conns : g->connections)
        if (on_epoll(Arm::floor, Framing::raw_tcp, "", conns)) {
          floor_conns.push_back(conns);
          break;
        }
    for (unsigned conns : floor_conns)
      if (const Cell* e = on_epoll(Arm::floor, Framing::raw_tcp, "", conns))
        add.cells(Section::io, "the floor, a raw TCP echo" + depth + doc::connections_text(conns),
                  Unit::cpu_ns, "io_uring", *on_io_uring(*e), "epoll", *e, doc::group_id(*g));
  }
}

// "zapbench ZAP-RPC + ZAP, rpc, depth 16, 1 connection" (", on io_uring" after an io_uring cell's).
std::string cell_text(const Cell& c) {
  const std::string body = c.body == "zap" ? "ZAP" : c.body;
  const std::string io = c.io == matrix::Io::epoll ? "" : ", on " + std::string(matrix::to_string(c.io));
  return (c.server.empty()
              ? std::string(matrix::to_string(c.arm)) + " " + std::string(matrix::display_name(c.framing))
              : c.server) +
         (body.empty() ? "" : " + " + body) + ", " + c.scenario_label() + ", depth " +
         std::to_string(c.pipeline) + ", " + doc::connections_text(c.connections) + io;
}

void control(const Results& r, Add& add) {
  for (const doc::Group& g : doc::groups(r))
    for (const Cell* copy : g.cells) {
      if (!copy->control || !doc::usable(*copy)) continue;
      const Cell* original =
          g.find({copy->arm, copy->framing, copy->body, copy->io, false}, copy->connections);
      if (!original || !doc::usable(*original)) continue;
      const std::string title = cell_text(*copy);
      for (Unit u : {Unit::requests_per_s, Unit::cpu_ns})
        add.cells(Section::control, title, u, "the copy", *copy, "the original", *original, doc::group_id(g));
    }
}

}  // namespace

std::vector<Finding> findings(const Results& r) {
  std::vector<Finding> out;
  Add add{r, out};
  per_op(r, add);
  logs(r, add);
  end_to_end(r, add);
  against_floor(r, add);
  io_uring_against_epoll(r, add);
  control(r, add);
  return out;
}

}  // namespace report
