//===--- TensorImplTest.cpp - Tensors, storage and meta tensors -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"
#include "sk/core/Tensor.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>
#include <vector>

using namespace sk;

namespace {

using sk::test::expectError;

TEST(TensorImplTest, EmptyCPUIsContiguousAndAligned) {
  Tensor T = detail::empty_cpu({2, 3, 4}, kFloat);
  EXPECT_EQ(T.sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_EQ(T.strides(), IntArrayRef({12, 4, 1}));
  EXPECT_EQ(T.numel(), 24);
  EXPECT_TRUE(T.is_contiguous());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(T.data_ptr()) % kCPUAlignment, 0u);
  T.unsafeGetTensorImpl()->checkInvariants();
}

TEST(TensorImplTest, EmptyWithOptions_StridesOrFormatOnAnyDevice) {
  TensorOptions Meta = TensorOptions(kMeta).dtype(kHalf);
  Tensor RowMajor = detail::empty_with_options({2, 3}, {}, Meta);
  EXPECT_TRUE(RowMajor.is_meta());
  EXPECT_EQ(RowMajor.dtype(), kHalf);
  EXPECT_EQ(RowMajor.strides(), IntArrayRef({3, 1}));
  RowMajor.unsafeGetTensorImpl()->checkInvariants();
  Tensor Strided = detail::empty_with_options({2, 3}, {1, 2}, Meta);
  EXPECT_EQ(Strided.strides(), IntArrayRef({1, 2}));
  Tensor ChannelsLast = detail::empty_with_options(
      {2, 3, 4, 5}, {}, Meta.memory_format(MemoryFormat::ChannelsLast));
  EXPECT_TRUE(ChannelsLast.is_contiguous(MemoryFormat::ChannelsLast));
  Tensor Contiguous = detail::empty_with_options(
      {2, 3}, {}, Meta.memory_format(MemoryFormat::Contiguous));
  EXPECT_EQ(Contiguous.strides(), IntArrayRef({3, 1}));
  Tensor Cpu = detail::empty_with_options({4}, {}, TensorOptions(kInt));
  EXPECT_TRUE(Cpu.is_cpu());
  EXPECT_EQ(Cpu.dtype(), kInt);
  EXPECT_NE(Cpu.data_ptr(), nullptr);
  expectError(
      [&] {
        detail::empty_with_options({2, -1}, {}, Meta);
      },
      "empty(): Trying to create tensor with negative dimension -1");
}

/// Counts the CPU allocations it forwards to the allocator it replaces.
struct CountingAllocator final : Allocator {
  DataPtr allocate(size_t NBytes) override {
    ++Calls;
    return Inner->allocate(NBytes);
  }
  Allocator *Inner = getCPUAllocator();
  int Calls = 0;
};

TEST(TensorImplTest, EmptyWithOptions_RowMajorCPUAsTheGenericPath) {
  // Row-major CPU tensors skip empty_with_options_generic: the same
  // tensor, through the registered CPU allocator, with the same errors.
  CountingAllocator Counting;
  Allocator *Previous = setAllocator(DeviceType::CPU, &Counting);
  std::vector<std::vector<int64_t>> Shapes = {
      {}, {1}, {2, 3}, {0, 4}, {2, 3, 4, 5}, {1, 1, 1, 1, 1, 1, 7}};
  for (const std::vector<int64_t> &Sizes : Shapes) {
    for (std::optional<MemoryFormat> Format :
         {std::optional<MemoryFormat>(),
          std::optional(MemoryFormat::Contiguous)}) {
      TensorOptions Options(kDouble);
      if (Format)
        Options = Options.memory_format(*Format);
      int Before = Counting.Calls;
      Tensor Fast = detail::empty_with_options(Sizes, {}, Options);
      EXPECT_EQ(Counting.Calls, Before + 1);
      Tensor General = detail::empty_with_options_generic(Sizes, {}, Options);
      EXPECT_EQ(Counting.Calls, Before + 2);
      EXPECT_TRUE(Fast.is_cpu());
      EXPECT_EQ(Fast.dtype(), General.dtype());
      EXPECT_EQ(Fast.sizes(), General.sizes());
      EXPECT_EQ(Fast.strides(), General.strides());
      EXPECT_EQ(Fast.is_contiguous(), General.is_contiguous());
      EXPECT_EQ(Fast.unsafeGetTensorImpl()->storage()->nbytes(),
                General.unsafeGetTensorImpl()->storage()->nbytes());
      Fast.unsafeGetTensorImpl()->checkInvariants();
    }
  }
  setAllocator(DeviceType::CPU, Previous);
  std::string Message =
      "empty(): Trying to create tensor with negative dimension -1";
  expectError([] { detail::empty_with_options({2, -1}, {}, TensorOptions()); },
              Message);
  expectError(
      [] { detail::empty_with_options_generic({2, -1}, {}, TensorOptions()); },
      Message);
}

TEST(TensorImplTest, ChannelsLastLayout) {
  Tensor T =
      detail::empty_cpu({2, 3, 4, 5}, kFloat, MemoryFormat::ChannelsLast);
  EXPECT_EQ(T.strides(), IntArrayRef({60, 1, 15, 3}));
  EXPECT_TRUE(T.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_FALSE(T.is_contiguous());
  EXPECT_EQ(T.suggest_memory_format(), MemoryFormat::ChannelsLast);
  EXPECT_TRUE(T.is_non_overlapping_and_dense());
}

TEST(TensorImplTest, MetaTensorsHaveNoStorageAndNoData) {
  Tensor T = detail::empty_meta({1000000, 1000000}, kHalf);
  EXPECT_TRUE(T.is_meta());
  EXPECT_EQ(T.numel(), 1000000000000);
  EXPECT_FALSE(T.unsafeGetTensorImpl()->has_storage());
  T.unsafeGetTensorImpl()->checkInvariants();
  expectError([&] { (void)T.data_ptr(); },
              "Cannot access data of a tensor on the meta device");
  expectError([] { (void)detail::empty_meta({1}, kFloat).item(); },
              "meta device");
}

TEST(TensorImplTest, NegativeSizesAndOverflowAreErrors) {
  expectError([] { detail::empty_cpu({2, -1}, kFloat); },
              "empty(): Trying to create tensor with negative dimension -1: "
              "[2, -1]");
  expectError(
      [] {
        detail::empty_cpu({int64_t(1) << 40, int64_t(1) << 40}, kFloat);
      },
      "overflowed");
}

TEST(TensorImplTest, RowMajorSizeChecks_InEitherOrderAndOnMeta) {
  // Note [Inline row-major allocation]: the sizes are checked in the pass
  // that lays them out, from the last dimension to the first.
  int64_t Big = int64_t(1) << 40;
  for (bool Meta : {false, true}) {
    auto Make = [Meta](IntArrayRef Sizes, ScalarType Dtype) {
      return Meta ? detail::empty_meta(Sizes, Dtype)
                  : detail::empty_cpu(Sizes, Dtype);
    };
    expectError(
        [&] {
          Make({-1, 2}, kFloat);
        },
        "Trying to create tensor with negative dimension -1");
    expectError([&] { Make({3, Big, Big}, kFloat); }, "overflowed");
    // The element count fits int64, its bytes do not.
    expectError([&] { Make({int64_t(1) << 62}, kDouble); }, "overflowed");
    // A zero size makes any overflow before or after it harmless.
    for (std::vector<int64_t> Sizes :
         {std::vector<int64_t>{0, Big, Big}, {Big, Big, 0}, {Big, 0, Big}}) {
      Tensor T = Make(Sizes, kFloat);
      EXPECT_EQ(T.numel(), 0);
      EXPECT_EQ(T.sizes(), IntArrayRef(Sizes));
      T.unsafeGetTensorImpl()->checkInvariants();
    }
    Tensor Ok = Make({2, 3, 4}, kHalf);
    EXPECT_EQ(Ok.numel(), 24);
    EXPECT_EQ(Ok.strides(), IntArrayRef({12, 4, 1}));
    EXPECT_EQ(Ok.unsafeGetTensorImpl()->has_storage(), !Meta);
    Ok.unsafeGetTensorImpl()->checkInvariants();
  }
}

TEST(TensorImplTest, DataPtrChecksTheDtype) {
  Tensor T = detail::empty_cpu({3}, kInt);
  EXPECT_NE(T.data_ptr<int32_t>(), nullptr);
  expectError([&] { (void)T.data_ptr<float>(); },
              "expected scalar type float32 but found int32");
}

TEST(TensorImplTest, ResizeGrowsStorageAndKeepsData) {
  Tensor T = detail::empty_cpu({2}, kLong);
  T.data_ptr<int64_t>()[0] = 7;
  T.unsafeGetTensorImpl()->resize({4, 4});
  EXPECT_EQ(T.numel(), 16);
  EXPECT_EQ(T.data_ptr<int64_t>()[0], 7);
  T.unsafeGetTensorImpl()->checkInvariants();
}

TEST(TensorImplTest, WrapDim) {
  EXPECT_EQ(maybeWrapDim(-1, 3), 2);
  expectError([] { maybeWrapDim(3, 3); },
              "Dimension out of range (expected to be in range of [-3, 2], "
              "but got 3)");
  EXPECT_EQ(maybeWrapDim(-1, 0), 0);
}

TEST(TensorImplTest, ItemReadsOneElement) {
  Tensor T = detail::empty_cpu({1}, kDouble);
  *T.data_ptr<double>() = 2.5;
  EXPECT_EQ(T.item<double>(), 2.5);
  expectError([] { (void)detail::empty_cpu({2}, kFloat).item(); },
              "a Tensor with 2 elements cannot be converted to Scalar");
}

} // namespace
