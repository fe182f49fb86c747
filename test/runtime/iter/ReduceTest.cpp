//===--- ReduceTest.cpp - Reduction CPU loops -----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/Reduce.h"

#include "sk/iter/ReduceUtils.h"

#include "IterTestUtils.h"

#include <cmath>
#include <limits>
#include <random>

using namespace sk;
using namespace sk::test;

namespace {

struct ThreadCountGuard {
  int Saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(Saved); }
};

/// sum(Self, Dims, Keepdim) into a new tensor of \p OutDtype: the vector
/// loop for float and double, a float accumulator for Half and BFloat16,
/// int64 for integers.
Tensor sum(const Tensor &Self, IntArrayRef Dims, bool Keepdim,
           ScalarType OutDtype, int64_t GrainSize = kGrainSize) {
  Tensor Out =
      detail::empty_cpu(reduction_shape(Self.sizes(), Dims, Keepdim), OutDtype);
  TensorIterator Iter = make_reduction(Self, Out, Dims, Keepdim);
  visitScalarType(OutDtype, [&](auto Tag) {
    using T = decltype(Tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      cpu_reduce_vec(
          Iter, T(0), [](T A, T B) { return A + B; },
          [](auto A, auto B) { return hn::Add(A, B); }, GrainSize);
    } else if constexpr (std::is_same_v<T, Half> ||
                         std::is_same_v<T, BFloat16>) {
      cpu_reduce(
          Iter, 0.0f, [](float Acc, T X) { return Acc + float(X); },
          [](float A, float B) { return A + B; },
          [](float Acc) { return T(Acc); }, GrainSize);
    } else {
      cpu_reduce(
          Iter, int64_t(0), [](int64_t Acc, int64_t X) { return Acc + X; },
          [](int64_t A, int64_t B) { return A + B; },
          [](int64_t Acc) { return Acc; }, GrainSize);
    }
  });
  return Out;
}

/// The reference sum over \p Dims of a row-major [D0, D1, D2] array.
std::vector<double> sumRef3(const std::vector<double> &V, int64_t D0,
                            int64_t D1, int64_t D2, bool R0, bool R1, bool R2) {
  int64_t O0 = R0 ? 1 : D0, O1 = R1 ? 1 : D1, O2 = R2 ? 1 : D2;
  std::vector<double> Out(O0 * O1 * O2, 0);
  for (int64_t I = 0; I < D0; ++I)
    for (int64_t J = 0; J < D1; ++J)
      for (int64_t K = 0; K < D2; ++K)
        Out[((R0 ? 0 : I) * O1 + (R1 ? 0 : J)) * O2 + (R2 ? 0 : K)] +=
            V[(I * D1 + J) * D2 + K];
  return Out;
}

TEST(IterReduceTest, FullSum_Float) {
  for (int64_t N : {1, 5, 64, 1000, 5000}) {
    Tensor In = arange({N}, kFloat);
    Tensor Out = sum(In, {}, false, kFloat);
    ASSERT_EQ(Out.dim(), 0);
    EXPECT_EQ(toVector<double>(Out)[0], double(N) * (N - 1) / 2) << N;
  }
  // Many chunks: ones keep every partial sum exact.
  Tensor Ones = arange({3000000}, kFloat, 0, 1);
  EXPECT_EQ(toVector<double>(sum(Ones, {}, false, kFloat))[0], 3000000);
}

TEST(IterReduceTest, PartialSums_MatchReference) {
  const int64_t D0 = 7, D1 = 33, D2 = 70;
  std::vector<double> V = iota(D0 * D1 * D2, 1, -500);
  Tensor In = fromVector(V, {D0, D1, D2}, kDouble);
  struct Case {
    std::vector<int64_t> Dims;
    bool R0, R1, R2;
  };
  for (const Case &C : std::vector<Case>{{{0}, true, false, false},
                                         {{1}, false, true, false},
                                         {{2}, false, false, true},
                                         {{0, 2}, true, false, true},
                                         {{-1, -2}, false, true, true},
                                         {{}, true, true, true}}) {
    for (bool Keepdim : {false, true}) {
      Tensor Out = sum(In, C.Dims, Keepdim, kDouble, /*GrainSize=*/64);
      EXPECT_EQ(toVector<double>(Out), sumRef3(V, D0, D1, D2, C.R0, C.R1, C.R2))
          << "dims " << IntArrayRef(C.Dims) << " keepdim " << Keepdim;
      EXPECT_EQ(Out.sizes(),
                IntArrayRef(reduction_shape(In.sizes(), C.Dims, Keepdim)));
    }
  }
}

TEST(IterReduceTest, NonContiguousInput_MatchesReference) {
  const int64_t D0 = 9, D1 = 40, D2 = 3;
  std::vector<double> V = iota(D0 * D1 * D2, 0.5);
  // The same values through a permuted layout: Base is [D2, D0, D1].
  Tensor Base = detail::empty_cpu({D2, D0, D1}, kFloat);
  Tensor In = stridedView(Base, {D0, D1, D2}, {D1, 1, D0 * D1});
  fill(In, V);
  for (int Dim = 0; Dim < 3; ++Dim) {
    Tensor Out = sum(In, {Dim}, false, kFloat);
    EXPECT_EQ(toVector<double>(Out),
              sumRef3(V, D0, D1, D2, Dim == 0, Dim == 1, Dim == 2))
        << "dim " << Dim;
  }
}

