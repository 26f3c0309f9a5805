// stats/rng.hpp — the seeded random numbers of the statistics: the bootstrap's
// resampling and the tests' synthetic data. SplitMix64 and an index drawn
// without modulo bias (Lemire's method), written here rather than taken from
// <random>, whose distributions differ between standard libraries: a report
// re-rendered anywhere from the same results.json must print the same
// interval. Not for anything secret.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string_view>

namespace stats {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}

  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), n > 0.
  std::uint32_t below(std::uint32_t n) noexcept {
    std::uint64_t m = std::uint64_t(std::uint32_t(next() >> 32)) * n;
    auto low = std::uint32_t(m);
    if (low < n) {
      const std::uint32_t threshold = std::uint32_t(-n) % n;
      while (low < threshold) {
        m = std::uint64_t(std::uint32_t(next() >> 32)) * n;
        low = std::uint32_t(m);
      }
    }
    return std::uint32_t(m >> 32);
  }

  // Uniform in [0, 1), 53 bits.
  double uniform() noexcept { return double(next() >> 11) * 0x1.0p-53; }

  // Standard normal (Box–Muller; one of the pair is dropped, for simplicity).
  double normal() noexcept {
    double u = uniform();
    if (u <= 0) u = 0x1.0p-53;
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * uniform());
  }

 private:
  std::uint64_t state_;
};

// A seed from a name (FNV-1a): every comparison seeds its bootstrap from what
// it compares, so its interval does not depend on what else the report holds.
constexpr std::uint64_t seed_of(std::string_view key) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : key) {
    h ^= std::uint8_t(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace stats
