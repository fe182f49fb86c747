//===--- PointwiseTest.cpp - The pointwise kernels ------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pointwise family of issue 6 (kernels/cpu/BinaryOps.cpp, UnaryOps.cpp,
/// CompareOps.cpp) against reference values computed here with naive
/// loops over broadcast indices: every dtype each op supports, broadcasting,
/// zero-size and one-element tensors, transposed, sliced and channels-last
/// inputs, PyTorch's type promotion, each variant (functional, inplace,
/// out=, sk::cpu::), meta tensors giving the CPU result's sizes, strides
/// and dtype, and the errors PyTorch raises.
///
//===----------------------------------------------------------------------===//

#include "TestUtils.h"
#include "iter/IterTestUtils.h"

#include "CPUFunctions.h"
#include "Functions.h"

#include "sk/core/EmptyTensor.h"
#include "sk/iter/Parallel.h"
#include "sk/ops/Factories.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

using namespace sk;
using namespace sk::test;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<int64_t> vec(IntArrayRef A) { return A.vec(); }

/// A contiguous CPU tensor of \p Dtype holding \p Values.
Tensor make(const std::vector<double> &Values, IntArrayRef Sizes,
            ScalarType Dtype = kFloat) {
  return fromVector(Values, Sizes, Dtype);
}
Tensor make1d(const std::vector<double> &Values, ScalarType Dtype = kFloat) {
  return make(Values, {static_cast<int64_t>(Values.size())}, Dtype);
}
/// A 0-dim CPU tensor (not a wrapped number).
Tensor scalarTensor(double Value, ScalarType Dtype) {
  return make({Value}, {}, Dtype);
}

int64_t numelOf(IntArrayRef Sizes) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  return N;
}

/// The values of \p T broadcast to \p Shape, in row-major order: the
/// reference side of every broadcasting test.
std::vector<double> broadcastTo(const Tensor &T, IntArrayRef Shape) {
  std::vector<double> Src = toVector<double>(T);
  size_t Rank = Shape.size(), TRank = static_cast<size_t>(T.dim());
  std::vector<int64_t> TStrides(TRank);
  int64_t Stride = 1;
  for (size_t D = TRank; D-- > 0;) {
    TStrides[D] = Stride;
    Stride *= T.sizes()[D];
  }
  int64_t N = numelOf(Shape);
  std::vector<double> Out(N);
  std::vector<int64_t> Idx(Rank, 0);
  for (int64_t I = 0; I < N; ++I) {
    int64_t Offset = 0;
    for (size_t D = 0; D < TRank; ++D)
      if (T.sizes()[D] != 1)
        Offset += Idx[Rank - TRank + D] * TStrides[D];
    Out[I] = Src[Offset];
    for (size_t D = Rank; D-- > 0;) {
      if (++Idx[D] < Shape[D])
        break;
      Idx[D] = 0;
    }
  }
  return Out;
}

/// F applied to the elements of \p A and \p B broadcast to \p Shape.
std::vector<double> refBinary(const Tensor &A, const Tensor &B,
                              IntArrayRef Shape,
                              const std::function<double(double, double)> &F) {
  std::vector<double> VA = broadcastTo(A, Shape), VB = broadcastTo(B, Shape);
  std::vector<double> Out(VA.size());
  for (size_t I = 0; I < VA.size(); ++I)
    Out[I] = F(VA[I], VB[I]);
  return Out;
}

std::vector<double> refUnary(const Tensor &A,
                             const std::function<double(double)> &F) {
  std::vector<double> V = toVector<double>(A);
  for (double &X : V)
    X = F(X);
  return V;
}

/// Expects \p T's values (row-major) to be \p Expected: NaN where NaN is
/// expected, infinities exactly, others within \p RelTol (exactly when 0).
void expectValues(const Tensor &T, const std::vector<double> &Expected,
                  double RelTol = 0) {
  std::vector<double> Got = toVector<double>(T);
  ASSERT_EQ(Got.size(), Expected.size());
  for (size_t I = 0; I < Got.size(); ++I) {
    double E = Expected[I], G = Got[I];
    if (std::isnan(E)) {
      EXPECT_TRUE(std::isnan(G)) << "at " << I << ": got " << G;
    } else if (std::isinf(E) || RelTol == 0) {
      EXPECT_EQ(G, E) << "at " << I;
    } else {
      EXPECT_NEAR(G, E, RelTol * std::max(1.0, std::abs(E))) << "at " << I;
    }
  }
}

/// A meta tensor with \p T's sizes, strides and dtype.
Tensor metaLike(const Tensor &T) {
  return detail::empty_strided_meta(T.sizes(), T.strides(), T.dtype());
}

/// Expects the meta tensor \p Meta to describe the CPU tensor \p Cpu.
void expectSameLayout(const Tensor &Meta, const Tensor &Cpu) {
  EXPECT_TRUE(Meta.is_meta());
  EXPECT_EQ(vec(Meta.sizes()), vec(Cpu.sizes()));
  EXPECT_EQ(vec(Meta.strides()), vec(Cpu.strides()));
  EXPECT_EQ(Meta.dtype(), Cpu.dtype());
}

/// A float tensor of \p Sizes with values that exercise signs and
/// fractions: (I % 17 - 8) * 0.75.
Tensor mixedValues(IntArrayRef Sizes, ScalarType Dtype = kFloat) {
  int64_t N = numelOf(Sizes);
  std::vector<double> V(N);
  for (int64_t I = 0; I < N; ++I)
    V[I] = static_cast<double>(I % 17 - 8) * 0.75;
  return make(V, Sizes, Dtype);
}

/// Row-major strides of \p Sizes in channels-last order (NHWC).
std::vector<int64_t> channelsLastStrides(IntArrayRef Sizes) {
  int64_t C = Sizes[1], H = Sizes[2], W = Sizes[3];
  return {H * W * C, 1, W * C, C};
}

/// A channels-last copy of the 4-d \p T.
Tensor channelsLast(const Tensor &T) {
  Tensor R = detail::empty_strided_cpu(
      T.sizes(), channelsLastStrides(T.sizes()), T.dtype());
  fill(R, toVector<double>(T));
  return R;
}

const ScalarType kAllNumeric[] = {kByte, kChar,     kShort, kInt,   kLong,
                                  kHalf, kBFloat16, kFloat, kDouble};

/// The tolerance of results computed in \p Dtype.
double tolFor(ScalarType Dtype) {
  switch (Dtype) {
  case kHalf:
    return 2e-3;
  case kBFloat16:
    return 1e-2;
  case kFloat:
    return 2e-6;
  case kDouble:
    return 1e-12;
  default:
    return 0;
  }
}

//===----------------------------------------------------------------------===//
// add, sub
//===----------------------------------------------------------------------===//

TEST(PointwiseAdd, Broadcast_MatchesReferenceAndMeta) {
  Tensor A = mixedValues({3, 1, 4});
  Tensor B = mixedValues({2, 1});
  Tensor R = sk::add(A, B, 2.5);
  EXPECT_EQ(vec(R.sizes()), (std::vector<int64_t>{3, 2, 4}));
  EXPECT_EQ(R.dtype(), kFloat);
  expectValues(R,
               refBinary(A, B, {3, 2, 4},
                         [](double X, double Y) {
                           return static_cast<float>(X + 2.5 * Y);
                         }),
               1e-6);
  expectSameLayout(sk::add(metaLike(A), metaLike(B), 2.5), R);
}

TEST(PointwiseAdd, EveryVariant_Agrees) {
  Tensor A = mixedValues({4, 5});
  Tensor B = mixedValues({5}, kFloat);
  std::vector<double> Expected =
      refBinary(A, B, {4, 5}, [](double X, double Y) { return X + Y; });

  expectValues(sk::add(A, B), Expected);
  expectValues(sk::cpu::add(A, B), Expected);

  Tensor Out = detail::empty_cpu({4, 5}, kFloat);
  Tensor &Ret = sk::add_out(Out, A, B);
  EXPECT_TRUE(Ret.is_same(Out));
  expectValues(Out, Expected);

  Tensor Out2 = detail::empty_cpu({0}, kFloat); // resized silently
  sk::add_outf(A, B, 1, Out2);
  EXPECT_EQ(vec(Out2.sizes()), (std::vector<int64_t>{4, 5}));
  expectValues(Out2, Expected);

  Tensor Self = A.clone();
  Tensor &Same = sk::add_(Self, B);
  EXPECT_TRUE(Same.is_same(Self));
  expectValues(Self, Expected);

  Tensor Self2 = A.clone();
  sk::cpu::add_(Self2, B);
  expectValues(Self2, Expected);
}

