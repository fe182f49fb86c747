//===--- ReduceTest.cpp - The reduction kernels ---------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// sum, mean, prod, amax, amin, all, any, argmax, argmin, max.dim and
/// min.dim against naive reductions written here, through the dispatcher
/// (sk::op), the out= variants and the CPU entry points, on CPU and on meta
/// tensors.
///
//===----------------------------------------------------------------------===//

#include "CPUFunctions.h"
#include "Functions.h"

#include "iter/IterTestUtils.h"

#include "sk/iter/Parallel.h"
#include "sk/ops/Factories.h"

#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace sk;
using namespace sk::test;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

using Dims = std::vector<int64_t>;

/// Small integers in [Lo, Hi]: float sums and products of them are exact.
std::vector<double> randomInts(int64_t N, unsigned Seed, int Lo = -8,
                               int Hi = 8) {
  std::mt19937 Gen(Seed);
  std::uniform_int_distribution<int> Dist(Lo, Hi);
  std::vector<double> V(N);
  for (double &X : V)
    X = Dist(Gen);
  return V;
}

int64_t numelOf(const Dims &Sizes) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  return N;
}

/// A naive reduction of the row-major values \p V of shape \p Sizes over
/// \p ReduceDims (every dimension when empty): its shape and its values in
/// row-major order, folded with \p Fn from \p Init.
struct Ref {
  Dims Sizes;
  std::vector<double> Values;
};
Ref reduceRef(const std::vector<double> &V, const Dims &Sizes,
              const Dims &ReduceDims, bool Keepdim, double Init,
              const std::function<double(double, double)> &Fn) {
  const int64_t Rank = static_cast<int64_t>(Sizes.size());
  std::vector<bool> Reduced(Rank, ReduceDims.empty());
  for (int64_t D : ReduceDims)
    Reduced[D < 0 ? D + Rank : D] = true;
  Ref R;
  Dims OutFull; // the output's extent with Self's rank
  for (int64_t D = 0; D < Rank; ++D) {
    OutFull.push_back(Reduced[D] ? 1 : Sizes[D]);
    if (!Reduced[D] || Keepdim)
      R.Sizes.push_back(Reduced[D] ? 1 : Sizes[D]);
  }
  R.Values.assign(numelOf(OutFull), Init);
  Dims Idx(Rank, 0);
  for (int64_t I = 0; I < numelOf(Sizes); ++I) {
    int64_t Out = 0;
    for (int64_t D = 0; D < Rank; ++D)
      Out = Out * OutFull[D] + (Reduced[D] ? 0 : Idx[D]);
    R.Values[Out] = Fn(R.Values[Out], V[I]);
    for (int64_t D = Rank - 1; D >= 0; --D) {
      if (++Idx[D] < Sizes[D])
        break;
      Idx[D] = 0;
    }
  }
  return R;
}

double plus(double A, double B) { return A + B; }
double times(double A, double B) { return A * B; }
double maxNan(double A, double B) {
  return std::isnan(A) || std::isnan(B) ? kNaN : std::max(A, B);
}
double minNan(double A, double B) {
  return std::isnan(A) || std::isnan(B) ? kNaN : std::min(A, B);
}

/// The first maximum (\p IsMax) or minimum along \p Dim, a NaN beating
/// everything: the values and indices in row-major order.
std::pair<std::vector<double>, std::vector<double>>
argRef(const std::vector<double> &V, const Dims &Sizes, int64_t Dim,
       bool IsMax) {
  int64_t Outer = 1, Inner = 1;
  for (int64_t D = 0; D < Dim; ++D)
    Outer *= Sizes[D];
  for (size_t D = Dim + 1; D < Sizes.size(); ++D)
    Inner *= Sizes[D];
  const int64_t N = Sizes[Dim];
  std::vector<double> Values, Indices;
  for (int64_t O = 0; O < Outer; ++O)
    for (int64_t I = 0; I < Inner; ++I) {
      int64_t Best = 0;
      for (int64_t J = 0; J < N; ++J) {
        double X = V[(O * N + J) * Inner + I];
        double B = V[(O * N + Best) * Inner + I];
        if (std::isnan(B))
          break;
        if (std::isnan(X) || (IsMax ? X > B : X < B))
          Best = J;
      }
      Values.push_back(V[(O * N + Best) * Inner + I]);
      Indices.push_back(static_cast<double>(Best));
    }
  return {Values, Indices};
}

/// Expects \p Got to hold \p Want (NaN equal to NaN), within \p Tol.
void expectValues(const Tensor &Got, const std::vector<double> &Want,
                  double Tol = 0) {
  std::vector<double> G = toVector<double>(Got);
  ASSERT_EQ(G.size(), Want.size());
  for (size_t I = 0; I < G.size(); ++I) {
    if (std::isnan(Want[I])) {
      EXPECT_TRUE(std::isnan(G[I])) << "element " << I << ": " << G[I];
      continue;
    }
    EXPECT_NEAR(G[I], Want[I], Tol) << "element " << I;
  }
}

/// Expects \p Got to be \p Want's reduction: shape and values.
void expectRef(const Tensor &Got, const Ref &Want, double Tol = 0) {
  EXPECT_EQ(Got.sizes(), IntArrayRef(Want.Sizes));
  expectValues(Got, Want.Values, Tol);
}

/// Expects \p Meta (computed on meta tensors) to describe \p Cpu.
void expectSameLayout(const Tensor &Meta, const Tensor &Cpu) {
  EXPECT_TRUE(Meta.is_meta());
  EXPECT_EQ(Meta.sizes(), Cpu.sizes());
  EXPECT_EQ(Meta.strides(), Cpu.strides());
  EXPECT_EQ(Meta.dtype(), Cpu.dtype());
}

Tensor metaEmpty(const Dims &Sizes, ScalarType Dtype = kFloat) {
  return sk::empty(Sizes, TensorOptions().dtype(Dtype).device(kMeta));
}

