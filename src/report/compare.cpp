// report/compare.cpp — `zapbench compare A B` (compare.hpp): the figures of
// two runs paired, each kind's yardstick, our figures judged against it, the
// exact figures, the text and the gate.
#include "report/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "report/document.hpp"
#include "report/findings.hpp"

namespace report {
namespace {

constexpr double kConfidence = 0.95;
constexpr double kPower = 0.80;  // of the resolution: the change found 4 times in 5

bool usable(const Cell& c) { return c.unavailable.empty() && !c.samples.empty(); }

Role role_of(const Cell& c) {
  return c.arm == matrix::Arm::zapbench || c.arm == matrix::Arm::floor ? Role::ours : Role::reference;
}

Role role_of(const MicroFigure& f) {
  if (f.name.starts_with(kCalibrationMicroPrefix)) return Role::calibration;
  return f.codec.starts_with("go/") ? Role::reference : Role::ours;
}

// Which figures of a run share their rounds' effects (stats::round_effects):
// the end-to-end cells of every arm (a round's slow phase of the machine),
// our microbenchmarks (a `zapbench micro` process per round: its layout moves
// them together), the Go reference's (a process of its own per round). Not
// the calibration: its rows do not share our process's layout (buffers of
// their own mapping, a register loop) and the ping-pong runs at the round's
// start; it stays as measured.
enum class Stream { none, e2e, micro, go_micro };

// One figure of one run: its samples (an exact figure: its one value) and
// their rounds (empty: none recorded).
struct Figure {
  std::string key;
  FigureKind kind;
  Role role;
  std::vector<double> values;
  std::vector<unsigned> rounds = {};
  Stream stream = Stream::none;
};

std::vector<Figure> figures_of(const Results& r) {
  std::vector<Figure> out;
  for (const Cell& c : r.cells) {
    if (!usable(c)) continue;
    const std::string key = c.id();
    const Role role = role_of(c);
    const Samples rate = c.rate(), p99 = c.p99(), cpu = c.server_cpu_per_request_ns(r.config);
    out.push_back({key, FigureKind::requests_per_s, role, rate.values, rate.rounds, Stream::e2e});
    out.push_back({key, FigureKind::p99, role, p99.values, p99.rounds, Stream::e2e});
    if (std::any_of(cpu.values.begin(), cpu.values.end(), [](double v) { return std::isfinite(v) && v > 0; }))
      out.push_back({key, FigureKind::server_cpu, role, cpu.values, cpu.rounds, Stream::e2e});
    if (c.scenario == matrix::Scenario::logs) {
      const Samples mb = c.mb_per_s();
      out.push_back({key, FigureKind::mb_per_s, role, mb.values, mb.rounds, Stream::e2e});
    }
  }
  for (const MicroFigure& f : r.micro.figures) {
    const std::string key = std::string(kMicroKey) + f.name;
    const Role role = role_of(f);
    const Stream stream = role == Role::ours        ? Stream::micro
                          : role == Role::reference ? Stream::go_micro
                                                    : Stream::none;
    out.push_back({key, FigureKind::ns_per_op, role, f.ns_per_op.values, f.ns_per_op.rounds, stream});
    if (role == Role::ours && std::isfinite(f.allocs_per_op))
      out.push_back({key, FigureKind::allocs_per_op, role, {f.allocs_per_op}});
  }
  for (const InstructionFigure& f : r.micro.instructions.figures)
    if (std::isfinite(f.callgrind_ir))
      out.push_back({"instructions/" + f.name, FigureKind::instructions, Role::ours, {f.callgrind_ir}});
  if (!r.calibration.version.empty())
    for (const PingPong& p : r.calibration.ping_pongs) {
      const std::string key = "calibration/ping-pong/d" + std::to_string(p.depth);
      out.push_back({key, FigureKind::requests_per_s, Role::calibration, p.round_trips_per_s.values});
      out.push_back({key, FigureKind::p99, Role::calibration, p.p99_ns.values});
      out.push_back({key, FigureKind::server_cpu, Role::calibration, p.server_cpu_ns.values});
    }
  return out;
}

std::string pair_key(const std::string& key, FigureKind k) { return key + "|" + std::string(to_string(k)); }

// The kind whose yardstick judges a kind: MB/s is requests/s times a
// response's fixed size, so the machine moves it as it moves requests/s.
FigureKind yardstick_kind(FigureKind k) { return k == FigureKind::mb_per_s ? FigureKind::requests_per_s : k; }

// Removes from each figure of a stream its rounds' effects (stats::round_effects,
// per kind; MB/s takes requests/s's); returns each (stream, kind)'s effects'
// spread (their standard deviation, log scale), for the text.
std::map<std::string, double> remove_round_effects(std::vector<Figure>& figures) {
  std::map<std::string, double> spread;
  for (const Stream stream : {Stream::e2e, Stream::micro, Stream::go_micro})
    for (const FigureKind kind :
         {FigureKind::requests_per_s, FigureKind::p99, FigureKind::server_cpu, FigureKind::ns_per_op}) {
      std::vector<stats::RoundSeries> series;
      for (const Figure& f : figures) {
        if (f.stream != stream || f.kind != kind || f.rounds.size() != f.values.size()) continue;
        stats::RoundSeries s;
        for (std::size_t k = 0; k < f.values.size(); ++k)
          if (std::isfinite(f.values[k]) && f.values[k] > 0) {
            s.rounds.push_back(f.rounds[k]);
            s.logs.push_back(std::log(f.values[k]));
          }
        series.push_back(std::move(s));
      }
      if (series.size() < 3) continue;
      const std::map<unsigned, double> effect = stats::round_effects(series);
      double ss = 0;
      for (const auto& [r, e] : effect) ss += e * e;
      if (effect.size() > 1)
        spread[std::string(stream == Stream::e2e     ? "end to end"
                           : stream == Stream::micro ? "micro"
                                                     : "Go micro") +
               ", " + std::string(to_string(kind))] = std::sqrt(ss / double(effect.size() - 1));
      for (Figure& f : figures)
        if (f.stream == stream && yardstick_kind(f.kind) == kind && f.rounds.size() == f.values.size())
          for (std::size_t k = 0; k < f.values.size(); ++k)
            if (const auto it = effect.find(f.rounds[k]); it != effect.end())
              f.values[k] *= std::exp(-it->second);
    }
  return spread;
}

constexpr FigureKind kJudgedKinds[] = {FigureKind::requests_per_s, FigureKind::p99, FigureKind::server_cpu,
                                       FigureKind::ns_per_op};

// A tested figure's or group's verdict: a discovery is a change, which way
// its kind says; else held when the interval lies within ±margin.
Change::Verdict verdict_of(const stats::Judged& j, FigureKind kind, bool discovery, double margin) {
  if (discovery)
    return (j.log_ratio > 0) == (better(kind) == stats::Better::higher) ? Change::Verdict::improved
                                                                        : Change::Verdict::regressed;
  if (j.computed() && j.lo >= 1 - margin && j.hi <= 1 + margin) return Change::Verdict::held;
  return Change::Verdict::undecided;
}

// The group a figure of ours belongs to: its arm's cells, or its op's
// microbenchmarks ("micro Decode", "micro Logs", "micro Server").
std::string group_of(const std::string& key) {
  if (key.starts_with(kMicroKey)) {
    const std::string name = key.substr(kMicroKey.size());
    return "micro " + name.substr(0, name.find('/'));
  }
  if (key.starts_with("instructions/")) return "";
  return key.substr(0, key.find('/')) + " cells";
}

// An exact figure's change: beyond the kind's tolerance, or held.
void judge_exact(Change& c) {
  c.judged.ratio = c.b / c.a;
  const double diff = c.b - c.a;
  const bool beyond = c.kind == FigureKind::allocs_per_op
                          ? std::fabs(diff) > kAllocsPerOpTolerance
                          : std::fabs(diff) > kInstructionRepeatability * std::fabs(c.a);
  c.verdict = !beyond    ? Change::Verdict::held
              : diff > 0 ? Change::Verdict::regressed
                         : Change::Verdict::improved;
}

// The samples a side a figure would need to resolve `threshold`: its own
// variance shrinks with them, the yardstick's does not.
unsigned samples_needed(const Change& c, const Comparison& cmp, double yard_var) {
  const double t = stats::student_central_quantile(1 - cmp.options.fdr, c.judged.df) +
                   stats::student_central_quantile(2 * kPower - 1, c.judged.df);
  const double room = std::pow(std::log1p(cmp.options.threshold) / t, 2) - yard_var;
  if (!(room > 0) || !std::isfinite(c.spread.var)) return 0;
  return unsigned(std::ceil(2 * c.spread.var / room));
}

std::string percent(double v) {
  const double pct = v * 100;
  return doc::fixed(pct, pct < 10 ? 1 : 0) + "%";
}

std::string value_text(FigureKind k, double v) {
  if (!std::isfinite(v)) return "—";
  switch (k) {
    case FigureKind::requests_per_s:
      return doc::grouped(v) + " req/s";
    case FigureKind::mb_per_s:
      return doc::sig(v) + " MB/s";
    case FigureKind::allocs_per_op:
      return doc::fixed(v, v < 10 ? 2 : 1) + " allocs";
    case FigureKind::instructions:
      return doc::grouped(v) + " Ir";
    case FigureKind::p99:
    case FigureKind::server_cpu:
    case FigureKind::ns_per_op:
      break;
  }
  return doc::with_unit(v * 1e-9, "s");
}

std::string ratio_text(double r) { return std::isfinite(r) ? doc::fixed(r, 3) + "×" : "—"; }

std::string interval_text(const stats::Judged& j) {
  if (!j.computed()) return ratio_text(j.ratio);
  return ratio_text(j.ratio) + " (" + doc::fixed(j.lo, 3) + "–" + doc::fixed(j.hi, 3) + ")";
}

}  // namespace

std::string_view to_string(Role r) noexcept {
  switch (r) {
    case Role::ours:
      return "ours";
    case Role::reference:
      return "reference";
    case Role::calibration:
      break;
  }
  return "calibration";
}

std::string_view to_string(FigureKind k) noexcept {
  switch (k) {
    case FigureKind::requests_per_s:
      return "requests/s";
    case FigureKind::p99:
      return "p99";
    case FigureKind::server_cpu:
      return "server CPU/req";
    case FigureKind::mb_per_s:
      return "MB/s";
    case FigureKind::ns_per_op:
      return "ns/op";
    case FigureKind::allocs_per_op:
      return "allocs/op";
    case FigureKind::instructions:
      break;
  }
  return "instructions/req";
}

bool exact(FigureKind k) noexcept { return k == FigureKind::allocs_per_op || k == FigureKind::instructions; }

stats::Better better(FigureKind k) noexcept {
  return k == FigureKind::requests_per_s || k == FigureKind::mb_per_s ? stats::Better::higher
                                                                      : stats::Better::lower;
}

std::string_view to_string(Change::Verdict v) noexcept {
  switch (v) {
    case Change::Verdict::improved:
      return "improved";
    case Change::Verdict::regressed:
      return "regressed";
    case Change::Verdict::held:
      return "held";
    case Change::Verdict::untestable:
      return "untestable";
    case Change::Verdict::undecided:
      break;
  }
  return "undecided";
}

unsigned Comparison::count(Change::Verdict v) const {
  return unsigned(
      std::count_if(changes.begin(), changes.end(), [v](const Change& c) { return c.verdict == v; }));
}

Comparison compare(const Results& a, const Results& b, const CompareOptions& o) {
  Comparison out;
  out.options = o;
  out.calibrated = !a.calibration.version.empty() && a.calibration.version == b.calibration.version;

  // What differs beyond the build.
  if (a.env.cpu_model != b.env.cpu_model || a.env.cpu_count != b.env.cpu_count)
    out.differences.push_back("the machines differ (A: " + a.env.cpu_model + ", " +
                              std::to_string(a.env.cpu_count) + " CPUs; B: " + b.env.cpu_model + ", " +
                              std::to_string(b.env.cpu_count) +
                              " CPUs): the machine's move includes the change of machine");
  if (a.config.duration_s != b.config.duration_s || a.config.warmup_s != b.config.warmup_s)
    out.differences.push_back("the samples differ in length (A: " + doc::sig(a.config.duration_s) +
                              " s after " + doc::sig(a.config.warmup_s) +
                              " s; B: " + doc::sig(b.config.duration_s) + " s after " +
                              doc::sig(b.config.warmup_s) + " s): p99 and the rates depend on it");
  if (a.config.rate_per_s != b.config.rate_per_s) {
    auto loop = [](double rate) {
      return rate > 0 ? "an open loop at " + doc::grouped(rate) + " requests/s"
                      : std::string("a closed loop");
    };
    out.differences.push_back("the load differs (A: " + loop(a.config.rate_per_s) + "; B: " +
                              loop(b.config.rate_per_s) + "): every cell's rate and latency follow it");
  }
  if (a.config.server_cpus != b.config.server_cpus || a.config.loader_cpus != b.config.loader_cpus)
    out.differences.push_back("the server and loader CPUs differ between the runs");
  if (a.env.link != b.env.link)
    out.differences.push_back("the link differs (A: " + (a.env.link.empty() ? "loopback" : a.env.link) +
                              "; B: " + (b.env.link.empty() ? "loopback" : b.env.link) + ")");
  if (!out.calibrated) {
    if (a.calibration.version.empty() || b.calibration.version.empty())
      out.differences.push_back(std::string(a.calibration.version.empty() && b.calibration.version.empty()
                                                ? "neither run has"
                                            : a.calibration.version.empty() ? "A has no"
                                                                            : "B has no") +
                                " calibration (a results.json from before it): the machine's move is "
                                "estimated by the rule of earlier versions, from every figure of a kind, "
                                "ours included, so a change to our whole build is divided out as if the "
                                "machine had moved");
    else
      out.differences.push_back("the calibration differs (A: version " + a.calibration.version +
                                ", B: version " + b.calibration.version +
                                "): it is no yardstick across them; the rule of earlier versions instead");
  }
  for (const auto& [name, r] : {std::pair{"A", &a}, std::pair{"B", &b}})
    if (!r->interrupted.empty())
      out.differences.push_back(std::string(name) + " was interrupted (" + r->interrupted +
                                "): only what it measured is compared");

  // The figures, each run's rounds' effects removed, paired.
  std::vector<Figure> fa = figures_of(a), fb = figures_of(b);
  if (o.round_effects) {
    out.round_effects_a = remove_round_effects(fa);
    out.round_effects_b = remove_round_effects(fb);
  }
  std::map<std::string, const Figure*> in_b;
  for (const Figure& f : fb) in_b.emplace(pair_key(f.key, f.kind), &f);
  std::set<std::string> seen, keys_a, keys_b;
  struct Pair {
    const Figure* a;
    const Figure* b;
    stats::LogSample la, lb;
  };
  std::vector<Pair> pairs;
  for (const Figure& f : fa) {
    keys_a.insert(f.key);
    if (!seen.insert(pair_key(f.key, f.kind)).second) continue;
    const auto it = in_b.find(pair_key(f.key, f.kind));
    if (it == in_b.end()) continue;
    pairs.push_back({&f, it->second, stats::log_sample(f.values), stats::log_sample(it->second->values)});
  }
  for (const Figure& f : fb) keys_b.insert(f.key);
  for (const std::string& k : keys_a)
    if (!keys_b.count(k)) out.only_in_a.push_back(k);
  for (const std::string& k : keys_b)
    if (!keys_a.count(k)) out.only_in_b.push_back(k);

  // The figures the findings rest on, of either run.
  std::set<std::string> finding_keys;
  for (const Results* r : {&a, &b})
    for (const Finding& f : findings(*r)) {
      const FigureKind kind = f.unit == Finding::Unit::ns               ? FigureKind::ns_per_op
                              : f.unit == Finding::Unit::requests_per_s ? FigureKind::requests_per_s
                              : f.unit == Finding::Unit::cpu_ns         ? FigureKind::server_cpu
                                                                        : FigureKind::mb_per_s;
      for (const std::string& k : f.keys) finding_keys.insert(pair_key(k, kind));
    }

  // Each kind's prior of the within-run variance, over every figure of it.
  std::map<FigureKind, stats::VariancePrior> prior;
  {
    std::map<FigureKind, std::vector<stats::Spread>> spreads;
    for (const Pair& p : pairs)
      if (!exact(p.a->kind)) spreads[p.a->kind].push_back(stats::pooled(p.la, p.lb));
    for (const auto& [kind, s] : spreads) prior[kind] = stats::fit_prior(s);
  }
  std::vector<Change> all;
  for (const Pair& p : pairs) {
    Change c;
    c.key = p.a->key;
    c.kind = p.a->kind;
    c.role = p.a->role;
    c.finding = finding_keys.count(pair_key(c.key, c.kind)) > 0;
    c.a = std::exp(p.la.mean);
    c.b = std::exp(p.lb.mean);
    c.samples_a = p.la.n;
    c.samples_b = p.lb.n;
    if (exact(c.kind)) {
      if (p.la.n == 0 || p.lb.n == 0 || !(c.a > 0)) {
        // An exact count of 0 (no allocation): its log is no use; compared as counts.
        c.a = p.a->values.empty() ? NAN : p.a->values[0];
        c.b = p.b->values.empty() ? NAN : p.b->values[0];
      }
      if (std::isfinite(c.a) && std::isfinite(c.b) && c.a >= 0 && c.b >= 0) {
        judge_exact(c);
      } else {
        c.verdict = Change::Verdict::untestable;
        c.why = "not a count on one side";
      }
    } else if (p.la.n < kMinCompareSamples || p.lb.n < kMinCompareSamples) {
      c.verdict = Change::Verdict::untestable;
      c.why = std::to_string(p.la.n) + " sample" + (p.la.n == 1 ? "" : "s") + " in A, " +
              std::to_string(p.lb.n) + " in B: a test needs " + std::to_string(kMinCompareSamples) +
              " a side (more rounds: --repeats, --micro-repetitions)";
    } else {
      c.spread = stats::moderated(stats::pooled(p.la, p.lb), prior[c.kind]);
      if (!(c.spread.df > 0)) {
        c.verdict = Change::Verdict::untestable;
        c.why = "no spread to judge it by (every sample equal, and no other figure of its kind has one)";
      }
    }
    all.push_back(std::move(c));
  }

  // Each kind's yardstick: the independent figures' moves combined; with no
  // common calibration (or none of a kind), every figure's.
  std::map<FigureKind, Yardstick> yard;
  for (const FigureKind kind : kJudgedKinds) {
    Yardstick y;
    y.kind = kind;
    std::vector<stats::Move> independent, every;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const Change& c = all[i];
      if (c.kind != kind || c.verdict == Change::Verdict::untestable) continue;
      const stats::Move m = stats::move(pairs[i].la, pairs[i].lb, c.spread);
      every.push_back(m);
      if (c.role == Role::ours) {
        ++y.our_figures;
      } else {
        independent.push_back(m);
        ++(c.role == Role::reference ? y.reference_figures : y.calibration_figures);
      }
    }
    y.independent = out.calibrated && !independent.empty();
    if (!y.independent) y.reference_figures = y.calibration_figures = 0;
    if (y.independent) y.our_figures = 0;
    y.move = stats::combine(y.independent ? independent : every);
    if (y.move.figures > 0) {
      y.judged = stats::judge(y.move.mean, stats::Combined{}, kConfidence);
      y.verdict = stats::decide(y.judged.lo, y.judged.hi, stats::Better::higher, o.margin);
      yard[kind] = y;
      out.machine.push_back(y);
    }
  }

