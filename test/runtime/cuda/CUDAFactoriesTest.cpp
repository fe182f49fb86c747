//===--- CUDAFactoriesTest.cpp - Factories on CUDA devices ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/ops/Factories.h"
#include "sk/ops/Generator.h"

#include <cmath>
#include <vector>

using namespace sk;
using test::valuesOf;

namespace {

class CUDAFactoriesTest : public test::CUDATest {
protected:
  const Device Cuda{"cuda:0"};
};

TEST_F(CUDAFactoriesTest, Empty_GetsTheCurrentDeviceIndex) {
  cuda::set_device(0);
  Tensor T = empty({2, 3}, Device("cuda"));
  EXPECT_EQ(T.device(), Cuda);
  EXPECT_EQ(T.dtype(), kFloat);
  EXPECT_TRUE(T.is_contiguous());
  EXPECT_NE(T.data_ptr(), nullptr);
}

TEST_F(CUDAFactoriesTest, EmptyStridedAndChannelsLast) {
  Tensor S = empty_strided({2, 3}, {1, 2}, Cuda);
  EXPECT_EQ(S.strides(), (std::vector<int64_t>{1, 2}));
  Tensor C = empty({1, 2, 3, 4}, Cuda, MemoryFormat::ChannelsLast);
  EXPECT_TRUE(C.is_contiguous(MemoryFormat::ChannelsLast));
}

TEST_F(CUDAFactoriesTest, ZerosOnesFull) {
  EXPECT_EQ(valuesOf<float>(zeros({3}, Cuda).to(kCPU)),
            std::vector<float>(3, 0.f));
  EXPECT_EQ(valuesOf<float>(ones({3}, Cuda).to(kCPU)),
            std::vector<float>(3, 1.f));
  Tensor F = full({2, 2}, 5, Cuda);
  EXPECT_EQ(F.dtype(), kLong);
  EXPECT_EQ(valuesOf<int64_t>(F.to(kCPU)), std::vector<int64_t>(4, 5));
  Tensor H = full({2}, 0.5, TensorOptions(Cuda).dtype(kHalf));
  EXPECT_EQ(valuesOf<float>(H.to(kFloat).to(kCPU)),
            (std::vector<float>{0.5f, 0.5f}));
  SK_EXPECT_ERROR(full({2}, 300, TensorOptions(Cuda).dtype(kByte)),
                  "cannot be converted");
}

TEST_F(CUDAFactoriesTest, Likes_KeepTheDevice) {
  Tensor T = ones({2, 3}, Cuda);
  Tensor Z = zeros_like(T);
  EXPECT_EQ(Z.device(), Cuda);
  EXPECT_EQ(valuesOf<float>(Z.to(kCPU)), std::vector<float>(6, 0.f));
  EXPECT_EQ(valuesOf<float>(full_like(T, 2).to(kCPU)),
            std::vector<float>(6, 2.f));
}

TEST_F(CUDAFactoriesTest, Arange_MatchesTheCPU) {
  EXPECT_EQ(valuesOf<int64_t>(arange(0, 5, Cuda).to(kCPU)),
            (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

/// The values of \p T (on CUDA) as doubles.
std::vector<double> doublesOf(const Tensor &T) {
  return valuesOf<double>(T.to(kCPU).to(kDouble));
}

TEST_F(CUDAFactoriesTest, Rand_DrawnOnTheDeviceReproduciblyFromTheSeed) {
  // Larger than one round of the grid (1024 blocks of 256 threads, four
  // values each), with a tail.
  const int64_t N = (int64_t(3) << 20) + 5;
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kBFloat16}) {
    SCOPED_TRACE(toString(Dtype));
    Generator A(7), B(7);
    Tensor First = rand({N}, &A, TensorOptions(Dtype).device(Cuda));
    EXPECT_EQ(First.device(), Cuda);
    EXPECT_EQ(First.dtype(), Dtype);
    std::vector<double> V = doublesOf(First);
    EXPECT_EQ(V, doublesOf(rand({N}, &B, TensorOptions(Dtype).device(Cuda))));
    // The next draw continues the stream.
    EXPECT_NE(V, doublesOf(rand({N}, &A, TensorOptions(Dtype).device(Cuda))));
    double Sum = 0, SumSquares = 0;
    for (double X : V) {
      ASSERT_GE(X, 0.0);
      ASSERT_LT(X, 1.0); // Never 1, even in bfloat16.
      Sum += X;
      SumSquares += X * X;
    }
    double Mean = Sum / double(N), Var = SumSquares / double(N) - Mean * Mean;
    // Uniform [0, 1): mean 1/2, variance 1/12; the coarse bfloat16 grid
    // (k / 256) moves both by under 1 %.
    EXPECT_NEAR(Mean, 0.5, 0.01);
    EXPECT_NEAR(Var, 1.0 / 12, 0.002);
  }
}

TEST_F(CUDAFactoriesTest, Randn_StandardNormalOnTheDevice) {
  const int64_t N = (int64_t(1) << 21) + 3;
  for (ScalarType Dtype : {kFloat, kDouble}) {
    SCOPED_TRACE(toString(Dtype));
    manual_seed(3);
    std::vector<double> V =
        doublesOf(randn({N}, nullptr, TensorOptions(Dtype).device(Cuda)));
    manual_seed(3);
    EXPECT_EQ(
        V, doublesOf(randn({N}, nullptr, TensorOptions(Dtype).device(Cuda))));
    double Sum = 0, SumSquares = 0;
    for (double X : V) {
      ASSERT_TRUE(std::isfinite(X));
      Sum += X;
      SumSquares += X * X;
    }
    double Mean = Sum / double(N);
    EXPECT_NEAR(Mean, 0.0, 0.01);
    EXPECT_NEAR(SumSquares / double(N) - Mean * Mean, 1.0, 0.01);
  }
}

TEST_F(CUDAFactoriesTest, BadDeviceIndex_Fails) {
  SK_EXPECT_ERROR(zeros({2}, Device(DeviceType::CUDA, 100)),
                  "invalid device 'cuda:100'");
}

TEST_F(CUDAFactoriesTest, EmptySizes_AllocateNothing) {
  Tensor T = zeros({0, 3}, Cuda);
  EXPECT_EQ(T.numel(), 0);
  EXPECT_EQ(T.device(), Cuda);
  EXPECT_EQ(T.to(kCPU).numel(), 0);
}

TEST_F(CUDAFactoriesTest, Resize_FromEmptyAllocatesOnTheDevice) {
  Tensor T = empty({0}, Cuda);
  T.resize_({4});
  T.fill_(3);
  EXPECT_EQ(valuesOf<float>(T.to(kCPU)), std::vector<float>(4, 3.f));
}

TEST_F(CUDAFactoriesTest, Resize_GrowingKeepsTheBytesOnTheDevice) {
  Tensor T = full({4}, 3.0, TensorOptions(kFloat).device(Cuda));
  T.resize_({1 << 20});
  EXPECT_EQ(T.numel(), 1 << 20);
  std::vector<float> Values = valuesOf<float>(T.narrow(0, 0, 4).to(kCPU));
  EXPECT_EQ(Values, std::vector<float>(4, 3.f));
}

// A copy from pageable host memory above the staging threshold goes
// through the pinned buffers (Note [Pinned staging] in CUDACopy.cpp), in
// several chunks; twice, so that the second waits on the first's events.
TEST_F(CUDAFactoriesTest, LargeCopiesFromPageableMemory_ArriveWhole) {
  Tensor Host = arange(int64_t(5) << 20, TensorOptions(kFloat));
  for (int Round = 0; Round < 2; ++Round) {
    Tensor OnDevice = Host.to(Cuda);
    std::vector<float> Back = valuesOf<float>(OnDevice.to(kCPU));
    ASSERT_EQ(Back.size(), size_t(5) << 20);
    for (size_t I = 0; I < Back.size(); I += 4099)
      ASSERT_EQ(Back[I], float(I)) << I;
    ASSERT_EQ(Back.back(), float(Back.size() - 1));
  }
}
} // namespace