/// \p Sizes laid out channels-last (NHWC) and holding the row-major
/// values \p V.
Tensor channelsLast(const std::vector<double> &V, const Dims &Sizes) {
  int64_t N = Sizes[0], C = Sizes[1], H = Sizes[2], W = Sizes[3];
  Tensor Base = detail::empty_cpu({N, H, W, C}, kFloat);
  Tensor T = stridedView(Base, Sizes, {H * W * C, 1, W * C, C});
  fill(T, V);
  return T;
}

const std::vector<Dims> kDimLists = {{},     {0},    {1},    {2},    {-1},
                                     {0, 2}, {2, 0}, {1, 2}, {0, 1}, {0, 1, 2}};

//===----------------------------------------------------------------------===//
// sum
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, Sum_EveryDimList_MatchesReference) {
  const Dims Sizes = {3, 4, 5};
  std::vector<double> V = randomInts(60, 1);
  Tensor X = fromVector(V, Sizes, kFloat);
  for (const Dims &D : kDimLists)
    for (bool Keepdim : {false, true}) {
      SCOPED_TRACE(testing::Message()
                   << "dims " << IntArrayRef(D) << " keepdim " << Keepdim);
      Ref Want = reduceRef(V, Sizes, D, Keepdim, 0, plus);
      Tensor Got = sk::sum(X, D, Keepdim);
      EXPECT_EQ(Got.dtype(), kFloat);
      expectRef(Got, Want);
      expectRef(sk::cpu::sum(X, D, Keepdim), Want);
      Tensor Meta = sk::sum(metaEmpty(Sizes), D, Keepdim);
      expectSameLayout(Meta, Got);
    }
}

TEST(ReduceKernelTest, Sum_NoneDim_ReducesEverything) {
  std::vector<double> V = randomInts(24, 2);
  Tensor X = fromVector(V, {2, 3, 4}, kDouble);
  Tensor All = sk::sum(X, OptionalIntArrayRef());
  EXPECT_EQ(All.dim(), 0);
  expectValues(All, reduceRef(V, {2, 3, 4}, {}, false, 0, plus).Values);
  Tensor Keep = sk::sum(X, OptionalIntArrayRef(), /*keepdim=*/true);
  EXPECT_EQ(Keep.sizes(), IntArrayRef({1, 1, 1}));
}

// Users write `int[1]? dim` as PyTorch's users do, with a braced list; a
// one-element list must reach the meta function as that list (it was a
// view of a dead temporary: Dimension out of range, or dimension 0).
TEST(ReduceKernelTest, SumAndMean_BracedDims_AsWritten) {
  std::vector<double> V = randomInts(24, 2);
  Tensor X = fromVector(V, {2, 3, 4}, kDouble);
  expectValues(sk::sum(X, {1}),
               reduceRef(V, {2, 3, 4}, {1}, false, 0, plus).Values);
  EXPECT_EQ(sk::sum(X, {1}).sizes(), IntArrayRef({2, 4}));
  EXPECT_EQ(sk::sum(X, {-1}, true).sizes(), IntArrayRef({2, 3, 1}));
  EXPECT_EQ(sk::sum(X, {0, 2}).sizes(), IntArrayRef({3}));
  EXPECT_EQ(sk::mean(X, {2}).sizes(), IntArrayRef({2, 3}));
  Tensor Out = sk::empty({2, 4}, kDouble);
  sk::sum_out(Out, X, {1});
  expectValues(Out, reduceRef(V, {2, 3, 4}, {1}, false, 0, plus).Values);
  Tensor Meta = sk::empty({2, 3, 4}, TensorOptions().dtype(kDouble).device(kMeta));
  EXPECT_EQ(sk::sum(Meta, {1}).sizes(), IntArrayRef({2, 4}));
}

TEST(ReduceKernelTest, Sum_NonContiguousInputs_MatchReference) {
  // Transposed: a [5, 6] view of a row-major [6, 5].
  std::vector<double> V = randomInts(30, 3);
  Tensor Base = detail::empty_cpu({6, 5}, kFloat);
  Tensor T = transposed(Base, 0, 1);
  fill(T, V);
  ASSERT_FALSE(T.is_contiguous());
  for (const Dims &D : std::vector<Dims>{{0}, {1}, {}})
    expectRef(sk::sum(T, D), reduceRef(V, {5, 6}, D, false, 0, plus));

  // Sliced: every other column of a [4, 10].
  Tensor Wide = detail::empty_cpu({4, 10}, kFloat);
  Tensor Sliced = stridedView(Wide, {4, 5}, {10, 2}, /*Offset=*/1);
  std::vector<double> S = randomInts(20, 4);
  fill(Sliced, S);
  for (const Dims &D : std::vector<Dims>{{0}, {1}, {}})
    expectRef(sk::sum(Sliced, D), reduceRef(S, {4, 5}, D, false, 0, plus));

  // Channels-last: the output is contiguous, on CPU and on meta tensors.
  const Dims Sizes = {2, 3, 4, 5};
  std::vector<double> C = randomInts(120, 5);
  Tensor CL = channelsLast(C, Sizes);
  for (const Dims &D : std::vector<Dims>{{1}, {2, 3}, {0}, {}}) {
    Tensor Got = sk::sum(CL, D, /*keepdim=*/true);
    expectRef(Got, reduceRef(C, Sizes, D, true, 0, plus));
    EXPECT_TRUE(Got.is_contiguous());
    Tensor MetaCL =
        sk::empty_strided(Sizes, CL.strides(), TensorOptions().device(kMeta));
    expectSameLayout(sk::sum(MetaCL, D, true), Got);
  }
}

