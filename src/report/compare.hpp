// report/compare.hpp — `zapbench compare A B`: every figure of two runs,
// judged against a yardstick the change under test cannot move, and the gate
// a CI job uses. The statistics are stats/change.hpp's; which figures exist,
// whose they are and what they are judged against is here.
//   - Whose: ours (zapbench's own server and the floor, every microbenchmark
//     of our code, the request paths' instruction counts); the references
//     (the arms not built from this repository: nginx, grpc++, the Go arms,
//     and the Go reference's microbenchmarks); the calibration (src/calibrate:
//     its microbenchmark rows and the loopback ping-pong, measured in every
//     round, sharing no code with the product).
//   - The yardstick of a kind of figure is made of the references' and the
//     calibration's figures of that kind only: their moves combined
//     (random effects) are the machine's move, with its interval and how
//     unevenly it moved them. Each figure of ours is judged against it
//     (--absolute: against 1). A pair of runs without one calibration in
//     common (results.json from before it) falls back to the rule of earlier
//     versions — the yardstick is every figure of the kind, ours included —
//     and says so.
//   - Exact figures (allocations per op, instructions per request) are no
//     statistics: a difference beyond what repeats of one build give is a
//     change, with both counts.
//   - Within each run first, each round's effect on every figure of it is
//     removed (a slow phase of the machine moves every cell of the round; a
//     microbenchmark process's layout every row of it): no build can move
//     one round apart from another, so this removes noise, never a change.
//   - Many figures: Benjamini–Hochberg at --fdr over each family of tests on
//     its own — the figures the findings rest on (the report's claims: a
//     lone regression among them must stay findable), every other figure of
//     ours, and the groups.
//   - A figure too thin to test says why and what would make it testable; a
//     testable one says the smallest change it resolves.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "report/model.hpp"
#include "stats/change.hpp"

