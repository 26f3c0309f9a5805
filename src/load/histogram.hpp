// load/histogram.hpp — the load generator's latency histogram: every request is
// recorded (no sampling) into a fixed log-linear bucket array, one histogram per
// thread, merged after join. It owns the bucket layout, the exact totals and the
// percentile convention; it does not own JSON (the report component writes
// for_each_bucket() + totals() and rebuilds with add_bucket() + restore_totals()).
//
// Layout (HdrHistogram-like, written from scratch): values 0..4095 ns get one
// bucket each (exact). Above that, every power of two [2^k, 2^(k+1)) is split
// into 2048 equal buckets of width 2^(k-11). So a bucket holding value v is at
// most v/2048 wide: the stated bound is
//
//     high_ns - low_ns + 1 <= max(1, v / 2048)   for every v in [low_ns, high_ns],
//
// i.e. relative error < 1/2048 (0.049%, better than 3 significant decimal digits;
// HdrHistogram's "3 digits" is 1/1024). Range 0 .. kHighestTrackableNs = 2^42 - 1
// ns (73.3 min); larger values are clamped to it and counted in overflow_count().
// Storage: kBucketCount = 65536 u64 counters (512 KiB), allocated once in the
// constructor; record() never allocates and uses no floating point.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace load {

class Histogram {
 public:
  // Exact sums need more than 64 bits: 2^64 ns is only 584 years of summed
  // latency (~1.8e10 requests at 1 ms), and squares of 2^42 are 2^84.
  __extension__ using u128 = unsigned __int128;

  // Values 0..kLinearLimit-1 are exact; above, 2^(kSubBucketBits-1) = 2048 buckets per octave.
  static constexpr unsigned kSubBucketBits = 12;
  static constexpr std::uint64_t kLinearLimit = std::uint64_t{1} << kSubBucketBits;  // 4096 ns
  static constexpr std::uint64_t kHalfLinear = kLinearLimit / 2;                     // 2048
  // The largest value kept as itself (2^42 - 1 ns = 4398 s > 1 hour).
  static constexpr unsigned kRangeBits = 42;
  static constexpr std::uint64_t kHighestTrackableNs = (std::uint64_t{1} << kRangeBits) - 1;
  // The linear octave pair below 4096, then 2048 buckets per octave up to 2^kRangeBits.
  static constexpr std::size_t kBucketCount = std::size_t{kRangeBits - kSubBucketBits + 2}
                                              << (kSubBucketBits - 1);  // 65536
  // Bucket widths never exceed value / kPrecisionDivisor (see the file comment).
  static constexpr std::uint64_t kPrecisionDivisor = kHalfLinear;

  // The inclusive value range [low_ns, high_ns] one bucket stands for.
  struct Bucket {
    std::uint64_t low_ns;
    std::uint64_t high_ns;
    bool operator==(const Bucket&) const = default;
  };

  // Index of the bucket holding value_ns (clamped to kHighestTrackableNs).
  // Branch-free apart from the clamp: OR-ing in the linear range's bits makes
  // shift 0 for every value below 4096, so one formula covers both regions.
  static constexpr std::size_t bucket_index(std::uint64_t value_ns) noexcept {
    value_ns = std::min(value_ns, kHighestTrackableNs);
    const unsigned shift =
        static_cast<unsigned>(std::bit_width(value_ns | (kLinearLimit - 1))) - kSubBucketBits;
    return (std::size_t{shift} << (kSubBucketBits - 1)) + static_cast<std::size_t>(value_ns >> shift);
  }

  // Bounds of bucket `index` (< kBucketCount); the inverse of bucket_index.
  static constexpr Bucket bucket_at(std::size_t index) noexcept {
    const std::size_t octave = index >> (kSubBucketBits - 1);
    const unsigned shift = static_cast<unsigned>(std::max<std::size_t>(octave, 1) - 1);
    const std::uint64_t sub = index - (std::size_t{shift} << (kSubBucketBits - 1));
    const std::uint64_t low_ns = sub << shift;
    return {low_ns, low_ns + (std::uint64_t{1} << shift) - 1};
  }
  static constexpr Bucket bucket_of(std::uint64_t value_ns) noexcept {
    return bucket_at(bucket_index(value_ns));
  }

