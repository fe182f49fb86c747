//===--- CUDAKernelTestUtils.h - Helpers for CUDA kernel tests --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA kernel tests run each operator on CUDA and on the CPU and
/// compare: these make the inputs (deterministic, on the CPU, then copied)
/// and compare a CUDA result with a CPU one within a tolerance per dtype.
/// Every test derives from sk::test::CUDATest, so that without a GPU all
/// of them skip with one message.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_KERNELS_CUDA_CUDAKERNELTESTUTILS_H
#define SKC_TEST_KERNELS_CUDA_CUDAKERNELTESTUTILS_H

#include "CUDATestUtils.h"
#include "iter/IterTestUtils.h"

#include "sk/core/DeviceGuard.h"
#include "sk/core/Tensor.h"
#include "sk/iter/TypePromotion.h"
#include "sk/ops/Factories.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace sk {
namespace test {

/// \p T on the first CUDA device.
inline Tensor toCUDA(const Tensor &T) { return T.to(Device("cuda")); }

/// \p T on the CPU.
inline Tensor toCPU(const Tensor &T) { return T.to(Device(DeviceType::CPU)); }

/// Waits for the current CUDA device: where the checks that kernels make
/// of their input throw (Note [Device checks] in sk/cuda/DeviceChecks.h).
inline void waitForDevice() { synchronizeDevice(Device(DeviceType::CUDA)); }

/// Deterministic pseudo-random values in [Lo, Hi).
inline std::vector<double> randomValues(int64_t N, double Lo, double Hi,
                                        uint64_t Seed) {
  std::vector<double> V(static_cast<size_t>(N));
  uint64_t S = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int64_t I = 0; I < N; ++I) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    V[I] = Lo + (Hi - Lo) * static_cast<double>(S >> 11) / 9007199254740992.0;
  }
  return V;
}

/// A CPU tensor of \p Sizes with random values in [Lo, Hi), rounded to
/// integers for integer dtypes.
inline Tensor randomCPU(IntArrayRef Sizes, ScalarType Dtype = kFloat,
                        uint64_t Seed = 1, double Lo = -3, double Hi = 3) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  std::vector<double> V = randomValues(N, Lo, Hi, Seed);
  if (!isFloatingType(Dtype))
    for (double &X : V)
      X = std::floor(X);
  return fromVector(V, Sizes, Dtype);
}

/// The tolerance of a comparison in \p Dtype (relative, plus as much
/// absolute).
inline double toleranceFor(ScalarType Dtype) {
  switch (Dtype) {
  case kHalf:
    return 1e-2;
  case kBFloat16:
    return 4e-2;
  case kFloat:
    return 1e-4;
  default:
    return 1e-9;
  }
}

/// Expects the CUDA tensor \p Got to equal the CPU tensor \p Want in
/// sizes, dtype and values (NaN equal to NaN), within \p Tol, or the
/// dtype's tolerance when negative.
inline void expectClose(const Tensor &Got, const Tensor &Want,
                        double Tol = -1) {
  ASSERT_TRUE(Got.is_cuda());
  ASSERT_EQ(Got.sizes().vec(), Want.sizes().vec());
  ASSERT_EQ(Got.scalar_type(), Want.scalar_type());
  if (Tol < 0)
    Tol = toleranceFor(Want.scalar_type());
  std::vector<double> G = toVector<double>(toCPU(Got));
  std::vector<double> W = toVector<double>(Want);
  ASSERT_EQ(G.size(), W.size());
  for (size_t I = 0; I < G.size(); ++I) {
    if (std::isnan(W[I])) {
      EXPECT_TRUE(std::isnan(G[I])) << "at " << I;
      continue;
    }
    if (G[I] == W[I]) // Infinities of the same sign included.
      continue;
    EXPECT_NEAR(G[I], W[I], Tol * (1 + std::fabs(W[I]))) << "at " << I;
  }
}

/// Expects the CUDA tensor \p Got to equal the CPU tensor \p Want exactly.
inline void expectEqual(const Tensor &Got, const Tensor &Want) {
  expectClose(Got, Want, 0);
}

/// The name of a dtype parameter, for test names ("Float", "BFloat16").
inline std::string dtypeName(const ::testing::TestParamInfo<ScalarType> &I) {
  return detail::typeName(I.param);
}

/// A CUDATest parameterised by dtype.
class CUDADtypeTest : public CUDATest,
                      public ::testing::WithParamInterface<ScalarType> {};

} // namespace test
} // namespace sk

#endif // SKC_TEST_KERNELS_CUDA_CUDAKERNELTESTUTILS_H
