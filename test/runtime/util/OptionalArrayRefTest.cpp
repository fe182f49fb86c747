//===--- OptionalArrayRefTest.cpp - int[]? from what callers write --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/OptionalRef.h"

#include "gtest/gtest.h"

#include <array>
#include <vector>

using namespace sk;

namespace {

// One element never converts: as std::optional<IntArrayRef>, `{1}` built a
// view of an int64_t that died inside optional's constructor.
static_assert(!std::is_convertible_v<int, OptionalIntArrayRef>);
static_assert(!std::is_convertible_v<int64_t, OptionalIntArrayRef>);
static_assert(!std::is_convertible_v<const int64_t &, OptionalIntArrayRef>);
static_assert(std::is_convertible_v<IntArrayRef, OptionalIntArrayRef>);
static_assert(std::is_convertible_v<std::vector<int64_t>, OptionalIntArrayRef>);
static_assert(std::is_convertible_v<std::nullopt_t, OptionalIntArrayRef>);

/// Reads its argument after using the stack, as a meta function does after
/// the calls before it.
__attribute__((noinline)) std::vector<int64_t>
readAfterStackUse(OptionalIntArrayRef Dims) {
  volatile int64_t Scratch[64];
  for (int64_t &V : const_cast<int64_t(&)[64]>(Scratch))
    V = -7;
  if (!Dims)
    return {-1};
  return Dims->vec();
}

TEST(OptionalArrayRefTest, BracedListsAreListsEvenOfOneElement) {
  EXPECT_EQ(readAfterStackUse({1}), std::vector<int64_t>({1}));
  EXPECT_EQ(readAfterStackUse({0, 1}), std::vector<int64_t>({0, 1}));
  EXPECT_EQ(readAfterStackUse({-1}), std::vector<int64_t>({-1}));
}

TEST(OptionalArrayRefTest, EmptyBracesAndNulloptAreNone) {
  EXPECT_EQ(readAfterStackUse({}), std::vector<int64_t>({-1}));
  EXPECT_EQ(readAfterStackUse(std::nullopt), std::vector<int64_t>({-1}));
  OptionalIntArrayRef None;
  EXPECT_FALSE(None.has_value());
  EXPECT_TRUE(None == std::nullopt);
}

TEST(OptionalArrayRefTest, ViewsContainersAndArrayRefs) {
  std::vector<int64_t> V = {2, 3};
  std::array<int64_t, 3> A = {4, 5, 6};
  EXPECT_EQ(readAfterStackUse(V), V);
  EXPECT_EQ(readAfterStackUse(IntArrayRef(V)), V);
  EXPECT_EQ(readAfterStackUse(A), std::vector<int64_t>(A.begin(), A.end()));
  EXPECT_EQ(readAfterStackUse(std::optional<IntArrayRef>(IntArrayRef(V))), V);

  OptionalIntArrayRef Some = V;
  ASSERT_TRUE(Some);
  EXPECT_EQ(Some->size(), 2u);
  EXPECT_EQ((*Some)[1], 3);
  EXPECT_EQ(Some.value_or(IntArrayRef()).size(), 2u);
  Some.reset();
  EXPECT_EQ(Some.value_or(IntArrayRef(A)).size(), 3u);
}

TEST(OptionalArrayRefTest, FloatListsToo) {
  auto Sum = [](OptionalArrayRef<double> F) {
    double S = 0;
    if (F)
      for (double D : *F)
        S += D;
    return S;
  };
  EXPECT_EQ(Sum({1.5}), 1.5);
  EXPECT_EQ(Sum({1.0, 2.0}), 3.0);
  EXPECT_EQ(Sum(std::nullopt), 0.0);
}

} // namespace
