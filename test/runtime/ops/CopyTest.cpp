//===--- CopyTest.cpp - copy_, clone, to, fill_, zero_, resize_ -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/ops/Factories.h"
#include "sk/ops/Views.h"

#include "OpsTestUtils.h"

#include <cmath>
#include <limits>

using namespace sk;
using namespace sk::test;

namespace {

using Doubles = std::vector<double>;
using Ints = std::vector<int64_t>;

const ScalarType AllDtypes[] = {kBool, kByte, kChar,     kShort, kInt,
                                kLong, kHalf, kBFloat16, kFloat, kDouble};

/// The bits of the one element of \p T (a 16-bit float).
uint16_t bitsOf(const Tensor &T) {
  uint16_t B;
  std::memcpy(&B, T.data_ptr(), 2);
  return B;
}

/// \p V copied into a one-element tensor of \p To from one of \p From.
double convert(double V, ScalarType From, ScalarType To) {
  Tensor Dst = empty({1}, To);
  Dst.copy_(makeTensor({V}, From));
  return values(Dst)[0];
}

//===----------------------------------------------------------------------===//
// copy_
//===----------------------------------------------------------------------===//

TEST(CopyTest, Copy_Contiguous_CopiesValues) {
  Tensor Src = makeTensor({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor Dst = zeros({2, 3});
  Tensor &R = Dst.copy_(Src);
  EXPECT_TRUE(R.is_same(Dst));
  EXPECT_EQ(values(Dst), values(Src));
  EXPECT_FALSE(Dst.is_alias_of(Src));
}

TEST(CopyTest, Copy_EveryDtypePair_ConvertsValues) {
  // Values every dtype holds exactly; bool holds their truth.
  const Doubles In = {0, 1, 2, 100, 7, 0};
  for (ScalarType From : AllDtypes) {
    Doubles Src = In;
    if (From == kBool)
      for (double &V : Src)
        V = V != 0;
    for (ScalarType To : AllDtypes) {
      Doubles Expected = Src;
      if (To == kBool)
        for (double &V : Expected)
          V = V != 0;
      SCOPED_TRACE(testing::Message() << From << " -> " << To);
      // Contiguous to contiguous.
      Tensor Dst = empty({2, 3}, To);
      Dst.copy_(makeTensor(Src, {2, 3}, From));
      EXPECT_EQ(values(Dst), Expected);
      // Transposed source into a transposed destination.
      Tensor DstT = empty({3, 2}, To).t();
      DstT.copy_(makeTensor(Src, {3, 2}, From).t());
      EXPECT_EQ(values(DstT.t()), Expected);
      // Strided source into a strided destination.
      Tensor Wide = zeros({2, 6}, To);
      Wide.slice(1, 0, std::nullopt, 2).copy_(makeTensor(Src, {2, 3}, From));
      EXPECT_EQ(values(Wide.slice(1, 0, std::nullopt, 2)), Expected);
      EXPECT_EQ(values(Wide.slice(1, 1, std::nullopt, 2)), Doubles(6, 0.0));
    }
  }
}

TEST(CopyTest, Copy_FloatToInteger_TruncatesAndWraps) {
  EXPECT_EQ(convert(2.7, kFloat, kInt), 2);
  EXPECT_EQ(convert(-2.7, kDouble, kLong), -2);
  EXPECT_EQ(convert(-1.0, kFloat, kByte), 255);
  EXPECT_EQ(convert(256.0, kFloat, kByte), 0);
  EXPECT_EQ(convert(300, kLong, kByte), 44);
  EXPECT_EQ(convert(-129, kInt, kChar), 127);
  EXPECT_EQ(convert(70000, kLong, kShort), 4464);
  EXPECT_EQ(convert(2.5, kHalf, kLong), 2);
  // Out of int64's range and NaN: INT64_MIN, defined (no UB).
  double Min = static_cast<double>(std::numeric_limits<int64_t>::min());
  EXPECT_EQ(convert(1e30, kDouble, kLong), Min);
  EXPECT_EQ(convert(std::nan(""), kFloat, kLong), Min);
  EXPECT_EQ(convert(INFINITY, kFloat, kByte), 0);
}

TEST(CopyTest, Copy_ToBool_IsNonzero) {
  EXPECT_EQ(convert(0.5, kFloat, kBool), 1);
  EXPECT_EQ(convert(-0.0, kDouble, kBool), 0);
  EXPECT_EQ(convert(std::nan(""), kDouble, kBool), 1);
  EXPECT_EQ(convert(256, kLong, kBool), 1);
  EXPECT_EQ(convert(0.001, kBFloat16, kBool), 1);
}

TEST(CopyTest, Copy_ToHalf_RoundsToNearestEven) {
  auto HalfBits = [](double V, ScalarType From) {
    Tensor Dst = empty({1}, kHalf);
    Dst.copy_(makeTensor({V}, From));
    return bitsOf(Dst);
  };
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  EXPECT_EQ(HalfBits(1.0 + std::ldexp(1.0, -11), kFloat), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: to 1 + 2^-9.
  EXPECT_EQ(HalfBits(1.0 + 3 * std::ldexp(1.0, -11), kFloat), 0x3c02);
  // Just above the tie rounds up.
  EXPECT_EQ(HalfBits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -20), kFloat),
            0x3c01);
  // A double rounds to float first (as c10::Half(double) does), so a value
  // just above the tie ties after the first rounding and goes to even.
  EXPECT_EQ(
      HalfBits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), kDouble),
      0x3c00);
  EXPECT_EQ(HalfBits(65504, kFloat), 0x7bff);
  EXPECT_EQ(HalfBits(65520, kFloat), 0x7c00); // rounds past the max: inf
  EXPECT_EQ(HalfBits(70000, kLong), 0x7c00);
  EXPECT_EQ(HalfBits(-70000, kInt), 0xfc00);
  EXPECT_EQ(HalfBits(std::ldexp(1.0, -24), kFloat), 0x0001); // subnormal
  EXPECT_EQ(HalfBits(std::ldexp(1.0, -26), kFloat), 0x0000); // underflow
  EXPECT_EQ(HalfBits(2049, kLong), 0x6800); // 2049 ties to 2048
  EXPECT_EQ(HalfBits(2051, kLong), 0x6802); // 2051 ties to 2052
}