TEST(PointwiseAdd, EveryDtype_MatchesReference) {
  for (ScalarType Dtype : kAllNumeric) {
    SCOPED_TRACE(toString(Dtype));
    bool Unsigned = Dtype == kByte;
    Tensor A = make1d({1, 2, 3, 4, 5, 6, 7}, Dtype);
    Tensor B = make1d({Unsigned ? 0. : -3., 1, 0, 2, 5, 9, 10}, Dtype);
    Tensor R = sk::add(A, B, 2);
    EXPECT_EQ(R.dtype(), Dtype);
    expectValues(
        R, refBinary(A, B, {7}, [](double X, double Y) { return X + 2 * Y; }));
    Tensor S = sk::sub(A, B);
    expectValues(S, refBinary(A, B, {7}, [&](double X, double Y) {
                   double V = X - Y;
                   return Unsigned && V < 0 ? V + 256 : V;
                 }));
  }
}

TEST(PointwiseAdd, Float_AlphaAndTails_UseVectorPathCorrectly) {
  // Sizes around the vector width and its unrolling, and above the grain
  // size (parallel loops).
  for (int64_t N : {1, 7, 8, 31, 33, 100003}) {
    SCOPED_TRACE(N);
    Tensor A = mixedValues({N});
    Tensor B = mixedValues({N}, kFloat);
    Tensor B1 = make1d({0.5});
    for (double Alpha : {1.0, -1.5}) {
      expectValues(sk::add(A, B, Alpha),
                   refBinary(A, B, {N},
                             [&](double X, double Y) {
                               return static_cast<float>(
                                   X + static_cast<float>(Alpha) * Y);
                             }),
                   1e-6);
      // One broadcast (stride-0) input, either side.
      expectValues(sk::sub(A, B1, Alpha),
                   refBinary(A, B1, {N},
                             [&](double X, double Y) { return X - Alpha * Y; }),
                   1e-6);
      expectValues(sk::add(B1, A, Alpha),
                   refBinary(B1, A, {N},
                             [&](double X, double Y) { return X + Alpha * Y; }),
                   1e-6);
    }
    Tensor D = mixedValues({N}, kDouble);
    expectValues(
        sk::add(D, D, 0.5),
        refBinary(D, D, {N}, [](double X, double Y) { return X + 0.5 * Y; }));
  }
}

TEST(PointwiseAdd, Bool_IsLogicalOr) {
  Tensor A = make1d({0, 0, 1, 1}, kBool);
  Tensor B = make1d({0, 1, 0, 1}, kBool);
  Tensor R = sk::add(A, B);
  EXPECT_EQ(R.dtype(), kBool);
  expectValues(R, {0, 1, 1, 1});
  expectValues(sk::add(A, B, false), {0, 0, 1, 1});
  Tensor M = sk::mul(A, B);
  EXPECT_EQ(M.dtype(), kBool);
  expectValues(M, {0, 0, 0, 1});
}

TEST(PointwiseAdd, Integers_WrapAround) {
  Tensor A = make1d({127, -128}, kChar);
  Tensor B = make1d({1, -1}, kChar);
  expectValues(sk::add(A, B), {-128, 127});
  // 2^63 - 1 is not a double: write it directly.
  Tensor L = make1d({0}, kLong);
  L.data_ptr<int64_t>()[0] = INT64_MAX;
  Tensor R = sk::add(L, make1d({1}, kLong));
  EXPECT_EQ(R.data_ptr<int64_t>()[0], INT64_MIN);
}

TEST(PointwiseAdd, TypePromotion_FollowsResultType) {
  struct Case {
    ScalarType A;
    std::vector<int64_t> ASizes;
    ScalarType B;
    std::vector<int64_t> BSizes;
    ScalarType Result;
  };
  const Case Cases[] = {
      {kInt, {3}, kFloat, {3}, kFloat},
      {kByte, {3}, kChar, {3}, kShort},
      {kLong, {3}, kChar, {3}, kLong},
      {kHalf, {3}, kFloat, {}, kHalf},   // 0-dim of one category: no say
      {kInt, {3}, kDouble, {}, kDouble}, // 0-dim of a higher category
      {kHalf, {3}, kBFloat16, {3}, kFloat},
      {kBool, {3}, kInt, {3}, kInt},
      {kFloat, {}, kDouble, {}, kDouble}, // all 0-dim
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(std::string(toString(C.A)) + " + " +
                 std::string(toString(C.B)));
    Tensor A = make(std::vector<double>(numelOf(C.ASizes), 3), C.ASizes, C.A);
    Tensor B = make(std::vector<double>(numelOf(C.BSizes), 1), C.BSizes, C.B);
    Tensor R = sk::add(A, B);
    EXPECT_EQ(R.dtype(), C.Result);
    expectValues(R, std::vector<double>(R.numel(), C.A == kBool ? 2 : 4));
    expectSameLayout(sk::add(metaLike(A), metaLike(B)), R);
  }
}

TEST(PointwiseAdd, OutOfAnotherDtype_CastsOrRejects) {
  Tensor A = make1d({1, 2, 3}, kInt);
  Tensor B = make1d({1, 1, 1}, kInt);
  Tensor Out = detail::empty_cpu({3}, kDouble);
  sk::add_out(Out, A, B);
  EXPECT_EQ(Out.dtype(), kDouble);
  expectValues(Out, {2, 3, 4});

  Tensor F = make1d({0.5, 1, 1});
  Tensor IntOut = detail::empty_cpu({3}, kLong);
  SK_EXPECT_ERROR(sk::add_out(IntOut, A, F),
                  "result type Float can't be cast to the desired output "
                  "type Long");
  Tensor Self = A.clone();
  SK_EXPECT_ERROR(sk::add_(Self, F),
                  "result type Float can't be cast to the desired output "
                  "type Int");
}

TEST(PointwiseAdd, NonContiguousInputs_MatchReference) {
  Tensor Base = mixedValues({6, 8});
  Tensor T = transposed(Base, 0, 1); // [8, 6]
  // Columns 1, 3, ..., 11 of an [8, 12] tensor.
  Tensor Sliced =
      stridedView(mixedValues({8, 12}, kDouble), {8, 6}, {12, 2}, 1);
  Tensor R = sk::add(T, Sliced);
  EXPECT_EQ(R.dtype(), kDouble);
  expectValues(R, refBinary(T, Sliced, {8, 6},
                            [](double X, double Y) { return X + Y; }));
  // One strided dimension (every other element), binary and unary.
  Tensor Step2 = stridedView(mixedValues({21}), {10}, {2}, 1);
  expectValues(sk::add(Step2, Step2),
               refUnary(Step2, [](double X) { return 2 * X; }));
  expectValues(sk::mul(Step2, 3),
               refUnary(Step2, [](double X) { return 3 * X; }));
  expectValues(sk::neg(Step2), refUnary(Step2, [](double X) { return -X; }));
  // A transposed pair keeps the inputs' (column-major) layout.
  Tensor U = sk::mul(T, T);
  EXPECT_EQ(vec(U.strides()), (std::vector<int64_t>{1, 8}));
  expectSameLayout(sk::mul(metaLike(T), metaLike(T)), U);
  expectValues(U,
               refUnary(T, [](double X) { return static_cast<float>(X * X); }));
}

TEST(PointwiseAdd, ChannelsLast_IsPreserved) {
  Tensor A = channelsLast(mixedValues({2, 3, 4, 5}));
  Tensor B = channelsLast(mixedValues({2, 3, 4, 5}, kFloat));
  Tensor R = sk::add(A, B);
  EXPECT_EQ(vec(R.strides()), channelsLastStrides({2, 3, 4, 5}));
  expectValues(R, refBinary(A, B, {2, 3, 4, 5},
                            [](double X, double Y) { return X + Y; }));
  expectSameLayout(sk::add(metaLike(A), metaLike(B)), R);
  // A channels-last tensor plus a broadcast row.
  Tensor Row = mixedValues({5});
  Tensor R2 = sk::add(A, Row);
  EXPECT_EQ(vec(R2.strides()), channelsLastStrides({2, 3, 4, 5}));
  expectValues(R2, refBinary(A, Row, {2, 3, 4, 5},
                             [](double X, double Y) { return X + Y; }));
  expectSameLayout(sk::add(metaLike(A), metaLike(Row)), R2);
}

TEST(PointwiseAdd, ZeroSizeAndOneElement) {
  Tensor Empty = detail::empty_cpu({0, 3}, kFloat);
  Tensor Row = mixedValues({3});
  Tensor R = sk::add(Empty, Row);
  EXPECT_EQ(vec(R.sizes()), (std::vector<int64_t>{0, 3}));
  expectSameLayout(sk::add(metaLike(Empty), metaLike(Row)), R);
  Tensor One = make1d({2.5});
  expectValues(sk::add(One, One), {5});
  Tensor Zero = scalarTensor(1.5, kFloat);
  Tensor RZ = sk::mul(Zero, Zero);
  EXPECT_EQ(RZ.dim(), 0);
  expectValues(RZ, {2.25});
}