TEST(ReduceKernelTest, Sum_IntegralInputs_PromoteToInt64) {
  std::vector<double> V = randomInts(12, 6, -100, 100);
  for (ScalarType Dtype : {kByte, kChar, kShort, kInt, kLong, kBool}) {
    SCOPED_TRACE(testing::Message() << Dtype);
    std::vector<double> In = V;
    for (double &X : In)
      X = Dtype == kBool ? (X > 0) : Dtype == kByte ? std::abs(X) : X;
    Tensor X = fromVector(In, {3, 4}, Dtype);
    Tensor Got = sk::sum(X, Dims{1});
    EXPECT_EQ(Got.dtype(), kLong);
    expectRef(Got, reduceRef(In, {3, 4}, {1}, false, 0, plus));
    Tensor Full = sk::sum(X);
    EXPECT_EQ(Full.dtype(), kLong);
    EXPECT_EQ(sk::sum(metaEmpty({3, 4}, Dtype)).dtype(), kLong);
  }
  // An int64 sum does not wrap where an int32 would.
  Tensor Big = fromVector(std::vector<double>(4, 2e9), {4}, kInt);
  EXPECT_EQ(toVector<int64_t>(sk::sum(Big))[0], int64_t(8e9));
}

// mean divides the sum, as PyTorch does: exact where the quotient is.
TEST(ReduceKernelTest, Mean_DividesTheSum) {
  for (ScalarType T : {kFloat, kDouble})
    for (int64_t N : {3, 7, 49, 1000}) {
      Tensor X = sk::ones({N}, TensorOptions().dtype(T));
      EXPECT_EQ(toVector<double>(sk::mean(X))[0], 1.0) << N;
    }
}

// Integer sums and products wrap, as two's complement does, without
// signed-overflow UB (UBSan builds check the latter).
TEST(ReduceKernelTest, IntegerOverflow_Wraps) {
  Tensor X = sk::empty({3}, TensorOptions().dtype(kLong));
  int64_t *P = X.data_ptr<int64_t>();
  P[0] = std::numeric_limits<int64_t>::max();
  P[1] = std::numeric_limits<int64_t>::max();
  P[2] = 2;
  EXPECT_EQ(toVector<int64_t>(sk::sum(X))[0], int64_t(0));
  // (2^63 - 1)^2 is 1 modulo 2^64.
  EXPECT_EQ(toVector<int64_t>(sk::prod(X))[0], int64_t(2));
}

TEST(ReduceKernelTest, Sum_DtypeArgument_ConvertsBeforeSumming) {
  Tensor X = fromVector<double>({1.5, 2.5, -0.5}, {3}, kFloat);
  Tensor D = sk::sum(X, kDouble);
  EXPECT_EQ(D.dtype(), kDouble);
  expectValues(D, {3.5});
  // Each element becomes an int64 first (PyTorch's self.to(dtype)).
  Tensor L = sk::sum(X, Dims{0}, false, kLong);
  EXPECT_EQ(L.dtype(), kLong);
  expectValues(L, {1 + 2 + 0});
  Tensor I = fromVector<double>({1, 2, 3}, {3}, kInt);
  Tensor F = sk::sum(I, OptionalIntArrayRef(), false, kHalf);
  EXPECT_EQ(F.dtype(), kHalf);
  expectValues(F, {6});
}

TEST(ReduceKernelTest, Sum_HalfAndBFloat16_AccumulateInFloat) {
  // A float16 accumulator stops at 2048 (2048 + 1 rounds to 2048), a
  // bfloat16 one at 256.
  Tensor H = fromVector(std::vector<double>(2 * 4096, 1), {2, 4096}, kHalf);
  Tensor HS = sk::sum(H, Dims{1});
  EXPECT_EQ(HS.dtype(), kHalf);
  expectValues(HS, {4096, 4096});
  expectValues(sk::sum(H), {8192});
  Tensor B = fromVector(std::vector<double>(1024, 1), {1024}, kBFloat16);
  Tensor BS = sk::sum(B);
  EXPECT_EQ(BS.dtype(), kBFloat16);
  expectValues(BS, {1024});
}

TEST(ReduceKernelTest, Sum_ZeroSizeAndOneElement) {
  Tensor E = detail::empty_cpu({0, 3}, kFloat);
  expectRef(sk::sum(E, Dims{0}), {{3}, {0, 0, 0}});
  expectRef(sk::sum(E, Dims{0}, true), {{1, 3}, {0, 0, 0}});
  expectRef(sk::sum(E, Dims{1}), {{0}, {}});
  expectValues(sk::sum(E), {0});
  Tensor One = fromVector<double>({7}, {}, kFloat);
  expectRef(sk::sum(One), {{}, {7}});
  expectRef(sk::sum(One, Dims{0}, true), {{}, {7}});
  expectRef(sk::sum(One, Dims{-1}), {{}, {7}});
}

TEST(ReduceKernelTest, Sum_ManyChunks_ExactAndThreadIndependent) {
  // Ones keep every partial sum exact; the full reduction is chunked.
  const int64_t N = 3 * (1 << 20) + 17;
  Tensor Ones = sk::ones({N}, TensorOptions().dtype(kFloat));
  expectValues(sk::sum(Ones), {double(N)});
  std::vector<double> V(1 << 19);
  std::mt19937 Gen(9);
  std::uniform_real_distribution<double> Dist(-1, 1);
  for (double &X : V)
    X = Dist(Gen);
  Tensor X = fromVector(V, {int64_t(V.size())}, kFloat);
  int Saved = get_num_threads();
  set_num_threads(1);
  float One = toVector<float>(sk::sum(X))[0];
  set_num_threads(2);
  float Two = toVector<float>(sk::sum(X))[0];
  set_num_threads(Saved);
  EXPECT_EQ(One, Two);
  double Want = 0;
  for (double Y : V)
    Want += static_cast<float>(Y);
  EXPECT_NEAR(One, Want, 1e-2);
}