  // Our figures judged against their kind's yardstick; the references' and the calibration's against 1.
  std::vector<std::size_t> tested;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    Change& c = all[i];
    if (exact(c.kind) || c.verdict == Change::Verdict::untestable) continue;
    c.move = stats::move(pairs[i].la, pairs[i].lb, c.spread);
    const auto y = yard.find(yardstick_kind(c.kind));
    const bool against = c.role == Role::ours && !o.absolute && y != yard.end();
    c.judged = stats::judge(c.move, against ? y->second.move : stats::Combined{}, kConfidence);
    if (c.role != Role::ours) {
      c.verdict =
          stats::decide(c.judged.lo, c.judged.hi, better(c.kind), o.margin) == stats::Verdict::equivalent
              ? Change::Verdict::held
              : Change::Verdict::undecided;
      continue;
    }
    c.resolution = stats::resolution(c.judged, o.fdr, kPower);
    if (c.resolution > o.threshold) {
      const double yard_var = against ? y->second.move.mean.var + y->second.move.tau2 : 0;
      c.samples_needed = samples_needed(c, out, yard_var);
    }
    tested.push_back(i);
  }
  // Two families, each with its own false-discovery rate: the figures the
  // findings rest on, and the rest.
  for (const bool finding : {true, false}) {
    std::vector<double> p;
    std::vector<std::size_t> family;
    for (std::size_t i : tested)
      if (all[i].finding == finding) {
        p.push_back(all[i].judged.p);
        family.push_back(i);
      }
    const std::vector<bool> discovery = stats::benjamini_hochberg(p, o.fdr);
    for (std::size_t t = 0; t < family.size(); ++t)
      all[family[t]].verdict = verdict_of(all[family[t]].judged, all[family[t]].kind, discovery[t], o.margin);
  }

  // The groups: each one's figures' moves combined, judged against the machine; a family of their own.
  std::map<std::pair<std::string, FigureKind>, std::vector<stats::Move>> members;
  for (std::size_t i : tested) {
    const std::string g = group_of(all[i].key);
    if (!g.empty()) members[{g, all[i].kind}].push_back(all[i].move);
  }
  std::vector<double> gp;
  for (const auto& [id, moves] : members) {
    if (moves.size() < 3) continue;
    Group g;
    g.name = id.first;
    g.kind = id.second;
    g.move = stats::combine(moves);
    const auto y = yard.find(yardstick_kind(g.kind));
    g.judged = stats::judge(g.move.mean, !o.absolute && y != yard.end() ? y->second.move : stats::Combined{},
                            kConfidence);
    gp.push_back(g.judged.p);
    out.groups.push_back(std::move(g));
  }
  const std::vector<bool> group_discovery = stats::benjamini_hochberg(gp, o.fdr);
  for (std::size_t k = 0; k < out.groups.size(); ++k)
    out.groups[k].verdict =
        verdict_of(out.groups[k].judged, out.groups[k].kind, group_discovery[k], o.margin);
  for (Change& c : all) (c.role == Role::ours ? out.changes : out.yardstick).push_back(std::move(c));
  return out;
}