TEST(PointwiseAdd, Errors_MatchPyTorch) {
  Tensor A = mixedValues({2, 3});
  Tensor B = mixedValues({4});
  SK_EXPECT_ERROR(sk::add(A, B),
                  "The size of tensor a (3) must match the size "
                  "of tensor b (4) at non-singleton dimension 1");
  SK_EXPECT_ERROR(sk::add(metaLike(A), metaLike(B)),
                  "The size of tensor a (3) must match the size of tensor b "
                  "(4) at non-singleton dimension 1");
  Tensor Small = mixedValues({3});
  SK_EXPECT_ERROR(sk::add_(Small, A), "output with shape [3] doesn't match "
                                      "the broadcast shape [2, 3]");
  Tensor I = make1d({1, 2}, kInt);
  SK_EXPECT_ERROR(sk::add(I, I, 1.5), "For integral input tensors, argument "
                                      "alpha must not be a floating point "
                                      "number.");
  SK_EXPECT_ERROR(sk::add(A, A, true),
                  "Boolean alpha only supported for Boolean results.");
  Tensor Bools = make1d({1, 0}, kBool);
  SK_EXPECT_ERROR(sk::sub(Bools, Bools),
                  "Subtraction, the `-` operator, with two bool tensors is "
                  "not supported.");
  SK_EXPECT_ERROR(sk::sub(I, Bools), "Subtraction, the `-` operator, with a "
                                     "bool tensor is not supported.");
  SK_EXPECT_ERROR(sk::sub(Bools, true), "with two bool tensors");
  SK_EXPECT_ERROR(sk::sub(metaLike(Bools), metaLike(Bools)),
                  "with two bool tensors");
}

TEST(PointwiseAdd, ScalarOverloads_PromoteAndCompute) {
  Tensor I = make1d({1, 2, 3}, kInt);
  Tensor R = sk::add(I, 2.5);
  EXPECT_EQ(R.dtype(), kFloat);
  expectValues(R, {3.5, 4.5, 5.5});
  Tensor R2 = sk::add(I, 2, 3);
  EXPECT_EQ(R2.dtype(), kInt);
  expectValues(R2, {7, 8, 9});
  Tensor C = make1d({100, -100}, kChar);
  Tensor R3 = sk::add(C, 100); // int8 stays int8 and wraps
  EXPECT_EQ(R3.dtype(), kChar);
  expectValues(R3, {-56, 0});
  Tensor H = make1d({1, 2}, kHalf);
  EXPECT_EQ(sk::mul(H, 2.5).dtype(), kHalf);
  expectValues(sk::mul(H, 2.5), {2.5, 5});
  expectValues(sk::sub(I, 1, 2), {-1, 0, 1});
  Tensor D = sk::div(I, 2);
  EXPECT_EQ(D.dtype(), kFloat);
  expectValues(D, {0.5, 1, 1.5});
  Tensor Z = scalarTensor(4, kLong);
  Tensor RZ = sk::add(Z, 0.5);
  EXPECT_EQ(RZ.dtype(), kFloat);
  EXPECT_EQ(RZ.dim(), 0);
  expectValues(RZ, {4.5});
  Tensor Bools = make1d({0, 1}, kBool);
  Tensor RB = sk::add(Bools, true);
  EXPECT_EQ(RB.dtype(), kBool);
  expectValues(RB, {1, 1});
  Tensor RBI = sk::add(Bools, 2);
  EXPECT_EQ(RBI.dtype(), kLong);
  expectValues(RBI, {2, 3});

  // Every variant, and the vector path with tails.
  Tensor F = mixedValues({37});
  std::vector<double> Expected =
      refUnary(F, [](double X) { return static_cast<float>(X - 2 * 0.25); });
  expectValues(sk::sub(F, 0.25, 2), Expected, 1e-6);
  expectValues(sk::cpu::sub(F, 0.25, 2), Expected, 1e-6);
  Tensor Out = detail::empty_cpu({37}, kDouble);
  sk::sub_out(Out, F, 0.25, 2);
  expectValues(Out, Expected, 1e-6);
  Tensor Self = F.clone();
  sk::sub_(Self, 0.25, 2);
  expectValues(Self, Expected, 1e-6);
  Tensor M = sk::mul(F, -3);
  expectValues(M, refUnary(F, [](double X) { return X * -3; }));
  expectValues(sk::div(F, 4), refUnary(F, [](double X) { return X / 4; }));

  // Meta.
  expectSameLayout(sk::add(metaLike(I), 2.5), R);
  expectSameLayout(sk::div(metaLike(I), 2), D);
  Tensor T = transposed(mixedValues({3, 4}), 0, 1);
  Tensor RT = sk::mul(T, 2);
  EXPECT_EQ(vec(RT.strides()), (std::vector<int64_t>{1, 4}));
  expectSameLayout(sk::mul(metaLike(T), 2), RT);
  Tensor CL = channelsLast(mixedValues({2, 3, 4, 5}));
  Tensor RCL = sk::add(CL, 1);
  EXPECT_EQ(vec(RCL.strides()), channelsLastStrides({2, 3, 4, 5}));

  // Errors.
  Tensor SelfI = I.clone();
  SK_EXPECT_ERROR(sk::add_(SelfI, 2.5), "result type Float can't be cast to "
                                        "the desired output type Int");
  Tensor OutI = detail::empty_cpu({3}, kInt);
  SK_EXPECT_ERROR(sk::div_out(OutI, I, 2), "result type Float can't be cast "
                                           "to the desired output type Int");
  SK_EXPECT_ERROR(sk::add(I, 1, 0.5), "argument alpha must not be a floating "
                                      "point number");
}

//===----------------------------------------------------------------------===//
// mul, div
//===----------------------------------------------------------------------===//

TEST(PointwiseMulDiv, EveryDtype_MatchesReference) {
  for (ScalarType Dtype : kAllNumeric) {
    SCOPED_TRACE(toString(Dtype));
    Tensor A = make1d({1, 2, 3, 4, 5, 6, 9}, Dtype);
    Tensor B = make1d({2, 3, 1, 2, 5, 4, 2}, Dtype);
    Tensor M = sk::mul(A, B);
    EXPECT_EQ(M.dtype(), Dtype);
    expectValues(
        M, refBinary(A, B, {7}, [](double X, double Y) { return X * Y; }));
    Tensor D = sk::div(A, B);
    ScalarType DivType = isFloatingType(Dtype) ? Dtype : kFloat;
    EXPECT_EQ(D.dtype(), DivType);
    expectValues(D,
                 refBinary(A, B, {7}, [](double X, double Y) { return X / Y; }),
                 tolFor(DivType));
  }
}

TEST(PointwiseMulDiv, RoundingModes_FollowPython) {
  std::vector<double> A = {7, -7, 7, -7, 6, 0, -1};
  std::vector<double> B = {2, 2, -2, -2, 3, 5, 3};
  for (ScalarType Dtype : {kChar, kInt, kLong, kFloat, kDouble, kHalf}) {
    SCOPED_TRACE(toString(Dtype));
    Tensor TA = make1d(A, Dtype), TB = make1d(B, Dtype);
    Tensor Trunc = sk::div(TA, TB, "trunc");
    Tensor Floor = sk::div(TA, TB, "floor");
    EXPECT_EQ(Trunc.dtype(), Dtype);
    EXPECT_EQ(Floor.dtype(), Dtype);
    expectValues(Trunc, {3, -3, -3, 3, 2, 0, 0});
    expectValues(Floor, {3, -4, -4, 3, 2, 0, -1});
    Tensor True = sk::div(TA, TB, std::nullopt);
    EXPECT_EQ(True.dtype(), isFloatingType(Dtype) ? Dtype : kFloat);
  }
  // Floats: division by zero keeps IEEE's results, and a negative zero
  // quotient keeps its sign.
  Tensor X = make1d({1, -1, 0, -0.0, 5.5, -5.5});
  Tensor Y = make1d({0, 0, 0, 3, 2, 2});
  Tensor F = sk::div(X, Y, "floor");
  expectValues(F, {kInf, -kInf, kNan, 0, 2, -3});
  EXPECT_TRUE(std::signbit(toVector<double>(F)[3]));
  expectValues(sk::div(X, Y, "trunc"), {kInf, -kInf, kNan, 0, 2, -2});
  expectValues(sk::div(X, Y), {kInf, -kInf, kNan, -0.0, 2.75, -2.75});
  // Integer division: INT_MIN / -1 wraps, and floor division of numbers
  // that divide exactly needs no correction.
  Tensor Min = make1d({-128, -6}, kChar);
  Tensor MinusOne = make1d({-1, -3}, kChar);
  expectValues(sk::div(Min, MinusOne, "floor"), {-128, 2});
  // Inplace and out= with a rounding mode.
  Tensor Self = make1d({7, -7}, kLong);
  sk::div_(Self, make1d({2, 2}, kLong), "floor");
  expectValues(Self, {3, -4});
  Tensor Out = detail::empty_cpu({2}, kLong);
  sk::div_out(Out, make1d({7, -7}, kLong), make1d({2, 2}, kLong), "trunc");
  expectValues(Out, {3, -3});
}