TEST(ReduceKernelTest, Sum_OutVariants) {
  std::vector<double> V = randomInts(12, 10);
  Tensor X = fromVector(V, {3, 4}, kFloat);
  Ref Want = reduceRef(V, {3, 4}, {0}, false, 0, plus);
  Tensor Out = detail::empty_cpu({4}, kFloat);
  Tensor &R = sk::sum_out(Out, X, Dims{0});
  EXPECT_TRUE(R.is_same(Out));
  expectRef(Out, Want);
  Tensor Out2 = detail::empty_cpu({0}, kFloat);
  sk::sum_outf(X, Dims{0}, false, std::nullopt, Out2);
  expectRef(Out2, Want);
  // A strided out= of the right size keeps its strides.
  Tensor Wide = detail::empty_cpu({8}, kFloat);
  Tensor Strided = stridedView(Wide, {4}, {2});
  sk::sum_out(Strided, X, Dims{0});
  EXPECT_EQ(Strided.strides(), IntArrayRef({2}));
  expectRef(Strided, Want);
  // The out= dtype decides the result's when no dtype is given.
  Tensor OutD = detail::empty_cpu({4}, kDouble);
  sk::sum_out(OutD, X, Dims{0});
  expectRef(OutD, Want);
  // A dtype that contradicts out=.
  SK_EXPECT_ERROR(sk::sum_out(OutD, X, Dims{0}, false, kFloat),
                  "Expected out tensor to have dtype");
  // Meta out= tensors are checked and resized the same way.
  Tensor MetaOut = metaEmpty({0});
  sk::sum_out(MetaOut, metaEmpty({3, 4}), Dims{1});
  EXPECT_EQ(MetaOut.sizes(), IntArrayRef({3}));
}

TEST(ReduceKernelTest, Sum_BadDims_AreErrors) {
  Tensor X = detail::empty_cpu({2, 3}, kFloat);
  SK_EXPECT_ERROR_TYPE(sk::sum(X, Dims{2}), IndexError,
                       "Dimension out of range");
  SK_EXPECT_ERROR(sk::sum(X, Dims{1, -1}), "appears multiple times");
  SK_EXPECT_ERROR_TYPE(sk::sum(metaEmpty({2, 3}), Dims{-3}), IndexError,
                       "Dimension out of range");
}

//===----------------------------------------------------------------------===//
// mean
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, Mean_EveryDimList_MatchesReference) {
  const Dims Sizes = {3, 4, 5};
  std::vector<double> V = randomInts(60, 11);
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kBFloat16}) {
    Tensor X = fromVector(V, Sizes, Dtype);
    double Tol = Dtype == kHalf ? 1e-2 : Dtype == kBFloat16 ? 5e-2 : 1e-5;
    for (const Dims &D : kDimLists)
      for (bool Keepdim : {false, true}) {
        SCOPED_TRACE(testing::Message() << Dtype << " dims " << IntArrayRef(D)
                                        << " keepdim " << Keepdim);
        Ref Want = reduceRef(V, Sizes, D, Keepdim, 0, plus);
        double Count = 60.0 / static_cast<double>(numelOf(Want.Sizes) == 0
                                                      ? 1
                                                      : numelOf(Want.Sizes));
        for (double &W : Want.Values)
          W /= Count;
        Tensor Got = sk::mean(X, D, Keepdim);
        EXPECT_EQ(Got.dtype(), Dtype);
        expectRef(Got, Want, Tol);
        expectSameLayout(sk::mean(metaEmpty(Sizes, Dtype), D, Keepdim), Got);
      }
  }
}

TEST(ReduceKernelTest, Mean_CompositeAndDtypes) {
  Tensor X = fromVector<double>({1, 2, 3, 4, 5, 6}, {2, 3}, kFloat);
  expectValues(sk::mean(X), {3.5});
  EXPECT_EQ(sk::mean(X).dim(), 0);
  Tensor I = fromVector<double>({1, 2, 4}, {3}, kInt);
  Tensor F = sk::mean(I, kDouble);
  EXPECT_EQ(F.dtype(), kDouble);
  expectValues(F, {7.0 / 3}, 1e-12);
  SK_EXPECT_ERROR(sk::mean(I), "mean(): could not infer output dtype. Input "
                               "dtype must be either a floating point or "
                               "complex dtype. Got: int32");
  SK_EXPECT_ERROR(sk::mean(X, Dims{0}, false, kLong),
                  "Optional dtype must be either a floating point");
  SK_EXPECT_ERROR(sk::mean(metaEmpty({2}, kLong)), "could not infer");
  Tensor IntOut = detail::empty_cpu({3}, kLong);
  SK_EXPECT_ERROR(sk::mean_out(IntOut, X, Dims{0}),
                  "expected a floating point out= tensor");
  Tensor Out = detail::empty_cpu({3}, kDouble);
  sk::mean_out(Out, X, Dims{0});
  expectValues(Out, {2.5, 3.5, 4.5});
}

TEST(ReduceKernelTest, Mean_NoElements_IsNaN) {
  Tensor E = detail::empty_cpu({0, 2}, kFloat);
  expectRef(sk::mean(E, Dims{0}), {{2}, {kNaN, kNaN}});
  expectValues(sk::mean(E), {kNaN});
  expectRef(sk::mean(E, Dims{1}), {{0}, {}});
}

//===----------------------------------------------------------------------===//
// prod
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, Prod_EachDim_MatchesReference) {
  const Dims Sizes = {3, 4, 5};
  std::vector<double> V = randomInts(60, 12, -2, 2);
  for (ScalarType Dtype : {kFloat, kDouble, kInt, kLong, kHalf}) {
    Tensor X = fromVector(V, Sizes, Dtype);
    ScalarType Want = Dtype == kInt ? kLong : Dtype;
    for (int64_t D : {0, 1, 2, -1})
      for (bool Keepdim : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << Dtype << " dim " << D << " keepdim " << Keepdim);
        Tensor Got = sk::prod(X, D, Keepdim);
        EXPECT_EQ(Got.dtype(), Want);
        expectRef(Got, reduceRef(V, Sizes, {D}, Keepdim, 1, times));
        expectSameLayout(sk::prod(metaEmpty(Sizes, Dtype), D, Keepdim), Got);
      }
  }
}

