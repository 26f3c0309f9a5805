// tests/load/load_calls_test.cpp — load::CallTable (src/load/calls.hpp), the calls in flight of one loader
// connection: sequences from 1 as PromiseIDs, answers in order and out of order, unknown and duplicate
// answers refused without a change, the u32 sequence wrapping, the capacity bound holding sends behind an
// unanswered call, timeouts' view of the oldest unanswered call, and no allocation after construction.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "load/calls.hpp"
#include "micro/alloc_counter.hpp"

namespace {

using load::Call;
using load::CallTable;

// Sends n calls whose intended time, sent time and id are all i (their rank from 0), returning the sequences.
std::vector<std::uint32_t> push_n(CallTable& t, int n, int first_rank = 0) {
  std::vector<std::uint32_t> seqs;
  for (int i = first_rank; i < first_rank + n; ++i) seqs.push_back(t.push(i, i, std::uint64_t(i)));
  return seqs;
}

std::vector<std::uint64_t> unanswered_ids(const CallTable& t) {
  std::vector<std::uint64_t> ids;
  t.for_each_unanswered([&](const Call& c) { ids.push_back(c.id); });
  return ids;
}

TEST(call_table, capacity_is_a_power_of_two_of_at_least_64_and_four_times_the_pipeline) {
  EXPECT_EQ(CallTable::capacity_for(0), 64u);
  EXPECT_EQ(CallTable::capacity_for(1), 64u);
  EXPECT_EQ(CallTable::capacity_for(16), 64u);
  EXPECT_EQ(CallTable::capacity_for(17), 128u);
  EXPECT_EQ(CallTable::capacity_for(100), 512u);
  EXPECT_EQ(CallTable::capacity_for(1024), 4096u);
  EXPECT_EQ(CallTable(100).capacity(), 512u);
}

TEST(call_table, sequences_count_from_one_and_in_order_answers_complete_the_oldest) {
  CallTable t(4);
  t.reset();
  EXPECT_EQ(t.front(), nullptr);
  EXPECT_EQ(push_n(t, 3), (std::vector<std::uint32_t>{1, 2, 3}));
  EXPECT_EQ(t.outstanding(), 3u);
  ASSERT_NE(t.front(), nullptr);
  EXPECT_EQ(t.front()->id, 0u);
  Call c;
  for (std::uint64_t id = 0; id < 3; ++id) {
    ASSERT_TRUE(t.answer_front(c));
    EXPECT_EQ(c.id, id);
    EXPECT_EQ(c.intended_ns, std::int64_t(id));
  }
  EXPECT_FALSE(t.answer_front(c)) << "nothing left to answer";
  EXPECT_EQ(t.outstanding(), 0u);
  EXPECT_EQ(t.span(), 0u);
  EXPECT_EQ(t.front(), nullptr);
  EXPECT_EQ(t.push(9, 9, 9), 4u) << "sequences go on, they are not reused";
}

TEST(call_table, out_of_order_answers_find_their_call_and_the_front_waits_for_the_oldest) {
  CallTable t(8);
  t.reset();
  push_n(t, 5);  // sequences 1..5, ids 0..4
  Call c;
  ASSERT_TRUE(t.answer(3, c));
  EXPECT_EQ(c.id, 2u);
  ASSERT_TRUE(t.answer(5, c));
  EXPECT_EQ(c.id, 4u);
  EXPECT_EQ(t.outstanding(), 3u);
  EXPECT_EQ(t.span(), 5u);  // the oldest (1) is still unanswered: every slot stays
  EXPECT_EQ(t.front_seq(), 1u);
  EXPECT_EQ(unanswered_ids(t), (std::vector<std::uint64_t>{0, 1, 3}));
  ASSERT_TRUE(t.answer(1, c));
  EXPECT_EQ(t.front_seq(), 2u);  // 2 is unanswered
  ASSERT_TRUE(t.answer(2, c));
  EXPECT_EQ(t.front_seq(), 4u) << "the front moves past every answered call";
  EXPECT_EQ(t.front()->id, 3u);
  ASSERT_TRUE(t.answer(4, c));
  EXPECT_EQ(t.front(), nullptr);
  EXPECT_EQ(t.front_seq(), 6u);
  EXPECT_EQ(t.span(), 0u);
}

TEST(call_table, an_answer_to_no_call_in_flight_changes_nothing) {
  CallTable t(8);
  t.reset();
  push_n(t, 4);  // 1..4
  Call c{};
  c.id = 77;
  EXPECT_FALSE(t.answer(0, c)) << "0 is never sent";
  EXPECT_FALSE(t.answer(5, c)) << "not sent yet";
  EXPECT_FALSE(t.answer(0xFFFF'0000u, c)) << "far off";
  EXPECT_EQ(c.id, 77u) << "out is left alone";
  ASSERT_TRUE(t.answer(2, c));
  EXPECT_FALSE(t.answer(2, c)) << "a duplicate of an answer within the span";
  ASSERT_TRUE(t.answer(1, c));
  EXPECT_FALSE(t.answer(1, c)) << "a duplicate of an answer the front has passed";
  EXPECT_FALSE(t.answer(2, c));
  EXPECT_EQ(t.outstanding(), 2u);
  EXPECT_EQ(unanswered_ids(t), (std::vector<std::uint64_t>{2, 3}));
}

TEST(call_table, the_u32_sequence_wraps_and_answers_still_find_their_calls) {
  CallTable t(8);
  t.reset(0xFFFF'FFFEu);
  EXPECT_EQ(push_n(t, 4), (std::vector<std::uint32_t>{0xFFFF'FFFEu, 0xFFFF'FFFFu, 0, 1}));
  Call c;
  ASSERT_TRUE(t.answer(1, c));
  EXPECT_EQ(c.id, 3u);
  ASSERT_TRUE(t.answer(0, c));
  EXPECT_EQ(c.id, 2u);
  EXPECT_FALSE(t.answer(2, c)) << "not sent";
  EXPECT_FALSE(t.answer(0xFFFF'FFFDu, c)) << "before the first";
  ASSERT_TRUE(t.answer(0xFFFF'FFFEu, c));
  ASSERT_TRUE(t.answer(0xFFFF'FFFFu, c));
  EXPECT_EQ(t.front_seq(), 2u);
  EXPECT_EQ(t.outstanding(), 0u);
  EXPECT_EQ(t.push(4, 4, 4), 2u);
}

TEST(call_table, the_pipeline_and_a_call_stuck_at_the_front_bound_the_sends) {
  CallTable t(4);  // capacity 64
  t.reset();
  while (t.can_send(4)) t.push(0, 0, 0);
  EXPECT_EQ(t.outstanding(), 4u) << "the pipeline's depth";
  Call c;
  // The first call stays unanswered while every later one is answered and replaced: its slot holds the
  // span open, until the ring is full.
  std::uint32_t next = 2;
  int sent_after = 0;
  for (;;) {
    ASSERT_TRUE(t.answer(next++, c));
    if (!t.can_send(4)) break;
    t.push(0, 0, 0);
    ++sent_after;
  }
  EXPECT_EQ(t.span(), t.capacity()) << "the ring is full behind the unanswered front";
  EXPECT_EQ(t.outstanding(), 3u) << "under the pipeline's depth, and still no send";
  EXPECT_EQ(sent_after, int(t.capacity()) - 4);
  // Every later call answered: still nothing may be sent until the front is answered.
  while (t.outstanding() > 1) ASSERT_TRUE(t.answer(next++, c));
  EXPECT_FALSE(t.can_send(4));
  EXPECT_EQ(t.front_seq(), 1u);
  ASSERT_TRUE(t.answer(1, c));
  EXPECT_EQ(t.span(), 0u);
  EXPECT_TRUE(t.can_send(4));
}

TEST(call_table, reset_forgets_every_call) {
  CallTable t(2);
  t.reset();
  push_n(t, 2);
  t.reset();
  EXPECT_EQ(t.outstanding(), 0u);
  EXPECT_EQ(t.front(), nullptr);
  Call c;
  EXPECT_FALSE(t.answer(1, c)) << "a call of the old connection";
  EXPECT_EQ(t.push(0, 0, 5), 1u);
}

TEST(call_table, allocates_nothing_after_construction) {
  CallTable t(16);
  t.reset();
  const micro::AllocCount before = micro::alloc_count();
  Call c;
  for (int round = 0; round < 1000; ++round) {
    std::uint32_t first = 0;
    for (int i = 0; i < 16; ++i) {
      const std::uint32_t s = t.push(i, i, std::uint64_t(i));
      if (i == 0) first = s;
    }
    for (int i = 15; i >= 0; --i) t.answer(first + std::uint32_t(i), c);  // newest first
    if (round % 100 == 0) t.reset();
  }
  EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u);
  EXPECT_EQ(t.outstanding(), 0u);
}

}  // namespace
