// stats/modes.hpp — whether a figure's values (one per round) fall in
// separate modes, and which values fall in which: the machine changed state
// mid-run (every round from some point on slower), or each process's code
// layout put a figure on one of two levels. One median of such a figure
// describes none of its rounds, so the report names the modes instead
// (report/paired_figures.hpp). Numbers only: indices into the values, never
// rounds or cells.
//
// The rule, on the logarithms of the values, sorted: cut them at the gaps
// between neighbours, the widest first, skipping a cut that would leave a
// mode of fewer than max(3, 15% of the values). After each cut, the values
// fall in separate modes when every cut so far is at least 4 standard
// deviations within the modes (pooled) and at least 3% wide; the modes are
// those of the most cuts that pass (two levels take one cut, three two: the
// widest cut alone may fail while a third level still inflates the spread on
// its side, and pass once that level is cut off too). Why each part:
//   - a mode is at least 3 values and 15% of them: a round disturbed by a
//     neighbour's burst (30% slow, and so far from the rest) is one value, and
//     two of them in 17 rounds are still not a level the machine was in;
//   - the gap is measured against the spread within the modes, so the rule
//     means the same at this machine's 1% (microbenchmarks) and 5–7% (end to
//     end) round-to-round noise; one mode with normal noise on the log scale
//     leaves a gap of 4 standard deviations between neighbours inside it
//     rarely (tests/stats/stats_modes_test.cpp measures how rarely, and how
//     often two real modes are found);
//   - 3% at least: modes closer than the report's margin of equivalence would
//     not change how a figure reads.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace stats {

struct ModeRule {
  unsigned min_values = 3;  // a mode holds at least this many values
  double min_share = 0.15;  // and at least this share of them all
  double min_gap_sds = 4;   // the gap between modes, in standard deviations within them (log scale)
  double min_gap = 0.03;    // and at least this step between the neighbours either side of it (3%)
};
inline constexpr ModeRule kModeRule{};

// The values' modes in increasing order of value, each the indices (into
// values, ascending) of the values in it: one mode holding every usable value
// when they do not fall in separate ones; none when no value is usable.
// Values that are not finite and positive (failed samples) are in none.
std::vector<std::vector<std::size_t>> modes(std::span<const double> values, const ModeRule& rule = kModeRule);

}  // namespace stats