TEST(ReduceKernelTest, Prod_Composite_ReducesEverything) {
  std::vector<double> V = {1, -2, 3, 0.5, 2, -1};
  Tensor X = fromVector(V, {2, 3}, kFloat);
  expectValues(sk::prod(X), {6});
  EXPECT_EQ(sk::prod(X).dim(), 0);
  // A transposed input: the flattening copies.
  expectValues(sk::prod(transposed(X, 0, 1)), {6});
  Tensor B = fromVector<double>({1, 1, 0}, {3}, kBool);
  Tensor PB = sk::prod(B);
  EXPECT_EQ(PB.dtype(), kLong);
  expectValues(PB, {0});
  expectValues(sk::prod(X, kDouble), {6});
  expectValues(sk::prod(fromVector<double>({5}, {}, kFloat)), {5});
  Tensor Meta = sk::prod(metaEmpty({2, 3}, kShort));
  EXPECT_EQ(Meta.dim(), 0);
  EXPECT_EQ(Meta.dtype(), kLong);
  Tensor MetaT = sk::prod(metaEmpty({2, 3}).t(), kDouble);
  EXPECT_TRUE(MetaT.is_meta());
  EXPECT_EQ(MetaT.dim(), 0);
  EXPECT_EQ(MetaT.dtype(), kDouble);
}

TEST(ReduceKernelTest, Prod_NoElements_IsOne) {
  Tensor E = detail::empty_cpu({2, 0}, kFloat);
  expectRef(sk::prod(E, 1), {{2}, {1, 1}});
  expectValues(sk::prod(E), {1});
  Tensor Out = detail::empty_cpu({2}, kLong);
  sk::prod_out(Out, E, 1);
  expectValues(Out, {1, 1});
}

//===----------------------------------------------------------------------===//
// amax, amin
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, AmaxAmin_EveryDimList_MatchesReference) {
  const Dims Sizes = {3, 4, 5};
  std::vector<double> V = randomInts(60, 13, -50, 50);
  for (ScalarType Dtype :
       {kFloat, kDouble, kHalf, kBFloat16, kChar, kShort, kInt, kLong}) {
    Tensor X = fromVector(V, Sizes, Dtype);
    for (const Dims &D : kDimLists)
      for (bool Keepdim : {false, true}) {
        SCOPED_TRACE(testing::Message() << Dtype << " dims " << IntArrayRef(D)
                                        << " keepdim " << Keepdim);
        Tensor Max = sk::amax(X, D, Keepdim);
        Tensor Min = sk::amin(X, D, Keepdim);
        EXPECT_EQ(Max.dtype(), Dtype);
        expectRef(Max, reduceRef(V, Sizes, D, Keepdim, -1e300, maxNan));
        expectRef(Min, reduceRef(V, Sizes, D, Keepdim, 1e300, minNan));
        expectSameLayout(sk::amax(metaEmpty(Sizes, Dtype), D, Keepdim), Max);
      }
  }
}

TEST(ReduceKernelTest, AmaxAmin_NaNPropagates) {
  // Long rows take the vector body; the NaN sits in a vector lane, in the
  // tail, or first.
  for (int64_t At : {0, 5, 37, 99}) {
    std::vector<double> V = randomInts(200, 14);
    V[At] = kNaN;
    V[100 + 99] = kNaN; // the last element of row 1
    for (ScalarType Dtype : {kFloat, kDouble, kHalf}) {
      Tensor X = fromVector(V, {2, 100}, Dtype);
      expectRef(sk::amax(X, Dims{1}), {{2}, {kNaN, kNaN}});
      expectRef(sk::amin(X, Dims{1}), {{2}, {kNaN, kNaN}});
      expectValues(sk::amax(X), {kNaN});
      Ref Col = reduceRef(V, {2, 100}, {0}, false, -1e300, maxNan);
      expectRef(sk::amax(X, Dims{0}), Col);
    }
  }
}

TEST(ReduceKernelTest, ColumnBlocks_MatchReference) {
  // Over dim 0 of 200 columns: three whole blocks of 64 neighbouring
  // outputs, reduced on vectors held across the rows, and a tail of 8;
  // NaN in the first, a middle and the last row.
  const Dims Sizes = {37, 200};
  std::vector<double> V = randomInts(37 * 200, 15, -20, 20);
  V[3] = kNaN;
  V[18 * 200 + 70] = kNaN;
  V[36 * 200 + 199] = kNaN;
  for (ScalarType Dtype : {kFloat, kDouble}) {
    SCOPED_TRACE(testing::Message() << Dtype);
    Tensor X = fromVector(V, Sizes, Dtype);
    expectRef(sk::sum(X, Dims{0}), reduceRef(V, Sizes, {0}, false, 0, plus));
    expectRef(sk::amax(X, Dims{0}),
              reduceRef(V, Sizes, {0}, false, -1e300, maxNan));
    expectRef(sk::amin(X, Dims{0}),
              reduceRef(V, Sizes, {0}, false, 1e300, minNan));
  }
}

TEST(ReduceKernelTest, AmaxAmin_BoolAndNonContiguous) {
  Tensor B = fromVector<double>({0, 0, 1, 1, 1, 1}, {2, 3}, kBool);
  expectValues(sk::amax(B, Dims{1}), {1, 1});
  expectValues(sk::amin(B, Dims{1}), {0, 1});
  EXPECT_EQ(sk::amax(B).dtype(), kBool);
  std::vector<double> V = randomInts(30, 15);
  Tensor Base = detail::empty_cpu({6, 5}, kFloat);
  Tensor T = transposed(Base, 0, 1);
  fill(T, V);
  for (const Dims &D : std::vector<Dims>{{0}, {1}, {}}) {
    expectRef(sk::amax(T, D), reduceRef(V, {5, 6}, D, false, -1e300, maxNan));
    expectRef(sk::amin(T, D), reduceRef(V, {5, 6}, D, false, 1e300, minNan));
  }
}