GateFailures gate_failures(const Comparison& c) {
  GateFailures out;
  const double t = c.options.threshold;
  auto beyond = [t](FigureKind kind, double ratio) {
    return better(kind) == stats::Better::higher ? ratio < 1 - t : ratio > 1 + t;
  };
  for (const Change& ch : c.changes) {
    if (ch.verdict != Change::Verdict::regressed) continue;
    if (ch.kind == FigureKind::allocs_per_op
            ? ch.b - ch.a > kAllocsPerOpTolerance && (ch.a == 0 || ch.b > ch.a * (1 + t))
            : beyond(ch.kind, ch.judged.ratio))
      out.figures.push_back(&ch);
  }
  for (const Group& g : c.groups)
    if (g.verdict == Change::Verdict::regressed && beyond(g.kind, g.judged.ratio)) out.groups.push_back(&g);
  return out;
}

namespace {

std::vector<doc::Text> row(const Change& c, bool ours) {
  std::string verdict(to_string(c.verdict));
  if (!c.why.empty()) verdict += ": " + c.why;
  std::string p = "—";
  if (std::isfinite(c.judged.p)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", c.judged.p);
    p = buf;
  }
  std::string judged = "—", resolves = "—";
  if (c.verdict != Change::Verdict::untestable) {
    judged = exact(c.kind) ? ratio_text(c.judged.ratio) + " (exact)" : interval_text(c.judged);
    if (std::isfinite(c.resolution)) resolves = "±" + percent(c.resolution);
  }
  std::vector<doc::Text> r = {c.key,
                              std::string(to_string(c.kind)),
                              value_text(c.kind, c.a),
                              value_text(c.kind, c.b),
                              ratio_text(c.raw_ratio()),
                              judged,
                              p};
  if (ours) r.push_back(resolves);
  r.push_back(verdict);
  return r;
}

doc::Table groups_table(const std::vector<Group>& groups, const char* first) {
  doc::Table t{
      {first, "kind", "figures", "B ÷ A", "judged (95% interval)", "p", "uneven", "verdict"}, "llrrrrrl", {}};
  for (const Group& g : groups) {
    std::string p = "—";
    if (std::isfinite(g.judged.p)) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2g", g.judged.p);
      p = buf;
    }
    t.rows.push_back({g.name, std::string(to_string(g.kind)), std::to_string(g.move.figures),
                      ratio_text(std::exp(g.move.mean.log_ratio)), interval_text(g.judged), p,
                      g.move.tau2 > 0 ? "±" + percent(std::expm1(std::sqrt(g.move.tau2))) : "—",
                      std::string(to_string(g.verdict))});
  }
  return t;
}