TEST(IterReduceTest, HalfAndBFloat16_AccumulateInFloat) {
  // A float16 accumulator stops at 2048 (2048 + 1 rounds back to 2048), a
  // bfloat16 one at 256.
  Tensor H = fromVector(std::vector<double>(4096, 1), {4096}, kHalf);
  EXPECT_EQ(toVector<double>(sum(H, {}, false, kHalf))[0], 4096);
  Tensor B = fromVector(std::vector<double>(512, 1), {512}, kBFloat16);
  EXPECT_EQ(toVector<double>(sum(B, {}, false, kBFloat16))[0], 512);
  Tensor H2 = fromVector(std::vector<double>(3 * 4096, 1), {3, 4096}, kHalf);
  EXPECT_EQ(toVector<double>(sum(H2, {1}, false, kHalf)),
            std::vector<double>(3, 4096));
}

TEST(IterReduceTest, IntegerInput_IntoInt64Output) {
  Tensor In = arange({4, 5}, kInt, 1, -3);
  Tensor Out = sum(In, {0}, false, kLong);
  EXPECT_EQ(Out.dtype(), kLong);
  EXPECT_EQ(toVector<int64_t>(Out), std::vector<int64_t>({18, 22, 26, 30, 34}));
  Tensor Bools = fromVector<double>({1, 0, 1, 1}, {4}, kBool);
  EXPECT_EQ(toVector<int64_t>(sum(Bools, {}, false, kLong))[0], 3);
}

TEST(IterReduceTest, EmptyReducedDim_GivesIdentity) {
  Tensor In = detail::empty_cpu({0, 3}, kFloat);
  Tensor Out = sum(In, {0}, false, kFloat);
  EXPECT_EQ(Out.sizes(), IntArrayRef({3}));
  EXPECT_EQ(toVector<double>(Out), std::vector<double>(3, 0));
  Tensor Keep = sum(In, {0}, true, kFloat);
  EXPECT_EQ(Keep.sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(toVector<double>(Keep), std::vector<double>(3, 0));
  Tensor All = sum(In, {}, false, kLong);
  EXPECT_EQ(toVector<int64_t>(All)[0], 0);
  Tensor NoOut = sum(In, {1}, false, kFloat);
  EXPECT_EQ(NoOut.sizes(), IntArrayRef({0}));
}

TEST(IterReduceTest, ZeroDimInput_IsItsOwnSum) {
  Tensor In = fromVector<double>({2.5}, {}, kFloat);
  EXPECT_EQ(toVector<double>(sum(In, {}, false, kFloat))[0], 2.5);
  EXPECT_EQ(toVector<double>(sum(In, {0}, true, kFloat))[0], 2.5);
}

TEST(IterReduceTest, FullSum_SameResultForAnyThreadCount) {
  ThreadCountGuard Guard;
  std::mt19937 Gen(7);
  std::uniform_real_distribution<double> Dist(-1, 1);
  std::vector<double> V(1 << 20);
  for (double &X : V)
    X = Dist(Gen);
  Tensor In = fromVector(V, {int64_t(V.size())}, kFloat);
  set_num_threads(1);
  float One = toVector<float>(sum(In, {}, false, kFloat))[0];
  set_num_threads(2);
  float Two = toVector<float>(sum(In, {}, false, kFloat))[0];
  EXPECT_EQ(One, Two);
  double Ref = 0;
  for (double X : V)
    Ref += static_cast<float>(X);
  EXPECT_NEAR(One, Ref, 5e-2);
}

TEST(IterReduceTest, MaxReduction_WithVectorBody) {
  std::vector<double> V = iota(1000, 3, -1500);
  V[617] = 1e6;
  Tensor In = fromVector(V, {10, 100}, kFloat);
  for (std::vector<int64_t> Dims :
       {std::vector<int64_t>{}, std::vector<int64_t>{1}}) {
    Tensor Out =
        detail::empty_cpu(reduction_shape(In.sizes(), Dims, false), kFloat);
    TensorIterator Iter = make_reduction(In, Out, Dims, false);
    cpu_reduce_vec(
        Iter, -std::numeric_limits<float>::infinity(),
        [](float A, float B) { return std::max(A, B); },
        [](auto A, auto B) { return hn::Max(A, B); });
    std::vector<double> Got = toVector<double>(Out);
    if (Dims.empty()) {
      EXPECT_EQ(Got[0], 1e6);
      continue;
    }
    for (int R = 0; R < 10; ++R)
      EXPECT_EQ(Got[R], R == 6 ? 1e6 : 3.0 * (R * 100 + 99) - 1500);
  }
}

} // namespace