TEST(ReduceKernelTest, AmaxAmin_EmptyAndErrors) {
  Tensor E = detail::empty_cpu({0, 3}, kFloat);
  expectRef(sk::amax(E, Dims{1}), {{0}, {}});
  SK_EXPECT_ERROR_TYPE(sk::amax(E, Dims{0}), IndexError,
                       "amax(): Expected reduction dim 0 to have non-zero "
                       "size.");
  SK_EXPECT_ERROR(sk::amin(E), "amin(): Expected reduction dim to be "
                               "specified for input.numel() == 0.");
  SK_EXPECT_ERROR(sk::amin(metaEmpty({0, 3})), "amin(): Expected reduction "
                                               "dim to be specified");
  Tensor X = detail::empty_cpu({2, 3}, kFloat);
  Tensor IntOut = detail::empty_cpu({2}, kInt);
  SK_EXPECT_ERROR(sk::amax_out(IntOut, X, Dims{1}),
                  "Expected the dtype for input and out to match, but got "
                  "float32 for input's dtype and int32 for out's dtype.");
  Tensor Out = detail::empty_cpu({2}, kFloat);
  fill(X, std::vector<double>{1, 5, 2, -1, -3, -2});
  sk::amin_outf(X, Dims{1}, false, Out);
  expectValues(Out, {1, -3});
  expectValues(sk::cpu::amax(X, Dims{0}), {1, 5, 2});
}

//===----------------------------------------------------------------------===//
// all, any
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, AllAny_EachDtype_MatchesReference) {
  const Dims Sizes = {3, 4};
  // Row 0 all nonzero, row 1 mixed, row 2 all zero; column 0 has no zero.
  std::vector<double> V = {1, 2, 3, 4, 5, 0, 7, 0, 9, 0, 0, 0};
  auto And = [](double A, double B) { return double(A != 0 && B != 0); };
  auto Or = [](double A, double B) { return double(A != 0 || B != 0); };
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kInt, kLong, kBool, kByte}) {
    Tensor X = fromVector(V, Sizes, Dtype);
    ScalarType Want = Dtype == kByte ? kByte : kBool;
    for (int64_t D : {0, 1, -1})
      for (bool Keepdim : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << Dtype << " dim " << D << " keepdim " << Keepdim);
        Tensor All = sk::all(X, D, Keepdim);
        Tensor Any = sk::any(X, D, Keepdim);
        EXPECT_EQ(All.dtype(), Want);
        EXPECT_EQ(Any.dtype(), Want);
        expectRef(All, reduceRef(V, Sizes, {D}, Keepdim, 1, And));
        expectRef(Any, reduceRef(V, Sizes, {D}, Keepdim, 0, Or));
        expectSameLayout(sk::all(metaEmpty(Sizes, Dtype), D, Keepdim), All);
      }
    expectRef(sk::all(X), {{}, {0}});
    expectRef(sk::any(X), {{}, {1}});
    EXPECT_EQ(sk::any(metaEmpty(Sizes, Dtype)).dtype(), Want);
  }
}

TEST(ReduceKernelTest, AllAny_NaNIsTrueAndEmptyIsIdentity) {
  Tensor N = fromVector<double>({kNaN, 1}, {2}, kFloat);
  expectValues(sk::all(N), {1});
  Tensor E = detail::empty_cpu({0, 2}, kFloat);
  expectRef(sk::all(E, 0), {{2}, {1, 1}});
  expectRef(sk::any(E, 0), {{2}, {0, 0}});
  expectValues(sk::all(E), {1});
  expectValues(sk::any(E), {0});
  Tensor S = fromVector<double>({0}, {}, kFloat);
  expectRef(sk::any(S, 0), {{}, {0}});
  expectRef(sk::all(S, -1, true), {{}, {0}});
}

TEST(ReduceKernelTest, AllAny_OutVariants) {
  Tensor X = fromVector<double>({1, 0, 2, 3}, {2, 2}, kFloat);
  Tensor ByteOut = detail::empty_cpu({2}, kByte);
  sk::all_out(ByteOut, X, 1);
  expectValues(ByteOut, {0, 1});
  Tensor BoolOut = detail::empty_cpu({}, kBool);
  sk::any_out(BoolOut, X);
  expectValues(BoolOut, {1});
  Tensor FloatOut = detail::empty_cpu({2}, kFloat);
  SK_EXPECT_ERROR(sk::all_out(FloatOut, X, 1),
                  "all only supports bool tensor for result, got: float32");
  SK_EXPECT_ERROR(sk::any_outf(X, FloatOut),
                  "any only supports bool tensor for result");
  // Transposed input, through the CPU entry point.
  expectValues(sk::cpu::all(transposed(X, 0, 1), 1), {1, 0});
  SK_EXPECT_ERROR_TYPE(sk::any(X, 2), IndexError, "Dimension out of range");
}

//===----------------------------------------------------------------------===//
// count_nonzero
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, CountNonzero_EachDtypeAndDimList_MatchesReference) {
  const Dims Sizes = {3, 4};
  std::vector<double> V = {1, 2, 3, 4, 5, 0, 7, 0, 9, 0, 0, 0};
  auto Count = [](double Acc, double X) { return Acc + (X != 0 ? 1 : 0); };
  for (ScalarType Dtype :
       {kFloat, kDouble, kHalf, kBFloat16, kInt, kLong, kBool, kByte}) {
    Tensor X = fromVector(V, Sizes, Dtype);
    for (Dims D : {Dims{}, Dims{0}, Dims{1}, Dims{-1}, Dims{0, 1}}) {
      SCOPED_TRACE(testing::Message() << Dtype << " dims " << D.size());
      Tensor C = sk::count_nonzero(X, D);
      EXPECT_EQ(C.dtype(), kLong);
      expectRef(C, reduceRef(V, Sizes, D, /*Keepdim=*/false, 0, Count));
      expectSameLayout(sk::count_nonzero(metaEmpty(Sizes, Dtype), D), C);
    }
    // The composite overload: no dim counts everything.
    expectRef(sk::count_nonzero(X), {{}, {7}});
    expectRef(sk::count_nonzero(X, std::optional<int64_t>(1)),
              {{3}, {4, 2, 1}});
  }
}

