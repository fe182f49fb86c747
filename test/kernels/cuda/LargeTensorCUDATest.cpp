//===--- LargeTensorCUDATest.cpp - Kernels past 32-bit indices ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA kernels over tensors of 2^31 elements or bytes or more, where
/// each switches from 32-bit index math to 64-bit (fitsInt32GridIndex,
/// poolFitsInt32), splits the iteration into pieces that fit 32 bits (the
/// elementwise launcher, where can_use_32bit_indexing() says no), or whose
/// row or element offsets could overflow 32 bits: elementwise operators,
/// log_softmax and layer_norm, index_select, cat, upsample_nearest1d,
/// device random numbers, batch_norm, the reductions and max_pool2d. Each
/// test needs several GB of device memory, as PyTorch's largeTensorTest
/// ones do, and skips where the device has less free. The inputs are patterns
/// whose results are known, or device random numbers; results are checked
/// against the known values, or a few slices against the CPU kernels over
/// the same slices of the inputs, not copied whole.
///
//===----------------------------------------------------------------------===//

#include "CUDAKernelTestUtils.h"

#include "Functions.h"

#include "sk/cuda/CUDACachingAllocator.h"

#include "gtest/gtest.h"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

using namespace sk;
using namespace sk::test;

namespace {

constexpr size_t kGiB = size_t(1) << 30;
constexpr int64_t k2To31 = int64_t(1) << 31;

class CUDALargeTensorTest : public CUDATest {
protected:
  // Gives the blocks back, for the next test and other processes.
  void TearDown() override { cuda::CUDACachingAllocator::emptyCache(); }
};

/// Empty where the current device has \p GiB free once the caching
/// allocator has given back its cache; otherwise why a test skips.
std::string lackOfMemory(size_t GiB) {
  cuda::CUDACachingAllocator::emptyCache();
  size_t Free = 0, Total = 0;
  if (cudaMemGetInfo(&Free, &Total) != cudaSuccess) {
    (void)cudaGetLastError();
    return "cudaMemGetInfo failed";
  }
  if (Free >= GiB * kGiB)
    return "";
  return "needs " + std::to_string(GiB) + " GiB of device memory free, has " +
         std::to_string(Free / kGiB) + " GiB";
}

TensorOptions onCUDA(ScalarType Dtype) {
  return TensorOptions(Dtype).device(Device("cuda"));
}

/// The CUDA tensor of \p Sizes whose last dim repeats \p Period (a CPU
/// tensor of \p Sizes' rank whose last dim divides Sizes' and whose other
/// dims are 1 or Sizes'), written by the device copy kernel.
Tensor repeated(const Tensor &Period, std::vector<int64_t> Sizes) {
  std::vector<int64_t> Split = Sizes;
  int64_t P = Period.size(-1);
  Split.back() = Sizes.back() / P;
  Split.push_back(P);
  std::vector<int64_t> PeriodSizes = Period.sizes().vec();
  PeriodSizes.insert(PeriodSizes.end() - 1, 1);
  return toCUDA(Period).view(PeriodSizes).expand(Split).contiguous().view(
      Sizes);
}

/// Expects rows [First, First + 2) of dim 0 of the CUDA tensor \p Got, for
/// each First of \p Probes, to be \p Want(First, 2): the CPU kernel over
/// the same rows of the inputs.
void expectRows(const Tensor &Got, std::initializer_list<int64_t> Probes,
                const std::function<Tensor(int64_t, int64_t)> &Want) {
  for (int64_t First : Probes) {
    SCOPED_TRACE(::testing::Message() << "rows from " << First);
    expectClose(Got.narrow(0, First, 2), Want(First, 2));
  }
}

TEST_F(CUDALargeTensorTest, Elementwise_PastTwoGiB_MatchesCPUSlices) {
  if (std::string Why = lackOfMemory(8); !Why.empty())
    GTEST_SKIP() << Why;
  // 2^29 + 3072 float32 values: byte offsets past 2^31 from row 2^19 on.
  const int64_t Rows = (int64_t(1) << 19) + 3, Cols = 1024;
  const int64_t Boundary = k2To31 / (Cols * 4);
  Tensor X = sk::randn({Rows, Cols}, onCUDA(kFloat));
  // Contiguous: the vectorized kernel, whose index is always 64-bit.
  expectRows(sk::add(X, X), {0, Boundary - 1, Rows - 2},
             [&](int64_t First, int64_t N) {
               Tensor XRows = toCPU(X.narrow(0, First, N));
               return sk::add(XRows, XRows);
             });
  // A broadcast row: pieces of the iteration that fit 32-bit offsets, each
  // run by the inner-vector kernel.
  Tensor W = sk::randn({Cols}, onCUDA(kFloat));
  expectRows(sk::mul(X, W), {0, Boundary - 1, Rows - 2},
             [&](int64_t First, int64_t N) {
               return sk::mul(toCPU(X.narrow(0, First, N)), toCPU(W));
             });
  // One element into X's storage: contiguous, but not aligned for the
  // vectorized kernel, so split into pieces for the strided kernel.
  {
    Tensor Shifted = X.view({-1}).narrow(0, 1, Rows * Cols - 1);
    Tensor Twice = sk::add(Shifted, Shifted);
    for (int64_t First : {int64_t(0), k2To31 / 4 - 2, Rows * Cols - 3}) {
      SCOPED_TRACE(::testing::Message() << "elements from " << First);
      Tensor Part = toCPU(Shifted.narrow(0, First, 2));
      expectClose(Twice.narrow(0, First, 2), sk::add(Part, Part));
    }
  }
  // A transposed operand: the output takes X.t()'s layout, so the
  // iteration walks Y down its columns, 2 MiB a step, over 2 GiB; the
  // pieces run by the strided kernel.
  Tensor Y = sk::randn({Cols, Rows}, onCUDA(kFloat));
  expectRows(sk::add(X.t(), Y), {0, Cols / 2, Cols - 2},
             [&](int64_t First, int64_t N) {
               return sk::add(toCPU(X.t().narrow(0, First, N)),
                              toCPU(Y.narrow(0, First, N)));
             });
}

TEST_F(CUDALargeTensorTest, RowKernels_RowsPast2To31Values_MatchCPUSlices) {
  if (std::string Why = lackOfMemory(10); !Why.empty())
    GTEST_SKIP() << Why;
  // 2^31 + 2048 bfloat16 values in rows of 1024: rows past 2^31 values
  // from row 2^21 on. log_softmax rather than softmax, whose values of
  // about 1e-3 any row's would match within bfloat16's tolerance.
  const int64_t Rows = (int64_t(1) << 21) + 2, Cols = 1024;
  const int64_t Boundary = k2To31 / Cols;
  Tensor X = sk::randn({Rows, Cols}, onCUDA(kBFloat16));
  auto Slice = [&](int64_t First, int64_t N) {
    return toCPU(X.narrow(0, First, N));
  };
  expectRows(sk::log_softmax(X, 1), {0, Boundary - 1, Rows - 2},
             [&](int64_t First, int64_t N) {
               return sk::log_softmax(Slice(First, N), 1);
             });
  expectRows(sk::layer_norm(X, {Cols}), {0, Boundary - 1, Rows - 2},
             [&](int64_t First, int64_t N) {
               return sk::layer_norm(Slice(First, N), {Cols});
             });
}

TEST_F(CUDALargeTensorTest,
       IndexSelect_OutputPast2To31Values_MatchesCPUSlices) {
  if (std::string Why = lackOfMemory(8); !Why.empty())
    GTEST_SKIP() << Why;
  // 2056 of the 64 columns of each of 2^20 rows: 2^31 + 8M output values,
  // the index running along dim 1 and broadcast over the rows, through
  // the gather kernel's 64-bit offsets (fitsInt32GridIndex says no).
  const int64_t Rows = int64_t(1) << 20, Picks = 2056;
  Tensor Src = sk::randn({Rows, 64}, onCUDA(kBFloat16));
  Tensor Index = randomCPU({Picks}, kInt, 3, 0, 64);
  expectRows(sk::index_select(Src, 1, toCUDA(Index)),
             {0, k2To31 / Picks - 1, Rows - 2}, [&](int64_t First, int64_t N) {
               return sk::index_select(toCPU(Src.narrow(0, First, N)), 1,
                                       Index);
             });
}

TEST_F(CUDALargeTensorTest, Cat_InputsPastTwoGiB_MatchesInputs) {
  if (std::string Why = lackOfMemory(10); !Why.empty())
    GTEST_SKIP() << Why;
  // Two bfloat16 vectors of 2^31 + 16 bytes each, into one of twice that.
  const int64_t N = (int64_t(1) << 30) + 8;
  Tensor A = sk::randn({N}, onCUDA(kBFloat16));
  Tensor B = sk::randn({N}, onCUDA(kBFloat16));
  Tensor Out = sk::cat({A, B});
  ASSERT_EQ(Out.numel(), 2 * N);
  expectEqual(Out.narrow(0, 0, 8), toCPU(A.narrow(0, 0, 8)));
  expectEqual(Out.narrow(0, N - 8, 8), toCPU(A.narrow(0, N - 8, 8)));
  expectEqual(Out.narrow(0, N, 8), toCPU(B.narrow(0, 0, 8)));
  expectEqual(Out.narrow(0, 2 * N - 8, 8), toCPU(B.narrow(0, N - 8, 8)));
}

TEST_F(CUDALargeTensorTest, UpsampleNearest1d_OutputPast2To31Values) {
  if (std::string Why = lackOfMemory(8); !Why.empty())
    GTEST_SKIP() << Why;
  // [1, 2^20 + 2, 1024] bfloat16 to width 2048: 2^31 + 4096 output
  // values, the last two rows past 2^31 (fitsInt32GridIndex says no).
  const int64_t Channels = (int64_t(1) << 20) + 2;
  Tensor X = sk::randn({1, Channels, 1024}, onCUDA(kBFloat16));
  Tensor Out = sk::upsample_nearest1d(X, {2048});
  expectRows(Out.select(0, 0), {0, Channels / 2, Channels - 2},
             [&](int64_t First, int64_t N) {
               return sk::upsample_nearest1d(toCPU(X.narrow(1, First, N)),
                                             {2048})
                   .select(0, 0);
             });
}

TEST_F(CUDALargeTensorTest, Randn_Past2To31Values_KeepsDrawing) {
  if (std::string Why = lackOfMemory(6); !Why.empty())
    GTEST_SKIP() << Why;
  const int64_t N = k2To31 + 4096;
  Tensor R = sk::randn({N}, onCUDA(kBFloat16));
  std::vector<double> First = toVector<double>(toCPU(R.narrow(0, 0, 4096)));
  std::vector<double> Far =
      toVector<double>(toCPU(R.narrow(0, k2To31, 4096)));
  EXPECT_NE(First, Far) << "the values past 2^31 repeat the first";
  // The far values are still normal: mean 0 and variance 1 within about
  // six of their standard errors over 4096 values.
  double Sum = 0, Squares = 0;
  for (double V : Far) {
    Sum += V;
    Squares += V * V;
  }
  double Mean = Sum / 4096, Variance = Squares / 4096 - Mean * Mean;
  EXPECT_NEAR(Mean, 0, 0.1);
  EXPECT_NEAR(Variance, 1, 0.15);
}

TEST_F(CUDALargeTensorTest, BatchNorm_ChannelsPast2To31Values) {
  if (std::string Why = lackOfMemory(20); !Why.empty())
    GTEST_SKIP() << Why;
  // [1, 2, 2^31 + 8] bfloat16: each channel's statistics count past 2^31
  // and the output's index past 2^32. Channel 0 repeats 0, 1, 2, 3 (mean
  // 1.5, variance 1.25), channel 1 twice that (3, 5).
  const int64_t S = k2To31 + 8;
  Tensor X = repeated(
      fromVector(std::vector<double>{0, 1, 2, 3, 0, 2, 4, 6}, {1, 2, 4},
                 kBFloat16),
      {1, 2, S});
  Tensor RunningMean = sk::zeros({2}, onCUDA(kFloat));
  Tensor RunningVar = sk::ones({2}, onCUDA(kFloat));
  const double Eps = 1e-5;
  auto [Out, SaveMean, SaveInvstd] = sk::native_batch_norm(
      X, std::nullopt, std::nullopt, RunningMean, RunningVar,
      /*training=*/true, /*momentum=*/0.1, Eps);
  const double Means[] = {1.5, 3}, Variances[] = {1.25, 5};
  std::vector<double> GotMean = toVector<double>(toCPU(SaveMean));
  std::vector<double> GotInvstd = toVector<double>(toCPU(SaveInvstd));
  std::vector<double> GotRunningMean = toVector<double>(toCPU(RunningMean));
  std::vector<double> GotRunningVar = toVector<double>(toCPU(RunningVar));
  for (int C = 0; C < 2; ++C) {
    SCOPED_TRACE(::testing::Message() << "channel " << C);
    double Invstd = 1 / std::sqrt(Variances[C] + Eps);
    EXPECT_NEAR(GotMean[C], Means[C], 1e-3 * Means[C]);
    EXPECT_NEAR(GotInvstd[C], Invstd, 1e-3 * Invstd);
    EXPECT_NEAR(GotRunningMean[C], 0.1 * Means[C], 1e-3 * Means[C]);
    // The running variance moves a tenth of the way to the unbiased
    // variance (over 2^31 values, the biased one within the tolerance).
    double Unbiased = Variances[C] * double(S) / double(S - 1);
    EXPECT_NEAR(GotRunningVar[C], 0.9 + 0.1 * Unbiased, 1e-3);
    // The output at the start, across 2^31 and at the end of the channel.
    for (int64_t First : {int64_t(0), k2To31 - 4, S - 8}) {
      SCOPED_TRACE(::testing::Message() << "values from " << First);
      std::vector<double> In =
          toVector<double>(toCPU(X.select(0, 0).select(0, C).narrow(0, First,
                                                                     8)));
      std::vector<double> Got = toVector<double>(
          toCPU(Out.select(0, 0).select(0, C).narrow(0, First, 8)));
      for (size_t I = 0; I < In.size(); ++I) {
        double Want = (In[I] - GotMean[C]) * GotInvstd[C];
        EXPECT_NEAR(Got[I], Want, 4e-2 * (1 + std::fabs(Want))) << "at " << I;
      }
    }
  }
}

TEST_F(CUDALargeTensorTest, Reductions_Past2To31Values) {
  if (std::string Why = lackOfMemory(6); !Why.empty())
    GTEST_SKIP() << Why;
  // 2^31 + 8 bfloat16 values repeating 0, 1, 2, 3, 0, -1, -2, -3, whose
  // sum is 0, but a 7 for the -1 past 2^31: every sum is of small
  // integers, exact in float32 in any order, and one that reads wrapped
  // offsets, or drops values, misses the 8 that the 7 adds.
  const int64_t N = k2To31 + 8, Far = k2To31 + 5;
  Tensor X = repeated(fromVector(std::vector<double>{0, 1, 2, 3, 0, -1, -2, -3},
                                 {8}, kBFloat16),
                      {N});
  X.narrow(0, Far, 1).fill_(7);
  EXPECT_EQ(sk::sum(X, kFloat).item<double>(), 8);
  EXPECT_EQ(sk::amax(X).item<double>(), 7);
  EXPECT_EQ(sk::argmax(X).item<int64_t>(), Far);
  EXPECT_EQ(sk::count_nonzero(X).item<int64_t>(), N / 4 * 3);
  // Two segments of 2^30 + 4: the first ends on 0, 1, 2, 3 (6); the
  // second starts on 0, -1, -2, -3 (-6) and holds the 7 (+8).
  expectEqual(sk::sum(X.view({2, N / 2}), {1}, false, kFloat),
              fromVector(std::vector<double>{6, 2}, {2}, kFloat));
  // Four narrow columns of 2^29 + 2 rows (narrowColumnsKernel), whose rows
  // alternate 0, 1, 2, 3 and 0, -1, -2, -3; the 7 is in column 1.
  expectEqual(sk::sum(X.view({N / 4, 4}), {0}, false, kFloat),
              fromVector(std::vector<double>{0, 8, 0, 0}, {4}, kFloat));
}

TEST_F(CUDALargeTensorTest, MaxPool2d_PlanePast2To31Values_MatchesCPUSlices) {
  if (std::string Why = lackOfMemory(12); !Why.empty())
    GTEST_SKIP() << Why;
  // One plane of 32768 x 65540 bfloat16 values: offsets and plane indices
  // past 2^31 (poolFitsInt32 says no). 2x2 windows, stride 2.
  const int64_t H = 32768, W = 65540;
  Tensor X = sk::randn({1, 1, H, W}, onCUDA(kBFloat16));
  auto [Values, Indices] = sk::max_pool2d_with_indices(X, {2, 2}, {2, 2});
  ASSERT_EQ(Values.sizes().vec(), (std::vector<int64_t>{1, 1, H / 2, W / 2}));
  for (int64_t Row : {int64_t(0), H / 4, H / 2 - 2}) {
    SCOPED_TRACE(::testing::Message() << "output rows from " << Row);
    // Input rows [2 * Row, 2 * Row + 4) make output rows [Row, Row + 2).
    Tensor Slice = toCPU(X.narrow(2, 2 * Row, 4));
    auto [WantValues, WantIndices] =
        sk::max_pool2d_with_indices(Slice, {2, 2}, {2, 2});
    expectEqual(Values.narrow(2, Row, 2), WantValues);
    // Indices count in the whole plane, the slice's from its first row.
    expectEqual(Indices.narrow(2, Row, 2),
                sk::add(WantIndices, int64_t(2 * Row * W)));
  }
}

} // namespace
