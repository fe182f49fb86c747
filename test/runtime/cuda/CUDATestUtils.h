//===--- CUDATestUtils.h - Helpers for CUDA runtime tests -------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDATest, the fixture of every test that needs a GPU: it skips the test,
/// always with kNoCUDADeviceMessage, when no CUDA device is usable, so that
/// a run on a machine without one reports one reason for all of them.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_RUNTIME_CUDA_CUDATESTUTILS_H
#define SKC_TEST_RUNTIME_CUDA_CUDATESTUTILS_H

#include "TestUtils.h"

#include "sk/core/Tensor.h"
#include "sk/cuda/CUDAFunctions.h"

#include "gtest/gtest.h"

#include <vector>

namespace sk {
namespace test {

constexpr const char *kNoCUDADeviceMessage =
    "no CUDA device: CUDA tests skipped";

/// Skips the test when there is no CUDA device.
class CUDATest : public ::testing::Test {
protected:
  void SetUp() override {
    if (cuda::device_count() == 0)
      GTEST_SKIP() << kNoCUDADeviceMessage;
  }
};

/// The elements of a CPU float tensor, in row-major order.
template <typename T> std::vector<T> valuesOf(const Tensor &CPU) {
  Tensor C = CPU.contiguous();
  const T *P = static_cast<const T *>(C.data_ptr());
  return std::vector<T>(P, P + C.numel());
}

} // namespace test
} // namespace sk

#endif // SKC_TEST_RUNTIME_CUDA_CUDATESTUTILS_H
