// report/paired_figures.hpp — what the report prints beside a paired ratio,
// and the modes of a figure's rounds.
//
// A paired ratio (model.hpp, paired()) is the geometric mean of the per-round
// ratios over the rounds both figures have. The two figures printed beside it
// are each side's geometric mean over those same rounds: their quotient is
// then the ratio itself, inside its interval by construction. Not the medians
// of all each side's rounds: a figure that got more rounds than the other
// (a finding's extra rounds) is then summarised over rounds the ratio never
// saw, and the two figures divide to something else (the 46.2 ns
// against 56.7 ns beside 1.75×). Not the medians over the paired rounds
// either: even over the same rounds, the quotient of two medians can fall
// outside a tight interval (a figure whose rounds fall in two modes puts its
// median on one of them, while the ratio weighs both).
//
// A figure whose rounds fall in separate modes (stats/modes.hpp) is named as
// its modes, each with its median and its rounds, wherever the report prints
// it: one number would describe none of its rounds.
#pragma once

#include <vector>

#include "report/model.hpp"

namespace report {

// Two figures restricted to the rounds both have, with a finite positive
// value on each side (what paired() pairs), parallel: subject.rounds ==
// baseline.rounds. Empty when either records no rounds.
struct Paired {
  Samples subject, baseline;
};
Paired paired_rounds(const Samples& subject, const Samples& baseline);

// The geometric mean of s's finite positive values; NaN for none.
double geometric_mean(const Samples& s);

// One mode of a figure's rounds: the median of its values, and its rounds (ascending).
struct Mode {
  double median = NAN;
  std::vector<unsigned> rounds;
};
// s's modes (stats::modes), lowest value first, when its rounds fall in two
// or more separate ones; empty when they fall in one, and for a figure
// without rounds (nothing to name them by).
std::vector<Mode> modes_of(const Samples& s);

// What a table prints beside the paired ratio of subject ÷ baseline.
struct PairedFigures {
  std::vector<unsigned> rounds;  // the rounds the ratio pairs, ascending; empty: none
  // Each side over those rounds: its values (min–max for a chart), its
  // geometric mean and its modes there (empty: one).
  Samples subject, baseline;
  double subject_value = NAN, baseline_value = NAN;
  std::vector<Mode> subject_modes, baseline_modes;
};
// No rounds in common (or none recorded: a run from before verdicts): each
// side's median of all its samples, as the ratio then is, and no modes.
PairedFigures paired_figures(const Samples& subject, const Samples& baseline);

}  // namespace report
