//===--- CUDAExceptionTest.cpp - SK_CUDA_CHECK and its messages -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// These need no GPU: the error strings come from cudart's tables.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/cuda/CUDABlas.h"
#include "sk/cuda/CUDAException.h"

#include <string>

using namespace sk;

namespace {

cudaError_t failWithInvalidValue(int) { return cudaErrorInvalidValue; }
cudaError_t succeed() { return cudaSuccess; }

} // namespace

TEST(CUDAExceptionTest, FormatNamesCallErrorAndPlace) {
  std::string Msg = cuda::detail::formatCUDAError(
      cudaErrorInvalidValue, "cudaMemcpy(D, S, N, K)", "Foo.cpp", 12);
  EXPECT_EQ(Msg, "CUDA error: 'cudaMemcpy(D, S, N, K)' failed with "
                 "cudaErrorInvalidValue (invalid argument) at Foo.cpp:12");
}

TEST(CUDAExceptionTest, FailedCheck_ThrowsCUDAErrorWithExpression) {
  int Line = 0;
  try {
    Line = __LINE__ + 1;
    SK_CUDA_CHECK(failWithInvalidValue(42));
    ADD_FAILURE() << "SK_CUDA_CHECK did not throw";
  } catch (const CUDAError &E) {
    std::string Msg = E.what();
    EXPECT_EQ(E.error(), cudaErrorInvalidValue);
    EXPECT_NE(Msg.find("'failWithInvalidValue(42)'"), std::string::npos) << Msg;
    EXPECT_NE(Msg.find("cudaErrorInvalidValue (invalid argument)"),
              std::string::npos)
        << Msg;
    EXPECT_NE(Msg.find("CUDAExceptionTest.cpp:" + std::to_string(Line)),
              std::string::npos)
        << Msg;
  }
}

TEST(CUDAExceptionTest, CUDAErrorIsAnSkError) {
  SK_EXPECT_ERROR(SK_CUDA_CHECK(failWithInvalidValue(0)),
                  "cudaErrorInvalidValue");
}

TEST(CUDAExceptionTest, PassingCheck_DoesNotThrow) {
  EXPECT_NO_THROW(SK_CUDA_CHECK(succeed()));
}

TEST(CUDAExceptionTest, CUBLASFormatNamesStatus) {
  std::string Msg = cuda::detail::formatCUBLASError(
      CUBLAS_STATUS_INVALID_VALUE, "cublasSgemm(...)", "Bar.cpp", 7);
  EXPECT_NE(Msg.find("cuBLAS error: 'cublasSgemm(...)' failed with "
                     "CUBLAS_STATUS_INVALID_VALUE"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("at Bar.cpp:7"), std::string::npos) << Msg;
}