TEST(ReduceKernelTest, CountNonzero_NaNCountsAndLayouts) {
  Tensor N = fromVector<double>({kNaN, 0, -0.0, 1e-45}, {2, 2}, kFloat);
  // -0 is zero; NaN and the smallest float32 subnormal are not.
  expectValues(sk::count_nonzero(N), {2});
  expectValues(sk::count_nonzero(transposed(N, 0, 1), Dims{1}), {1, 1});
  Tensor E = detail::empty_cpu({0, 3}, kFloat);
  expectRef(sk::count_nonzero(E, Dims{0}), {{3}, {0, 0, 0}});
  expectValues(sk::count_nonzero(E), {0});
  Tensor S = fromVector<double>({2}, {}, kFloat);
  expectRef(sk::count_nonzero(S, Dims{0}), {{}, {1}});
  Tensor Out = detail::empty_cpu({0}, kLong);
  sk::count_nonzero_out(Out, transposed(N, 0, 1), Dims{0});
  expectRef(Out, {{2}, {1, 1}});
  SK_EXPECT_ERROR_TYPE(sk::count_nonzero(N, Dims{2}), IndexError,
                       "Dimension out of range");
  SK_EXPECT_ERROR(sk::count_nonzero(N, Dims{0, 0}), "appears multiple times");
}

//===----------------------------------------------------------------------===//
// argmax, argmin
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, ArgmaxArgmin_EachDim_MatchesReference) {
  const Dims Sizes = {3, 4, 5};
  // Few distinct values: many ties, the first one wins.
  std::vector<double> V = randomInts(60, 16, -2, 2);
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kBFloat16, kInt, kByte}) {
    std::vector<double> In = V;
    if (Dtype == kByte)
      for (double &X : In)
        X = std::abs(X);
    Tensor X = fromVector(In, Sizes, Dtype);
    for (int64_t D : {0, 1, 2, -1})
      for (bool Keepdim : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << Dtype << " dim " << D << " keepdim " << Keepdim);
        int64_t Wrapped = D < 0 ? D + 3 : D;
        Tensor Max = sk::argmax(X, D, Keepdim);
        Tensor Min = sk::argmin(X, D, Keepdim);
        EXPECT_EQ(Max.dtype(), kLong);
        Dims Shape = reduceRef(In, Sizes, {D}, Keepdim, 0, plus).Sizes;
        expectRef(Max, {Shape, argRef(In, Sizes, Wrapped, true).second});
        expectRef(Min, {Shape, argRef(In, Sizes, Wrapped, false).second});
        expectSameLayout(sk::argmax(metaEmpty(Sizes, Dtype), D, Keepdim), Max);
      }
  }
}

TEST(ReduceKernelTest, ArgmaxArgmin_NoDim_GivesFlatIndex) {
  std::vector<double> V = {3, 9, 1, 9, -4, 1};
  Tensor X = fromVector(V, {2, 3}, kFloat);
  expectRef(sk::argmax(X), {{}, {1}});
  expectRef(sk::argmin(X), {{}, {4}});
  expectRef(sk::argmax(X, std::nullopt, true), {{1, 1}, {1}});
  expectSameLayout(sk::argmax(metaEmpty({2, 3}), std::nullopt, true),
                   sk::argmax(X, std::nullopt, true));
  // The flat index is over the logical order, whatever the strides.
  Tensor T = transposed(X, 0, 1); // [[3, 9], [9, -4], [1, 1]]
  expectValues(sk::argmax(T), {1});
  expectValues(sk::argmin(T), {3});
  // 0-dim input.
  expectRef(sk::argmax(fromVector<double>({2}, {}, kFloat)), {{}, {0}});
  expectRef(sk::argmin(fromVector<double>({2}, {}, kFloat), 0), {{}, {0}});
}

TEST(ReduceKernelTest, ArgmaxArgmin_ManyChunks_FirstExtremumAndNaN) {
  const int64_t N = 5 * (1 << 16) + 3;
  std::vector<double> V = randomInts(N, 17, -1000, 1000);
  V[70000] = 5000;  // chunk 1
  V[200000] = 5000; // a tie in chunk 3: the first one wins
  V[130000] = -5000;
  V[N - 1] = -5000;
  Tensor X = fromVector(V, {N}, kFloat);
  expectValues(sk::argmax(X), {70000});
  expectValues(sk::argmin(X), {130000});
  V[250000] = kNaN;
  V[300000] = kNaN;
  Tensor Y = fromVector(V, {N}, kFloat);
  expectValues(sk::argmax(Y), {250000});
  expectValues(sk::argmin(Y), {250000});
  expectValues(sk::argmax(Y, 0), {250000});
}

TEST(ReduceKernelTest, ArgmaxArgmin_Errors) {
  Tensor E = detail::empty_cpu({0, 3}, kFloat);
  SK_EXPECT_ERROR_TYPE(sk::argmax(E), IndexError,
                       "argmax(): Expected reduction dim to be specified for "
                       "input.numel() == 0.");
  SK_EXPECT_ERROR_TYPE(sk::argmin(E, 0), IndexError,
                       "argmin(): Expected reduction dim 0 to have non-zero "
                       "size.");
  SK_EXPECT_ERROR(sk::argmin(metaEmpty({3, 0}), -1),
                  "Expected reduction dim 1 to have non-zero size.");
  expectRef(sk::argmax(E, 1), {{0}, {}});
  Tensor B = detail::empty_cpu({3}, kBool);
  SK_EXPECT_ERROR(sk::argmax(B), "argmax(): expected a numeric input, but "
                                 "got bool");
  Tensor X = detail::empty_cpu({2, 3}, kFloat);
  Tensor IntOut = detail::empty_cpu({2}, kInt);
  SK_EXPECT_ERROR(sk::argmax_out(IntOut, X, 1), "Expected out tensor to have "
                                                "dtype");
}

//===----------------------------------------------------------------------===//
// max.dim, min.dim
//===----------------------------------------------------------------------===//

