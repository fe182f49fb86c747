//===--- CUDAFactoriesTest.cpp - Factories on CUDA devices ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/ops/Factories.h"
#include "sk/ops/Generator.h"

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

TEST_F(CUDAFactoriesTest, ArangeAndRand_MatchTheCPU) {
  EXPECT_EQ(valuesOf<int64_t>(arange(0, 5, Cuda).to(kCPU)),
            (std::vector<int64_t>{0, 1, 2, 3, 4}));
  Generator A(7), B(7);
  Tensor OnCuda = rand({8}, &A, Cuda);
  EXPECT_EQ(OnCuda.device(), Cuda);
  EXPECT_EQ(valuesOf<float>(OnCuda.to(kCPU)), valuesOf<float>(rand({8}, &B)));
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
  // Growing keeps the old bytes, which the host cannot copy yet.
  SK_EXPECT_ERROR(T.resize_({1000}), "is not supported yet");
}
} // namespace
