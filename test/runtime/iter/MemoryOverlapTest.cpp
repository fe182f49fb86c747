//===--- MemoryOverlapTest.cpp - Do two tensors share memory? -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/MemoryOverlap.h"

#include "IterTestUtils.h"

using namespace sk;
using namespace sk::test;

namespace {

TEST(IterMemoryOverlapTest, ExpandedTensor_OverlapsItself) {
  Tensor T = detail::empty_cpu({4}, kFloat);
  EXPECT_EQ(has_internal_overlap(T), MemOverlap::No);
  Tensor Expanded = stridedView(T, {3, 4}, {0, 1});
  EXPECT_EQ(has_internal_overlap(Expanded), MemOverlap::Yes);
  expectError([&] { assert_no_internal_overlap(Expanded); },
              "more than one element of the written-to tensor refers to a "
              "single memory location");
  // Every other element: not dense, but not known to overlap.
  Tensor Strided = stridedView(T, {2}, {2});
  EXPECT_EQ(has_internal_overlap(Strided), MemOverlap::TooHard);
}

TEST(IterMemoryOverlapTest, ShiftedSlices_OverlapPartially) {
  Tensor T = detail::empty_cpu({10}, kFloat);
  Tensor A = stridedView(T, {6}, {1}, 0);
  Tensor B = stridedView(T, {6}, {1}, 4);
  Tensor C = stridedView(T, {4}, {1}, 6);
  EXPECT_EQ(get_overlap_status(A, B), MemOverlapStatus::Partial);
  EXPECT_EQ(get_overlap_status(A, C), MemOverlapStatus::No);
  EXPECT_EQ(get_overlap_status(A, A), MemOverlapStatus::Full);
  EXPECT_EQ(get_overlap_status(A, stridedView(T, {6}, {1}, 0)),
            MemOverlapStatus::Full);
  expectError([&] { assert_no_partial_overlap(A, B); },
              "some elements of the input tensor and the written-to tensor "
              "refer to a single memory location");
  assert_no_partial_overlap(A, A);
  expectError([&] { assert_no_overlap(A, A); }, "single memory location");
}

TEST(IterMemoryOverlapTest, MetaTensors_NeverOverlap) {
  Tensor A = detail::empty_meta({4}, kFloat);
  Tensor B = detail::empty_meta({4}, kFloat);
  EXPECT_EQ(get_overlap_status(A, B), MemOverlapStatus::No);
  EXPECT_EQ(has_internal_overlap(A), MemOverlap::No);
}

} // namespace