TEST(CopyTest, Copy_ToBFloat16_RoundsToNearestEven) {
  auto BFloatBits = [](double V, ScalarType From) {
    Tensor Dst = empty({1}, kBFloat16);
    Dst.copy_(makeTensor({V}, From));
    return bitsOf(Dst);
  };
  EXPECT_EQ(BFloatBits(1.0 + std::ldexp(1.0, -8), kFloat), 0x3f80);
  EXPECT_EQ(BFloatBits(1.0 + 3 * std::ldexp(1.0, -8), kFloat), 0x3f82);
  EXPECT_EQ(BFloatBits(257, kLong), 0x4380); // ties to 256
  EXPECT_EQ(BFloatBits(259, kInt), 0x4382);  // ties to 260
  EXPECT_EQ(BFloatBits(0.1, kDouble), 0x3dcd);
  EXPECT_EQ(BFloatBits(1e39, kDouble), 0x7f80); // beyond float: inf
  // Half and bfloat16 convert exactly through float.
  EXPECT_EQ(convert(0.1, kBFloat16, kHalf), 0.10009765625);
  EXPECT_EQ(convert(65504, kHalf, kBFloat16), 65536);
}

TEST(CopyTest, Copy_Broadcasts) {
  Tensor Dst = zeros({2, 3, 2}, kInt);
  Dst.copy_(makeTensor({1, 2}, {2}, kDouble));
  EXPECT_EQ(values(Dst), Doubles({1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}));
  Dst.copy_(makeTensor({7, 8, 9}, {3, 1}, kLong));
  EXPECT_EQ(values(Dst), Doubles({7, 7, 8, 8, 9, 9, 7, 7, 8, 8, 9, 9}));
  Dst.copy_(makeScalar(5, kFloat));
  EXPECT_EQ(values(Dst), Doubles(12, 5.0));
}

