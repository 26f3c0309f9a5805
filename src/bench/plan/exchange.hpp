// bench/plan/exchange.hpp — the floor's byte counts, measured: a moment of a real
// exchange (the project's server and loader, in this process) gives the bytes
// of one request and one response per scenario and framing. The floor echoes
// the smallest of each, so it bounds every arm of its scenario from above.
// Owns this one in-process measurement; every figure of the report is
// measured by child processes instead.
#pragma once

#include <cstdint>

#include "matrix/matrix.hpp"

namespace bench {

// The matrix's axes, as bench spells them (the types are matrix's).
using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

struct ExchangeBytes {
  std::uint32_t request = 0;  // 0: could not be measured
  std::uint32_t response = 0;
};

// The smallest request and the smallest response of any real exchange of
// `scenario` (ZAP bodies; each direction's minimum over HTTP/1.1, ZAP-HTTP,
// ZAP-RPC, HTTP/2 and, for rpc, gRPC: HPACK makes HTTP/2's repeated headers a
// few bytes, so on hello it is often the smallest); for logs, of the exchange
// asking for `logs` logs (ignored by the other scenarios), so the floor
// carries ZAP's byte counts at that N. {0, 0} when any framing answered
// nothing. HTTP/2's figures share its connection's SETTINGS and window
// updates over the moment's answers (docs/spec/http2-grpc.md §4).
ExchangeBytes floor_bytes(Scenario scenario, unsigned logs);

}  // namespace bench
