// tests/load/load_histogram_test.cpp — load/histogram.hpp: the bucket layout and its
// precision bound, exact totals, the percentile convention against exact
// order statistics, merge == recording into one, the serialise/rebuild round
// trip, clamping above the range, and zero allocations on the record path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include "load/histogram.hpp"
#include "micro/alloc_counter.hpp"

namespace {

using load::Histogram;
using Totals = Histogram::Totals;

constexpr std::uint64_t kUs = 1000;
constexpr std::uint64_t kMs = 1000 * kUs;
constexpr std::uint64_t kTop = Histogram::kHighestTrackableNs;

static_assert(Histogram::kBucketCount == 65536);
static_assert(Histogram::kHighestTrackableNs >= 3600ull * 1000 * kMs, "must cover an hour");
static_assert(Histogram::bucket_of(0) == Histogram::Bucket{0, 0});
static_assert(Histogram::bucket_of(4095) == Histogram::Bucket{4095, 4095});
static_assert(Histogram::bucket_of(4097) == Histogram::Bucket{4096, 4097});
static_assert(Histogram::bucket_at(Histogram::kBucketCount - 1).high_ns == kTop);

// The stated bound: a bucket holding v is at most max(1, v / 2048) wide.
bool width_within_bound(std::uint64_t v) {
  const Histogram::Bucket b = Histogram::bucket_of(v);
  const std::uint64_t width = b.high_ns - b.low_ns + 1;
  return b.low_ns <= v && v <= b.high_ns &&
         width <= std::max<std::uint64_t>(1, v / Histogram::kPrecisionDivisor);
}

// The percentile contract against the exact value: never below it, above it
// by less than value/2048.
void expect_within_precision(std::uint64_t got_ns, std::uint64_t exact_ns, double p) {
  EXPECT_GE(got_ns, exact_ns) << "p" << p;
  EXPECT_LE(got_ns - std::min(got_ns, exact_ns), exact_ns / Histogram::kPrecisionDivisor) << "p" << p;
}

// Nearest rank on sorted values, rank = ceil(p/100 * n) computed exactly in
// integers, with p given in millionths of a percent.
std::uint64_t exact_percentile(const std::vector<std::uint64_t>& sorted, std::uint64_t p_millionths) {
  const std::uint64_t n = sorted.size();
  std::uint64_t rank = (p_millionths * n + 100'000'000 - 1) / 100'000'000;
  rank = std::clamp<std::uint64_t>(rank, 1, n);
  return sorted[rank - 1];
}

long double exact_mean(const std::vector<std::uint64_t>& v) {
  long double s = 0;
  for (std::uint64_t x : v) s += static_cast<long double>(x);
  return s / static_cast<long double>(v.size());
}

long double exact_stdev(const std::vector<std::uint64_t>& v) {  // two-pass, population
  const long double m = exact_mean(v);
  long double ss = 0;
  for (std::uint64_t x : v) ss += (static_cast<long double>(x) - m) * (static_cast<long double>(x) - m);
  return std::sqrt(ss / static_cast<long double>(v.size()));
}

// Heavy-tailed latencies (lognormal around ~200 us, tail into seconds), with a
// few exact small values and zeros mixed in.
std::vector<std::uint64_t> latencies(std::uint32_t seed, std::size_t n) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(12.2, 1.5);
  std::vector<std::uint64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i % 97 == 0 ? i % 5000 : static_cast<std::uint64_t>(dist(rng));
  return v;
}

std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>> buckets_of(const Histogram& h) {
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>> out;
  h.for_each_bucket([&](std::uint64_t low_ns, std::uint64_t high_ns, std::uint64_t count) {
    out.emplace_back(low_ns, high_ns, count);
  });
  return out;
}