TEST(CopyTest, Copy_NotBroadcastable_Fails) {
  Tensor Dst = zeros({2, 2});
  expectError(
      [&] {
        Dst.copy_(zeros({3, 2}));
      },
      "copy_(): the source of size [3, 2] cannot be broadcast to the "
      "destination of size [2, 2]");
  expectError([&] { Dst.copy_(zeros({1, 2, 2})); }, "cannot be broadcast");
  expectError([&] { Dst.copy_(Tensor()); }, "the source is undefined");
}

TEST(CopyTest, Copy_NonContiguousAndChannelsLast) {
  Tensor A = arange(24, kFloat).view({2, 3, 2, 2});
  Tensor CL = empty({2, 3, 2, 2}, {}, MemoryFormat::ChannelsLast);
  CL.copy_(A);
  EXPECT_EQ(values(CL), values(A));
  EXPECT_EQ(CL.data_ptr<float>()[1], 4.f); // C varies fastest in memory
  // Channels-last into a permuted destination with a different dtype.
  Tensor P = empty({2, 2, 2, 3}, kDouble).permute({0, 3, 1, 2});
  P.copy_(CL);
  EXPECT_EQ(values(P), values(A));
  // Sliced rows of a matrix.
  Tensor M = arange(20, kLong).view({4, 5});
  Tensor Out = zeros({2, 3}, kLong);
  Out.copy_(M.slice(0, 1, 3).slice(1, 1, 4));
  EXPECT_EQ(values(Out), Doubles({6, 7, 8, 11, 12, 13}));
}

TEST(CopyTest, Copy_BatchedTranspose_RunsInTiles) {
  // Tiles of 32 with ragged edges, a batch dimension outside them, and a
  // dtype conversion inside.
  Tensor Src = arange(3 * 37 * 70, kInt).view({3, 37, 70});
  Tensor Dst = empty({3, 70, 37}, kDouble);
  Dst.copy_(Src.transpose(1, 2));
  Doubles Got = values(Dst), Expected;
  for (int64_t B = 0; B != 3; ++B)
    for (int64_t I = 0; I != 70; ++I)
      for (int64_t J = 0; J != 37; ++J)
        Expected.push_back(static_cast<double>(B * 37 * 70 + J * 70 + I));
  EXPECT_EQ(Got, Expected);
}

TEST(CopyTest, Copy_ZeroSizeAndOneElement) {
  Tensor E = empty({0, 3});
  E.copy_(empty({3}, kInt));
  EXPECT_EQ(E.numel(), 0);
  Tensor One = zeros({1, 1}, kHalf);
  One.copy_(makeScalar(2.5, kDouble));
  EXPECT_EQ(values(One), Doubles({2.5}));
}

TEST(CopyTest, Copy_OverlappingAliases_ReadsBeforeWriting) {
  // Shift right by one within the same storage.
  Tensor A = arange(6, kLong);
  A.slice(0, 1).copy_(A.slice(0, 0, 5));
  EXPECT_EQ(values(A), Doubles({0, 0, 1, 2, 3, 4}));
  // Shift left.
  Tensor B = arange(6, kLong);
  B.slice(0, 0, 5).copy_(B.slice(0, 1));
  EXPECT_EQ(values(B), Doubles({1, 2, 3, 4, 5, 5}));
  // Transpose in place.
  Tensor M = arange(9, kFloat).view({3, 3});
  M.copy_(M.t());
  EXPECT_EQ(values(M), Doubles({0, 3, 6, 1, 4, 7, 2, 5, 8}));
  // Reinterpreting the same bytes is a no-op copy onto itself.
  Tensor S = arange(4, kInt);
  S.copy_(S);
  EXPECT_EQ(values(S), Doubles({0, 1, 2, 3}));
}

