// report/published.hpp — the figures the Go reference published for its own
// stack (../shared/design/reference.md), as data: the report quotes them
// beside this run's Go rows (doc_go.cpp) for orientation only, since they
// come from another machine. A new published figure is a row here.
#pragma once

namespace report::doc {

// What the Go reference published for its own stack (../shared/design/reference.md):
// GB10 arm64, go1.26, median of 3 — another machine, quoted for orientation only.
struct Published {
  const char* codec;  // our row name
  const char* op;
  const char* figure;
};
constexpr Published kPublished[] = {
    {"go/zap", "Decode", "13.4 ns, 0 allocs"},
    {"go/zap", "Encode", "629 ns, 12 allocs"},
    {"go/zap", "Serde", "648 ns"},
    {"go/zap", "Handler", "271 ns, 5 allocs"},
    {"go/goccy", "Decode", "473 ns, 4 allocs"},
    {"go/goccy", "Encode", "424 ns, 4 allocs"},
    {"go/goccy", "Serde", "904 ns"},
    {"go/goccy", "Handler", "431 ns, 4 allocs"},
    {"go/sonic", "Decode", "845 ns, 8 allocs"},
    {"go/sonic", "Serde", "1,509 ns"},
    {"go/sonic", "Handler", "736 ns, 7 allocs"},
    {"go/stdlib", "Decode", "2,334 ns, 13 allocs"},
    {"go/stdlib", "Serde", "3,107 ns"},
    {"go/stdlib", "Handler", "1,444 ns, 9 allocs"},
};

}  // namespace report::doc