TEST(ReduceKernelTest, MaxMinDim_EachDim_MatchesReference) {
  const Dims Sizes = {3, 4, 5};
  std::vector<double> V = randomInts(60, 18, -3, 3);
  V[7] = kNaN;
  V[41] = kNaN;
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kInt, kLong}) {
    std::vector<double> In = V;
    if (!isFloatingType(Dtype))
      In[7] = In[41] = 0;
    Tensor X = fromVector(In, Sizes, Dtype);
    for (int64_t D : {0, 1, 2, -2})
      for (bool Keepdim : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << Dtype << " dim " << D << " keepdim " << Keepdim);
        int64_t Wrapped = D < 0 ? D + 3 : D;
        Dims Shape = reduceRef(In, Sizes, {D}, Keepdim, 0, plus).Sizes;
        for (bool IsMax : {true, false}) {
          auto [Values, Indices] =
              IsMax ? sk::max(X, D, Keepdim) : sk::min(X, D, Keepdim);
          auto [WantV, WantI] = argRef(In, Sizes, Wrapped, IsMax);
          EXPECT_EQ(Values.dtype(), Dtype);
          EXPECT_EQ(Indices.dtype(), kLong);
          expectRef(Values, {Shape, WantV});
          expectRef(Indices, {Shape, WantI});
          auto [MetaV, MetaI] =
              IsMax ? sk::max(metaEmpty(Sizes, Dtype), D, Keepdim)
                    : sk::min(metaEmpty(Sizes, Dtype), D, Keepdim);
          expectSameLayout(MetaV, Values);
          expectSameLayout(MetaI, Indices);
        }
      }
  }
}

TEST(ReduceKernelTest, MaxMinDim_NonContiguousBoolAndZeroDim) {
  std::vector<double> V = randomInts(30, 19);
  Tensor Base = detail::empty_cpu({6, 5}, kFloat);
  Tensor T = transposed(Base, 0, 1);
  fill(T, V);
  for (int64_t D : {0, 1}) {
    auto [Values, Indices] = sk::max(T, D);
    auto [WantV, WantI] = argRef(V, {5, 6}, D, true);
    expectValues(Values, WantV);
    expectValues(Indices, WantI);
  }
  Tensor B = fromVector<double>({0, 1, 1, 0, 0, 0}, {2, 3}, kBool);
  auto [BV, BI] = sk::max(B, 1);
  expectValues(BV, {1, 0});
  expectValues(BI, {1, 0});
  auto [MV, MI] = sk::min(B, 1, true);
  EXPECT_EQ(MV.sizes(), IntArrayRef({2, 1}));
  expectValues(MV, {0, 0});
  expectValues(MI, {0, 0});
  Tensor S = fromVector<double>({4}, {}, kFloat);
  for (bool Keepdim : {false, true}) {
    auto [SV, SI] = sk::max(S, -1, Keepdim);
    expectRef(SV, {{}, {4}});
    expectRef(SI, {{}, {0}});
  }
  // Empty but for the reduced dimension.
  Tensor E = detail::empty_cpu({0, 4}, kFloat);
  auto [EV, EI] = sk::min(E, 1);
  EXPECT_EQ(EV.sizes(), IntArrayRef({0}));
  EXPECT_EQ(EI.sizes(), IntArrayRef({0}));
}

TEST(ReduceKernelTest, MaxMinDim_OutVariantsAndErrors) {
  Tensor X = fromVector<double>({1, 7, 3, 7, -2, 0}, {2, 3}, kFloat);
  Tensor Values = detail::empty_cpu({0}, kFloat);
  Tensor Indices = detail::empty_cpu({0}, kLong);
  auto Result = sk::max_out(Values, Indices, X, 1);
  EXPECT_TRUE(std::get<0>(Result).is_same(Values));
  EXPECT_TRUE(std::get<1>(Result).is_same(Indices));
  expectRef(Values, {{2}, {7, 7}});
  expectRef(Indices, {{2}, {1, 0}});
  // Strided outputs are written in place.
  Tensor WideV = detail::empty_cpu({3, 2}, kFloat);
  Tensor WideI = detail::empty_cpu({3, 2}, kLong);
  Tensor SV = stridedView(WideV, {3}, {2});
  Tensor SI = stridedView(WideI, {3}, {2}, 1);
  sk::min_outf(X, 0, false, SV, SI);
  EXPECT_EQ(SV.strides(), IntArrayRef({2}));
  expectValues(SV, {1, -2, 0});
  expectValues(SI, {0, 1, 1});
  Tensor IntValues = detail::empty_cpu({2}, kInt);
  SK_EXPECT_ERROR(sk::max_out(IntValues, Indices, X, 1),
                  "Expected out tensor to have dtype");
  Tensor E = detail::empty_cpu({0, 3}, kFloat);
  SK_EXPECT_ERROR_TYPE(sk::max(E, 0), IndexError,
                       "max(): Expected reduction dim 0 to have non-zero "
                       "size.");
  SK_EXPECT_ERROR_TYPE(sk::min(metaEmpty({2, 0}), -1), IndexError,
                       "min(): Expected reduction dim 1 to have non-zero "
                       "size.");
  SK_EXPECT_ERROR_TYPE(sk::max(X, 2), IndexError, "Dimension out of range");
  auto [CV, CI] = sk::cpu::max(X, 0, true);
  expectRef(CV, {{1, 3}, {7, 7, 3}});
  expectRef(CI, {{1, 3}, {1, 0, 0}});
}

TEST(ReduceKernelTest, MaxDim_LargeRowsInParallel_MatchReference) {
  // Enough positions to be cut across threads.
  const Dims Sizes = {300, 257};
  std::vector<double> V = randomInts(300 * 257, 20, -10000, 10000);
  Tensor X = fromVector(V, Sizes, kFloat);
  for (int64_t D : {0, 1}) {
    auto [Values, Indices] = sk::max(X, D);
    auto [WantV, WantI] = argRef(V, Sizes, D, true);
    expectValues(Values, WantV);
    expectValues(Indices, WantI);
    expectValues(sk::argmin(X, D), argRef(V, Sizes, D, false).second);
  }
}

} // namespace