TEST(CopyTest, Copy_IntoExpandedTensor_Fails) {
  Tensor Dst = zeros({3}).expand({2, 3});
  expectError(
      [&] {
        Dst.copy_(ones({2, 3}));
      },
      "copy_(): unsupported operation: more than one element of the "
      "written-to tensor refers to a single memory location. Please "
      "clone() the tensor before performing the operation.");
}

TEST(CopyTest, Copy_Meta_ChecksShapesOnly) {
  Tensor M = empty({2, 3}, kMeta);
  M.copy_(ones({3}));
  M.copy_(empty({1, 3}, TensorOptions(kMeta).dtype(kHalf)));
  expectError([&] { M.copy_(ones({2})); },
              "copy_(): the source of size [2] cannot be broadcast to the "
              "destination of size [2, 3]");
  Tensor Cpu = zeros({2, 3});
  expectError([&] { Cpu.copy_(M); },
              "copy_(): Cannot copy out of meta tensor; no data!");
  EXPECT_THROW(Cpu.copy_(M), NotImplementedError);
}

TEST(CopyTest, Copy_PrivateUse1_NeedsTheBackendsCopyKernel) {
  // A backend's tensors exist once it registers an allocator, but copies
  // need its sk::_copy_from kernel and fills its own kernels, which this
  // test does not register.
  Allocator *Previous =
      setAllocator(DeviceType::PrivateUse1, getCPUAllocator());
  Tensor P = detail::empty_generic({2}, kFloat, Device("privateuseone"));
  setAllocator(DeviceType::PrivateUse1, Previous);
  expectError([&] { P.copy_(zeros({2})); },
              "copy_(): copying from 'cpu' to 'privateuseone' needs the "
              "'PrivateUse1' backend's kernel for sk::_copy_from, and none "
              "is registered");
  expectError([&] { zeros({2}).copy_(P); },
              "copy_(): copying from 'privateuseone' to 'cpu' needs");
  expectError([&] { P.fill_(1); },
              "fill_(): no kernel for this device (a tensor on "
              "'privateuseone')");
  expectError([&] { P.to(kCPU); }, "copying from 'privateuseone' to 'cpu'");
  EXPECT_EQ(P.toString(), "tensor(..., device='privateuseone', size=(2,))");
  Tensor M = P.to(kMeta);
  EXPECT_TRUE(M.is_meta());
}

//===----------------------------------------------------------------------===//
// clone and contiguous layouts
//===----------------------------------------------------------------------===//