TEST(PointwiseMulDiv, Errors_MatchPyTorch) {
  Tensor I = make1d({1, 2}, kInt);
  Tensor Zero = make1d({1, 0}, kInt);
  SK_EXPECT_ERROR(sk::div(I, Zero, "trunc"), "ZeroDivisionError");
  SK_EXPECT_ERROR(sk::div(I, Zero, "floor"), "ZeroDivisionError");
  SK_EXPECT_ERROR(sk::div(I, I, "round"),
                  "div expected rounding_mode to be one of None, 'trunc', or "
                  "'floor' but found 'round'");
  SK_EXPECT_ERROR(sk::div(metaLike(I), metaLike(I), "round"),
                  "div expected rounding_mode");
  Tensor Bools = make1d({1, 1}, kBool);
  SK_EXPECT_ERROR_TYPE(sk::div(Bools, Bools, "floor"), NotImplementedError,
                       "\"div_floor_cpu\" not implemented for 'Bool'");
  // True division of bools is float division.
  expectValues(sk::div(Bools, Bools), {1, 1});
  Tensor SelfI = I.clone();
  SK_EXPECT_ERROR(sk::div_(SelfI, I), "result type Float can't be cast to the "
                                      "desired output type Int");
}

TEST(PointwiseMulDiv, MetaMatchesCpu) {
  Tensor A = mixedValues({2, 1, 3}, kInt);
  Tensor B = mixedValues({4, 1}, kLong);
  expectSameLayout(sk::mul(metaLike(A), metaLike(B)), sk::mul(A, B));
  expectSameLayout(sk::div(metaLike(A), metaLike(B)),
                   sk::div(A, sk::add(B, 100)));
  expectSameLayout(sk::div(metaLike(A), metaLike(B), "floor"),
                   sk::div(A, sk::add(B, 100), "floor"));
  EXPECT_EQ(sk::div(metaLike(A), metaLike(B)).dtype(), kFloat);
  EXPECT_EQ(sk::div(metaLike(A), metaLike(B), "trunc").dtype(), kLong);
}

//===----------------------------------------------------------------------===//
// pow
//===----------------------------------------------------------------------===//

TEST(PointwisePow, TensorTensor_MatchesReference) {
  Tensor Base = make1d({2, -3, 0.5, 4, 0, -2});
  Tensor Exp = make1d({3, 2, -1, 0.5, 0, 0.5});
  Tensor R = sk::pow(Base, Exp);
  expectValues(R,
               refBinary(Base, Exp, {6},
                         [](double X, double Y) {
                           return static_cast<float>(std::pow(
                               static_cast<float>(X), static_cast<float>(Y)));
                         }),
               1e-6);
  // Integers by squaring, negative exponents as PyTorch's powi.
  Tensor IB = make1d({2, -3, 1, -1, -1, 5, 3}, kLong);
  Tensor IE = make1d({10, 3, -4, -3, -2, -1, 0}, kLong);
  Tensor RI = sk::pow(IB, IE);
  EXPECT_EQ(RI.dtype(), kLong);
  expectValues(RI, {1024, -27, 1, -1, 1, 0, 1});
  // Broadcast and promotion: int base, float exponent.
  Tensor IB2 = make({1, 2, 3, 4}, {2, 2}, kInt);
  Tensor FE = make1d({2, 0.5});
  Tensor RP = sk::pow(IB2, FE);
  EXPECT_EQ(RP.dtype(), kFloat);
  expectValues(RP, {1, std::sqrt(2.0), 9, 2}, 1e-6);
  expectSameLayout(sk::pow(metaLike(IB2), metaLike(FE)), RP);
  Tensor H = make1d({1.5, 2}, kHalf);
  expectValues(sk::pow(H, H), {std::pow(1.5, 1.5), 4}, 2e-3);
  Tensor Bools = make1d({1}, kBool);
  SK_EXPECT_ERROR_TYPE(sk::pow(Bools, Bools), NotImplementedError,
                       "\"pow\" not implemented for 'Bool'");
}

// float pow of two tensors runs vectors (in double, rounded once) on long
// contiguous rows: within half an ulp but for the rarest ties, and the C
// library's pow for its special cases.
TEST(PointwisePow, TensorTensor_LongRowsRoundedOnce) {
  const int64_t N = 3 * kGrainSize + 5;
  Tensor B = sk::mul(sk::rand({N}), 50);
  Tensor E = sk::sub(sk::mul(sk::rand({N}), 20), 10);
  // Special lanes inside vectors: the C library's pow for those vectors.
  B.data_ptr<float>()[7] = 0;
  B.data_ptr<float>()[100] = -2;
  E.data_ptr<float>()[100] = 3;
  E.data_ptr<float>()[200] = std::numeric_limits<float>::infinity();
  std::vector<double> BV = toVector<double>(B), EV = toVector<double>(E);
  std::vector<double> R = toVector<double>(sk::pow(B, E));
  for (int64_t I = 0; I < N; ++I) {
    double Exact = std::pow(BV[I], EV[I]);
    if (!std::isfinite(Exact) || !std::isfinite(R[I])) {
      ASSERT_TRUE(R[I] == Exact || (std::isnan(R[I]) && std::isnan(Exact)))
          << "pow(" << BV[I] << ", " << EV[I] << ") = " << R[I];
      continue;
    }
    // Half an ulp of float, and the subnormal range's absolute one.
    ASSERT_LE(std::abs(R[I] - Exact), std::abs(Exact) * 0x1p-24 + 0x1p-149)
        << "pow(" << BV[I] << ", " << EV[I] << ")";
  }
  Tensor Special = make1d({0, -2, kInf, kNan, 1, 4, -8, 0});
  Tensor Exps = make1d({-1, 3, -1, 0, kNan, 0.5, 1.0 / 3, 0});
  std::vector<double> Want;
  for (int I = 0; I < 8; ++I)
    Want.push_back(
        std::pow(toVector<float>(Special)[I], toVector<float>(Exps)[I]));
  EXPECT_EQ(toVector<double>(sk::pow(Special, Exps)).size(), 8u);
  expectValues(sk::pow(Special, Exps), Want);
}

TEST(PointwisePow, TensorScalar_SpecialExponentsMatchReference) {
  Tensor Base = mixedValues({41});
  Tensor Positive = sk::add(sk::abs(Base), 0.5);
  for (double E : {0.0, 1.0, 2.0, 3.0, 0.5, -0.5, -1.0, -2.0, 1.7, -3.0}) {
    SCOPED_TRACE(E);
    const Tensor &B = (E == 0.5 || E == -0.5 || E == 1.7) ? Positive : Base;
    Tensor R = sk::pow(B, E);
    EXPECT_EQ(R.dtype(), kFloat);
    expectValues(R, refUnary(B, [E](double X) { return std::pow(X, E); }),
                 4e-6);
    Tensor D = B.to(kDouble);
    expectValues(sk::pow(D, E),
                 refUnary(D, [E](double X) { return std::pow(X, E); }), 1e-14);
  }
  Tensor I = make1d({2, -3, 0, 5}, kInt);
  Tensor RI = sk::pow(I, 3);
  EXPECT_EQ(RI.dtype(), kInt);
  expectValues(RI, {8, -27, 0, 125});
  Tensor RF = sk::pow(I, 0.5);
  EXPECT_EQ(RF.dtype(), kFloat);
  expectValues(RF, {std::sqrt(2.0), kNan, 0, std::sqrt(5.0)}, 1e-6);
  expectSameLayout(sk::pow(metaLike(I), 0.5), RF);
  Tensor H = make1d({3, 0.5}, kHalf);
  Tensor RH = sk::pow(H, 2);
  EXPECT_EQ(RH.dtype(), kHalf);
  expectValues(RH, {9, 0.25});
  // Inplace.
  Tensor Self = make1d({2, 3});
  sk::pow_(Self, 2);
  expectValues(Self, {4, 9});
}

TEST(PointwisePow, Errors_MatchPyTorch) {
  Tensor I = make1d({2, 3}, kInt);
  SK_EXPECT_ERROR(sk::pow(I, -2),
                  "Integers to negative integer powers are not allowed.");
  SK_EXPECT_ERROR(sk::pow(metaLike(I), -1),
                  "Integers to negative integer powers are not allowed.");
  Tensor SelfI = I.clone();
  SK_EXPECT_ERROR(sk::pow_(SelfI, 0.5), "result type Float can't be cast to "
                                        "the desired output type Int");
}

