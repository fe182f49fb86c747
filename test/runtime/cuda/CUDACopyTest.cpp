//===--- CUDACopyTest.cpp - copy_ and to() with CUDA tensors --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/ops/Factories.h"

using namespace sk;
using test::valuesOf;

namespace {

class CUDACopyTest : public test::CUDATest {
protected:
  const Device Cuda{"cuda:0"};

  /// 0, 1, ..., N-1 as float32 of \p Sizes, on the CPU.
  static Tensor counting(IntArrayRef Sizes) {
    int64_t N = 1;
    for (int64_t S : Sizes)
      N *= S;
    return arange(N, kFloat).view(Sizes);
  }
};

TEST_F(CUDACopyTest, Contiguous_RoundTrip) {
  Tensor Host = counting({3, 4});
  Tensor Dev = Host.to(Cuda);
  EXPECT_EQ(Dev.device(), Cuda);
  EXPECT_EQ(Dev.sizes(), Host.sizes());
  Tensor Back = Dev.to(kCPU);
  EXPECT_TRUE(Back.is_cpu());
  EXPECT_EQ(valuesOf<float>(Back), valuesOf<float>(Host));
}

TEST_F(CUDACopyTest, DeviceToDevice_Clone) {
  Tensor Dev = counting({5}).to(Cuda);
  Tensor Copy = Dev.clone();
  EXPECT_EQ(Copy.device(), Cuda);
  EXPECT_NE(Copy.data_ptr(), Dev.data_ptr());
  EXPECT_EQ(valuesOf<float>(Copy.to(kCPU)), valuesOf<float>(counting({5})));
}

TEST_F(CUDACopyTest, TransposedSource_RoundTrip) {
  Tensor Host = counting({3, 4});
  Tensor Dev = Host.to(Cuda);
  // Device to host from a transposed view, and device to device into a
  // contiguous tensor.
  EXPECT_EQ(valuesOf<float>(Dev.t().to(kCPU)), valuesOf<float>(Host.t()));
  EXPECT_EQ(valuesOf<float>(Dev.t().contiguous().to(kCPU)),
            valuesOf<float>(Host.t()));
  // Host to device from a transposed view.
  EXPECT_EQ(valuesOf<float>(Host.t().to(Cuda).to(kCPU)),
            valuesOf<float>(Host.t()));
}

TEST_F(CUDACopyTest, IntoViewWithGaps_KeepsTheGaps) {
  Tensor Dev = zeros({4, 4}, Cuda);
  // Column 1: a destination with gaps between its elements.
  Dev.select(1, 1).copy_(arange(4, kFloat));
  std::vector<float> Expected(16, 0.f);
  for (int I = 0; I != 4; ++I)
    Expected[I * 4 + 1] = static_cast<float>(I);
  EXPECT_EQ(valuesOf<float>(Dev.to(kCPU)), Expected);
}

TEST_F(CUDACopyTest, DtypeChange_ConvertsOnTheWay) {
  Tensor Host = counting({6});
  Tensor Half = Host.to(TensorOptions(Cuda).dtype(kHalf));
  EXPECT_EQ(Half.dtype(), kHalf);
  EXPECT_EQ(Half.device(), Cuda);
  EXPECT_EQ(valuesOf<float>(Half.to(kFloat).to(kCPU)), valuesOf<float>(Host));
  Tensor Ints = Half.to(kInt);
  EXPECT_EQ(Ints.device(), Cuda);
  EXPECT_EQ(valuesOf<int32_t>(Ints.to(kCPU)),
            (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST_F(CUDACopyTest, BroadcastSource_FillsEveryRow) {
  Tensor Dev = empty({3, 2}, Cuda);
  Dev.copy_(arange(2, kFloat));
  EXPECT_EQ(valuesOf<float>(Dev.to(kCPU)),
            (std::vector<float>{0, 1, 0, 1, 0, 1}));
}

TEST_F(CUDACopyTest, OverlappingDeviceCopy_ReadsBeforeWriting) {
  Tensor Dev = counting({6}).to(Cuda);
  Dev.narrow(0, 1, 5).copy_(Dev.narrow(0, 0, 5));
  EXPECT_EQ(valuesOf<float>(Dev.to(kCPU)),
            (std::vector<float>{0, 0, 1, 2, 3, 4}));
}

TEST_F(CUDACopyTest, IntoBroadcastDestination_Fails) {
  Tensor Dev = zeros({1}, Cuda).expand({3});
  SK_EXPECT_ERROR(Dev.copy_(ones({3})), "more than one element");
}

TEST_F(CUDACopyTest, FromMeta_Fails) {
  Tensor Dev = zeros({2}, Cuda);
  SK_EXPECT_ERROR(Dev.copy_(empty({2}, kMeta)), "Cannot copy out of meta");
}

TEST_F(CUDACopyTest, FillAndZero_OnDenseAndStridedTensors) {
  Tensor Dev = empty({2, 3}, TensorOptions(Cuda).dtype(kLong));
  Dev.fill_(7);
  EXPECT_EQ(valuesOf<int64_t>(Dev.to(kCPU)), std::vector<int64_t>(6, 7));
  Dev.select(1, 0).zero_();
  EXPECT_EQ(valuesOf<int64_t>(Dev.to(kCPU)),
            (std::vector<int64_t>{0, 7, 7, 0, 7, 7}));
  SK_EXPECT_ERROR(Dev.fill_(1.5e300), "cannot be converted");
}
} // namespace