TEST(CloneTest, Clone_PreservesDenseStrides) {
  Tensor T = arange(6, kFloat).view({2, 3}).t();
  Tensor C = T.clone();
  EXPECT_FALSE(C.is_alias_of(T));
  EXPECT_EQ(vec(C.strides()), vec(T.strides()));
  EXPECT_EQ(values(C), values(T));
  Tensor CL = empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  CL.copy_(arange(120, kFloat).view({2, 3, 4, 5}));
  Tensor CLC = CL.clone();
  EXPECT_TRUE(CLC.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(values(CLC), values(CL));
}

TEST(CloneTest, Clone_NonDense_BecomesContiguous) {
  Tensor S = arange(10, kInt).slice(0, 0, std::nullopt, 2);
  Tensor C = S.clone();
  EXPECT_TRUE(C.is_contiguous());
  EXPECT_EQ(values(C), Doubles({0, 2, 4, 6, 8}));
  Tensor E = arange(3, kInt).expand({2, 3});
  Tensor EC = E.clone();
  EXPECT_EQ(vec(EC.strides()), Ints({3, 1}));
  EXPECT_EQ(values(EC), Doubles({0, 1, 2, 0, 1, 2}));
}

TEST(CloneTest, Clone_MemoryFormats) {
  Tensor T = arange(6, kFloat).view({2, 3}).t();
  EXPECT_TRUE(T.clone(MemoryFormat::Contiguous).is_contiguous());
  Tensor A = arange(24, kFloat).view({1, 2, 3, 4});
  Tensor CL = A.clone(MemoryFormat::ChannelsLast);
  EXPECT_TRUE(CL.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(values(CL), values(A));
}

TEST(CloneTest, Clone_Meta_StaysMeta) {
  Tensor M = empty({4, 5}, kMeta).t();
  Tensor C = M.clone();
  EXPECT_TRUE(C.is_meta());
  EXPECT_EQ(vec(C.strides()), Ints({1, 5}));
  EXPECT_FALSE(C.unsafeGetTensorImpl()->has_storage());
}

//===----------------------------------------------------------------------===//
// to
//===----------------------------------------------------------------------===//

TEST(ToTest, To_Dtype) {
  Tensor A = makeTensor({1.5, -2.5, 3}, kFloat);
  EXPECT_TRUE(A.to(kFloat).is_same(A));
  Tensor Copy = A.to(kFloat, /*Copy=*/true);
  EXPECT_FALSE(Copy.is_alias_of(A));
  EXPECT_EQ(values(Copy), values(A));
  Tensor I = A.to(kInt);
  EXPECT_EQ(I.dtype(), kInt);
  EXPECT_EQ(values(I), Doubles({1, -2, 3}));
  // Layout is preserved when dense.
  Tensor T = arange(6, kFloat).view({2, 3}).t().to(kDouble);
  EXPECT_EQ(vec(T.strides()), Ints({1, 3}));
}

TEST(ToTest, To_Meta_DropsData) {
  Tensor A = arange(6, kFloat).view({2, 3});
  Tensor M = A.to(kMeta);
  EXPECT_TRUE(M.is_meta());
  EXPECT_FALSE(M.unsafeGetTensorImpl()->has_storage());
  EXPECT_EQ(vec(M.sizes()), Ints({2, 3}));
  EXPECT_TRUE(M.to(kMeta).is_same(M));
  Tensor MH = A.to(TensorOptions(kMeta).dtype(kHalf));
  EXPECT_EQ(MH.dtype(), kHalf);
  EXPECT_TRUE(MH.is_meta());
}

TEST(ToTest, To_CpuFromMeta_FailsNamingMeta) {
  Tensor M = empty({2, 3}, kMeta);
  expectError([&] { M.to(kCPU); },
              "to(): Cannot copy out of meta tensor; no data! (a meta tensor "
              "of sizes [2, 3] and dtype float32 has no values to copy to "
              "'cpu')");
  EXPECT_THROW(M.to(kCPU), NotImplementedError);
}

TEST(ToTest, To_Cuda_IsNotAvailable) {
  Tensor A = zeros({2});
  expectError([&] { A.to(Device("cuda:0")); },
              "to(): CUDA is not available in this build: cannot copy from "
              "'cpu' to 'cuda:0'");
  expectError([&] { A.to(TensorOptions(Device("cuda")).dtype(kHalf)); },
              "CUDA is not available");
}

TEST(ToTest, To_Options_MemoryFormat) {
  Tensor A = arange(24, kFloat).view({1, 2, 3, 4});
  Tensor CL = A.to(TensorOptions().memory_format(MemoryFormat::ChannelsLast));
  EXPECT_TRUE(CL.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_FALSE(CL.is_alias_of(A));
  EXPECT_EQ(values(CL), values(A));
  EXPECT_TRUE(CL.to(TensorOptions().memory_format(MemoryFormat::ChannelsLast))
                  .is_same(CL));
}

//===----------------------------------------------------------------------===//
// fill_, zero_, resize_
//===----------------------------------------------------------------------===//

TEST(FillTest, Fill_EveryDtype) {
  for (ScalarType D : AllDtypes) {
    SCOPED_TRACE(testing::Message() << D);
    Tensor T = empty({2, 3}, D);
    T.fill_(1);
    EXPECT_EQ(values(T), Doubles(6, 1.0));
    T.fill_(false);
    EXPECT_EQ(values(T), Doubles(6, 0.0));
  }
}

TEST(FillTest, Fill_TruncatesFractionsButChecksOverflow) {
  Tensor I = zeros({2}, kInt);
  I.fill_(2.9);
  EXPECT_EQ(values(I), Doubles({2, 2}));
  expectError([] { zeros({2}, kChar).fill_(1000); },
              "fill_(): value 1000 cannot be converted to type int8 without "
              "overflow");
  expectError([] { zeros({2}, kByte).fill_(-1); },
              "cannot be converted to type uint8");
  expectError([] { zeros({2}, kHalf).fill_(1e6); },
              "fill_(): value 1e+06 cannot be converted to type float16");
  expectError([] { zeros({2}, kLong).fill_(std::nan("")); },
              "cannot be converted to type int64");
  expectError([] { zeros({2}, kLong).fill_(9.3e18); },
              "cannot be converted to type int64");
  Tensor H = zeros({1}, kHalf);
  H.fill_(INFINITY);
  EXPECT_TRUE(std::isinf(values(H)[0]));
  Tensor B = zeros({1}, kBool);
  B.fill_(5);
  EXPECT_EQ(values(B), Doubles({1}));
}

TEST(FillTest, Fill_NonContiguous_TouchesOnlyTheView) {
  Tensor A = zeros({3, 4}, kLong);
  A.slice(1, 1, std::nullopt, 2).fill_(7);
  EXPECT_EQ(values(A), Doubles({0, 7, 0, 7, 0, 7, 0, 7, 0, 7, 0, 7}));
  A.select(0, 1).zero_();
  EXPECT_EQ(values(A), Doubles({0, 7, 0, 7, 0, 0, 0, 0, 0, 7, 0, 7}));
  A.t().fill_(3);
  EXPECT_EQ(values(A), Doubles(12, 3.0));
  // An expanded tensor writes the same element several times: allowed.
  Tensor Row = zeros({3}, kLong);
  Row.expand({4, 3}).fill_(2);
  EXPECT_EQ(values(Row), Doubles({2, 2, 2}));
}

TEST(FillTest, FillAndZero_Meta_DoNothing) {
  Tensor M = empty({1000000, 1000000}, kMeta);
  EXPECT_TRUE(M.fill_(1).is_same(M));
  EXPECT_TRUE(M.zero_().is_same(M));
  expectError([&] { empty({2}, TensorOptions(kMeta).dtype(kChar)).fill_(300); },
              "fill_(): value 300 cannot be converted to type int8");
}

TEST(ResizeTest, Resize_GrowsAndKeepsData) {
  Tensor A = arange(4, kInt);
  A.resize_({2, 4});
  EXPECT_EQ(vec(A.sizes()), Ints({2, 4}));
  EXPECT_EQ(values(A.select(0, 0)), Doubles({0, 1, 2, 3}));
  A.resize_({3});
  EXPECT_EQ(values(A), Doubles({0, 1, 2}));
  A.resize_({2, 3, 4, 5}, MemoryFormat::ChannelsLast);
  EXPECT_TRUE(A.is_contiguous(MemoryFormat::ChannelsLast));
  A.unsafeGetTensorImpl()->checkInvariants();
}

TEST(ResizeTest, Resize_Meta_ChangesShapeOnly) {
  Tensor M = empty({2}, kMeta);
  M.resize_({100000, 100000});
  EXPECT_EQ(M.numel(), 10000000000LL);
  EXPECT_FALSE(M.unsafeGetTensorImpl()->has_storage());
}

TEST(ResizeTest, Resize_BadArguments_Fail) {
  Tensor A = zeros({2});
  expectError(
      [&] {
        A.resize_({2, -1});
      },
      "resize_(): Trying to create tensor with negative dimension -1: "
      "[2, -1]");
  expectError([&] { A.resize_({2}, MemoryFormat::Preserve); },
              "resize_(): Unsupported memory format preserve");
  expectError(
      [&] {
        A.resize_({2, 3}, MemoryFormat::ChannelsLast);
      },
      "resize_(): required rank 4 tensor to use channels_last");
  expectError([&] { A.resize_({int64_t(1) << 62, 16}); }, "overflow");
  EXPECT_EQ(vec(A.sizes()), Ints({2}));
}

} // namespace