void expect_same(const Histogram& a, const Histogram& b) {
  EXPECT_EQ(a.count(), b.count());
  EXPECT_EQ(a.min(), b.min());
  EXPECT_EQ(a.max(), b.max());
  EXPECT_EQ(a.mean(), b.mean());
  EXPECT_EQ(a.stdev(), b.stdev());
  EXPECT_EQ(a.overflow_count(), b.overflow_count());
  EXPECT_TRUE(a.totals() == b.totals());
  for (double p : {0.0, 1.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0})
    EXPECT_EQ(a.value_at_percentile(p), b.value_at_percentile(p)) << "p" << p;
  std::size_t differing = 0;
  for (std::size_t i = 0; i < Histogram::kBucketCount; ++i) differing += a.count_at(i) != b.count_at(i);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(buckets_of(a), buckets_of(b));
  EXPECT_TRUE(a == b);
}

TEST(histogram, small_set_has_exact_count_min_max_mean) {
  Histogram h;
  for (std::uint64_t v : {7ull, 3ull, 1'000'003ull, 42ull, 5'000'000'017ull}) h.record(v);
  EXPECT_EQ(h.count(), 5u);
  EXPECT_EQ(h.min(), 3u);
  EXPECT_EQ(h.max(), 5'000'000'017u);  // exact, although its bucket is ~2.4 ms wide
  EXPECT_DOUBLE_EQ(h.mean(), (7.0 + 3 + 1'000'003 + 42 + 5'000'000'017) / 5);
  EXPECT_EQ(h.overflow_count(), 0u);
}

TEST(histogram, records_zero) {
  Histogram h;
  h.record(0);
  h.record(0);
  EXPECT_EQ(h.count(), 2u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.count_at(0), 2u);
  EXPECT_EQ(h.value_at_percentile(50), 0u);
}

TEST(histogram, every_value_to_100000_lands_in_a_bucket_within_the_bound) {
  for (std::uint64_t v = 0; v <= 100'000; ++v) ASSERT_TRUE(width_within_bound(v)) << v;
}

TEST(histogram, every_octave_edge_up_to_the_top_is_within_the_bound) {
  for (unsigned k = 0; k < 42; ++k) {
    const std::uint64_t p = std::uint64_t{1} << k;
    for (std::uint64_t v : {p - 1, p, p + 1, p + p / 2, 2 * p - 1}) ASSERT_TRUE(width_within_bound(v)) << v;
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1'000'000; ++i) ASSERT_TRUE(width_within_bound(rng() % (kTop + 1)));
}

TEST(histogram, buckets_tile_the_range_without_gaps) {
  std::uint64_t next_low_ns = 0;
  for (std::size_t i = 0; i < Histogram::kBucketCount; ++i) {
    const Histogram::Bucket b = Histogram::bucket_at(i);
    ASSERT_EQ(b.low_ns, next_low_ns) << i;
    ASSERT_LE(b.low_ns, b.high_ns) << i;
    ASSERT_EQ(Histogram::bucket_index(b.low_ns), i);
    ASSERT_EQ(Histogram::bucket_index(b.high_ns), i);
    next_low_ns = b.high_ns + 1;
  }
  EXPECT_EQ(next_low_ns, kTop + 1);
}

TEST(histogram, uniform_percentiles_are_within_precision_of_exact) {
  Histogram h;
  constexpr std::uint64_t n = 1'000'000;
  for (std::uint64_t v = 1; v <= n; ++v) h.record(v);
  // Value k is the k-th smallest, so the exact percentile is its rank ceil(p/100 * n).
  const std::vector<std::pair<double, std::uint64_t>> cases = {
      {0.1, 1'000},      {1, 10'000},   {25, 250'000},      {50, 500'000},
      {90, 900'000},     {99, 990'000}, {99.9, 999'000},    {99.99, 999'900},
      {99.999, 999'990}, {0.0001, 1},   {33.3333, 333'333}, {66.66667, 666'667}};
  for (auto [p, exact_ns] : cases) expect_within_precision(h.value_at_percentile(p), exact_ns, p);
  EXPECT_EQ(h.value_at_percentile(0), 1u);
  EXPECT_EQ(h.value_at_percentile(100), n);
  EXPECT_DOUBLE_EQ(h.mean(), 500'000.5);
  // Population stdev of 1..n is sqrt((n^2 - 1) / 12).
  EXPECT_NEAR(h.stdev(), std::sqrt((static_cast<double>(n) * n - 1) / 12), 1e-6);
}

TEST(histogram, exact_ranks_survive_binary_percentiles) {
  // 99.9 is 99.90000000000000568 as a double: without care, rank 1000 of 1000.
  Histogram h;
  for (std::uint64_t v = 1; v <= 1000; ++v) h.record(v);
  EXPECT_EQ(h.value_at_percentile(99.9), 999u);
  EXPECT_EQ(h.value_at_percentile(99.0), 990u);
  EXPECT_EQ(h.value_at_percentile(0.1), 1u);
  EXPECT_EQ(h.value_at_percentile(0.11), 2u);
}

TEST(histogram, bimodal_percentiles_find_both_modes) {
  Histogram h;
  h.record(100 * kUs, 990'000);
  h.record(50 * kMs, 10'000);
  expect_within_precision(h.value_at_percentile(50), 100 * kUs, 50);
  expect_within_precision(h.value_at_percentile(90), 100 * kUs, 90);
  expect_within_precision(h.value_at_percentile(99), 100 * kUs, 99);  // rank 990000: the last fast one
  expect_within_precision(h.value_at_percentile(99.01), 50 * kMs, 99.01);
  EXPECT_EQ(h.value_at_percentile(99.9), 50 * kMs);  // clamped to the exact max
  EXPECT_EQ(h.max(), 50 * kMs);
  EXPECT_EQ(h.min(), 100 * kUs);
  EXPECT_DOUBLE_EQ(h.mean(), 0.99 * 100 * kUs + 0.01 * 50 * kMs);
  // Two points a, b with weights w, 1-w: stdev = |b - a| * sqrt(w (1 - w)).
  EXPECT_NEAR(h.stdev(), (50.0 * kMs - 100.0 * kUs) * std::sqrt(0.99 * 0.01), 1e-6);
}

TEST(histogram, random_percentiles_are_never_below_and_within_precision) {
  std::vector<std::uint64_t> v = latencies(1, 200'000);
  Histogram h;
  for (std::uint64_t x : v) h.record(x);
  std::sort(v.begin(), v.end());
  std::uint64_t previous_ns = 0;
  // p in millionths of a percent, so the exact rank needs no floating point.
  for (std::uint64_t base : {0ull, 1ull, 100'000ull, 50'000'000ull, 90'000'000ull, 99'000'000ull,
                             99'900'000ull, 99'990'000ull, 99'999'000ull, 100'000'000ull}) {
    for (std::uint64_t step = 0; step < 100; step += 7) {
      const std::uint64_t p_millionths = std::min<std::uint64_t>(base + step * 7919, 100'000'000);
      const double p = static_cast<double>(p_millionths) / 1e6;
      const std::uint64_t got_ns = h.value_at_percentile(p);
      expect_within_precision(got_ns, exact_percentile(v, p_millionths), p);
      if (step == 0) {
        EXPECT_GE(got_ns, previous_ns) << "monotonic in p";
        previous_ns = got_ns;
      }
    }
  }
  EXPECT_EQ(h.min(), v.front());
  EXPECT_EQ(h.max(), v.back());
  EXPECT_NEAR(h.mean(), static_cast<double>(exact_mean(v)), 1e-6);
  EXPECT_NEAR(h.stdev(), static_cast<double>(exact_stdev(v)), 1e-6);
}

TEST(histogram, single_value_is_every_percentile_exactly) {
  Histogram h;
  h.record(123'456'789);
  for (double p : {0.0, 1.0, 50.0, 99.9, 100.0}) EXPECT_EQ(h.value_at_percentile(p), 123'456'789u) << p;
  EXPECT_EQ(h.min(), 123'456'789u);
  EXPECT_EQ(h.max(), 123'456'789u);
  EXPECT_DOUBLE_EQ(h.mean(), 123'456'789.0);
  EXPECT_EQ(h.stdev(), 0.0);
}

TEST(histogram, empty_reports_zero_everywhere) {
  const Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.stdev(), 0.0);
  for (double p : {0.0, 50.0, 99.9, 100.0, -1.0, 1e9, std::nan("")}) EXPECT_EQ(h.value_at_percentile(p), 0u);
  EXPECT_TRUE(buckets_of(h).empty());
  EXPECT_TRUE(h.totals() == Totals{});
}

TEST(histogram, out_of_range_percentiles_clamp_to_min_and_max) {
  Histogram h;
  for (std::uint64_t v : {10u, 20u, 30u}) h.record(v);
  EXPECT_EQ(h.value_at_percentile(-5), 10u);
  EXPECT_EQ(h.value_at_percentile(std::nan("")), 10u);
  EXPECT_EQ(h.value_at_percentile(250), 30u);
  EXPECT_EQ(h.value_at_percentile(std::numeric_limits<double>::infinity()), 30u);
}

TEST(histogram, merge_equals_recording_into_one) {
  const std::vector<std::uint64_t> a = latencies(2, 50'000), b = latencies(3, 70'000);
  Histogram ha, hb, both;
  for (std::uint64_t x : a) ha.record(x), both.record(x);
  for (std::uint64_t x : b) hb.record(x), both.record(x);
  hb.record(kTop + 5);  // overflow counts merge too
  both.record(kTop + 5);
  ha.merge(hb);
  expect_same(ha, both);
}

TEST(histogram, merge_with_empty_changes_nothing_and_into_empty_copies) {
  Histogram h, empty;
  for (std::uint64_t x : latencies(4, 1000)) h.record(x);
  const Histogram before = h;
  h.merge(empty);
  expect_same(h, before);
  empty.merge(h);
  expect_same(empty, before);
}

TEST(histogram, self_merge_doubles_every_count) {
  Histogram h, twice;
  for (std::uint64_t x : latencies(5, 1000)) h.record(x), twice.record(x, 2);
  h.merge(h);
  expect_same(h, twice);
}

TEST(histogram, per_thread_histograms_merged_after_join_equal_one) {
  const std::vector<std::uint64_t> v = latencies(6, 80'000);
  std::vector<Histogram> per_thread(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < per_thread.size(); ++t)
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < v.size(); i += per_thread.size()) per_thread[t].record(v[i]);
    });
  for (std::thread& t : threads) t.join();
  Histogram merged, one;
  for (const Histogram& h : per_thread) merged.merge(h);
  for (std::uint64_t x : v) one.record(x);
  expect_same(merged, one);
}

TEST(histogram, serialised_buckets_and_totals_rebuild_an_identical_histogram) {
  Histogram h;
  for (std::uint64_t x : latencies(8, 100'000)) h.record(x);
  h.record(kTop + 1);
  Histogram rebuilt;
  h.for_each_bucket([&](std::uint64_t low_ns, std::uint64_t high_ns, std::uint64_t count) {
    EXPECT_EQ(Histogram::bucket_of(low_ns).high_ns, high_ns);
    EXPECT_TRUE(rebuilt.add_bucket(low_ns, count));
  });
  ASSERT_TRUE(rebuilt.restore_totals(h.totals()));
  expect_same(rebuilt, h);
  // And rebuilt histograms still merge like the originals.
  Histogram other, merged_originals = h;
  for (std::uint64_t x : latencies(9, 1000)) other.record(x);
  merged_originals.merge(other);
  rebuilt.merge(other);
  expect_same(rebuilt, merged_originals);
}

TEST(histogram, buckets_alone_rebuild_exact_counts_and_stats_within_precision) {
  const std::vector<std::uint64_t> v = latencies(10, 100'000);
  Histogram h, rebuilt;
  for (std::uint64_t x : v) h.record(x);
  h.for_each_bucket([&](std::uint64_t low_ns, std::uint64_t, std::uint64_t count) {
    ASSERT_TRUE(rebuilt.add_bucket(low_ns, count));
  });
  EXPECT_EQ(buckets_of(rebuilt), buckets_of(h));
  EXPECT_EQ(rebuilt.count(), h.count());
  EXPECT_EQ(rebuilt.min(), Histogram::bucket_of(h.min()).low_ns);
  EXPECT_EQ(rebuilt.max(), Histogram::bucket_of(h.max()).high_ns);
  EXPECT_NEAR(rebuilt.mean(), h.mean(), h.mean() / 2048);
  EXPECT_NEAR(rebuilt.stdev(), h.stdev(), h.stdev() / 1000);
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    // The same bucket; only the clamp to the (now bucket-high) max can differ.
    EXPECT_EQ(Histogram::bucket_of(rebuilt.value_at_percentile(p)),
              Histogram::bucket_of(h.value_at_percentile(p)));
  }
}

TEST(histogram, add_bucket_rejects_bounds_from_another_layout) {
  Histogram h;
  EXPECT_FALSE(h.add_bucket(4097, 1));  // inside [4096, 4097]
  EXPECT_FALSE(h.add_bucket(1'000'001, 1));
  EXPECT_FALSE(h.add_bucket(kTop + 1, 1));
  EXPECT_TRUE(h.add_bucket(4096, 0));
  EXPECT_TRUE(h == Histogram{});
  EXPECT_TRUE(h.add_bucket(4096, 3));
  EXPECT_EQ(h.count_at(Histogram::bucket_index(4096)), 3u);
}

TEST(histogram, restore_totals_rejects_totals_that_do_not_fit_the_buckets) {
  Histogram h;
  for (std::uint64_t v : {1000u, 2000u, 900'000u}) h.record(v);
  const Totals good = h.totals();
  Histogram rebuilt;
  h.for_each_bucket(
      [&](std::uint64_t low_ns, std::uint64_t, std::uint64_t count) { rebuilt.add_bucket(low_ns, count); });
  const Histogram estimated = rebuilt;
  auto bad = [&](auto mutate) {
    Totals t = good;
    mutate(t);
    return t;
  };
  const std::vector<Totals> rejected = {
      bad([](Totals& t) { t.count += 1; }),
      bad([](Totals& t) { t.min_ns = 999; }),        // below the lowest bucket
      bad([](Totals& t) { t.max_ns = 1'000'000; }),  // beyond the highest bucket
      bad([](Totals& t) { t.sum_ns = 2999; }),       // < count * min
      bad([](Totals& t) { t.sum_ns = 3 * 900'000 + 1; }),
      bad([](Totals& t) { t.sum_sq_ns2 = 0; }),
      bad([](Totals& t) { t.sum_sq_ns2 = t.sum_sq_ns2 * 1000; }),  // > max * sum
      bad([](Totals& t) { t.overflow_count = 1; }),
  };
  for (const Totals& t : rejected) {
    EXPECT_FALSE(rebuilt.restore_totals(t));
    EXPECT_TRUE(rebuilt == estimated);  // unchanged
  }
  EXPECT_TRUE(rebuilt.restore_totals(good));
  EXPECT_TRUE(rebuilt == h);
  EXPECT_TRUE(Histogram{}.restore_totals(Totals{}));
  EXPECT_FALSE(Histogram{}.restore_totals(good));
  Totals stray{};  // an empty histogram takes only empty totals
  stray.max_ns = 5;
  EXPECT_FALSE(Histogram{}.restore_totals(stray));
}

TEST(histogram, values_above_the_range_are_clamped_and_counted) {
  Histogram h;
  h.record(kTop);
  h.record(kTop + 1);
  h.record(std::numeric_limits<std::uint64_t>::max(), 3);
  h.record(5);
  EXPECT_EQ(h.overflow_count(), 4u);
  EXPECT_EQ(h.count(), 6u);
  EXPECT_EQ(h.max(), kTop);  // clamped values count as the top in every statistic
  EXPECT_EQ(h.count_at(Histogram::kBucketCount - 1), 5u);
  EXPECT_EQ(h.value_at_percentile(50), kTop);
  EXPECT_DOUBLE_EQ(h.mean(), (5.0 * static_cast<double>(kTop) + 5) / 6);
}

TEST(histogram, record_with_count_equals_count_records) {
  Histogram bulk, single;
  for (auto [v, n] : {std::pair<std::uint64_t, std::uint64_t>{0, 3},
                      {17, 1},
                      {4097, 5},
                      {123'456'789, 1000},
                      {kTop + 9, 2}}) {
    bulk.record(v, n);
    for (std::uint64_t i = 0; i < n; ++i) single.record(v);
  }
  expect_same(bulk, single);
  Histogram zero;
  zero.record(77, 0);  // a zero count records nothing, min and max included
  expect_same(zero, Histogram{});
}

TEST(histogram, sums_beyond_64_bits_stay_exact) {
  // 1e7 requests at 73 min sum to 4.4e19 ns > 2^64; their squares to 1.9e32.
  Histogram h;
  h.record(kTop, 10'000'000);
  h.record(kTop - 2, 10'000'000);
  EXPECT_EQ(h.totals().sum_ns, Histogram::u128{kTop - 1} * 20'000'000);
  EXPECT_DOUBLE_EQ(h.mean(), static_cast<double>(kTop - 1));
  EXPECT_DOUBLE_EQ(h.stdev(), 1.0);
}

TEST(histogram, stdev_matches_exact_on_known_sets) {
  Histogram h;
  for (std::uint64_t v : {2u, 4u, 4u, 4u, 5u, 5u, 7u, 9u}) h.record(v);
  EXPECT_DOUBLE_EQ(h.mean(), 5.0);
  EXPECT_DOUBLE_EQ(h.stdev(), 2.0);  // the textbook population example
}

TEST(histogram, stdev_is_exact_when_spread_is_tiny_next_to_the_mean) {
  // sum_sq/n - mean^2 in doubles would cancel to noise here; the integer path does not.
  Histogram h;
  const std::uint64_t base_ns = 4'000'000'000'000;  // 4000 s, near the top of the range
  for (std::uint64_t d : {0u, 1u, 2u}) h.record(base_ns + d);
  EXPECT_DOUBLE_EQ(h.stdev(), std::sqrt(2.0 / 3.0));
  EXPECT_DOUBLE_EQ(h.mean(), static_cast<double>(base_ns + 1));
}

TEST(histogram, reset_returns_to_empty) {
  Histogram h;
  for (std::uint64_t x : latencies(11, 1000)) h.record(x);
  h.record(kTop + 1);
  h.reset();
  expect_same(h, Histogram{});
}

TEST(histogram, recording_allocates_nothing) {
  Histogram h;
  const std::vector<std::uint64_t> v = latencies(12, 10'000);
  const micro::AllocCount before = micro::thread_alloc_count();
  for (std::uint64_t x : v) h.record(x);
  h.record(kTop + 1, 3);
  Histogram other;  // the constructor is the one allocation
  const micro::AllocCount after_ctor = micro::thread_alloc_count();
  other.merge(h);
  (void)other.value_at_percentile(99.9);
  (void)other.stdev();
  EXPECT_EQ(after_ctor.allocs - before.allocs, 1u);
  EXPECT_EQ(micro::thread_alloc_count().allocs - after_ctor.allocs, 0u);
}

}  // namespace