TEST(PointwisePow, OutOfAnyDtypeTheResultCastsTo) {
  // PyTorch 2.x: the Scalar exponent's out= takes any dtype its result
  // type casts to, as the other binary ops do.
  Tensor Out = detail::empty_cpu({2}, kDouble);
  sk::pow_out(Out, make1d({4, 9}, kInt), 0.5);
  EXPECT_EQ(toVector<double>(Out), (std::vector<double>{2, 3}));
  Tensor OutF = detail::empty_cpu({2}, kFloat);
  sk::pow_out(OutF, make1d({2, 3}, kHalf), 2);
  EXPECT_EQ(toVector<double>(OutF), (std::vector<double>{4, 9}));
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

/// The unary float ops and their references.
struct UnaryFloatOp {
  const char *Name;
  std::function<Tensor(const Tensor &)> Op;
  std::function<Tensor &(Tensor &)> Inplace;
  std::function<Tensor &(Tensor &, const Tensor &)> Out;
  std::function<double(double)> Ref;
  /// Whether the op's inputs must be positive.
  bool PositiveInputs;
};

std::vector<UnaryFloatOp> unaryFloatOps() {
  auto Sigmoid = [](double X) { return 1 / (1 + std::exp(-X)); };
  return {
      {"exp", [](const Tensor &T) { return sk::exp(T); },
       [](Tensor &T) -> Tensor & { return sk::exp_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & { return sk::exp_out(O, T); },
       [](double X) { return std::exp(X); }, false},
      {"log", [](const Tensor &T) { return sk::log(T); },
       [](Tensor &T) -> Tensor & { return sk::log_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & { return sk::log_out(O, T); },
       [](double X) { return std::log(X); }, true},
      {"sqrt", [](const Tensor &T) { return sk::sqrt(T); },
       [](Tensor &T) -> Tensor & { return sk::sqrt_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & {
         return sk::sqrt_out(O, T);
       },
       [](double X) { return std::sqrt(X); }, true},
      {"rsqrt", [](const Tensor &T) { return sk::rsqrt(T); },
       [](Tensor &T) -> Tensor & { return sk::rsqrt_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & {
         return sk::rsqrt_out(O, T);
       },
       [](double X) { return 1 / std::sqrt(X); }, true},
      {"sin", [](const Tensor &T) { return sk::sin(T); },
       [](Tensor &T) -> Tensor & { return sk::sin_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & { return sk::sin_out(O, T); },
       [](double X) { return std::sin(X); }, false},
      {"cos", [](const Tensor &T) { return sk::cos(T); },
       [](Tensor &T) -> Tensor & { return sk::cos_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & { return sk::cos_out(O, T); },
       [](double X) { return std::cos(X); }, false},
      {"tanh", [](const Tensor &T) { return sk::tanh(T); },
       [](Tensor &T) -> Tensor & { return sk::tanh_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & {
         return sk::tanh_out(O, T);
       },
       [](double X) { return std::tanh(X); }, false},
      {"sigmoid", [](const Tensor &T) { return sk::sigmoid(T); },
       [](Tensor &T) -> Tensor & { return sk::sigmoid_(T); },
       [](Tensor &O, const Tensor &T) -> Tensor & {
         return sk::sigmoid_out(O, T);
       },
       Sigmoid, false},
  };
}

TEST(PointwiseUnary, FloatOps_EveryDtypeAndVariant) {
  for (const UnaryFloatOp &Op : unaryFloatOps()) {
    SCOPED_TRACE(Op.Name);
    for (ScalarType Dtype : {kFloat, kDouble, kHalf, kBFloat16}) {
      SCOPED_TRACE(toString(Dtype));
      Tensor X = mixedValues({3, 37}, Dtype);
      if (Op.PositiveInputs)
        X = sk::add(sk::abs(X), 0.25);
      Tensor R = Op.Op(X);
      EXPECT_EQ(R.dtype(), Dtype);
      std::vector<double> Expected = refUnary(X, Op.Ref);
      expectValues(R, Expected, tolFor(Dtype));
      Tensor Self = X.clone();
      Tensor &Same = Op.Inplace(Self);
      EXPECT_TRUE(Same.is_same(Self));
      expectValues(Self, Expected, tolFor(Dtype));
      Tensor Out = detail::empty_cpu({0}, Dtype);
      Op.Out(Out, X);
      expectValues(Out, Expected, tolFor(Dtype));
      expectSameLayout(Op.Op(metaLike(X)), R);
    }
    // Integral and bool inputs compute in float32.
    for (ScalarType Dtype : {kByte, kInt, kLong, kBool}) {
      SCOPED_TRACE(toString(Dtype));
      Tensor X = make1d({1, 2, 0, 1, 3}, Dtype);
      Tensor R = Op.Op(X);
      EXPECT_EQ(R.dtype(), kFloat);
      expectValues(R, refUnary(X, Op.Ref), tolFor(kFloat));
      expectSameLayout(Op.Op(metaLike(X)), R);
      Tensor Self = X.clone();
      SK_EXPECT_ERROR(Op.Inplace(Self), "result type Float can't be cast to "
                                        "the desired output type");
    }
  }
}

// float16 and bfloat16 compute in float32 and round once, on the vector
// path of long contiguous rows (Note [Reduced floats on float vectors]),
// on its chunk tails and on strided elements alike: each result is the
// float32 op's on the same inputs, rounded.
TEST(PointwiseUnary, ReducedFloats_ComputeInFloat32AndRoundOnce) {
  // Long enough for the vector path and its threads, with a tail.
  const int64_t N = 3 * kGrainSize + 77;
  using Fn = std::function<Tensor(const Tensor &, const Tensor &)>;
  std::vector<std::pair<const char *, Fn>> Ops = {
      {"gelu", [](const Tensor &X, const Tensor &) { return sk::gelu(X); }},
      {"gelu tanh",
       [](const Tensor &X, const Tensor &) { return sk::gelu(X, "tanh"); }},
      {"add",
       [](const Tensor &X, const Tensor &Y) { return sk::add(X, Y, 0.5); }},
      {"mul", [](const Tensor &X, const Tensor &Y) { return sk::mul(X, Y); }},
      {"div trunc", [](const Tensor &X, const Tensor &Y) {
         return sk::div(X, Y, "trunc");
       }}};
  for (const UnaryFloatOp &Op : unaryFloatOps())
    Ops.push_back({Op.Name, [F = Op.Op](const Tensor &X, const Tensor &) {
                     return F(X);
                   }});
  auto Strided = [](const Tensor &T) {
    Tensor S = sk::empty({2 * T.numel()}, TensorOptions().dtype(T.dtype()))
                   .slice(0, 0, std::nullopt, 2);
    S.copy_(T);
    return S;
  };
  for (ScalarType Dtype : {kBFloat16, kHalf})
    for (const auto &[Name, F] : Ops) {
      SCOPED_TRACE(::testing::Message() << Name << " " << toString(Dtype));
      Tensor X = sk::mul(sk::rand({N}), 60).to(Dtype);
      Tensor Y = sk::add(sk::rand({N}), 0.5).to(Dtype);
      Tensor Want = F(X.to(kFloat), Y.to(kFloat)).to(Dtype);
      EXPECT_EQ(toVector<double>(F(X, Y)), toVector<double>(Want));
      EXPECT_EQ(toVector<double>(F(Strided(X), Strided(Y))),
                toVector<double>(Want));
    }
  // The case: gelu of bfloat16 0.01 is float32's, rounded.
  Tensor Small = sk::full({1}, 0.01, TensorOptions().dtype(kBFloat16));
  double Exact = toVector<double>(Small)[0] * 0.5 *
                 (1 + std::erf(toVector<double>(Small)[0] / std::sqrt(2.0)));
  EXPECT_NEAR(toVector<double>(sk::gelu(Small))[0], Exact, 3e-5);
}

TEST(PointwiseUnary, FloatOps_SpecialValues) {
  Tensor X = make1d({kNan, kInf, -kInf, 0, -0.0, 100, -100});
  expectValues(sk::exp(X), {kNan, kInf, 0, 1, 1, kInf,
                            static_cast<double>(std::exp(-100.0f))});
  expectValues(sk::log(X),
               {kNan, kInf, kNan, -kInf, -kInf, std::log(100.f), kNan}, 1e-6);
  expectValues(sk::sqrt(X), {kNan, kInf, kNan, 0, -0.0, 10, kNan});
  expectValues(sk::rsqrt(X), {kNan, 0, kNan, kInf, -kInf, 0.1, kNan}, 1e-6);
  expectValues(sk::sigmoid(X), {kNan, 1, 0, 0.5, 0.5, 1, 0}, 1e-6);
  expectValues(sk::tanh(X), {kNan, 1, -1, 0, 0, 1, -1});
}

// float16 and bfloat16 neg and abs change the sign bit only: -0, the
// infinities and NaN (its payload too) included, on long rows and strided
// ones.
template <typename T> static void expectSignBitOps(ScalarType Dtype) {
  const int64_t N = 3 * kGrainSize + 5;
  Tensor X = sk::sub(sk::mul(sk::rand({N}), 8), 4).to(Dtype);
  T *P = X.data_ptr<T>();
  P[1] = T::fromBits(0x8000);  // -0
  P[2] = T::fromBits(0x7c01 | (Dtype == kBFloat16 ? 0x0380 : 0)); // a NaN
  P[3] = T::fromBits(0xff81);  // a negative NaN
  P[4] = T(-std::numeric_limits<float>::infinity());
  for (const Tensor &In : {X, X.slice(0, 1, std::nullopt, 3)}) {
    Tensor Neg = sk::neg(In), Abs = sk::abs(In);
    auto BitsAt = [](const Tensor &Of, int64_t I) {
      return Of.data_ptr<T>()[I * Of.stride(0)].X;
    };
    for (int64_t I = 0; I < In.numel(); ++I) {
      ASSERT_EQ(BitsAt(Neg, I), BitsAt(In, I) ^ 0x8000) << I;
      ASSERT_EQ(BitsAt(Abs, I), BitsAt(In, I) & 0x7fff) << I;
    }
  }
}

TEST(PointwiseUnary, NegAbs_ReducedFloatsChangeTheSignBitOnly) {
  expectSignBitOps<BFloat16>(kBFloat16);
  expectSignBitOps<Half>(kHalf);
}

TEST(PointwiseUnary, NegAbs_EveryDtype) {
  for (ScalarType Dtype : kAllNumeric) {
    SCOPED_TRACE(toString(Dtype));
    bool Unsigned = Dtype == kByte;
    Tensor X = Unsigned ? make1d({0, 3, 200, 7}, Dtype)
                        : make1d({-2, 3, -4.5, 0, 7, -1}, Dtype);
    Tensor N = sk::neg(X);
    EXPECT_EQ(N.dtype(), Dtype);
    expectValues(N, refUnary(X, [&](double V) {
                   double R = -V;
                   return Unsigned && R < 0 ? R + 256 : R;
                 }));
    Tensor A = sk::abs(X);
    EXPECT_EQ(A.dtype(), Dtype);
    expectValues(A, refUnary(X, [&](double V) {
                   // Integral: what the dtype holds (-4.5 became -4).
                   return std::abs(V);
                 }));
    expectSameLayout(sk::abs(metaLike(X)), A);
  }
  // The vector path with tails; NaN and -0.
  Tensor F = mixedValues({45});
  expectValues(sk::neg(F), refUnary(F, [](double V) { return -V; }));
  expectValues(sk::abs(F), refUnary(F, [](double V) { return std::abs(V); }));
  Tensor S = make1d({kNan, -0.0, -kInf});
  expectValues(sk::abs(S), {kNan, 0, kInf});
  EXPECT_FALSE(std::signbit(toVector<double>(sk::abs(S))[1]));
  Tensor Min = make1d({-128}, kChar);
  expectValues(sk::neg(Min), {-128});
  expectValues(sk::abs(Min), {-128});
  // Errors.
  Tensor Bools = make1d({1, 0}, kBool);
  SK_EXPECT_ERROR(sk::neg(Bools), "Negation, the `-` operator, on a bool "
                                  "tensor is not supported.");
  SK_EXPECT_ERROR(sk::neg(metaLike(Bools)), "Negation, the `-` operator");
  SK_EXPECT_ERROR_TYPE(sk::abs(Bools), NotImplementedError,
                       "\"abs_cpu\" not implemented for 'Bool'");
}

TEST(PointwiseUnary, Relu_EveryDtypeKeepsNan) {
  for (ScalarType Dtype : kAllNumeric) {
    SCOPED_TRACE(toString(Dtype));
    Tensor X = Dtype == kByte ? make1d({0, 3, 200}, Dtype)
                              : make1d({-2, 3, -4, 0, 7}, Dtype);
    Tensor R = sk::relu(X);
    EXPECT_EQ(R.dtype(), Dtype);
    expectValues(R, refUnary(X, [](double V) { return V < 0 ? 0 : V; }));
    expectSameLayout(sk::relu(metaLike(X)), R);
  }
  Tensor F = mixedValues({50});
  F.data_ptr<float>()[13] = NAN;
  Tensor Self = F.clone();
  sk::relu_(Self);
  std::vector<double> Expected =
      refUnary(F, [](double V) { return std::isnan(V) || V >= 0 ? V : 0; });
  expectValues(Self, Expected);
  expectValues(sk::relu(transposed(make({1, -2, 3, -4}, {2, 2}), 0, 1)),
               {1, 3, 0, 0});
  Tensor Bools = make1d({1}, kBool);
  SK_EXPECT_ERROR(sk::relu(Bools), "Boolean inputs not supported for relu");
  SK_EXPECT_ERROR(sk::relu(metaLike(Bools)),
                  "Boolean inputs not supported for relu");
}

TEST(PointwiseUnary, Gelu_BothApproximations) {
  auto Exact = [](double X) {
    return 0.5 * X * (1 + std::erf(X / std::sqrt(2.0)));
  };
  auto Tanh = [](double X) {
    double Inner = std::sqrt(2 / M_PI) * (X + 0.044715 * X * X * X);
    return 0.5 * X * (1 + std::tanh(Inner));
  };
  for (ScalarType Dtype : {kFloat, kDouble, kHalf, kBFloat16}) {
    SCOPED_TRACE(toString(Dtype));
    Tensor X = mixedValues({2, 19}, Dtype);
    Tensor R = sk::gelu(X);
    EXPECT_EQ(R.dtype(), Dtype);
    expectValues(R, refUnary(X, Exact), tolFor(Dtype) * 2);
    expectValues(sk::gelu(X, "tanh"), refUnary(X, Tanh), tolFor(Dtype) * 2);
    Tensor Self = X.clone();
    sk::gelu_(Self, "tanh");
    expectValues(Self, refUnary(X, Tanh), tolFor(Dtype) * 2);
    expectSameLayout(sk::gelu(metaLike(X), "tanh"), R);
  }
  Tensor X = mixedValues({4});
  SK_EXPECT_ERROR(sk::gelu(X, "sigmoid"),
                  "approximate argument must be either none or tanh.");
  SK_EXPECT_ERROR(sk::gelu(metaLike(X), "erf"),
                  "approximate argument must be either none or tanh.");
  SK_EXPECT_ERROR_TYPE(sk::gelu(make1d({1}, kLong)), NotImplementedError,
                       "\"GeluKernelImpl\" not implemented for 'Long'");
}

TEST(PointwiseUnary, StridedInputs_MatchReference) {
  Tensor Base = sk::add(sk::abs(mixedValues({6, 10})), 0.5);
  Tensor T = transposed(Base, 0, 1);
  Tensor Sliced = stridedView(Base, {3, 5}, {20, 2}, 1);
  for (const Tensor &X : {T, Sliced}) {
    expectValues(sk::sqrt(X),
                 refUnary(X, [](double V) { return std::sqrt(V); }), 1e-6);
    expectValues(sk::exp(X), refUnary(X, [](double V) { return std::exp(V); }),
                 1e-6);
  }
  EXPECT_EQ(vec(sk::sqrt(T).strides()), (std::vector<int64_t>{1, 10}));
  Tensor CL = channelsLast(mixedValues({2, 3, 4, 5}));
  Tensor R = sk::neg(CL);
  EXPECT_EQ(vec(R.strides()), channelsLastStrides({2, 3, 4, 5}));
  expectSameLayout(sk::neg(metaLike(CL)), R);
  Tensor Empty = detail::empty_cpu({0, 4}, kFloat);
  EXPECT_EQ(vec(sk::sigmoid(Empty).sizes()), (std::vector<int64_t>{0, 4}));
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

struct ComparisonOp {
  const char *Name;
  std::function<Tensor(const Tensor &, const Tensor &)> Op;
  std::function<Tensor(const Tensor &, const Scalar &)> ScalarOp;
  std::function<bool(double, double)> Ref;
};

std::vector<ComparisonOp> comparisonOps() {
  return {
      {"eq", [](const Tensor &A, const Tensor &B) { return sk::eq(A, B); },
       [](const Tensor &A, const Scalar &B) { return sk::eq(A, B); },
       [](double X, double Y) { return X == Y; }},
      {"ne", [](const Tensor &A, const Tensor &B) { return sk::ne(A, B); },
       [](const Tensor &A, const Scalar &B) { return sk::ne(A, B); },
       [](double X, double Y) { return X != Y; }},
      {"lt", [](const Tensor &A, const Tensor &B) { return sk::lt(A, B); },
       [](const Tensor &A, const Scalar &B) { return sk::lt(A, B); },
       [](double X, double Y) { return X < Y; }},
      {"le", [](const Tensor &A, const Tensor &B) { return sk::le(A, B); },
       [](const Tensor &A, const Scalar &B) { return sk::le(A, B); },
       [](double X, double Y) { return X <= Y; }},
      {"gt", [](const Tensor &A, const Tensor &B) { return sk::gt(A, B); },
       [](const Tensor &A, const Scalar &B) { return sk::gt(A, B); },
       [](double X, double Y) { return X > Y; }},
      {"ge", [](const Tensor &A, const Tensor &B) { return sk::ge(A, B); },
       [](const Tensor &A, const Scalar &B) { return sk::ge(A, B); },
       [](double X, double Y) { return X >= Y; }},
  };
}

TEST(PointwiseCompare, EveryOpAndDtype_GivesBool) {
  for (const ComparisonOp &Op : comparisonOps()) {
    SCOPED_TRACE(Op.Name);
    for (ScalarType Dtype : kAllNumeric) {
      SCOPED_TRACE(toString(Dtype));
      Tensor A = make({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype);
      Tensor B = make1d({2, 2, 7}, Dtype);
      Tensor R = Op.Op(A, B);
      EXPECT_EQ(R.dtype(), kBool);
      auto Ref = [&](double X, double Y) { return Op.Ref(X, Y) ? 1.0 : 0.0; };
      expectValues(R, refBinary(A, B, {2, 3}, Ref));
      expectSameLayout(Op.Op(metaLike(A), metaLike(B)), R);
      Tensor RS = Op.ScalarOp(A, 3);
      EXPECT_EQ(RS.dtype(), kBool);
      expectValues(RS, refBinary(A, make1d({3}, kDouble), {2, 3}, Ref));
      expectSameLayout(Op.ScalarOp(metaLike(A), 3), RS);
    }
    Tensor Bools = make1d({0, 1}, kBool);
    expectValues(Op.Op(Bools, make1d({1, 1}, kBool)),
                 {Op.Ref(0, 1) ? 1. : 0., Op.Ref(1, 1) ? 1. : 0.});
    // NaN compares unequal to everything.
    Tensor N = make1d({kNan});
    expectValues(Op.Op(N, N), {Op.Ref(kNan, kNan) ? 1. : 0.});
  }
}

TEST(PointwiseCompare, Promotion_ComparesInResultType) {
  Tensor I = make1d({2, 3}, kInt);
  // int == 2.5 compares in float32: nothing is equal.
  expectValues(sk::eq(I, 2.5), {0, 0});
  expectValues(sk::lt(I, 2.5), {1, 0});
  expectValues(sk::gt(I, make1d({2.5, 2.5})), {0, 1});
  // A 0-dim double tensor joins a float tensor's comparison as float.
  Tensor F = make1d({0.1f, 0.2f});
  expectValues(sk::eq(F, scalarTensor(0.1, kDouble)), {1, 0});
  Tensor U = make1d({255, 1}, kByte);
  expectValues(sk::gt(U, make1d({-1, -1}, kChar)), {1, 1});
  Tensor Bools = make1d({0, 1}, kBool);
  expectValues(sk::eq(Bools, 1), {0, 1});
  expectValues(sk::lt(Bools, 0.5), {1, 0});
}

TEST(PointwiseCompare, Variants_OutAndInplaceKeepTheirDtype) {
  Tensor A = mixedValues({3, 4});
  Tensor B = mixedValues({4}, kFloat);
  std::vector<double> Expected = refBinary(
      A, B, {3, 4}, [](double X, double Y) { return X <= Y ? 1.0 : 0.0; });
  expectValues(sk::cpu::le(A, B), Expected);
  Tensor Out = detail::empty_cpu({3, 4}, kFloat);
  sk::le_out(Out, A, B);
  EXPECT_EQ(Out.dtype(), kFloat);
  expectValues(Out, Expected);
  Tensor BoolOut = detail::empty_cpu({3, 4}, kBool);
  sk::le_outf(A, B, BoolOut);
  expectValues(BoolOut, Expected);
  Tensor Self = A.clone();
  sk::le_(Self, B);
  EXPECT_EQ(Self.dtype(), kFloat);
  expectValues(Self, Expected);
  Tensor Self2 = A.clone();
  sk::ne_(Self2, 0.75);
  expectValues(Self2, refUnary(A, [](double X) { return X != 0.75; }));
  Tensor LongOut = detail::empty_cpu({0}, kLong);
  sk::gt_out(LongOut, A, 0.0);
  EXPECT_EQ(vec(LongOut.sizes()), (std::vector<int64_t>{3, 4}));
  expectValues(LongOut, refUnary(A, [](double X) { return X > 0; }));
  // Strided inputs, channels last.
  Tensor T = transposed(A, 0, 1);
  expectValues(sk::ge(T, T), std::vector<double>(12, 1));
  Tensor CL = channelsLast(mixedValues({2, 3, 4, 5}));
  Tensor R = sk::eq(CL, CL);
  EXPECT_EQ(vec(R.strides()), channelsLastStrides({2, 3, 4, 5}));
  expectSameLayout(sk::eq(metaLike(CL), metaLike(CL)), R);
  expectSameLayout(sk::eq(metaLike(CL), 1), sk::eq(CL, 1));
  // Errors.
  SK_EXPECT_ERROR(sk::eq(A, mixedValues({3})),
                  "The size of tensor a (4) must match the size of tensor b "
                  "(3) at non-singleton dimension 1");
  Tensor Small = mixedValues({4});
  Tensor Big = mixedValues({3, 4});
  SK_EXPECT_ERROR(sk::lt_(Small, Big), "output with shape [4] doesn't match "
                                       "the broadcast shape [3, 4]");
}

//===----------------------------------------------------------------------===//
// clamp
//===----------------------------------------------------------------------===//

/// PyTorch's clamp of one element.
double refClamp(double X, std::optional<double> Lo, std::optional<double> Hi) {
  if (std::isnan(X))
    return X;
  if (Lo && std::isnan(*Lo))
    return *Lo;
  if (Hi && std::isnan(*Hi))
    return *Hi;
  if (Lo && X < *Lo)
    X = *Lo;
  if (Hi && X > *Hi)
    X = *Hi;
  return X;
}

TEST(PointwiseClamp, ScalarBounds_EveryDtype) {
  for (ScalarType Dtype : kAllNumeric) {
    SCOPED_TRACE(toString(Dtype));
    Tensor X = Dtype == kByte ? make1d({0, 3, 5, 9, 200}, Dtype)
                              : make1d({-6, -1, 0, 2, 5, 9}, Dtype);
    Tensor R = sk::clamp(X, std::optional<Scalar>(1), std::optional<Scalar>(5));
    EXPECT_EQ(R.dtype(), Dtype);
    expectValues(R, refUnary(X, [](double V) { return refClamp(V, 1, 5); }));
    expectValues(
        sk::clamp(X, std::optional<Scalar>(2), std::nullopt),
        refUnary(X, [](double V) { return refClamp(V, 2, std::nullopt); }));
    expectValues(
        sk::clamp(X, std::nullopt, std::optional<Scalar>(3)),
        refUnary(X, [](double V) { return refClamp(V, std::nullopt, 3); }));
    expectSameLayout(sk::clamp(metaLike(X), std::optional<Scalar>(1),
                               std::optional<Scalar>(5)),
                     R);
  }
  // The bounds take part in promotion when self is integral.
  Tensor I = make1d({-2, 0, 3}, kInt);
  Tensor RF =
      sk::clamp(I, std::optional<Scalar>(-0.5), std::optional<Scalar>(2.5));
  EXPECT_EQ(RF.dtype(), kFloat);
  expectValues(RF, {-0.5, 0, 2.5});
  expectSameLayout(
      sk::clamp(metaLike(I), std::optional<Scalar>(-0.5), std::nullopt), RF);
  // NaN input stays, NaN bound wins, min > max gives max.
  Tensor F = make1d({kNan, 1, 10, -10});
  expectValues(sk::clamp(F, std::optional<Scalar>(0), std::optional<Scalar>(5)),
               {kNan, 1, 5, 0});
  expectValues(
      sk::clamp(F, std::optional<Scalar>(kNan), std::optional<Scalar>(5)),
      {kNan, kNan, kNan, kNan});
  expectValues(sk::clamp(F, std::optional<Scalar>(6), std::optional<Scalar>(2)),
               {kNan, 2, 2, 2});
  // Variants.
  Tensor Self = F.clone();
  sk::clamp_(Self, std::optional<Scalar>(0), std::optional<Scalar>(5));
  expectValues(Self, {kNan, 1, 5, 0});
  Tensor Out = detail::empty_cpu({4}, kFloat);
  sk::clamp_out(Out, F, std::optional<Scalar>(0), std::nullopt);
  expectValues(Out, {kNan, 1, 10, 0});
  expectValues(sk::cpu::clamp(F, std::nullopt, std::optional<Scalar>(0)),
               {kNan, 0, 0, -10});
  Tensor T = transposed(mixedValues({3, 5}), 0, 1);
  Tensor RT = sk::clamp(T, std::optional<Scalar>(-1), std::optional<Scalar>(1));
  expectValues(RT, refUnary(T, [](double V) { return refClamp(V, -1, 1); }));
  EXPECT_EQ(vec(RT.strides()), (std::vector<int64_t>{1, 5}));
}

TEST(PointwiseClamp, TensorBounds_BroadcastAndPromote) {
  Tensor X = mixedValues({3, 4});
  Tensor Lo = make1d({-1, 0, -5, 2});
  Tensor Hi = make({0.5, 1, 3}, {3, 1});
  Tensor R = sk::clamp(X, std::optional<Tensor>(Lo), std::optional<Tensor>(Hi));
  std::vector<double> VX = toVector<double>(X);
  std::vector<double> VLo = broadcastTo(Lo, {3, 4});
  std::vector<double> VHi = broadcastTo(Hi, {3, 4});
  std::vector<double> Expected(12);
  for (size_t I = 0; I < 12; ++I)
    Expected[I] = refClamp(VX[I], VLo[I], VHi[I]);
  expectValues(R, Expected);
  expectSameLayout(sk::clamp(metaLike(X), std::optional<Tensor>(metaLike(Lo)),
                             std::optional<Tensor>(metaLike(Hi))),
                   R);
  // One bound only; int self with float bounds promotes.
  Tensor I = make1d({-2, 0, 3}, kInt);
  Tensor RI = sk::clamp(I, std::optional<Tensor>(make1d({-0.5, 0.5, 0.5})),
                        std::nullopt);
  EXPECT_EQ(RI.dtype(), kFloat);
  expectValues(RI, {-0.5, 0.5, 3});
  Tensor RM =
      sk::clamp(I, std::nullopt, std::optional<Tensor>(make1d({1}, kLong)));
  EXPECT_EQ(RM.dtype(), kLong);
  expectValues(RM, {-2, 0, 1});
  Tensor Self = I.clone();
  SK_EXPECT_ERROR(
      sk::clamp_(Self, std::optional<Tensor>(make1d({0.5})), std::nullopt),
      "result type Float can't be cast to the desired output "
      "type Int");
  Tensor NanBound = make1d({kNan});
  expectValues(
      sk::clamp(make1d({1, 2}), std::optional<Tensor>(NanBound), std::nullopt),
      {kNan, kNan});
}

// Rows long enough for the vector bodies, with NaN inputs and bounds and
// min > max inside vectors, in every floating dtype.
TEST(PointwiseClamp, LongRows_MatchTheElementFunction) {
  const int64_t N = 3 * kGrainSize + 5;
  std::vector<double> X(N), Lo(N), Hi(N);
  for (int64_t I = 0; I < N; ++I) {
    X[I] = (I % 13) * 0.5 - 3;
    Lo[I] = -1 - (I % 3) * 0.25;
    Hi[I] = 1 + (I % 5) * 0.25;
  }
  X[3] = kNan;
  Lo[17] = kNan;
  Hi[40] = kNan;
  Lo[41] = 2, Hi[41] = -2; // min > max gives max
  for (ScalarType Dtype : {kFloat, kDouble, kBFloat16, kHalf}) {
    SCOPED_TRACE(toString(Dtype));
    Tensor TX = make1d(X, Dtype), TLo = make1d(Lo, Dtype),
           THi = make1d(Hi, Dtype);
    std::vector<double> VX = toVector<double>(TX), VLo = toVector<double>(TLo),
                        VHi = toVector<double>(THi);
    auto Expect = [&](const Tensor &R, bool UseLo, bool UseHi) {
      std::vector<double> Want(N);
      for (int64_t I = 0; I < N; ++I)
        Want[I] =
            refClamp(VX[I], UseLo ? std::optional<double>(VLo[I]) : std::nullopt,
                     UseHi ? std::optional<double>(VHi[I]) : std::nullopt);
      expectValues(R, Want);
    };
    Expect(sk::clamp(TX, std::optional<Tensor>(TLo), std::optional<Tensor>(THi)),
           true, true);
    Expect(sk::clamp(TX, std::optional<Tensor>(TLo), std::nullopt), true,
           false);
    Expect(sk::clamp(TX, std::nullopt, std::optional<Tensor>(THi)), false,
           true);
    // Scalar bounds: the same values in every lane.
    std::fill(VLo.begin(), VLo.end(), -1.5);
    std::fill(VHi.begin(), VHi.end(), 2.5);
    Expect(sk::clamp(TX, std::optional<Scalar>(-1.5),
                     std::optional<Scalar>(2.5)),
           true, true);
    Expect(sk::clamp(TX, std::optional<Scalar>(-1.5), std::nullopt), true,
           false);
    Expect(sk::clamp(TX, std::nullopt, std::optional<Scalar>(2.5)), false,
           true);
  }
}

TEST(PointwiseClamp, Errors_MatchPyTorch) {
  Tensor X = mixedValues({3});
  SK_EXPECT_ERROR(sk::clamp(X, std::optional<Scalar>(), std::nullopt),
                  "torch.clamp: At least one of 'min' or 'max' must not be "
                  "None");
  SK_EXPECT_ERROR(
      sk::clamp(metaLike(X), std::optional<Tensor>(), std::optional<Tensor>()),
      "torch.clamp: At least one of 'min' or 'max' must not be "
      "None");
  Tensor I = make1d({1, 2}, kInt);
  Tensor Self = I.clone();
  SK_EXPECT_ERROR(sk::clamp_(Self, std::optional<Scalar>(0.5), std::nullopt),
                  "result type Float can't be cast to the desired output "
                  "type Int");
  Tensor Out = detail::empty_cpu({2}, kInt);
  SK_EXPECT_ERROR(
      sk::clamp_out(Out, I, std::optional<Scalar>(0.5), std::nullopt),
      "Found dtype Int but expected Float");
  Tensor Bools = make1d({1}, kBool);
  SK_EXPECT_ERROR_TYPE(
      sk::clamp(Bools, std::optional<Scalar>(false), std::nullopt),
      NotImplementedError, "\"clamp_scalar_cpu\" not implemented for 'Bool'");
}

//===----------------------------------------------------------------------===//
// where
//===----------------------------------------------------------------------===//

TEST(PointwiseWhere, BroadcastAndPromotion) {
  Tensor Cond = make({1, 0, 0, 1, 1, 0}, {2, 3}, kBool);
  Tensor A = make1d({10, 20, 30}, kInt);
  Tensor B = make({-1, -2}, {2, 1});
  Tensor R = sk::where(Cond, A, B);
  EXPECT_EQ(R.dtype(), kFloat);
  std::vector<double> VC = broadcastTo(Cond, {2, 3});
  std::vector<double> VA = broadcastTo(A, {2, 3});
  std::vector<double> VB = broadcastTo(B, {2, 3});
  std::vector<double> Expected(6);
  for (size_t I = 0; I < 6; ++I)
    Expected[I] = VC[I] != 0 ? VA[I] : VB[I];
  expectValues(R, Expected);
  expectSameLayout(sk::where(metaLike(Cond), metaLike(A), metaLike(B)), R);
  expectValues(sk::cpu::where(Cond, A, B), Expected);
  Tensor Out = detail::empty_cpu({2, 3}, kFloat);
  sk::where_out(Out, Cond, A, B);
  expectValues(Out, Expected);

  // Every dtype, a uint8 condition, 0-dim operands.
  for (ScalarType Dtype : kAllNumeric) {
    SCOPED_TRACE(toString(Dtype));
    Tensor X = make1d({1, 2, 3, 4}, Dtype);
    Tensor Y = make1d({5, 6, 7, 8}, Dtype);
    Tensor C = make1d({0, 3, 0, 1}, kByte);
    Tensor W = sk::where(C, X, Y);
    EXPECT_EQ(W.dtype(), Dtype);
    expectValues(W, {5, 2, 7, 4});
  }
  Tensor Bools = sk::where(make1d({1, 0}, kBool), make1d({1, 1}, kBool),
                           make1d({0, 0}, kBool));
  EXPECT_EQ(Bools.dtype(), kBool);
  expectValues(Bools, {1, 0});
  Tensor Z = sk::where(make1d({1, 0, 1}, kBool), make1d({1, 2, 3}, kLong),
                       scalarTensor(0.5, kDouble));
  EXPECT_EQ(Z.dtype(), kDouble);
  expectValues(Z, {1, 0.5, 3});
  // Channels last.
  Tensor CL = channelsLast(mixedValues({2, 3, 4, 5}));
  Tensor WC = sk::where(sk::gt(CL, 0.0), CL, sk::neg(CL));
  EXPECT_EQ(vec(WC.strides()), channelsLastStrides({2, 3, 4, 5}));
  expectValues(WC, refUnary(CL, [](double V) { return std::abs(V); }));
}

TEST(PointwiseWhere, Errors_MatchPyTorch) {
  Tensor A = make1d({1, 2});
  SK_EXPECT_ERROR(sk::where(make1d({1, 0}, kInt), A, A),
                  "where expected condition to be a boolean tensor, but got a "
                  "tensor with dtype Int");
  Tensor Out = detail::empty_cpu({2}, kDouble);
  SK_EXPECT_ERROR(sk::where_out(Out, make1d({1, 0}, kBool), A, A),
                  "Expected out type to be Float but got Double");
  SK_EXPECT_ERROR(sk::where(make1d({1, 0, 1}, kBool), A, A),
                  "The size of tensor a (3) must match the size of tensor b "
                  "(2) at non-singleton dimension 0");
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

TEST(PointwiseThreads, LargeBroadcastOnTwoThreads_MatchesReference) {
  int Saved = get_num_threads();
  set_num_threads(2);
  Tensor A = mixedValues({300, 1, 257});
  Tensor B = mixedValues({7, 257}, kFloat);
  Tensor R = sk::mul(A, B);
  set_num_threads(Saved);
  expectValues(R, refBinary(A, B, {300, 7, 257},
                            [](double X, double Y) { return X * Y; }));
}

} // namespace