namespace report {

struct CompareOptions {
  double margin = stats::kMethod.margin;  // "held": the interval within 1 ± margin
  double fdr = 0.05;                      // q of Benjamini–Hochberg over the tests of our figures
  // Judge each of our figures against 1, not against the machine's move.
  bool absolute = false;
  // Remove each run's rounds' effects first (stats::round_effects): a slow
  // phase of the machine, or a microbenchmark process's layout, moves every
  // figure of its round; false: each figure's samples as measured.
  bool round_effects = true;
  // The gate's (and the resolution's) change: a regression counts for the
  // gate when its estimate is worse than this (0.05: 5% slower, or 5% more
  // CPU, time, allocations or instructions).
  double threshold = 0.05;
};

// Whose a figure is: what a change to this repository can move (ours), or
// the yardstick (what it cannot).
enum class Role { ours, reference, calibration };
std::string_view to_string(Role r) noexcept;

// The kinds of figure compared. MB/s is compared for the logs cells only
// (elsewhere it is requests/s times a fixed size); allocations and
// instructions are exact.
enum class FigureKind { requests_per_s, p99, server_cpu, mb_per_s, ns_per_op, allocs_per_op, instructions };
std::string_view to_string(FigureKind k) noexcept;  // "requests/s", "p99", "server CPU/req", ...
[[nodiscard]] bool exact(FigureKind k) noexcept;
[[nodiscard]] stats::Better better(FigureKind k) noexcept;

// Two exact counts differ when beyond this: allocations per op by more than
// one allocation in ten ops (the amortized set-up of a benchmark moves them
// by 1e-4 to 2e-3); instructions per request by more than callgrind's
// repeatability, measured (`zapbench instructions`, every request path, on
// the AMD EPYC machine of this project): the same binary, environment and
// request count give the same count to the last digit; another environment
// (its size moves the heap and stack, and libc's paths with them) moved
// nlohmann's paths by up to 0.083%, the others less; 64,000 requests instead
// of 16,000 moved HTTP/2's by up to 0.033%. So 0.1%.
inline constexpr double kAllocsPerOpTolerance = 0.1;
inline constexpr double kInstructionRepeatability = 0.001;

// A figure needs this many samples in each run to be tested.
inline constexpr unsigned kMinCompareSamples = 2;

struct Change {
  enum class Verdict { improved, regressed, held, undecided, untestable };
  std::string key;  // a cell's id, "micro/<name>", "instructions/<name>", "calibration/ping-pong/d1"
  FigureKind kind = FigureKind::requests_per_s;
  Role role = Role::ours;
  bool finding = false;  // a figure a finding of A or of B rests on
  // Each run's figure: the geometric mean of its samples (exact: the value),
  // so that B ÷ A is the ratio of what is printed.
  double a = NAN, b = NAN;
  unsigned samples_a = 0, samples_b = 0;
  stats::Spread spread;         // the within-run variance it is judged with (log scale)
  stats::Move move;             // B ÷ A on the log scale, with that variance (not judged yet)
  stats::Judged judged;         // B ÷ A ÷ the machine's move (--absolute, exact: ÷ 1)
  double resolution = NAN;      // the smallest change it resolves (at --fdr, 80% power); NaN: not tested
  unsigned samples_needed = 0;  // a side, to resolve the threshold; 0: it does, or none would
  Verdict verdict = Verdict::undecided;
  std::string why;  // untestable, or undecided for a reason beyond the interval: why
  [[nodiscard]] double raw_ratio() const { return b / a; }
};
std::string_view to_string(Change::Verdict v) noexcept;

// The machine's move for one kind of figure.
struct Yardstick {
  FigureKind kind = FigureKind::requests_per_s;
  // Made of the references' and the calibration's figures (false: of every
  // figure of the kind, ours included — the fallback of runs without a
  // common calibration — or of no figure at all).
  bool independent = true;
  unsigned reference_figures = 0, calibration_figures = 0, our_figures = 0;
  stats::Combined move;
  stats::Judged judged;                                // the move as a ratio with its interval, against 1
  stats::Verdict verdict = stats::Verdict::undecided;  // equivalent: held; ahead/behind: moved
  [[nodiscard]] bool moved() const {
    return verdict == stats::Verdict::ahead || verdict == stats::Verdict::behind;
  }
};

// A group of our figures that one change of the build would move together —
// an arm's cells (zapbench's server, the floor), an op's microbenchmarks —
// per kind: their moves combined (random effects: the group's mean move and
// how unevenly its figures moved beyond their noise), judged against the
// machine's move like one figure. Where no single figure of a run of 3
// samples can show a 10% regression of our shared server path, the dozens
// of figures that path moves can (the case).
struct Group {
  std::string name;  // "zapbench cells", "floor cells", "micro Decode"
  FigureKind kind = FigureKind::requests_per_s;
  stats::Combined move;  // the figures' B ÷ A combined, the machine not divided out
  stats::Judged judged;  // ÷ the machine's move (--absolute: ÷ 1)
  Change::Verdict verdict = Change::Verdict::undecided;
};

struct Comparison {
  CompareOptions options;
  std::vector<Change> changes;     // ours, every kind
  std::vector<Group> groups;       // ours, by arm or op and kind (at least 3 figures each)
  std::vector<Change> yardstick;   // the references' and the calibration's figures, each against 1
  std::vector<Yardstick> machine;  // per kind of figure judged against one (not the exact kinds)
  bool calibrated = false;         // both runs carry one calibration: the yardstick is independent
  // Each run's rounds' effects removed: their spread (standard deviation, log
  // scale) per stream and kind, "end to end, requests/s" -> 0.08.
  std::map<std::string, double> round_effects_a, round_effects_b;
  std::vector<std::string> only_in_a, only_in_b;
  // What differs between the runs beyond the build (machines, settings, the
  // calibration's version), in words.
  std::vector<std::string> differences;
  [[nodiscard]] unsigned count(Change::Verdict v) const;
};

Comparison compare(const Results& a, const Results& b, const CompareOptions& o = {});

// The regressions the gate fails on: our figures and groups regressed
// (decided, against the machine's move) by more than the threshold; an
// allocation per op more, whatever the threshold.
struct GateFailures {
  std::vector<const Change*> figures;
  std::vector<const Group*> groups;
  [[nodiscard]] bool any() const { return !figures.empty() || !groups.empty(); }
};
GateFailures gate_failures(const Comparison& c);

// What `zapbench compare` prints: the machine's move, every figure of ours,
// the yardstick's figures, what could not be compared, the summary; with
// `gate`, the gate's verdict and the offending figures last.
std::string compare_text(const Comparison& c, bool gate = false);

}  // namespace report
