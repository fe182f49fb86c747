//===--- KernelCUDATest.cpp - The CUDA impls against the CPU ones ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pointwise operators and reductions of kernels/cuda/ run on CUDA and
/// on the CPU over the same inputs, compared within a tolerance per dtype:
/// broadcast, transposed, sliced (unaligned), zero-size, one-element and
/// 0-dim operands, type promotion, Scalar overloads, out= and in-place
/// variants. The launcher's index math (OffsetCalculator.h) is host code
/// and is tested without a GPU.
///
//===----------------------------------------------------------------------===//

#include "AlignedVector.h"
#include "CUDATestUtils.h"
#include "InnerVectors.h"
#include "OffsetCalculator.h"
#include "OnlineSoftmax.h"
#include "iter/IterTestUtils.h"

#include "Functions.h"

#include "sk/cuda/CUDAStridedShape.h"
#include "sk/ops/Factories.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

using namespace sk;
using namespace sk::test;

namespace {

//===----------------------------------------------------------------------===//
// The launcher's index math (no GPU needed)
//===----------------------------------------------------------------------===//

/// The byte offsets of linear index \p I in a shape (dim 0 fastest), the
/// naive way.
int64_t naiveOffset(int64_t I, const std::vector<int64_t> &Sizes,
                    const std::vector<int64_t> &Strides) {
  int64_t Offset = 0;
  for (size_t D = 0; D < Sizes.size(); ++D) {
    Offset += (I % Sizes[D]) * Strides[D];
    I /= Sizes[D];
  }
  return Offset;
}

template <typename IndexT> void checkOffsets() {
  std::vector<int64_t> Sizes = {3, 1, 4, 5};
  std::vector<int64_t> Out = {4, 12, 12, 48};  // contiguous float
  std::vector<int64_t> Bcast = {0, 0, 8, 32};  // broadcast along dim 0
  std::vector<int64_t> Trans = {80, 4, 20, 0}; // permuted, broadcast dim 3
  const int64_t *Strides[3] = {Out.data(), Bcast.data(), Trans.data()};
  cuda::OffsetCalculator<3, IndexT> Calc(4, Sizes.data(), Strides);
  for (int64_t I = 0; I < 60; ++I) {
    auto Off = Calc.get(static_cast<IndexT>(I));
    EXPECT_EQ(Off.V[0], naiveOffset(I, Sizes, Out)) << I;
    EXPECT_EQ(Off.V[1], naiveOffset(I, Sizes, Bcast)) << I;
    EXPECT_EQ(Off.V[2], naiveOffset(I, Sizes, Trans)) << I;
  }
}

TEST(CUDALauncherTest, OffsetCalculator32_MatchesNaiveOffsets) {
  checkOffsets<int32_t>();
}

TEST(CUDALauncherTest, OffsetCalculator64_MatchesNaiveOffsets) {
  checkOffsets<int64_t>();
}

TEST(CUDALauncherTest, OffsetCalculator64_HandlesOffsetsBeyond32Bits) {
  std::vector<int64_t> Sizes = {2, int64_t(3) << 30};
  std::vector<int64_t> Strides = {4, 8};
  const int64_t *Ptrs[1] = {Strides.data()};
  cuda::OffsetCalculator<1, int64_t> Calc(2, Sizes.data(), Ptrs);
  int64_t Last = 2 * (int64_t(3) << 30) - 1;
  EXPECT_EQ(Calc.get(Last).V[0], 4 + 8 * ((int64_t(3) << 30) - 1));
}

TEST(CUDALauncherTest, RowMajorOffsetCalculator_NumbersTheLastDimFastest) {
  // A [2, 3, 4] iteration: a contiguous operand, a transposed one and one
  // broadcast along dim 1, in elements.
  std::vector<int64_t> Sizes = {2, 3, 4};
  std::vector<int64_t> Contiguous = {12, 4, 1}, Transposed = {1, 2, 6},
                       Broadcast = {4, 0, 1};
  const int64_t *Strides[3] = {Contiguous.data(), Transposed.data(),
                               Broadcast.data()};
  auto Calc =
      cuda::makeRowMajorOffsetCalculator<3, int32_t>(3, Sizes.data(), Strides);
  int32_t L = 0;
  for (int64_t I = 0; I < 2; ++I)
    for (int64_t J = 0; J < 3; ++J)
      for (int64_t K = 0; K < 4; ++K, ++L) {
        auto Off = Calc.get(L);
        EXPECT_EQ(Off.V[0], I * 12 + J * 4 + K) << L;
        EXPECT_EQ(Off.V[1], I * 1 + J * 2 + K * 6) << L;
        EXPECT_EQ(Off.V[2], I * 4 + K) << L;
      }
}

TEST(CUDALauncherTest, OffsetsFitInt32_UpToTheLastElement) {
  std::vector<int64_t> Sizes = {2, int64_t(1) << 30};
  std::vector<int64_t> Rows = {int64_t(1) << 30, 1}, Wide = {0, 3};
  const int64_t *Fits[1] = {Rows.data()};
  // The last element is at 2^30 + 2^30 - 1 = INT32_MAX.
  EXPECT_TRUE(cuda::offsetsFitInt32(2, Sizes.data(), 1, Fits));
  const int64_t *TooFar[2] = {Rows.data(), Wide.data()};
  EXPECT_FALSE(cuda::offsetsFitInt32(2, Sizes.data(), 2, TooFar));
  // No element, no offset, wherever the empty dimension is.
  std::vector<int64_t> Empty = {0, int64_t(1) << 40};
  EXPECT_TRUE(cuda::offsetsFitInt32(2, Empty.data(), 2, TooFar));
  std::vector<int64_t> EmptyLast = {int64_t(1) << 40, 0};
  EXPECT_TRUE(cuda::offsetsFitInt32(2, EmptyLast.data(), 2, TooFar));
}

TEST(CUDALauncherTest, IntDivider32_DividesExactlyBelow2To31) {
  std::vector<int32_t> Divisors = {1,
                                   2,
                                   3,
                                   5,
                                   7,
                                   10,
                                   100,
                                   641,
                                   4096,
                                   6700417,
                                   (1 << 30) - 1,
                                   1 << 30,
                                   (1 << 30) + 1,
                                   INT32_MAX};
  std::mt19937 Random(7);
  std::uniform_int_distribution<int32_t> Any(1, INT32_MAX);
  for (int K = 0; K < 2000; ++K)
    Divisors.push_back(K < 1000 ? K + 1 : Any(Random));
  for (int32_t D : Divisors) {
    cuda::IntDivider<int32_t> Div(D);
    std::vector<int32_t> Numerators = {
        0, 1, D - 1, D, D + 1, INT32_MAX, INT32_MAX - 1, 2 * (D / 2)};
    for (int K = 0; K < 50; ++K)
      Numerators.push_back(Any(Random));
    for (int32_t N : Numerators) {
      if (N < 0)
        continue;
      ASSERT_EQ(Div.div(N), N / D) << N << " / " << D;
    }
  }
}

/// A row's maximum (NaN wins) and sum of exp(x - max), in three passes as
/// the CPU kernel computes them.
std::pair<float, float> threePassSoftmaxSums(const std::vector<float> &Row) {
  float Max = -std::numeric_limits<float>::infinity();
  for (float V : Row)
    Max = (V > Max || V != V) ? V : Max;
  float Sum = 0;
  for (float V : Row)
    Sum += std::exp(V - Max);
  return {Max, Sum};
}

TEST(CUDALauncherTest, OnlineSoftmaxSums_MatchThreePassesWithSpecialValues) {
  const float Inf = std::numeric_limits<float>::infinity();
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  std::mt19937 Random(11);
  std::normal_distribution<float> Normal(0, 4);
  const float Specials[] = {Inf, -Inf, NaN, 80, -80};
  for (int Case = 0; Case < 3000; ++Case) {
    int Dim = 1 + Case % 37;
    std::vector<float> Row(Dim);
    for (float &V : Row) {
      V = Normal(Random);
      if (Case % 3 == 1 && Random() % 5 == 0)
        V = Specials[Random() % 5];
    }
    if (Case % 50 == 0)
      std::fill(Row.begin(), Row.end(), -Inf);
    // Threads take every Threads-th value, then merge in a tree, as the
    // kernel's warps do.
    int Threads = 1 + Case % 8;
    std::vector<cuda::OnlineSum<float>> States(Threads,
                                               cuda::OnlineSum<float>::empty());
    for (int I = 0; I < Dim; ++I)
      States[I % Threads].add(Row[I]);
    for (int Step = 1; Step < Threads; Step *= 2)
      for (int T = 0; T + Step < Threads; T += 2 * Step)
        States[T].merge(States[T + Step]);
    auto [Max, Sum] = threePassSoftmaxSums(Row);
    float Got = States[0].rowSum();
    if (std::isnan(Max))
      EXPECT_TRUE(std::isnan(States[0].Max)) << Case;
    else
      EXPECT_EQ(States[0].Max, Max) << Case;
    if (std::isnan(Sum))
      EXPECT_TRUE(std::isnan(Got)) << Case << ": " << Got;
    else
      EXPECT_NEAR(Got, Sum, 1e-5f * Sum) << Case;
  }
}

TEST(CUDALauncherTest, ZeroDims_GiveOffsetZero) {
  cuda::OffsetCalculator<2, int32_t> Calc(0, nullptr, nullptr);
  EXPECT_EQ(Calc.get(0).V[0], 0);
  EXPECT_EQ(Calc.get(0).V[1], 0);
}

TEST(CUDALauncherTest, InnerVectors_PlanBroadcastsAndAlignedRows) {
  alignas(16) float Out[64], X[64], Y[64];
  const void *Ptrs[3] = {Out, X, Y};
  const int64_t ElemSizes[3] = {4, 4, 4};
  auto Plan = [&](std::vector<int64_t> Sizes,
                  std::vector<std::vector<int64_t>> Strides,
                  const void *const *P) {
    const int64_t *S[3] = {Strides[0].data(), Strides[1].data(),
                           Strides[2].data()};
    return cuda::planInnerVectors(static_cast<int>(Sizes.size()), Sizes.data(),
                                  S, P, ElemSizes, 3, 4);
  };
  // [4, 8] * [4, 1]: X along the rows, Y one element per row, repeated.
  auto Column = Plan({8, 4}, {{4, 32}, {4, 32}, {0, 4}}, Ptrs);
  ASSERT_TRUE(Column);
  EXPECT_EQ(Column->RepeatedInputs, 1u << 2);
  // [4, 8] + [8]: Y stays along the outer dimension only.
  auto Row = Plan({8, 4}, {{4, 32}, {4, 32}, {4, 0}}, Ptrs);
  ASSERT_TRUE(Row);
  EXPECT_EQ(Row->RepeatedInputs, 0u);
  // Rows 48 bytes apart (a slice of rows of 12) start aligned; 20 apart
  // do not.
  EXPECT_TRUE(Plan({8, 4}, {{4, 32}, {4, 48}, {0, 4}}, Ptrs));
  EXPECT_FALSE(Plan({8, 4}, {{4, 32}, {4, 20}, {0, 4}}, Ptrs));
  // An outer dimension of size 1 has no rows to align.
  EXPECT_TRUE(Plan({8, 1}, {{4, 32}, {4, 20}, {0, 4}}, Ptrs));
  // Rows of 6 are not whole vectors of 4.
  EXPECT_FALSE(Plan({6, 4}, {{4, 24}, {4, 24}, {0, 4}}, Ptrs));
  // Transposed: X steps 32 bytes along the inner dimension.
  EXPECT_FALSE(Plan({8, 4}, {{4, 32}, {32, 4}, {0, 4}}, Ptrs));
  // The output never stays.
  EXPECT_FALSE(Plan({8, 4}, {{0, 32}, {4, 32}, {4, 32}}, Ptrs));
  // A misaligned operand read as vectors refuses; a repeated one need not
  // be aligned.
  const void *Shifted[3] = {Out, X + 1, Y + 1};
  EXPECT_FALSE(Plan({8, 4}, {{4, 32}, {4, 32}, {0, 4}}, Shifted));
  const void *RepeatedShifted[3] = {Out, X, Y + 1};
  EXPECT_TRUE(Plan({8, 4}, {{4, 32}, {4, 32}, {0, 4}}, RepeatedShifted));
  // Every outer dimension's rows must be aligned, not only the first's:
  // X's planes 112 bytes apart are, 104 apart are not.
  EXPECT_TRUE(Plan({8, 3, 2}, {{4, 32, 96}, {4, 32, 112}, {0, 4, 12}}, Ptrs));
  EXPECT_FALSE(Plan({8, 3, 2}, {{4, 32, 96}, {4, 32, 104}, {0, 4, 12}}, Ptrs));
  // An output that steps two elements along its rows is not written in
  // vectors.
  EXPECT_FALSE(Plan({8, 4}, {{8, 64}, {4, 32}, {4, 32}}, Ptrs));
}

TEST(CUDALauncherTest, VectorAlignmentAndBlocks) {
  alignas(16) float Buffer[8];
  EXPECT_TRUE(cuda::isAlignedForVector(Buffer, 4, 4));
  EXPECT_FALSE(cuda::isAlignedForVector(Buffer + 1, 4, 4));
  EXPECT_TRUE(cuda::isAlignedForVector(Buffer + 1, 1, 4));
  EXPECT_EQ(cuda::blocksFor(1, 128, 4), 1);
  EXPECT_EQ(cuda::blocksFor(512, 128, 4), 1);
  EXPECT_EQ(cuda::blocksFor(513, 128, 4), 2);
  EXPECT_EQ(cuda::blocksFor(int64_t(256) << 20, 128, 4), 524288);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

const Device kCuda("cuda:0");

/// Deterministic values of \p Dtype: small integers, quarters for floating
/// dtypes; \p Positive keeps them above 0 (divisors, logarithms).
Tensor values(IntArrayRef Sizes, ScalarType Dtype, int Seed,
              bool Positive = false) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  std::vector<double> V(static_cast<size_t>(N));
  for (int64_t I = 0; I < N; ++I) {
    double X = double((I * 37 + Seed * 11) % 19) - (Positive ? -1 : 9);
    if (Dtype == kBool)
      X = double((I + Seed) % 3 == 0);
    else if (Dtype == kByte)
      X = std::fabs(X);
    else if (isFloatingType(Dtype))
      X /= 4;
    V[static_cast<size_t>(I)] = X;
  }
  return fromVector(V, Sizes, Dtype);
}

double tolerance(ScalarType Dtype) {
  if (Dtype == kHalf)
    return 1e-2;
  if (Dtype == kBFloat16)
    return 2e-2;
  if (Dtype == kFloat)
    return 1e-5;
  if (Dtype == kDouble)
    return 1e-12;
  return 0;
}

/// \p OnCuda (a CUDA tensor) holds what \p OnCpu holds.
void expectMatch(const Tensor &OnCpu, const Tensor &OnCuda) {
  ASSERT_EQ(OnCuda.device(), kCuda);
  ASSERT_EQ(OnCpu.sizes().vec(), OnCuda.sizes().vec());
  ASSERT_EQ(OnCpu.dtype(), OnCuda.dtype());
  std::vector<double> A = valuesOf<double>(OnCpu.to(kDouble));
  std::vector<double> B = valuesOf<double>(OnCuda.to(kCPU).to(kDouble));
  double Tol = tolerance(OnCpu.dtype());
  for (size_t I = 0; I < A.size(); ++I) {
    if (std::isnan(A[I])) {
      EXPECT_TRUE(std::isnan(B[I])) << "element " << I;
      continue;
    }
    if (A[I] == B[I]) // Infinities too.
      continue;
    EXPECT_NEAR(A[I], B[I], Tol * (1 + std::fabs(A[I]))) << "element " << I;
  }
}

using Op = std::function<Tensor(const std::vector<Tensor> &)>;

/// Runs \p F on \p Inputs (CPU) and on their copies on the GPU: the
/// results match, or both calls fail with the same message.
void checkOp(const Op &F, const std::vector<Tensor> &Inputs) {
  std::vector<Tensor> OnCuda;
  for (const Tensor &T : Inputs)
    OnCuda.push_back(T.to(kCuda));
  Tensor Expected;
  try {
    Expected = F(Inputs);
  } catch (const sk::Error &CPUError) {
    try {
      F(OnCuda);
      ADD_FAILURE() << "CUDA succeeded where the CPU failed with: "
                    << CPUError.message();
    } catch (const sk::Error &CUDAError) {
      EXPECT_EQ(CUDAError.message(), CPUError.message());
    }
    return;
  }
  expectMatch(Expected, F(OnCuda));
}

/// The shapes every pointwise operator runs over: equal, broadcast,
/// zero-size, one-element, 0-dim, long enough for the vector path with
/// and without a tail, and broadcasts in vectors along the rows (the last
/// two; Note [CUDA elementwise launcher]).
const std::vector<std::vector<std::vector<int64_t>>> kShapes = {
    {{3, 4}, {3, 4}, {3, 4}},
    {{3, 1}, {1, 4}, {4}},
    {{0, 4}, {0, 4}, {1, 4}},
    {{1}, {1}, {1}},
    {{}, {}, {}},
    {{1000}, {1000}, {1000}},
    {{1003}, {1}, {1003}},
    {{1000}, {1}, {1000}},
    {{2, 1, 5}, {3, 1}, {2, 3, 5}},
    {{6, 8}, {6, 1}, {8}},
    {{2, 3, 8}, {3, 1}, {2, 1, 8}}};

/// Checks \p F (taking \p Arity tensors) over kShapes, transposed and
/// sliced operands, and columns of rows apart, in \p Dtype.
void checkPointwise(const Op &F, int Arity, ScalarType Dtype,
                    bool Positive = false) {
  SCOPED_TRACE(::testing::Message() << "dtype " << Dtype);
  for (const auto &Shapes : kShapes) {
    std::vector<Tensor> In;
    for (int A = 0; A < Arity; ++A)
      In.push_back(values(Shapes[A], Dtype, A, Positive && A > 0));
    checkOp(F, In);
  }
  // Transposed (strided) and sliced (unaligned, not vectorizable).
  std::vector<Tensor> In;
  for (int A = 0; A < Arity; ++A)
    In.push_back(values({5, 6}, Dtype, A, Positive && A > 0));
  checkOp(
      [&](const std::vector<Tensor> &X) {
        std::vector<Tensor> T;
        for (const Tensor &Y : X)
          T.push_back(Y.t());
        return F(T);
      },
      In);
  checkOp(
      [&](const std::vector<Tensor> &X) {
        std::vector<Tensor> T;
        for (const Tensor &Y : X)
          T.push_back(Y.reshape({30}).narrow(0, 1, 27));
        return F(T);
      },
      In);
  // Eight columns of rows: of twelve from column 4 (every row aligned for
  // vectors of four elements of any size), of twelve from column 1 (no row
  // aligned), and of ten from column 0 (the first row aligned, the others
  // not: InnerVectors.h checks each operand's row strides too).
  struct Columns {
    int64_t Width, First;
  };
  for (Columns C : {Columns{12, 4}, Columns{12, 1}, Columns{10, 0}}) {
    std::vector<Tensor> Wide;
    for (int A = 0; A < Arity; ++A)
      Wide.push_back(values({5, C.Width}, Dtype, A, Positive && A > 0));
    checkOp(
        [&](const std::vector<Tensor> &X) {
          std::vector<Tensor> T;
          for (const Tensor &Y : X)
            T.push_back(Y.narrow(1, C.First, 8));
          return F(T);
        },
        Wide);
  }
  // A column repeated along rows of eight, from a misaligned base.
  if (Arity >= 2) {
    std::vector<Tensor> Repeated;
    for (int A = 0; A < Arity; ++A)
      Repeated.push_back(A == 1 ? values({6, 3}, Dtype, A, Positive)
                                : values({6, 8}, Dtype, A, Positive && A > 0));
    checkOp(
        [&](const std::vector<Tensor> &X) {
          std::vector<Tensor> T = X;
          T[1] = X[1].narrow(1, 1, 1);
          return F(T);
        },
        Repeated);
  }
}

const std::vector<ScalarType> kFloating = {kFloat, kDouble, kHalf, kBFloat16};
const std::vector<ScalarType> kNumeric = {kFloat, kDouble, kHalf, kBFloat16,
                                          kInt,   kLong,   kByte, kChar};

//===----------------------------------------------------------------------===//
// Pointwise
//===----------------------------------------------------------------------===//

class CUDAPointwiseTest : public CUDATest {};

TEST_F(CUDAPointwiseTest, Arithmetic_MatchesCpu) {
  for (ScalarType D : kNumeric) {
    checkPointwise([](auto &X) { return sk::add(X[0], X[1], 2); }, 2, D);
    checkPointwise([](auto &X) { return sk::sub(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::mul(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::div(X[0], X[1]); }, 2, D, true);
    checkPointwise([](auto &X) { return sk::div(X[0], X[1], "trunc"); }, 2, D,
                   true);
    checkPointwise([](auto &X) { return sk::div(X[0], X[1], "floor"); }, 2, D,
                   true);
    checkPointwise([](auto &X) { return sk::pow(X[0], X[1]); }, 2, D, true);
  }
  checkPointwise([](auto &X) { return sk::add(X[0], X[1]); }, 2, kBool);
  checkPointwise([](auto &X) { return sk::mul(X[0], X[1]); }, 2, kBool);
}

TEST_F(CUDAPointwiseTest, ScalarOverloads_MatchCpu) {
  for (ScalarType D : kNumeric) {
    checkPointwise([](auto &X) { return sk::add(X[0], 3, 2); }, 1, D);
    checkPointwise([](auto &X) { return sk::sub(X[0], 2); }, 1, D);
    checkPointwise([](auto &X) { return sk::mul(X[0], 3); }, 1, D);
    checkPointwise([](auto &X) { return sk::div(X[0], 4); }, 1, D);
    checkPointwise([](auto &X) { return sk::pow(X[0], 2); }, 1, D);
    checkPointwise([](auto &X) { return sk::pow(X[0], 3); }, 1, D);
  }
  for (ScalarType D : kFloating) {
    checkPointwise([](auto &X) { return sk::add(X[0], 2.5); }, 1, D);
    checkPointwise([](auto &X) { return sk::pow(X[0], 0.5); }, 1, D);
    checkPointwise([](auto &X) { return sk::pow(X[0], -1.5); }, 1, D);
  }
  // Promotion: an integral tensor and a float Scalar.
  checkPointwise([](auto &X) { return sk::mul(X[0], 0.5); }, 1, kInt);
}

TEST_F(CUDAPointwiseTest, Promotion_MatchesCpu) {
  checkOp([](auto &X) { return sk::add(X[0], X[1]); },
          {values({4, 5}, kInt, 0), values({5}, kFloat, 1)});
  checkOp([](auto &X) { return sk::mul(X[0], X[1]); },
          {values({4, 5}, kHalf, 0), values({4, 5}, kDouble, 1)});
  checkOp([](auto &X) { return sk::div(X[0], X[1]); },
          {values({7}, kLong, 0), values({7}, kInt, 1, true)});
  // A 0-dim CPU tensor beside CUDA tensors is a CPU scalar.
  Tensor A = values({3, 4}, kFloat, 0).to(kCuda);
  Tensor S = values({}, kFloat, 5);
  expectMatch(sk::add(values({3, 4}, kFloat, 0), S), sk::add(A, S));
}

TEST_F(CUDAPointwiseTest, Unary_MatchesCpu) {
  for (ScalarType D : kNumeric) {
    checkPointwise([](auto &X) { return sk::abs(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::relu(X[0]); }, 1, D);
    if (D != kByte)
      checkPointwise([](auto &X) { return sk::neg(X[0]); }, 1, D);
    // Integral inputs compute in float32.
    checkPointwise([](auto &X) { return sk::exp(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::sin(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::cos(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::tanh(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::sigmoid(X[0]); }, 1, D);
  }
  for (ScalarType D : kFloating) {
    checkPointwise([](auto &X) { return sk::log(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::sqrt(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::rsqrt(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::gelu(X[0]); }, 1, D);
    checkPointwise([](auto &X) { return sk::gelu(X[0], "tanh"); }, 1, D);
  }
}

TEST_F(CUDAPointwiseTest, Comparisons_MatchCpu) {
  std::vector<ScalarType> Dtypes = kNumeric;
  Dtypes.push_back(kBool);
  for (ScalarType D : Dtypes) {
    checkPointwise([](auto &X) { return sk::eq(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::ne(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::lt(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::le(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::gt(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::ge(X[0], X[1]); }, 2, D);
    checkPointwise([](auto &X) { return sk::eq(X[0], 1); }, 1, D);
    checkPointwise([](auto &X) { return sk::ne(X[0], 0); }, 1, D);
    checkPointwise([](auto &X) { return sk::lt(X[0], 1); }, 1, D);
    checkPointwise([](auto &X) { return sk::le(X[0], 0.5); }, 1, D);
    checkPointwise([](auto &X) { return sk::gt(X[0], 0); }, 1, D);
    checkPointwise([](auto &X) { return sk::ge(X[0], 1); }, 1, D);
  }
}

TEST_F(CUDAPointwiseTest, ClampAndWhere_MatchCpu) {
  for (ScalarType D : kNumeric) {
    checkPointwise(
        [](auto &X) {
          return sk::clamp(X[0], std::optional<Scalar>(1),
                           std::optional<Scalar>(2));
        },
        1, D);
    checkPointwise(
        [](auto &X) {
          return sk::clamp(X[0], std::optional<Scalar>(1), std::nullopt);
        },
        1, D);
    checkPointwise(
        [](auto &X) {
          return sk::clamp(X[0], std::nullopt, std::optional<Scalar>(2));
        },
        1, D);
    checkPointwise(
        [](auto &X) {
          return sk::clamp(X[0], std::optional<Tensor>(X[1]),
                           std::optional<Tensor>(X[2]));
        },
        3, D);
    checkPointwise(
        [](auto &X) {
          return sk::clamp(X[0], std::optional<Tensor>(X[1]), std::nullopt);
        },
        2, D);
    checkPointwise(
        [](auto &X) { return sk::where(sk::gt(X[0], 0), X[1], X[2]); }, 3, D);
  }
  checkOp([](auto &X) { return sk::where(X[0], X[1], X[2]); },
          {values({4, 5}, kBool, 0), values({5}, kInt, 1),
           values({4, 1}, kFloat, 2)});
}

TEST_F(CUDAPointwiseTest, OutAndInplace_MatchCpu) {
  Tensor A = values({6, 7}, kFloat, 0), B = values({7}, kFloat, 1);
  Tensor Expected = sk::add(A, B, 3);
  // out= of the right size, a wrong size (resized) and a transposed one.
  Tensor Out = sk::empty({6, 7}, kCuda);
  sk::add_out(Out, A.to(kCuda), B.to(kCuda), 3);
  expectMatch(Expected, Out);
  Tensor Resized = sk::empty({0}, kCuda);
  sk::add_out(Resized, A.to(kCuda), B.to(kCuda), 3);
  expectMatch(Expected, Resized);
  Tensor Transposed = sk::empty({7, 6}, kCuda).t();
  sk::add_out(Transposed, A.to(kCuda), B.to(kCuda), 3);
  expectMatch(Expected, Transposed);
  // out= of another dtype.
  Tensor Double = sk::empty({6, 7}, TensorOptions(kCuda).dtype(kDouble));
  sk::add_out(Double, A.to(kCuda), B.to(kCuda), 3);
  expectMatch(Expected.to(kDouble), Double);
  // In place, on a transposed view too.
  Tensor InPlace = A.to(kCuda);
  sk::add_(InPlace, B.to(kCuda), 3);
  expectMatch(Expected, InPlace);
  Tensor Base = values({7, 6}, kFloat, 2);
  Tensor View = Base.to(kCuda);
  Tensor ViewT = View.t();
  sk::mul_(ViewT, 2);
  expectMatch(sk::mul(Base, 2), View);
  Tensor C = values({6, 7}, kFloat, 3).to(kCuda);
  sk::clamp_(C, std::optional<Scalar>(0), std::optional<Scalar>(1));
  expectMatch(sk::clamp(values({6, 7}, kFloat, 3), std::optional<Scalar>(0),
                        std::optional<Scalar>(1)),
              C);
}

/// Calls \p F with out= \p View(Base) on the CPU and on the GPU, and
/// checks the whole of \p Base: the view's elements and the gaps around it.
void checkIntoView(
    const std::function<void(Tensor &, const Tensor &, const Tensor &)> &F,
    const Tensor &Base, const Tensor &A, const Tensor &B,
    const std::function<Tensor(const Tensor &)> &View) {
  Tensor CpuBase = Base.clone(), CudaBase = Base.to(kCuda);
  Tensor CpuOut = View(CpuBase), CudaOut = View(CudaBase);
  F(CpuOut, A, B);
  F(CudaOut, A.to(kCuda), B.to(kCuda));
  expectMatch(CpuBase, CudaBase);
}

// The inner-vector path (InnerVectors.h) reads and writes an operand in
// vectors only where that operand allows it: each case makes one operand,
// the output included, break one of its conditions.
TEST_F(CUDAPointwiseTest, InnerVectorOperands_MatchCpu) {
  auto AddOut = [](Tensor &Out, const Tensor &A, const Tensor &B) {
    sk::add_out(Out, A, B);
  };
  Tensor A = values({5, 8}, kFloat, 0), Row = values({8}, kFloat, 1);
  // Outputs: 4 bytes off a vector; rows 40 bytes apart; a step of two
  // along the rows.
  checkIntoView(AddOut, values({5, 12}, kFloat, 2), A, Row,
                [](const Tensor &T) { return T.narrow(1, 1, 8); });
  checkIntoView(AddOut, values({5, 10}, kFloat, 2), A, Row,
                [](const Tensor &T) { return T.narrow(1, 0, 8); });
  checkIntoView(AddOut, values({4, 16}, kFloat, 2), values({8}, kFloat, 0),
                values({4, 1}, kFloat, 1), [](const Tensor &T) {
                  return T.as_strided({4, 8}, {16, 2});
                });
  // In place on an aligned slice, by a column.
  Tensor Wide = values({5, 12}, kFloat, 3), Column = values({5, 1}, kFloat, 4);
  Tensor CudaWide = Wide.to(kCuda);
  Tensor CudaSlice = CudaWide.narrow(1, 4, 8);
  sk::mul_(CudaSlice, Column.to(kCuda));
  Tensor CpuSlice = Wide.narrow(1, 4, 8);
  sk::mul_(CpuSlice, Column);
  expectMatch(Wide, CudaWide);
  for (ScalarType D : {kFloat, kBFloat16}) {
    SCOPED_TRACE(::testing::Message() << "dtype " << D);
    // One input aligned, the other not.
    checkOp(
        [](auto &X) {
          return sk::add(X[0].narrow(1, 4, 8), X[1].narrow(1, 1, 8));
        },
        {values({5, 12}, D, 0), values({5, 12}, D, 1)});
  }
  for (ScalarType D : {kFloat, kHalf}) {
    SCOPED_TRACE(::testing::Message() << "dtype " << D);
    // One input transposed, rows whole vectors.
    checkOp([](auto &X) { return sk::add(X[0], X[1].t()); },
            {values({8, 8}, D, 0), values({8, 8}, D, 1)});
  }
  // Planes 26 elements apart (TensorIterator merges each plane's rows into
  // one of 24): aligned rows, misaligned planes.
  checkOp(
      [](auto &X) {
        return sk::add(X[0], X[1].as_strided({2, 3, 8}, {26, 8, 1}));
      },
      {values({2, 3, 8}, kFloat, 0), values({52}, kFloat, 1)});
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class CUDAReduceTest : public CUDATest {};

/// Element I of a CPU tensor of \p Sizes is I * 37 % 1009 - 500, in
/// \p Dtype: no period short enough for a reduction's rows to repeat it.
Tensor scrambled(IntArrayRef Sizes, ScalarType Dtype) {
  Tensor T = sk::empty(Sizes, kFloat);
  float *Data = T.data_ptr<float>();
  for (int64_t I = 0; I < T.numel(); ++I)
    Data[I] = static_cast<float>(I * 37 % 1009 - 500);
  return T.to(Dtype);
}

/// Checks \p F over a 3-d tensor, its transpose, a zero-size one (where
/// \p ZeroSize), a one-element and a 0-dim one, in \p Dtype.
void checkReduction(const Op &F, ScalarType Dtype, bool ZeroSize = true) {
  SCOPED_TRACE(::testing::Message() << "dtype " << Dtype);
  checkOp(F, {values({2, 3, 4}, Dtype, 0)});
  checkOp([&](auto &X) { return F({X[0].transpose(0, 2)}); },
          {values({4, 3, 2}, Dtype, 1)});
  checkOp(F, {values({1, 1, 1}, Dtype, 2)});
  if (ZeroSize)
    checkOp(F, {values({2, 0, 4}, Dtype, 0)});
}

TEST_F(CUDAReduceTest, SumMeanProd_MatchCpu) {
  for (ScalarType D : kNumeric) {
    checkReduction([](auto &X) { return sk::sum(X[0]); }, D);
    checkReduction([](auto &X) { return sk::sum(X[0], {1}); }, D);
    checkReduction(
        [](auto &X) {
          std::vector<int64_t> Dims = {0, 2};
          return sk::sum(X[0], IntArrayRef(Dims), /*keepdim=*/true);
        },
        D);
    checkReduction([](auto &X) { return sk::prod(X[0], 2); }, D);
    checkReduction([](auto &X) { return sk::prod(X[0]); }, D);
  }
  for (ScalarType D : kFloating) {
    checkReduction([](auto &X) { return sk::mean(X[0]); }, D);
    checkReduction([](auto &X) { return sk::mean(X[0], {2}); }, D);
    checkReduction([](auto &X) { return sk::sum(X[0], {1}, false, kDouble); },
                   D);
  }
  checkReduction([](auto &X) { return sk::sum(X[0]); }, kBool);
  checkOp([](auto &X) { return sk::sum(X[0]); }, {values({}, kFloat, 3)});
  // A full reduction large enough for several CUB blocks (float64: the
  // order of the additions differs).
  checkOp([](auto &X) { return sk::sum(X[0]); },
          {values({1 << 20}, kDouble, 4)});
  checkOp([](auto &X) { return sk::amax(X[0]); },
          {values({1 << 20}, kFloat, 4)});
  // Leading dims reduced in place, in chunks of rows folded twice (Note
  // [Column reductions on CUDA]): one and several chunks, a partial block
  // of columns, and trailing dims of size 1; float16 and bfloat16 read in
  // place and converted (Note [CUDA reductions]).
  for (ScalarType D : {kFloat, kDouble, kLong, kHalf, kBFloat16}) {
    checkOp([](auto &X) { return sk::sum(X[0], {0}); },
            {values({4096, 300}, D, 5)});
    checkOp([](auto &X) { return sk::sum(X[0], {0}); },
            {values({20, 3000}, D, 6)});
    checkOp(
        [](auto &X) {
          return sk::amax(X[0], {0, 1});
        },
        {values({64, 32, 300}, D, 7)});
    checkOp(
        [](auto &X) {
          return sk::amin(X[0], {0, 2}, true);
        },
        {values({512, 40, 1}, D, 8)});
    // A run of reduced dims between kept ones, [Outer, Rows, Columns]:
    // one chunk and several, rows of 40 columns (two blocks of columns
    // hold parts of several outer indices), a size-1 dim inside the run,
    // one that is the run, and one before the run; and rows of 8 columns,
    // which take the copy. The values do not repeat along a column's
    // rows, so a column read from the wrong place gives another result.
    checkOp([](auto &X) { return sk::sum(X[0], {1}); },
            {scrambled({3, 20, 40}, D)});
    checkOp([](auto &X) { return sk::sum(X[0], {1}, true); },
            {scrambled({7, 600, 40}, D)});
    checkOp(
        [](auto &X) {
          return sk::amax(X[0], {1, 2, 3});
        },
        {scrambled({5, 30, 1, 20, 33}, D)});
    checkOp(
        [](auto &X) {
          return sk::amin(X[0], {1, 3});
        },
        {scrambled({4, 1, 3, 50, 40}, D)});
    checkOp([](auto &X) { return sk::sum(X[0], {1}); },
            {scrambled({6, 1, 50}, D)});
    checkOp([](auto &X) { return sk::amin(X[0], {1}); },
            {scrambled({9, 700, 8}, D)});
    if (isFloatingType(D))
      checkOp([](auto &X) { return sk::mean(X[0], {1}, true); },
              {scrambled({7, 600, 40}, D)});
    // Narrow rows, more values than the grid's threads (262144): each
    // thread folds one residue class of the flat input (Note [Column
    // reductions on CUDA]); 2 and 3 columns, a run of two dims, 31 columns
    // whose sums all differ, and 2M values, several rounds of four loads.
    checkOp([](auto &X) { return sk::sum(X[0], {0}); },
            {values({300000, 2}, D, 10)});
    checkOp(
        [](auto &X) {
          return sk::sum(X[0], {0, 1}, true);
        },
        {values({1000, 300, 3}, D, 11)});
    // Means of floating dtypes, whose float16 sums would overflow.
    auto SumOrMeanOver = [](std::vector<int64_t> Dims) -> Op {
      return [Dims](auto &X) {
        return isFloatingType(X[0].scalar_type()) ? sk::mean(X[0], Dims)
                                                  : sk::sum(X[0], Dims);
      };
    };
    checkOp(SumOrMeanOver({0}), {scrambled({20000, 31}, D)});
    checkOp(SumOrMeanOver({0}), {scrambled({int64_t(1) << 20, 2}, D)});
    if (isFloatingType(D))
      checkOp([](auto &X) { return sk::mean(X[0], {0}); },
              {values({300000, 3}, D, 12)});
    // Kept dims before narrow rows too: each slab [Rows, Columns] spread
    // over its share of the grid's blocks and folded as above. 4 slabs of
    // 3 columns, 3 of a run of two dims with a size-1 dim inside, and 1000
    // slabs of 7 columns, one block each.
    checkOp(SumOrMeanOver({1}), {scrambled({4, 100000, 3}, D)});
    checkOp(SumOrMeanOver({1, 3}), {scrambled({3, 300, 1, 400, 5}, D)});
    checkOp(SumOrMeanOver({1}), {scrambled({1000, 300, 7}, D)});
    // A kept size-1 dim inside the reduced run: one run of 600 rows.
    checkOp(
        [](auto &X) {
          return sk::sum(X[0], {1, 3});
        },
        {scrambled({4, 30, 1, 20, 33}, D)});
    // Nothing to reduce down columns of wide rows: zeros (and NaN means),
    // not a chunk of no rows.
    checkOp([](auto &X) { return sk::sum(X[0], {0}); },
            {values({0, 40}, D, 9)});
    checkOp([](auto &X) { return sk::sum(X[0], {1}); },
            {values({2, 0, 40}, D, 9)});
    checkOp([](auto &X) { return sk::count_nonzero(X[0], IntArrayRef{0}); },
            {values({0, 40}, D, 9)});
    checkOp([](auto &X) { return sk::any(X[0], 0); }, {values({0, 40}, D, 9)});
    if (isFloatingType(D))
      checkOp([](auto &X) { return sk::mean(X[0], {0}); },
              {values({0, 40}, D, 9)});
  }
  // Sparse non-zeros (one value in 1009), so that whole columns are zero.
  for (ScalarType D : {kFloat, kHalf, kBool, kByte}) {
    checkOp([](auto &X) { return sk::any(X[0], 1); },
            {sk::eq(scrambled({4, 300, 64}, kFloat), 0).to(D)});
    checkOp(
        [](auto &X) {
          return sk::count_nonzero(X[0], IntArrayRef{1, 2});
        },
        {sk::eq(scrambled({4, 30, 10, 64}, kFloat), 0).to(D)});
  }
}

TEST_F(CUDAReduceTest, IntegralDtypeOfSpecialValues_ConvertsAsTheCPU) {
  // sum and prod with an integral dtype convert each element first, as
  // Note [Defined element conversions] says: NaN, the infinities and 1e30
  // become INT64_MIN on both devices (CUDA's own cast saturates).
  const double Inf = std::numeric_limits<double>::infinity();
  std::vector<double> Specials = {std::nan(""), Inf, -Inf, 1e30, 2.5, -1.5};
  Tensor X = empty({6}, kFloat);
  for (int I = 0; I != 6; ++I)
    X.data_ptr<float>()[I] = static_cast<float>(Specials[I]);
  checkOp([](auto &Y) { return sk::sum(Y[0], kLong); }, {X});
  checkOp([](auto &Y) { return sk::prod(Y[0], kLong); }, {X});
  checkOp([](auto &Y) { return sk::sum(Y[0], {0}, false, kInt); }, {X});
}

TEST_F(CUDAReduceTest, ExtremaAndLogical_MatchCpu) {
  std::vector<ScalarType> Dtypes = kNumeric;
  Dtypes.push_back(kBool);
  for (ScalarType D : Dtypes) {
    checkReduction([](auto &X) { return sk::amax(X[0], {1}); }, D);
    checkReduction([](auto &X) { return sk::amin(X[0], {0, 2}); }, D);
    checkReduction([](auto &X) { return sk::all(X[0]); }, D);
    checkReduction([](auto &X) { return sk::any(X[0]); }, D);
    checkReduction([](auto &X) { return sk::all(X[0], 1); }, D);
    // Leading dims: the column kernel (Note [Column reductions on CUDA]).
    checkReduction([](auto &X) { return sk::amax(X[0], {0}); }, D);
    checkReduction([](auto &X) { return sk::all(X[0], 0); }, D);
    checkReduction([](auto &X) { return sk::any(X[0], 0, true); }, D);
    checkReduction([](auto &X) { return sk::any(X[0], 2, true); }, D);
    checkReduction([](auto &X) { return sk::count_nonzero(X[0]); }, D);
    checkReduction([](auto &X) { return sk::count_nonzero(X[0], {0, 2}); }, D);
    checkReduction(
        [](auto &X) {
          return sk::count_nonzero(X[0], std::optional<int64_t>(1));
        },
        D);
  }
  // One count over several CUB tiles, contiguous and transposed.
  checkOp([](auto &X) { return sk::count_nonzero(X[0]); },
          {values({1024, 1024}, kFloat, 5)});
  checkOp([](auto &X) { return sk::count_nonzero(X[0].t()); },
          {values({1024, 1024}, kHalf, 5)});
  // Counts down columns read the input in place (Note [Column reductions
  // on CUDA]); NaN counts, -0.0 does not, in every floating dtype.
  for (ScalarType D : {kFloat, kDouble, kHalf, kBFloat16}) {
    SCOPED_TRACE(::testing::Message() << "dtype " << D);
    Tensor Special = sk::zeros({300, 5}).to(D);
    Special.select(0, 7).select(0, 1).fill_(NAN);
    Special.select(0, 299).select(0, 4).fill_(-0.0);
    Special.select(0, 150).select(0, 3).fill_(INFINITY);
    checkOp([](auto &X) { return sk::count_nonzero(X[0], IntArrayRef{0}); },
            {Special});
    checkOp([](auto &X) { return sk::count_nonzero(X[0], IntArrayRef{1}); },
            {Special});
  }
  checkOp(
      [](auto &X) {
        return sk::count_nonzero(X[0], {0, 1});
      },
      {values({64, 40, 33}, kInt, 7)});
  // Narrow rows, folded a residue class a thread: counts, and a NaN in the
  // last row and in the first.
  checkOp([](auto &X) { return sk::count_nonzero(X[0], IntArrayRef{0}); },
          {values({300000, 2}, kFloat, 10)});
  Tensor NarrowNaN = values({200000, 3}, kFloat, 11);
  NarrowNaN.select(0, 199999).select(0, 1).fill_(NAN);
  NarrowNaN.select(0, 0).select(0, 2).fill_(NAN);
  checkOp([](auto &X) { return sk::amax(X[0], {0}); }, {NarrowNaN});
  checkOp([](auto &X) { return sk::amin(X[0], {0}); }, {NarrowNaN});
  // The same after kept dims: a NaN in the last slab's last row and in the
  // first slab's first, counts, and all and any over 2 slabs.
  Tensor SlabsNaN = values({4, 60000, 3}, kFloat, 12);
  SlabsNaN.select(0, 3).select(0, 59999).select(0, 1).fill_(NAN);
  SlabsNaN.select(0, 0).select(0, 0).select(0, 2).fill_(NAN);
  checkOp([](auto &X) { return sk::amax(X[0], {1}); }, {SlabsNaN});
  checkOp([](auto &X) { return sk::amin(X[0], {1}); }, {SlabsNaN});
  checkOp([](auto &X) { return sk::count_nonzero(X[0], IntArrayRef{1}); },
          {values({3, 100000, 2}, kFloat, 13)});
  // Integers' extrema down narrow columns, read in place in their own
  // type, and 16-bit floats' counts and flags, each read by its own load.
  for (ScalarType D : {kChar, kByte, kShort, kInt}) {
    checkOp([](auto &X) { return sk::amax(X[0], {0}); },
            {values({300000, 3}, D, 14)});
    checkOp([](auto &X) { return sk::amin(X[0], {1}); },
            {values({4, 100000, 3}, D, 15)});
  }
  for (ScalarType D : {kHalf, kBFloat16}) {
    checkOp([](auto &X) { return sk::count_nonzero(X[0], IntArrayRef{0}); },
            {values({300000, 2}, D, 16)});
    checkOp([](auto &X) { return sk::any(X[0], 1); },
            {sk::eq(values({3, 100000, 2}, kFloat, 17), 0).to(D)});
    checkOp([](auto &X) { return sk::all(X[0], 0); },
            {values({300000, 3}, D, 18, /*Positive=*/true)});
  }
  // 1024 slabs of 31 columns, one block each, and 1025, past the narrow
  // kernel's grid; a start one element into the storage.
  checkOp([](auto &X) { return sk::sum(X[0], {1}); },
          {values({1024, 9, 31}, kFloat, 19)});
  checkOp([](auto &X) { return sk::sum(X[0], {1}); },
          {values({1025, 9, 31}, kFloat, 20)});
  checkOp(
      [](auto &X) {
        return sk::sum(X[0].view({-1}).narrow(0, 1, 899997).view({299999, 3}),
                       {0});
      },
      {values({300000, 3}, kHalf, 21)});
  // all and any down narrow columns, one column true throughout and one
  // false but for one value.
  Tensor Flags = sk::zeros({300000, 2}, TensorOptions().dtype(kBool));
  Flags.select(1, 0).fill_(1);
  Flags.select(0, 123456).select(0, 1).fill_(1);
  checkOp([](auto &X) { return sk::all(X[0], 0); }, {Flags});
  checkOp([](auto &X) { return sk::any(X[0], 0); }, {Flags});
  Tensor SlabFlags = sk::zeros({2, 300000, 2}, TensorOptions().dtype(kBool));
  SlabFlags.select(0, 0).copy_(Flags);
  SlabFlags.select(0, 1).select(1, 1).fill_(1);
  SlabFlags.select(0, 1).select(0, 299999).select(0, 0).fill_(1);
  checkOp([](auto &X) { return sk::all(X[0], 1); }, {SlabFlags});
  checkOp([](auto &X) { return sk::any(X[0], 1); }, {SlabFlags});
  // Into an out= with gaps, through a contiguous temporary.
  Tensor Counts =
      sk::empty({6, 2}, TensorOptions(kCuda).dtype(kLong)).select(1, 1);
  Tensor Rows = values({6, 7}, kFloat, 8);
  sk::count_nonzero_out(Counts, Rows.to(kCuda), {1});
  expectMatch(sk::count_nonzero(Rows, IntArrayRef{1}), Counts);
  // Into an out= that is the input's first row: counted before written.
  Tensor Self = values({4, 4}, kLong, 9);
  Tensor Want = sk::count_nonzero(Self, IntArrayRef{1});
  Tensor OnCuda = Self.to(kCuda);
  Tensor FirstRow = OnCuda.select(0, 0);
  sk::count_nonzero_out(FirstRow, OnCuda, {1});
  expectMatch(Want, FirstRow);
  // Into an out= that is the input's last rows, which blocks other than
  // the first read: counted before written, at any block order.
  const int64_t ManyRows = int64_t(1) << 20;
  Tensor Many = values({ManyRows, 8}, kLong, 10);
  Tensor WantMany = sk::count_nonzero(Many, IntArrayRef{1});
  Tensor ManyOnCuda = Many.to(kCuda);
  Tensor LastRows = ManyOnCuda.view({-1}).narrow(0, 7 * ManyRows, ManyRows);
  sk::count_nonzero_out(LastRows, ManyOnCuda, {1});
  expectMatch(WantMany, LastRows);
  // item() of a CUDA tensor comes through the host.
  EXPECT_EQ(
      sk::count_nonzero(values({4, 4}, kFloat, 6).to(kCuda)).item<int64_t>(),
      sk::count_nonzero(values({4, 4}, kFloat, 6)).item<int64_t>());
  checkReduction([](auto &X) { return sk::amax(X[0]); }, kFloat,
                 /*ZeroSize=*/false);
  // NaN propagates.
  Tensor N = fromVector(std::vector<double>{1, NAN, 3, 2}, {2, 2}, kFloat);
  checkOp([](auto &X) { return sk::amax(X[0], {1}); }, {N});
  // Also down columns, from the first row, a middle one, the last, or none.
  Tensor Columns = fromVector(
      std::vector<double>{NAN, 1, 2, 0, 5, NAN, 3, 4, 9, 6, 7, NAN}, {3, 4},
      kFloat);
  checkOp([](auto &X) { return sk::amax(X[0], {0}); }, {Columns});
  checkOp([](auto &X) { return sk::amin(X[0], {0}); }, {Columns});
}

TEST_F(CUDAReduceTest, ArgReductions_MatchCpu) {
  for (ScalarType D : kNumeric) {
    checkReduction([](auto &X) { return sk::argmax(X[0]); }, D, false);
    checkReduction([](auto &X) { return sk::argmin(X[0]); }, D, false);
    checkReduction([](auto &X) { return sk::argmax(X[0], 1); }, D, false);
    checkReduction([](auto &X) { return sk::argmin(X[0], 2, true); }, D, false);
    checkReduction([](auto &X) { return std::get<0>(sk::max(X[0], 1)); }, D,
                   false);
    checkReduction([](auto &X) { return std::get<1>(sk::max(X[0], 1)); }, D,
                   false);
    checkReduction([](auto &X) { return std::get<0>(sk::min(X[0], 0, true)); },
                   D, false);
    checkReduction([](auto &X) { return std::get<1>(sk::min(X[0], 2)); }, D,
                   false);
  }
  // Ties pick the first; NaN wins.
  Tensor T = fromVector(std::vector<double>{2, 5, 5, 1, NAN, 0, NAN, 9}, {2, 4},
                        kFloat);
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {T});
  checkOp([](auto &X) { return sk::argmin(X[0]); }, {T});
  checkOp([](auto &X) { return std::get<1>(sk::max(X[0], 1)); }, {T});
  // Rows of one and of several rounds of the segment kernel's loads (a
  // round of 512 threads' 4 vectors is 8192 values in vectors of 4, 4096
  // in vectors of 2), every value repeated (values() has period 19), in
  // whole vectors (lengths a multiple of 4) or with a head and a tail of
  // single values (4999: each row starts at a different offset from a
  // vector), and a NaN late in one row: the first extremum, or the NaN,
  // wins. float16 and bfloat16 are read in place, in vectors of 4.
  for (ScalarType D :
       {kFloat, kDouble, kHalf, kBFloat16, kInt, kShort, kChar, kLong}) {
    for (int64_t Length : {5000, 4999, 20000}) {
      SCOPED_TRACE(::testing::Message() << D << " rows of " << Length);
      Tensor Rows = values({3, Length}, D, 9);
      if (isFloatingType(D))
        Rows.select(0, 1).select(0, 4321).fill_(NAN);
      checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Rows});
      checkOp([](auto &X) { return sk::argmin(X[0], 1); }, {Rows});
      checkOp([](auto &X) { return std::get<0>(sk::max(X[0], 1)); }, {Rows});
      checkOp([](auto &X) { return std::get<1>(sk::min(X[0], 1)); }, {Rows});
    }
  }
  // Rows one element into their storage: a head of single values, then
  // vectors. Rows shorter than a vector, or all head and tail, and rows
  // whose extremum or NaN lies in the head or the tail.
  Tensor Flat = values({1 + 3 * 5000}, kFloat, 10);
  checkOp(
      [](auto &X) {
        return sk::argmax(X[0].slice(0, 1).view({3, 5000}), 1);
      },
      {Flat});
  checkOp(
      [](auto &X) {
        return std::get<0>(sk::max(X[0].slice(0, 1).view({3, 5000}), 1));
      },
      {Flat.to(kBFloat16)});
  for (int64_t Length : {1, 3, 5, 7, 9}) {
    SCOPED_TRACE(::testing::Message() << "rows of " << Length);
    for (ScalarType D : {kFloat, kDouble, kBFloat16, kChar})
      checkOp([](auto &X) { return sk::argmax(X[0], 1); },
              {values({5, Length}, D, 14)});
  }
  Tensor Ends = sk::zeros({3, 4999});
  Ends.select(0, 0).select(0, 0).fill_(1); // An aligned row's first vector.
  Ends.select(0, 1).select(0, 0).fill_(1);      // Head of a misaligned one.
  Ends.select(0, 1).select(0, 4998).fill_(2);   // Its tail.
  Ends.select(0, 2).select(0, 4998).fill_(NAN); // A tail of one.
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Ends});
  checkOp([](auto &X) { return sk::argmin(sk::neg(X[0]), 1); }, {Ends});
  // Rows whose every value is the worst one (-inf for a maximum, the
  // lowest integer), where no value beats the start: index 0; and a NaN
  // first in a row or alone at its end.
  const float Inf = std::numeric_limits<float>::infinity();
  Tensor Infs = sk::full({2, 1000}, -Inf);
  Infs.select(0, 1).select(0, 0).fill_(NAN);
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Infs});
  checkOp([](auto &X) { return sk::argmin(sk::neg(X[0]), 1); }, {Infs});
  Tensor Lowest = sk::full({2, 1000}, std::numeric_limits<int64_t>::min(),
                           TensorOptions().dtype(kLong));
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Lowest});
  // The same in rows with heads and tails of single values.
  checkOp([](auto &X) { return sk::argmax(X[0], 1); },
          {sk::full({3, 999}, -Inf)});
  checkOp([](auto &X) { return sk::argmax(X[0], 1); },
          {sk::full({3, 999}, std::numeric_limits<int8_t>::min(),
                    TensorOptions().dtype(kChar))});
  // The worst value of the other dtypes: uint8's and bool's is 0, so
  // rows of zeros or false; -inf of the 16-bit floats, read in place;
  // each in rows of whole vectors and with a head and a tail, and as a
  // row long enough for chunks.
  for (ScalarType D : {kByte, kBool, kHalf, kBFloat16, kShort}) {
    SCOPED_TRACE(::testing::Message() << D << " worst");
    auto Worst = [&](std::vector<int64_t> Sizes) {
      if (D == kShort)
        return sk::full(Sizes, std::numeric_limits<int16_t>::min(),
                        TensorOptions().dtype(kShort));
      return (isFloatingType(D) ? sk::full(Sizes, -Inf) : sk::zeros(Sizes))
          .to(D);
    };
    for (const Tensor &Rows : {Worst({2, 1000}), Worst({3, 999})}) {
      checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Rows});
      checkOp([](auto &X) { return std::get<1>(sk::max(X[0], 1)); }, {Rows});
    }
    checkOp([](auto &X) { return sk::argmax(X[0]); }, {Worst({20000})});
  }
  Tensor Zeros = sk::zeros({2, 1000});
  Zeros.select(0, 0).select(0, 999).fill_(NAN);
  checkOp([](auto &X) { return sk::argmin(X[0], 1); }, {Zeros});
  // Two NaNs whose later one is a lower-numbered thread's (the block's
  // combine takes the lower index), and -0.0 before 0.0 (equal: the first).
  Tensor TwoNaNs = values({3, 5000}, kFloat, 11);
  TwoNaNs.select(0, 2).select(0, 3000).fill_(NAN);
  TwoNaNs.select(0, 2).select(0, 20).fill_(NAN);
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {TwoNaNs});
  checkOp([](auto &X) { return std::get<1>(sk::min(X[0], 1)); }, {TwoNaNs});
  Tensor Signed =
      fromVector(std::vector<double>{-0.0, 0.0, 0.0, -0.0}, {2, 2}, kFloat);
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Signed});
  checkOp([](auto &X) { return sk::argmin(X[0], 1); }, {Signed});
  // Few long rows, and whole tensors, are split into chunks of whole
  // vectors (at least 8192 values each), whose pairs a second kernel
  // combines: ties between chunks (every value repeats), the first of two
  // NaNs in different chunks, a NaN alone in the last chunk, a row's
  // extremum in one chunk only.
  for (ScalarType D : {kFloat, kDouble, kHalf, kBFloat16, kChar, kLong}) {
    SCOPED_TRACE(::testing::Message() << D << " chunks");
    Tensor Few = values({3, 100003}, D, 21);
    if (isFloatingType(D)) {
      Few.select(0, 1).select(0, 90000).fill_(NAN);
      Few.select(0, 1).select(0, 30000).fill_(NAN);
      Few.select(0, 2).select(0, 100002).fill_(NAN);
    }
    Few.select(0, 0).select(0, 50000).fill_(100);
    checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Few});
    checkOp([](auto &X) { return sk::argmin(X[0], 1, true); }, {Few});
    checkOp([](auto &X) { return std::get<0>(sk::max(X[0], 1)); }, {Few});
    checkOp([](auto &X) { return std::get<1>(sk::min(X[0], 1)); }, {Few});
    checkOp([](auto &X) { return sk::argmax(X[0]); }, {Few});
    checkOp([](auto &X) { return sk::argmin(X[0]); }, {Few});
  }
  // Rows long enough for more chunks than the combine's threads (1024 of
  // a row of 9M, 512 threads), whose extremum, tie or NaN lies in a chunk
  // past the first 512; two rows of 5M (512 chunks each) into outputs
  // with gaps, through temporaries.
  Tensor Long9M = sk::zeros({9000000});
  Long9M.select(0, 8800000).fill_(1);
  Long9M.select(0, 8900000).fill_(1);
  checkOp([](auto &X) { return sk::argmax(X[0]); }, {Long9M});
  checkOp([](auto &X) { return std::get<1>(sk::min(sk::neg(X[0]), 0)); },
          {Long9M});
  Long9M.select(0, 8950000).fill_(NAN);
  checkOp([](auto &X) { return sk::argmin(X[0]); }, {Long9M});
  Tensor Two5M = sk::zeros({2, 5000000});
  Two5M.select(0, 0).select(0, 4000000).fill_(-1);
  Two5M.select(0, 1).select(0, 4999999).fill_(-1);
  Tensor GapVals = sk::empty({2, 2}, kCuda).select(1, 0);
  Tensor GapIdx =
      sk::empty({2, 2}, TensorOptions(kCuda).dtype(kLong)).select(1, 1);
  sk::min_out(GapVals, GapIdx, Two5M.to(kCuda), 1);
  expectMatch(std::get<0>(sk::min(Two5M, 1)), GapVals);
  expectMatch(std::get<1>(sk::min(Two5M, 1)), GapIdx);
  // A whole tensor that starts off a vector (each chunk has a head), a
  // transposed one (read through a copy), GPT-2's vocabulary in bfloat16,
  // and values of only the worst one (index 0).
  checkOp([](auto &X) { return sk::argmax(X[0].slice(0, 1)); },
          {values({1 + 300000}, kFloat, 22)});
  checkOp([](auto &X) { return sk::argmin(X[0].t()); },
          {values({700, 500}, kFloat, 23)});
  checkOp([](auto &X) { return sk::argmax(X[0], 1); },
          {scrambled({1, 50257}, kBFloat16)});
  checkOp([](auto &X) { return sk::argmax(X[0]); },
          {sk::full({200000}, -std::numeric_limits<float>::infinity())});
  checkOp([](auto &X) { return sk::argmin(X[0]); },
          {sk::full({200000}, std::numeric_limits<float>::infinity())});
  checkOp([](auto &X) { return std::get<1>(sk::max(X[0], 1)); },
          {values({2, 40000}, kBool, 24)});
  checkOp([](auto &X) { return sk::argmin(X[0]); },
          {values({3, 30001}, kInt, 25)});
  checkOp([](auto &X) { return sk::argmax(X[0], 1); },
          {sk::full({2, 50000}, std::numeric_limits<int8_t>::min(),
                    TensorOptions().dtype(kChar))});
  // More segments than blocks in the grid (65535), short rows of whole
  // vectors and not; and bools.
  for (int64_t Length : {3, 8})
    checkOp([](auto &X) { return std::get<1>(sk::max(X[0], 1)); },
            {values({70000, Length}, kFloat, 12)});
  checkOp([](auto &X) { return std::get<1>(sk::max(X[0], 1)); },
          {values({4, 3000}, kBool, 13)});
  // A dim between kept ones with enough columns for a thread each
  // (argColumnsKernel): the classes of [N, C, H, W], with ties (values()
  // repeats) and NaNs; a reduced dim first, and one of size 1.
  for (ScalarType D : {kFloat, kHalf, kBFloat16, kDouble, kChar, kBool}) {
    SCOPED_TRACE(::testing::Message() << D << " columns");
    Tensor Classes = values({2, 5, 128, 160}, D, 16);
    if (isFloatingType(D)) {
      Classes.select(0, 1).select(0, 3).select(0, 7).select(0, 9).fill_(NAN);
      Classes.select(0, 1).select(0, 1).select(0, 7).select(0, 9).fill_(NAN);
    }
    checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Classes});
    checkOp([](auto &X) { return sk::argmin(X[0], 1, true); }, {Classes});
    checkOp([](auto &X) { return std::get<0>(sk::max(X[0], 1)); }, {Classes});
    checkOp([](auto &X) { return std::get<1>(sk::min(X[0], 1)); }, {Classes});
    checkOp([](auto &X) { return sk::argmax(X[0], 0); },
            {values({7, 40000}, D, 17)});
    checkOp([](auto &X) { return sk::argmin(X[0], 1); },
            {values({2, 1, 20000}, D, 18)});
  }
  // Ties along a column: classes 1 and 3 hold the maximum, 0, 2 and 4 the
  // minimum; and columns of only the worst value.
  Tensor Ties = sk::empty({2, 5, 128, 160}, kFloat);
  float *TieData = Ties.data_ptr<float>();
  for (int64_t I = 0; I < Ties.numel(); ++I) {
    int64_t Class = I / (128 * 160) % 5;
    TieData[I] = Class % 2 == 1 ? 7.0f : float(I % 160 % 5);
  }
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Ties});
  checkOp([](auto &X) { return std::get<1>(sk::min(X[0], 1)); }, {Ties});
  checkOp([](auto &X) { return std::get<1>(sk::max(X[0], 1)); },
          {Ties.to(kBFloat16)});
  checkOp(
      [](auto &X) { return std::get<1>(sk::max(X[0], 1)); },
      {sk::full({2, 5, 128, 160}, -std::numeric_limits<float>::infinity())});
  checkOp([](auto &X) { return sk::argmax(X[0], 1); },
          {sk::full({2, 5, 128, 160}, std::numeric_limits<int8_t>::min(),
                    TensorOptions().dtype(kChar))});
  // Columns enough to fill the GPU (262144), each longer than 64 rows:
  // one thread a column whatever its length; with ties (bfloat16 rounds
  // the values) and a NaN.
  Tensor Wide = scrambled({1, 65, 512, 512}, kBFloat16);
  Wide.select(0, 0).select(0, 40).select(0, 3).select(0, 7).fill_(NAN);
  checkOp([](auto &X) { return sk::argmax(X[0], 1); }, {Wide});
  checkOp([](auto &X) { return std::get<0>(sk::max(X[0], 1)); }, {Wide});
  checkOp([](auto &X) { return std::get<1>(sk::min(X[0], 1)); }, {Wide});
  // Into an out= over the input's own first values, which other threads
  // read: through a temporary.
  Tensor Own = values({2, 5, 20000}, kLong, 21);
  Tensor WantOwn = sk::argmax(Own, 1);
  Tensor OwnOnCuda = Own.to(kCuda);
  Tensor OverSelf = OwnOnCuda.view({-1}).narrow(0, 0, 40000).view({2, 20000});
  sk::argmax_out(OverSelf, OwnOnCuda, 1);
  expectMatch(WantOwn, OverSelf);
  // Long columns, too few to fill the GPU: the transposed copy.
  checkOp([](auto &X) { return sk::argmax(X[0], 0); },
          {values({100, 33000}, kFloat, 20)});
  // Into outputs with gaps, through temporaries.
  Tensor ClassVals = sk::empty({2, 128, 160, 2}, kCuda).select(3, 0);
  Tensor ClassIdx =
      sk::empty({2, 128, 160, 2}, TensorOptions(kCuda).dtype(kLong))
          .select(3, 1);
  Tensor Scores = values({2, 5, 128, 160}, kFloat, 19);
  sk::max_out(ClassVals, ClassIdx, Scores.to(kCuda), 1);
  expectMatch(std::get<0>(sk::max(Scores, 1)), ClassVals);
  expectMatch(std::get<1>(sk::max(Scores, 1)), ClassIdx);
  // Outputs with gaps are written through contiguous temporaries.
  Tensor Vals = sk::empty({3, 2}, kCuda).select(1, 0);
  Tensor Idx =
      sk::empty({3, 2}, TensorOptions(kCuda).dtype(kLong)).select(1, 1);
  Tensor Long = values({3, 5000}, kFloat, 9);
  sk::max_out(Vals, Idx, Long.to(kCuda), 1);
  expectMatch(std::get<0>(sk::max(Long, 1)), Vals);
  expectMatch(std::get<1>(sk::max(Long, 1)), Idx);
  // A zero-size tensor along a kept dim gives empty results.
  checkOp([](auto &X) { return sk::argmax(X[0], 1); },
          {values({0, 3}, kFloat, 0)});
  checkOp([](auto &X) { return sk::argmax(X[0]); }, {values({}, kFloat, 1)});
}

TEST_F(CUDAReduceTest, OutVariants_MatchCpu) {
  Tensor A = values({5, 6}, kFloat, 0);
  Tensor Sum = sk::empty({5}, kCuda);
  sk::sum_out(Sum, A.to(kCuda), {1});
  expectMatch(sk::sum(A, {1}), Sum);
  Tensor Strided = sk::empty({5, 2}, kCuda).select(1, 1);
  sk::amax_out(Strided, A.to(kCuda), {1});
  expectMatch(sk::amax(A, {1}), Strided);
  Tensor V = sk::empty({0}, kCuda);
  Tensor I = sk::empty({0}, TensorOptions(kCuda).dtype(kLong));
  sk::max_out(V, I, A.to(kCuda), 0);
  expectMatch(std::get<0>(sk::max(A, 0)), V);
  expectMatch(std::get<1>(sk::max(A, 0)), I);
}

} // namespace
