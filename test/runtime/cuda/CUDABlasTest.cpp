//===--- CUDABlasTest.cpp - cuBLAS handles --------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/cuda/CUDABlas.h"
#include "sk/cuda/CUDAStream.h"
#include "sk/ops/Factories.h"

#include <thread>

using namespace sk;
using namespace sk::cuda;
using test::valuesOf;

namespace {

class CUDABlasTest : public test::CUDATest {
protected:
  void SetUp() override {
    test::CUDATest::SetUp();
    if (!IsSkipped())
      set_device(0);
  }
};

TEST_F(CUDABlasTest, Handle_IsPerThreadAndFollowsTheStream) {
  cublasHandle_t H = getCurrentCUDABlasHandle();
  EXPECT_NE(H, nullptr);
  EXPECT_EQ(getCurrentCUDABlasHandle(), H);
  CUDAStream Pool = getStreamFromPool(0);
  {
    CUDAStreamGuard Guard(Pool);
    EXPECT_EQ(getCurrentCUDABlasHandle(), H);
    cudaStream_t Bound = nullptr;
    SK_CUBLAS_CHECK(cublasGetStream(H, &Bound));
    EXPECT_EQ(Bound, Pool.stream());
  }
  cublasHandle_t Other = nullptr;
  std::thread([&] { Other = getCurrentCUDABlasHandle(); }).join();
  EXPECT_NE(Other, H);
}

TEST_F(CUDABlasTest, Sgemm_OnTheCurrentStream) {
  // Column-major 2x2: A = [1 3; 2 4], B = identity, C = A.
  Tensor A = arange(1, 5, kFloat).to(Device("cuda:0"));
  Tensor B = zeros({4}, Device("cuda:0"));
  B.narrow(0, 0, 1).fill_(1);
  B.narrow(0, 3, 1).fill_(1);
  Tensor C = empty({4}, Device("cuda:0"));
  float One = 1, Zero = 0;
  SK_CUBLAS_CHECK(cublasSgemm(getCurrentCUDABlasHandle(), CUBLAS_OP_N,
                              CUBLAS_OP_N, 2, 2, 2, &One,
                              static_cast<const float *>(A.data_ptr()), 2,
                              static_cast<const float *>(B.data_ptr()), 2,
                              &Zero, static_cast<float *>(C.data_ptr()), 2));
  EXPECT_EQ(valuesOf<float>(C.to(kCPU)), (std::vector<float>{1, 2, 3, 4}));
}
} // namespace