std::string machine_line(const Yardstick& y, const CompareOptions& o) {
  std::string s = ratio_text(y.judged.ratio);
  if (y.judged.computed()) s += " (" + doc::fixed(y.judged.lo, 3) + "–" + doc::fixed(y.judged.hi, 3) + ")";
  s += y.moved()                                 ? "  moved"
       : y.verdict == stats::Verdict::equivalent ? "  held (within ±" + percent(o.margin) + ")"
                                                 : "  undecided";
  s += ", over " + std::to_string(y.move.figures) + " figures";
  if (y.independent)
    s += " (" + std::to_string(y.reference_figures) + " of the references, " +
         std::to_string(y.calibration_figures) + " of the calibration)";
  else
    s += " (every figure of the kind, " + std::to_string(y.our_figures) +
         " of ours: the rule of earlier versions)";
  if (y.move.tau2 > 0) s += "; uneven by ±" + percent(std::expm1(std::sqrt(y.move.tau2)));
  return s;
}

}  // namespace

std::string compare_text(const Comparison& c, bool gate) {
  const CompareOptions& o = c.options;
  std::string out =
      "A, B: the geometric mean of each run's samples (exact figures: the count); B ÷ A their ratio; " +
      std::string(o.absolute
                      ? "judged: B ÷ A with its 95% interval, against 1 (--absolute)"
                      : "judged: B ÷ A ÷ the\nmachine's move of its kind (below), with its 95% interval") +
      "; p: its two-sided test (t on the log samples, the\nvariance moderated over the figures of its kind); "
      "resolves: the smallest change it finds 4 times in 5.\nBenjamini–Hochberg holds the false-discovery "
      "rate "
      "of our figures' tests at " +
      percent(o.fdr) + ". improved / regressed: a discovery;\nheld: the interval within ±" +
      percent(o.margin) +
      "; undecided: neither. Exact figures (allocations per op, instructions per\nrequest) change when they "
      "differ "
      "beyond what repeats of one build give.\n\n";

  out += std::string("The machine") +
         (c.calibrated
              ? " (the yardstick: the reference arms' and the calibration's figures, which no change to "
                "this\nrepository moves)"
              : " (no calibration common to both runs: the rule of earlier versions)") +
         ":\n";
  if (c.machine.empty()) out += "  no figure to estimate it from: our figures are judged against 1\n";
  for (const Yardstick& y : c.machine) {
    out += "  " + std::string(to_string(y.kind)) + ": " + machine_line(y, o) + "\n";
    if (y.kind == FigureKind::requests_per_s)
      out += "  MB/s: as requests/s (a response's size times the rate)\n";
  }

  if (!c.round_effects_a.empty() || !c.round_effects_b.empty()) {
    out +=
        "\nWithin each run, each round's effect on the figures measured in it (a slow phase of the machine,\n"
        "a microbenchmark process's layout) removed first; how much the rounds moved them (sd):\n";
    for (const auto& [name, fx] : {std::pair{"A", &c.round_effects_a}, std::pair{"B", &c.round_effects_b}}) {
      out += "  " + std::string(name) + ":";
      bool first = true;
      for (const auto& [what, sd] : *fx) {
        out += std::string(first ? " " : "; ") + what + " ±" + percent(std::expm1(sd));
        first = false;
      }
      out += first ? " no rounds recorded\n" : "\n";
    }
  } else if (!o.round_effects) {
    out += "\nEach figure's samples as measured (--no-round-effects).\n";
  }

  doc::Table ours{
      {"our figure", "kind", "A", "B", "B ÷ A", "judged (95% interval)", "p", "resolves", "verdict"},
      "llrrrrrrl",
      {}};
  for (const Change& ch : c.changes) ours.rows.push_back(row(ch, true));
  out += "\nOur figures (" + std::to_string(c.changes.size()) + "):\n" + doc::text_table(ours);
  if (!c.groups.empty()) {
    out +=
        "\nOur figures by group (an arm's cells, an op's microbenchmarks): their moves combined (random\n"
        "effects), judged like one figure; a family of tests of their own:\n";
    out += doc::text_table(groups_table(c.groups, "group"));
  }
  if (!c.yardstick.empty()) {
    doc::Table yt{{"yardstick figure", "kind", "A", "B", "B ÷ A", "against 1 (95% interval)", "p", "verdict"},
                  "llrrrrrl",
                  {}};
    for (const Change& ch : c.yardstick) yt.rows.push_back(row(ch, false));
    out += "\nThe references' and the calibration's figures (" + std::to_string(c.yardstick.size()) +
           "), each against 1:\n" + doc::text_table(yt);
  }
  for (const auto& [title, keys] :
       {std::pair{"Only in A", &c.only_in_a}, std::pair{"Only in B", &c.only_in_b}}) {
    if (keys->empty()) continue;
    out += "\n" + std::string(title) + " (" + std::to_string(keys->size()) + ", not compared):\n";
    for (const std::string& k : *keys) out += "  " + k + "\n";
  }
  if (!c.differences.empty()) {
    out += "\nWhat differs between the runs besides the build:\n";
    for (const std::string& d : c.differences) out += "  - " + d + "\n";
  }

  // The summary: what moved.
  const unsigned improved = c.count(Change::Verdict::improved),
                 regressed = c.count(Change::Verdict::regressed);
  const unsigned untestable = c.count(Change::Verdict::untestable);
  std::vector<const Group*> moved_groups;
  for (const Group& g : c.groups)
    if (g.verdict == Change::Verdict::improved || g.verdict == Change::Verdict::regressed)
      moved_groups.push_back(&g);
  const bool build = improved + regressed > 0 || !moved_groups.empty();
  std::vector<const Yardstick*> moved;
  for (const Yardstick& y : c.machine)
    if (y.moved()) moved.push_back(&y);
  const bool machine = !moved.empty() && c.calibrated;
  out += "\nSummary: " + std::to_string(c.changes.size()) +
         " figures of ours: " + std::to_string(improved + regressed) + " changed (" +
         std::to_string(improved) + " improved, " + std::to_string(regressed) + " regressed), " +
         std::to_string(c.count(Change::Verdict::held)) + " held, " +
         std::to_string(c.count(Change::Verdict::undecided)) + " undecided, " + std::to_string(untestable) +
         " untestable.\n";
  if (o.absolute)
    out += build ? "  Judged against 1 (--absolute): figures or groups of ours moved; the machine's move is "
                   "not divided\n"
                   "  out, so they may be its.\n"
                 : "  Judged against 1 (--absolute): no figure or group of ours moved.\n";
  else if (!c.calibrated)
    out +=
        "  Without a common calibration the machine and the build cannot be told apart: a change of the "
        "whole\n"
        "  build reads as the machine's move.\n";
  else if (build && machine)
    out +=
        "  Both moved: the machine (the yardstick moved) and the build (figures or groups of ours moved\n"
        "  beyond it).\n";
  else if (build)
    out +=
        "  The build moved: figures or groups of ours changed while the yardstick held or stayed "
        "undecided.\n";
  else if (machine)
    out += "  The machine moved: the yardstick moved, and no figure or group of ours moved beyond it.\n";
  else
    out += "  Neither moved beyond what these samples resolve.\n";
  for (const Group* g : moved_groups)
    out += "  " + std::string(to_string(g->verdict)) + ": " + g->name + ", " +
           std::string(to_string(g->kind)) + " (" + std::to_string(g->move.figures) + " figures) " +
           interval_text(g->judged) + (o.absolute ? "" : " against the machine") + "\n";
  for (const Yardstick* y : moved)
    out +=
        "  The machine's move, " + std::string(to_string(y->kind)) + ": " + interval_text(y->judged) + "\n";

  // Power where it matters: the figures the findings rest on.
  unsigned on = 0, tested = 0, resolved = 0;
  std::vector<const Change*> coarse;
  for (const Change& ch : c.changes) {
    if (!ch.finding) continue;
    ++on;
    if (ch.verdict == Change::Verdict::untestable) continue;
    ++tested;
    if (ch.resolution <= o.threshold)
      ++resolved;
    else
      coarse.push_back(&ch);
  }
  if (on > 0) {
    out += "  The findings rest on " + std::to_string(on) + " of these figures: " + std::to_string(tested) +
           " tested, " + std::to_string(resolved) + " resolve a change of " + percent(o.threshold) + ".\n";
    constexpr std::size_t kListed = 10;
    if (coarse.size() > kListed)
      out += "    (the " + std::to_string(kListed) + " coarsest of " + std::to_string(coarse.size()) +
             "; every figure's resolution is in its row)\n";
    std::sort(coarse.begin(), coarse.end(),
              [](const Change* x, const Change* y) { return x->resolution > y->resolution; });
    coarse.resize(std::min(coarse.size(), kListed));
    for (const Change* ch : coarse)
      out += "    " + ch->key + " " + std::string(to_string(ch->kind)) + " resolves ±" +
             percent(ch->resolution) +
             (ch->samples_needed > 0
                  ? ": " + std::to_string(ch->samples_needed) + " samples a side would resolve " +
                        percent(o.threshold)
                  : ": no number of samples of its own would (the yardstick's uncertainty is wider)") +
             "\n";
  }

  if (!gate) return out;
  const GateFailures failures = gate_failures(c);
  if (!failures.any()) {
    out += "\ngate: pass — no figure or group of ours regressed by more than " + percent(o.threshold) +
           (o.absolute ? "" : " against the machine's move") + " (" + std::to_string(regressed) +
           " figures regressed by less).\n";
    return out;
  }
  const std::size_t n = failures.figures.size() + failures.groups.size();
  out += "\ngate: FAIL — " + std::to_string(n) + (n == 1 ? " regression" : " regressions") +
         " of ours beyond " + percent(o.threshold) + (o.absolute ? "" : " against the machine's move") +
         ":\n";
  if (!failures.groups.empty()) {
    std::vector<Group> groups;
    for (const Group* g : failures.groups) groups.push_back(*g);
    out += doc::text_table(groups_table(groups, "regressed group"));
  }
  if (!failures.figures.empty()) {
    doc::Table t{
        {"regressed", "kind", "A", "B", "B ÷ A", "judged (95% interval)", "p", "resolves", "verdict"},
        "llrrrrrrl",
        {}};
    for (const Change* ch : failures.figures) t.rows.push_back(row(*ch, true));
    out += doc::text_table(t);
  }
  return out;
}

}  // namespace report
