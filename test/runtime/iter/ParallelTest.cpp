//===--- ParallelTest.cpp - parallel_for ----------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/Parallel.h"

#include "IterTestUtils.h"

#include <atomic>
#include <vector>

using namespace sk;
using sk::test::expectError;

namespace {

/// Restores the thread count when a test ends.
struct ThreadCountGuard {
  int Saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(Saved); }
};

TEST(IterParallelTest, ParallelFor_CoversRangeOnce) {
  ThreadCountGuard Guard;
  set_num_threads(2);
  std::vector<std::atomic<int>> Hits(1000);
  parallel_for(0, 1000, 10, [&](int64_t Begin, int64_t End) {
    for (int64_t I = Begin; I < End; ++I)
      ++Hits[I];
  });
  for (auto &H : Hits)
    EXPECT_EQ(H.load(), 1);
}

TEST(IterParallelTest, BelowOneGrain_RunsInline) {
  int Calls = 0;
  parallel_for(5, 9, 100, [&](int64_t Begin, int64_t End) {
    ++Calls;
    EXPECT_EQ(Begin, 5);
    EXPECT_EQ(End, 9);
    EXPECT_FALSE(in_parallel_region());
  });
  EXPECT_EQ(Calls, 1);
  parallel_for(3, 3, 1, [&](int64_t, int64_t) { ++Calls; });
  EXPECT_EQ(Calls, 1);
}

TEST(IterParallelTest, ChunkError_IsRethrownOnCaller) {
  ThreadCountGuard Guard;
  set_num_threads(2);
  expectError(
      [] {
        parallel_for(0, 100, 1, [](int64_t Begin, int64_t) {
          SK_CHECK(Begin != 0, "chunk at ", Begin, " failed");
        });
      },
      "chunk at 0 failed");
}

TEST(IterParallelTest, NonPositiveThreadCount_Fails) {
  expectError([] { set_num_threads(0); },
              "set_num_threads: expected a positive number of threads");
}

} // namespace