  // The exact totals, which buckets alone cannot give back. Serialise them next
  // to the buckets so a rebuilt histogram (and any merge of rebuilt ones) keeps
  // an exact min, max, mean and stdev. Clamped values count as kHighestTrackableNs.
  struct Totals {
    std::uint64_t count = 0;
    std::uint64_t min_ns = 0;  // 0 when empty
    std::uint64_t max_ns = 0;
    u128 sum_ns = 0;
    u128 sum_sq_ns2 = 0;  // exact while < 2^128: ~1.7e13 records at the 2^42 ns ceiling
    std::uint64_t overflow_count = 0;
    bool operator==(const Totals&) const = default;
  };

  // Allocates and zeroes all kBucketCount counters, once.
  Histogram() : counts_(kBucketCount, 0) {}

  // One request took value_ns. O(1): a clamp, a bit_width, two shifts, integer adds.
  void record(std::uint64_t value_ns) noexcept { record(value_ns, 1); }

  // `count` requests each took value_ns; identical to `count` calls of record(value_ns).
  void record(std::uint64_t value_ns, std::uint64_t count) noexcept {
    if (count == 0) return;  // otherwise min/max would move for nothing
    if (value_ns > kHighestTrackableNs) [[unlikely]] {
      overflow_ += count;
      value_ns = kHighestTrackableNs;
    }
    counts_[bucket_index(value_ns)] += count;
    count_ += count;
    sum_ns_ += u128{value_ns} * count;
    sum_sq_ns2_ += u128{value_ns} * value_ns * count;
    min_ns_ = std::min(min_ns_, value_ns);
    max_ns_ = std::max(max_ns_, value_ns);
  }

  // Adds other's recordings to this one: afterwards *this equals a histogram
  // that recorded both streams (buckets and every total). The layout is a
  // compile-time constant, so two Histograms always match; layouts from
  // elsewhere (a JSON file) are checked by add_bucket(). Self-merge doubles.
  void merge(const Histogram& other) noexcept {
    if (other.count_ == 0) return;
    const std::size_t first = bucket_index(other.min_ns_), last = bucket_index(other.max_ns_);
    for (std::size_t i = first; i <= last; ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    sum_ns_ += other.sum_ns_;
    sum_sq_ns2_ += other.sum_sq_ns2_;
    min_ns_ = std::min(min_ns_, other.min_ns_);
    max_ns_ = std::max(max_ns_, other.max_ns_);
    overflow_ += other.overflow_;
  }

  // Back to empty, keeping the storage.
  void reset() noexcept {
    std::fill(counts_.begin(), counts_.end(), 0);
    count_ = 0;
    sum_ns_ = sum_sq_ns2_ = 0;
    min_ns_ = kEmptyMin;
    max_ns_ = 0;
    overflow_ = 0;
  }

  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  [[nodiscard]] std::uint64_t min() const noexcept { return count_ == 0 ? 0 : min_ns_; }  // exact; 0 if empty
  [[nodiscard]] std::uint64_t max() const noexcept { return max_ns_; }                    // exact; 0 if empty
  // Requests whose value was above kHighestTrackableNs (recorded as it).
  [[nodiscard]] std::uint64_t overflow_count() const noexcept { return overflow_; }

  // Mean in ns from the exact sum (one rounding to long double); 0 if empty.
  [[nodiscard]] double mean() const noexcept {
    if (count_ == 0) return 0;
    return static_cast<double>(static_cast<long double>(sum_ns_) / static_cast<long double>(count_));
  }

  // Population standard deviation in ns (divides by n, like HdrHistogram), from
  // the exact sum and sum of squares, not bucket midpoints; 0 if empty.
  // sum_sq/n - mean^2 in floating point cancels catastrophically when the
  // spread is small next to the mean, so the deviation from q = floor(mean)
  // is formed in integers first, where it is exact:
  //   with sum = q*n + r:  M = sum((x - q)^2) = sum_sq - n*q^2 - 2*q*r  (0 <= M <= sum_sq)
  //   sum((x - mean)^2) = M - r^2/n
  // Only the last step is floating point, on numbers of the deviation's size.
  [[nodiscard]] double stdev() const noexcept {
    if (count_ == 0) return 0;
    const u128 n = count_;
    const u128 q = sum_ns_ / n, r = sum_ns_ % n;
    const u128 m = sum_sq_ns2_ - n * q * q - 2 * q * r;
    const long double r_ld = static_cast<long double>(r), n_ld = static_cast<long double>(n);
    const long double ss = static_cast<long double>(m) - r_ld * r_ld / n_ld;
    return static_cast<double>(std::sqrt(std::max(ss, 0.0L) / n_ld));
  }

  // The value at percentile p (0..100) in ns, by nearest rank: the rank-th
  // smallest value, rank = ceil(p/100 * count), reported as the highest value
  // of its bucket clamped to max() (HdrHistogram's "highest equivalent"). So a
  // percentile is never below the true value v and exceeds it by less than
  // v/2048 (exact below 4096 ns). p <= 0 (or NaN) gives min(), p >= 100 gives
  // max(), both exact. An empty histogram gives 0 for every p.
  [[nodiscard]] std::uint64_t value_at_percentile(double p) const noexcept {
    if (count_ == 0) return 0;
    if (!(p > 0)) return min_ns_;
    if (p >= 100) return max_ns_;
    // p is read as the decimal it was written as: 99.9 as a double is
    // 99.9000000000000057, which would push ceil(0.999 * 1000) to rank 1000.
    // So a rank within a relative 1e-15 (a few ulps of p) above an integer
    // rounds down to that integer; only a p with more than ~15 significant
    // digits, or more than ~1e15 requests, could land one rank low.
    const long double exact_rank = static_cast<long double>(p) / 100.0L * static_cast<long double>(count_);
    auto rank = static_cast<std::uint64_t>(std::ceil(exact_rank - exact_rank * 1e-15L));
    rank = std::clamp<std::uint64_t>(rank, 1, count_);
    std::uint64_t seen = 0;
    const std::size_t first = bucket_index(min_ns_), last = bucket_index(max_ns_);
    for (std::size_t i = first; i <= last; ++i) {
      seen += counts_[i];
      if (seen >= rank) return std::min(bucket_at(i).high_ns, max_ns_);
    }
    return max_ns_;  // unreachable while the counts sum to count_
  }

  // Calls fn(low_ns, high_ns, count) for every non-empty bucket in ascending
  // order; the range is inclusive. This plus totals() is the serialised form.
  template <class Fn>
  void for_each_bucket(Fn fn) const {
    if (count_ == 0) return;
    const std::size_t first = bucket_index(min_ns_), last = bucket_index(max_ns_);
    for (std::size_t i = first; i <= last; ++i) {
      if (counts_[i] == 0) continue;
      const Bucket b = bucket_at(i);
      fn(b.low_ns, b.high_ns, counts_[i]);
    }
  }

  // Rebuilding from serialised buckets: adds `count` to the bucket whose low
  // bound is low_ns. Returns false (and changes nothing) if low_ns is not a
  // bucket's low bound in this layout, i.e. the data came from another layout.
  // Counts round-trip exactly. Until restore_totals(), the totals are bucket
  // estimates: min/max are the lowest/highest bucket bounds seen, and the sums
  // use each bucket's midpoint, so mean and stdev are right to the precision.
  bool add_bucket(std::uint64_t low_ns, std::uint64_t count) noexcept {
    if (low_ns > kHighestTrackableNs) return false;
    const std::size_t i = bucket_index(low_ns);
    const Bucket b = bucket_at(i);
    if (b.low_ns != low_ns) return false;
    if (count == 0) return true;
    const std::uint64_t mid_ns = b.low_ns + (b.high_ns - b.low_ns) / 2;
    counts_[i] += count;
    count_ += count;
    sum_ns_ += u128{mid_ns} * count;
    sum_sq_ns2_ += u128{mid_ns} * mid_ns * count;
    min_ns_ = std::min(min_ns_, b.low_ns);
    max_ns_ = std::max(max_ns_, b.high_ns);
    return true;
  }

  // The exact totals, to serialise next to the buckets.
  [[nodiscard]] Totals totals() const noexcept {
    return {count_, min(), max_ns_, sum_ns_, sum_sq_ns2_, overflow_};
  }

  // After the add_bucket() calls: replaces the estimated totals with the
  // serialised exact ones. Returns false (and changes nothing) unless they fit
  // the buckets: same count, min in the lowest non-empty bucket, max in the
  // highest, sum within [count*min, count*max], sum of squares within
  // [min*sum, max*sum] and >= sum^2/count, overflow <= the top bucket.
  bool restore_totals(const Totals& t) noexcept {
    if (t.count != count_) return false;
    if (count_ == 0) return t == Totals{};
    if (t.min_ns > t.max_ns || t.max_ns > kHighestTrackableNs) return false;
    std::size_t lowest = 0;
    while (counts_[lowest] == 0) ++lowest;
    std::size_t highest = kBucketCount - 1;
    while (counts_[highest] == 0) --highest;
    if (bucket_index(t.min_ns) != lowest || bucket_index(t.max_ns) != highest) return false;
    if (t.sum_ns < u128{t.min_ns} * count_ || t.sum_ns > u128{t.max_ns} * count_) return false;
    if (t.overflow_count > counts_[kBucketCount - 1]) return false;
    if (t.overflow_count > 0 && t.max_ns != kHighestTrackableNs) return false;
    // Every x in [min, max] has min*x <= x^2 <= max*x, and sum((x - q)^2) >= 0
    // is what stdev() subtracts down to; data breaking these is not a recording.
    const u128 n = count_, q = t.sum_ns / n, r = t.sum_ns % n;
    u128 nqq = 0, low_sq = 0, high_sq = 0;
    if (__builtin_mul_overflow(n * q, q, &nqq) || t.sum_sq_ns2 < nqq || t.sum_sq_ns2 - nqq < 2 * q * r)
      return false;
    if (__builtin_mul_overflow(u128{t.min_ns}, t.sum_ns, &low_sq) || t.sum_sq_ns2 < low_sq) return false;
    if (!__builtin_mul_overflow(u128{t.max_ns}, t.sum_ns, &high_sq) && t.sum_sq_ns2 > high_sq) return false;
    min_ns_ = t.min_ns;
    max_ns_ = t.max_ns;
    sum_ns_ = t.sum_ns;
    sum_sq_ns2_ = t.sum_sq_ns2;
    overflow_ = t.overflow_count;
    return true;
  }

  // Raw count of bucket `index` (< kBucketCount), for tests and tools.
  [[nodiscard]] std::uint64_t count_at(std::size_t index) const noexcept { return counts_[index]; }

  // Same buckets and same totals.
  bool operator==(const Histogram&) const = default;

 private:
  static constexpr std::uint64_t kEmptyMin = std::numeric_limits<std::uint64_t>::max();

  std::vector<std::uint64_t> counts_;  // kBucketCount, sized once, never resized
  std::uint64_t count_ = 0;
  u128 sum_ns_ = 0;
  u128 sum_sq_ns2_ = 0;
  std::uint64_t min_ns_ = kEmptyMin;  // so the first record's std::min needs no branch
  std::uint64_t max_ns_ = 0;
  std::uint64_t overflow_ = 0;
};

static_assert(Histogram::bucket_index(Histogram::kHighestTrackableNs) == Histogram::kBucketCount - 1);
static_assert(Histogram::bucket_at(Histogram::kBucketCount - 1).high_ns == Histogram::kHighestTrackableNs);

}  // namespace load
