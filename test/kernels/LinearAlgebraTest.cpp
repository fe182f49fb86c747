//===--- LinearAlgebraTest.cpp - mm, bmm, addmm, matmul, linear, cdist ----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The matrix products against naive loops written here: every variant
/// (functional, inplace, out=, sk::cpu::), transposed and sliced operands
/// (the BLAS transpose flags and the packing fallback), zero-size and
/// one-element shapes, integer and 16-bit dtypes (the loop kernel), meta
/// tensors, and the errors.
///
//===----------------------------------------------------------------------===//

#include "CPUFunctions.h"
#include "Functions.h"

#include "sk/iter/Parallel.h"
#include "sk/ops/Factories.h"
#include "sk/ops/Views.h"

#include "ops/OpsTestUtils.h"

#include <cblas.h>

#include <atomic>
#include <cmath>
#include <limits>

using namespace sk;
using namespace sk::test;

namespace {

using Doubles = std::vector<double>;

/// Small integers, exact in every dtype and in float sums: value \p I of
/// a deterministic pattern.
double patternValue(int64_t I, int64_t Seed) {
  return static_cast<double>((I * 7 + Seed * 13) % 11) - 5.0;
}

/// A contiguous tensor of \p Sizes filled with patternValue.
Tensor patterned(std::vector<int64_t> Sizes, int64_t Seed,
                 ScalarType Dtype = kFloat) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  Doubles V(static_cast<size_t>(N));
  for (int64_t I = 0; I < N; ++I)
    V[I] = patternValue(I, Seed);
  return makeTensor(V, Sizes, Dtype);
}

/// Row-major (M x K) times (K x N), in double.
Doubles refMatmul(const Doubles &A, const Doubles &B, int64_t M, int64_t K,
                  int64_t N) {
  Doubles C(static_cast<size_t>(M * N), 0.0);
  for (int64_t I = 0; I < M; ++I)
    for (int64_t J = 0; J < N; ++J)
      for (int64_t P = 0; P < K; ++P)
        C[I * N + J] += A[I * K + P] * B[P * N + J];
  return C;
}

void expectValuesNear(const Tensor &T, const Doubles &Expected,
                      double Tol = 1e-4) {
  Doubles Got = values(T);
  ASSERT_EQ(Got.size(), Expected.size());
  for (size_t I = 0; I != Got.size(); ++I) {
    if (std::isnan(Expected[I])) {
      EXPECT_TRUE(std::isnan(Got[I])) << "at " << I;
      continue;
    }
    EXPECT_NEAR(Got[I], Expected[I], Tol * (1 + std::abs(Expected[I])))
        << "at " << I;
  }
}

/// A meta tensor with \p T's sizes, strides and dtype.
Tensor toMeta(const Tensor &T) {
  return empty_strided(T.sizes(), T.strides(), T.options().device(kMeta));
}

void expectSameLayout(const Tensor &Meta, const Tensor &Cpu) {
  EXPECT_TRUE(Meta.is_meta());
  EXPECT_EQ(vec(Meta.sizes()), vec(Cpu.sizes()));
  EXPECT_EQ(vec(Meta.strides()), vec(Cpu.strides()));
  EXPECT_EQ(Meta.scalar_type(), Cpu.scalar_type());
}

//===----------------------------------------------------------------------===//
// mm
//===----------------------------------------------------------------------===//

TEST(LinearAlgebraTest, Mm_Float_MatchesReference) {
  Tensor A = patterned({5, 7}, 1), B = patterned({7, 3}, 2);
  Tensor C = sk::mm(A, B);
  EXPECT_EQ(vec(C.sizes()), (std::vector<int64_t>{5, 3}));
  EXPECT_EQ(vec(C.strides()), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(C.scalar_type(), kFloat);
  expectValuesNear(C, refMatmul(values(A), values(B), 5, 7, 3));
}

// Note [One thread pool] in kernels/cpu/LinearAlgebra.cpp.
TEST(LinearAlgebraTest, Mm_OpenBLASFollowsTheRuntimesThreadCount) {
  int Saved = get_num_threads();
  Tensor A = rand({64, 64}), B = rand({64, 64});
  for (int Threads : {1, 2}) {
    set_num_threads(Threads);
    sk::mm(A, B);
    EXPECT_EQ(openblas_get_num_threads(), Threads);
  }
  // From inside a parallel region, a product runs on its caller's thread.
  set_num_threads(2);
  std::atomic<int> Seen{0};
  std::atomic<bool> Inside{false};
  parallel_for(0, 2, 1, [&](int64_t, int64_t) {
    sk::mm(A, B);
    Seen = openblas_get_num_threads();
    Inside = in_parallel_region();
  });
  EXPECT_EQ(Seen.load(), Inside ? 1 : 2);
  set_num_threads(Saved);
}

TEST(LinearAlgebraTest, Mm_EveryDtype_MatchesReference) {
  for (ScalarType Dtype :
       {kFloat, kDouble, kLong, kInt, kShort, kChar, kByte, kHalf, kBFloat16}) {
    SCOPED_TRACE(toString(Dtype));
    Tensor A = patterned({4, 6}, 3, Dtype), B = patterned({6, 5}, 4, Dtype);
    if (Dtype == kByte) {
      // uint8 wraps; keep the products small and non-negative.
      A = makeTensor(Doubles(24, 2.0), {4, 6}, kByte);
      B = makeTensor(Doubles(30, 3.0), {6, 5}, kByte);
    }
    Doubles Expected = refMatmul(values(A), values(B), 4, 6, 5);
    if (Dtype == kChar)
      for (double &V : Expected) // int8 wraps modulo 256.
        V = static_cast<double>(static_cast<int8_t>(static_cast<int64_t>(V)));
    Tensor C = sk::mm(A, B);
    EXPECT_EQ(C.scalar_type(), Dtype);
    expectValuesNear(C, Expected, Dtype == kBFloat16 ? 1e-2 : 1e-4);
  }
}

// Integer products wrap, as two's complement does, without signed-overflow
// UB.
TEST(LinearAlgebraTest, Mm_IntegerOverflow_Wraps) {
  Tensor A = sk::empty({1, 1}, TensorOptions().dtype(kLong));
  Tensor B = sk::empty({1, 1}, TensorOptions().dtype(kLong));
  A.data_ptr<int64_t>()[0] = std::numeric_limits<int64_t>::max();
  B.data_ptr<int64_t>()[0] = 2;
  EXPECT_EQ(sk::mm(A, B).data_ptr<int64_t>()[0], int64_t(-2));
}

TEST(LinearAlgebraTest, Mm_TransposedOperands_MatchReference) {
  // Transposed contiguous operands go to BLAS with the Trans flag; the
  // result must not depend on it.
  Tensor AT = patterned({7, 5}, 1), BT = patterned({3, 7}, 2);
  Tensor A = AT.t(), B = BT.t();
  ASSERT_FALSE(A.is_contiguous());
  Doubles Expected = refMatmul(values(A), values(B), 5, 7, 3);
  expectValuesNear(sk::mm(A, B), Expected);
  expectValuesNear(sk::mm(A, B.contiguous()), Expected);
  expectValuesNear(sk::mm(A.contiguous(), B), Expected);
  for (ScalarType Dtype : {kDouble, kLong}) {
    Tensor AD = patterned({7, 5}, 1, Dtype).t();
    Tensor BD = patterned({3, 7}, 2, Dtype).t();
    expectValuesNear(sk::mm(AD, BD), Expected);
  }
}

TEST(LinearAlgebraTest, Mm_SlicedAndExpandedOperands_MatchReference) {
  // Gaps in both directions: BLAS cannot take these without packing.
  Tensor Big = patterned({10, 14}, 5);
  Tensor A = Big.slice(0, 0, 10, 2).slice(1, 0, 14, 2); // 5 x 7
  Tensor B = patterned({1, 3}, 6).expand({7, 3});
  ASSERT_EQ(A.stride(1), 2);
  expectValuesNear(sk::mm(A, B), refMatmul(values(A), values(B), 5, 7, 3));
}

TEST(LinearAlgebraTest, MmOut_ColumnMajorAndStridedOut_WrittenInPlace) {
  Tensor A = patterned({5, 7}, 1), B = patterned({7, 3}, 2);
  Doubles Expected = refMatmul(values(A), values(B), 5, 7, 3);
  // A column-major out is computed as C^T = B^T A^T and keeps its strides.
  Tensor ColMajor = empty({3, 5}).t();
  Tensor &R = sk::mm_out(ColMajor, A, B);
  EXPECT_TRUE(R.is_same(ColMajor));
  EXPECT_EQ(vec(ColMajor.strides()), (std::vector<int64_t>{1, 5}));
  expectValuesNear(ColMajor, Expected);
  // An out with gaps in both directions goes through a buffer.
  Tensor Holder = zeros({10, 6});
  Tensor Strided = Holder.slice(0, 0, 10, 2).slice(1, 0, 6, 2);
  sk::mm_outf(A, B, Strided);
  expectValuesNear(Strided, Expected);
  EXPECT_EQ(values(Holder)[1], 0.0) << "wrote outside the out view";
}

TEST(LinearAlgebraTest, MmOut_WrongShape_Resized) {
  Tensor A = patterned({2, 3}, 1), B = patterned({3, 4}, 2);
  Tensor Out = empty({0});
  sk::mm_out(Out, A, B);
  EXPECT_EQ(vec(Out.sizes()), (std::vector<int64_t>{2, 4}));
  expectValuesNear(Out, refMatmul(values(A), values(B), 2, 3, 4));
  Tensor WrongDtype = empty({2, 4}, kDouble);
  SK_EXPECT_ERROR(sk::mm_out(WrongDtype, A, B), "dtype");
}

TEST(LinearAlgebraTest, Mm_CpuEntryPoint_MatchesDispatched) {
  Tensor A = patterned({3, 4}, 1), B = patterned({4, 2}, 2);
  EXPECT_EQ(values(sk::cpu::mm(A, B)), values(sk::mm(A, B)));
}

TEST(LinearAlgebraTest, Mm_ZeroSizeAndOneElement) {
  Tensor E1 = sk::mm(empty({0, 3}), empty({3, 4}));
  EXPECT_EQ(vec(E1.sizes()), (std::vector<int64_t>{0, 4}));
  // An empty contraction is a sum of nothing: zeros, whatever out held.
  Tensor Out = full({2, 3}, 7.0);
  sk::mm_out(Out, empty({2, 0}), empty({0, 3}));
  EXPECT_EQ(values(Out), Doubles(6, 0.0));
  Tensor One = sk::mm(makeTensor({3}, {1, 1}), makeTensor({-2}, {1, 1}));
  EXPECT_EQ(values(One), Doubles{-6});
}

TEST(LinearAlgebraTest, Mm_Meta_MatchesCpuLayout) {
  Tensor A = patterned({5, 7}, 1), B = patterned({7, 3}, 2);
  expectSameLayout(sk::mm(toMeta(A), toMeta(B)), sk::mm(A, B));
  expectSameLayout(sk::mm(toMeta(A.t().contiguous().t()), toMeta(B)),
                   sk::mm(A, B));
  SK_EXPECT_ERROR(sk::mm(toMeta(A), toMeta(A)),
                  "mat1 and mat2 shapes cannot be multiplied (5x7 and 5x7)");
}

TEST(LinearAlgebraTest, Mm_BadInputs_Rejected) {
  Tensor A = patterned({2, 3}, 1);
  SK_EXPECT_ERROR(sk::mm(patterned({6}, 1), A), "self must be a matrix");
  SK_EXPECT_ERROR(sk::mm(A, patterned({3}, 1)), "mat2 must be a matrix");
  SK_EXPECT_ERROR(sk::mm(A, A),
                  "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  SK_EXPECT_ERROR(sk::mm(A, patterned({3, 2}, 1, kDouble)),
                  "expected m1 and m2 to have the same dtype");
  SK_EXPECT_ERROR(sk::mm(zeros({2, 2}, kBool), zeros({2, 2}, kBool)),
                  "\"mm\" not implemented for 'bool'");
  // Mixed dtypes fail on meta tensors too (PyTorch lets them pass).
  SK_EXPECT_ERROR(sk::mm(toMeta(A), toMeta(patterned({3, 2}, 1, kDouble))),
                  "same dtype");
}

//===----------------------------------------------------------------------===//
// addmm
//===----------------------------------------------------------------------===//

/// Beta * Self (broadcast to M x N) + Alpha * A B.
Doubles refAddmm(const Doubles &Self, int64_t SelfRows, int64_t SelfCols,
                 const Doubles &A, const Doubles &B, int64_t M, int64_t K,
                 int64_t N, double Beta, double Alpha) {
  Doubles AB = refMatmul(A, B, M, K, N);
  for (int64_t I = 0; I < M; ++I)
    for (int64_t J = 0; J < N; ++J) {
      double S =
          Self[(SelfRows == 1 ? 0 : I) * SelfCols + (SelfCols == 1 ? 0 : J)];
      AB[I * N + J] = Alpha * AB[I * N + J] + (Beta == 0 ? 0 : Beta * S);
    }
  return AB;
}

TEST(LinearAlgebraTest, Addmm_BetaAlpha_MatchesReference) {
  Tensor A = patterned({4, 6}, 1), B = patterned({6, 3}, 2);
  Tensor Self = patterned({4, 3}, 3);
  Tensor R = sk::addmm(Self, A, B, 0.5, -2);
  expectValuesNear(
      R, refAddmm(values(Self), 4, 3, values(A), values(B), 4, 6, 3, 0.5, -2));
  // Defaults: beta = alpha = 1.
  expectValuesNear(
      sk::addmm(Self, A, B),
      refAddmm(values(Self), 4, 3, values(A), values(B), 4, 6, 3, 1, 1));
}

TEST(LinearAlgebraTest, Addmm_BroadcastSelf_MatchesReference) {
  Tensor A = patterned({4, 6}, 1), B = patterned({6, 3}, 2);
  Tensor Row = patterned({3}, 4), Col = patterned({4, 1}, 5),
         One = makeScalar(2.5);
  expectValuesNear(
      sk::addmm(Row, A, B, 2, 1),
      refAddmm(values(Row), 1, 3, values(A), values(B), 4, 6, 3, 2, 1));
  expectValuesNear(
      sk::addmm(Col, A, B, 1, 3),
      refAddmm(values(Col), 4, 1, values(A), values(B), 4, 6, 3, 1, 3));
  expectValuesNear(sk::addmm(One, A, B),
                   refAddmm({2.5}, 1, 1, values(A), values(B), 4, 6, 3, 1, 1));
}

TEST(LinearAlgebraTest, Addmm_BetaZero_IgnoresNaNInSelf) {
  double NaN = std::numeric_limits<double>::quiet_NaN();
  Tensor A = patterned({3, 4}, 1), B = patterned({4, 2}, 2);
  Tensor Self = full({3, 2}, NaN);
  Doubles Expected = refMatmul(values(A), values(B), 3, 4, 2);
  for (ScalarType Dtype : {kFloat, kDouble, kHalf}) {
    SCOPED_TRACE(toString(Dtype));
    Tensor R = sk::addmm(Self.to(Dtype), A.to(Dtype), B.to(Dtype), 0, 1);
    expectValuesNear(R, Expected);
  }
  // beta = 1 propagates it.
  Doubles Got = values(sk::addmm(Self, A, B, 1, 1));
  EXPECT_TRUE(std::isnan(Got[0]));
  // An empty contraction with beta = 0 gives zeros, not NaN.
  expectValuesNear(sk::addmm(Self, empty({3, 0}), empty({0, 2}), 0, 1),
                   Doubles(6, 0.0));
  expectValuesNear(
      sk::addmm(full({3, 2}, 4.0), empty({3, 0}), empty({0, 2}), 0.5, 1),
      Doubles(6, 2.0));
}

TEST(LinearAlgebraTest, Addmm_InplaceAndOut_MatchFunctional) {
  Tensor A = patterned({4, 6}, 1), B = patterned({6, 3}, 2);
  Tensor Self = patterned({4, 3}, 3);
  Doubles Expected = values(sk::addmm(Self, A, B, 2, 3));
  Tensor InPlace = Self.clone();
  Tensor &R = sk::addmm_(InPlace, A, B, 2, 3);
  EXPECT_TRUE(R.is_same(InPlace));
  expectValuesNear(InPlace, Expected);
  // A transposed self, updated in place, keeps its strides.
  Tensor SelfT = Self.t().contiguous().t();
  sk::addmm_(SelfT, A, B, 2, 3);
  EXPECT_EQ(vec(SelfT.strides()), (std::vector<int64_t>{1, 4}));
  expectValuesNear(SelfT, Expected);
  Tensor Out = empty({4, 3});
  sk::addmm_outf(Self, A, B, 2, 3, Out);
  expectValuesNear(Out, Expected);
  expectValuesNear(sk::cpu::addmm(Self, A, B, 2, 3), Expected);
  // Integers take the loop kernel.
  Tensor AL = A.to(kLong), BL = B.to(kLong), SL = Self.to(kLong);
  expectValuesNear(sk::addmm(SL, AL, BL, 2, 3), Expected);
}

TEST(LinearAlgebraTest, Addmm_Meta_MatchesCpuAndChecksBroadcast) {
  Tensor A = patterned({4, 6}, 1), B = patterned({6, 3}, 2);
  Tensor Self = patterned({3}, 3);
  expectSameLayout(sk::addmm(toMeta(Self), toMeta(A), toMeta(B)),
                   sk::addmm(Self, A, B));
  // PyTorch finds a self that does not broadcast only in the CPU impl.
  SK_EXPECT_ERROR(sk::addmm(toMeta(patterned({5}, 1)), toMeta(A), toMeta(B)),
                  "cannot be broadcast to the result's size [4, 3]");
  SK_EXPECT_ERROR(sk::addmm(patterned({2, 3}, 1), A, B),
                  "self of size [2, 3] cannot be broadcast");
  Tensor MetaSelf = toMeta(patterned({4, 3}, 1));
  EXPECT_TRUE(sk::addmm_(MetaSelf, toMeta(A), toMeta(B)).is_same(MetaSelf));
}

TEST(LinearAlgebraTest, Addmm_BadInputs_Rejected) {
  Tensor A = patterned({4, 6}, 1), B = patterned({6, 3}, 2);
  Tensor Self = patterned({4, 3}, 3);
  SK_EXPECT_ERROR(sk::addmm(Self, patterned({24}, 1), B),
                  "mat1 must be a matrix, got 1-D tensor");
  SK_EXPECT_ERROR(sk::addmm(Self, A, patterned({18}, 1)),
                  "mat2 must be a matrix, got 1-D tensor");
  SK_EXPECT_ERROR(sk::addmm(Self, A, A),
                  "mat1 and mat2 shapes cannot be multiplied (4x6 and 4x6)");
  SK_EXPECT_ERROR(sk::addmm(Self.to(kDouble), A, B),
                  "self and mat2 must have the same dtype");
  SK_EXPECT_ERROR(sk::addmm(Self, A.to(kDouble), B),
                  "mat1 and mat2 must have the same dtype");
  Tensor Small = patterned({4, 1}, 1);
  SK_EXPECT_ERROR(sk::addmm_(Small, A, B), "Bad in-place call");
}

TEST(LinearAlgebraTest, Products_RefuseOutputsWhoseElementsAlias) {
  // Found by the differential test: libtorch refuses these, skc wrote
  // them. An expanded tensor's rows share their elements.
  Tensor A = patterned({4, 6}, 1), B = patterned({6, 3}, 2);
  const char *Message = "more than one element of the written-to tensor "
                        "refers to a single memory location";
  Tensor Row = patterned({1, 3}, 3);
  Tensor Rows = Row.expand({4, 3});
  SK_EXPECT_ERROR(sk::addmm_(Rows, A, B), Message);
  SK_EXPECT_ERROR(sk::addmm_out(Rows, Row, A, B), Message);
  SK_EXPECT_ERROR(sk::mm_out(Rows, A, B), Message);
  Tensor Batches = patterned({1, 4, 3}, 4).expand({2, 4, 3});
  SK_EXPECT_ERROR(
      sk::bmm_out(Batches, A.expand({2, 4, 6}), B.expand({2, 6, 3})), Message);
  // The expanded self of the functional form is only read.
  expectValuesNear(sk::addmm(Rows, A, B), values(sk::addmm(Row, A, B)));
}

//===----------------------------------------------------------------------===//
// bmm
//===----------------------------------------------------------------------===//

Doubles refBmm(const Tensor &A, const Tensor &B) {
  int64_t Batch = A.size(0), M = A.size(1), K = A.size(2), N = B.size(2);
  Doubles Out;
  for (int64_t I = 0; I < Batch; ++I) {
    Doubles C =
        refMatmul(values(A.select(0, I)), values(B.select(0, I)), M, K, N);
    Out.insert(Out.end(), C.begin(), C.end());
  }
  return Out;
}

TEST(LinearAlgebraTest, Bmm_SmallAndLarge_MatchReference) {
  // Below 400 multiply-adds per matrix the loop kernel runs; above, BLAS.
  for (int64_t Size : {3, 12}) {
    SCOPED_TRACE(Size);
    Tensor A = patterned({4, Size, Size + 1}, 1);
    Tensor B = patterned({4, Size + 1, Size + 2}, 2);
    Tensor C = sk::bmm(A, B);
    EXPECT_EQ(vec(C.sizes()), (std::vector<int64_t>{4, Size, Size + 2}));
    expectValuesNear(C, refBmm(A, B));
    for (ScalarType Dtype : {kDouble, kInt})
      expectValuesNear(sk::bmm(A.to(Dtype), B.to(Dtype)), refBmm(A, B));
    // Transposed batches.
    Tensor AT = patterned({4, Size + 1, Size}, 3).transpose(1, 2);
    expectValuesNear(sk::bmm(AT, B), refBmm(AT, B));
    // Permuted batch dimension.
    Tensor BP = patterned({Size + 1, 4, Size + 2}, 4).transpose(0, 1);
    expectValuesNear(sk::bmm(A, BP), refBmm(A, BP));
  }
}

TEST(LinearAlgebraTest, Bmm_VariantsAndMeta) {
  Tensor A = patterned({2, 3, 4}, 1), B = patterned({2, 4, 5}, 2);
  Doubles Expected = refBmm(A, B);
  Tensor Out = empty({2, 3, 5});
  sk::bmm_out(Out, A, B);
  expectValuesNear(Out, Expected);
  expectValuesNear(sk::cpu::bmm(A, B), Expected);
  expectSameLayout(sk::bmm(toMeta(A), toMeta(B)), sk::bmm(A, B));
  EXPECT_EQ(sk::bmm(empty({0, 3, 4}), empty({0, 4, 5})).numel(), 0);
  expectValuesNear(sk::bmm(empty({2, 3, 0}), empty({2, 0, 5})),
                   Doubles(30, 0.0));
}

TEST(LinearAlgebraTest, Bmm_BadInputs_Rejected) {
  Tensor A = patterned({2, 3, 4}, 1);
  SK_EXPECT_ERROR(sk::bmm(patterned({3, 4}, 1), A), "batch1 must be a 3D");
  SK_EXPECT_ERROR(sk::bmm(A, patterned({4, 5}, 1)), "batch2 must be a 3D");
  SK_EXPECT_ERROR(sk::bmm(A, patterned({3, 4, 5}, 1)),
                  "Expected size for first two dimensions of batch2 tensor to "
                  "be: [2, 4] but got: [3, 4].");
  SK_EXPECT_ERROR(sk::bmm(toMeta(A), toMeta(A)), "[2, 4] but got: [2, 3]");
  SK_EXPECT_ERROR(sk::bmm(A, patterned({2, 4, 5}, 1, kDouble)), "same dtype");
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// matmul of \p A and \p B computed with broadcasting loops: the
/// reference for every rank combination.
Doubles refMatmulND(const Tensor &A, const Tensor &B,
                    std::vector<int64_t> &OutShape) {
  Tensor A2 = A.dim() == 1 ? A.unsqueeze(0) : A;
  Tensor B2 = B.dim() == 1 ? B.unsqueeze(1) : B;
  int64_t M = A2.size(-2), K = A2.size(-1), N = B2.size(-1);
  std::vector<int64_t> BatchA(A2.sizes().begin(), A2.sizes().end() - 2);
  std::vector<int64_t> BatchB(B2.sizes().begin(), B2.sizes().end() - 2);
  size_t Rank = std::max(BatchA.size(), BatchB.size());
  BatchA.insert(BatchA.begin(), Rank - BatchA.size(), 1);
  BatchB.insert(BatchB.begin(), Rank - BatchB.size(), 1);
  std::vector<int64_t> Batch(Rank);
  for (size_t D = 0; D < Rank; ++D)
    Batch[D] = BatchA[D] == 1 ? BatchB[D] : BatchA[D];
  std::vector<int64_t> ExpA = Batch, ExpB = Batch;
  ExpA.insert(ExpA.end(), {M, K});
  ExpB.insert(ExpB.end(), {K, N});
  Tensor AE = A2.reshape([&] {
                  std::vector<int64_t> S = BatchA;
                  S.insert(S.end(), {M, K});
                  return S;
                }())
                  .expand(ExpA);
  Tensor BE = B2.reshape([&] {
                  std::vector<int64_t> S = BatchB;
                  S.insert(S.end(), {K, N});
                  return S;
                }())
                  .expand(ExpB);
  Doubles AV = values(AE), BV = values(BE), Out;
  int64_t NumBatches = 1;
  for (int64_t S : Batch)
    NumBatches *= S;
  for (int64_t I = 0; I < NumBatches; ++I) {
    Doubles AI(AV.begin() + I * M * K, AV.begin() + (I + 1) * M * K);
    Doubles BI(BV.begin() + I * K * N, BV.begin() + (I + 1) * K * N);
    Doubles C = refMatmul(AI, BI, M, K, N);
    Out.insert(Out.end(), C.begin(), C.end());
  }
  OutShape = Batch;
  if (A.dim() > 1)
    OutShape.push_back(M);
  if (B.dim() > 1)
    OutShape.push_back(N);
  return Out;
}

TEST(LinearAlgebraTest, Matmul_EveryRankCombination_MatchesReference) {
  struct Case {
    std::vector<int64_t> A, B;
  };
  const Case Cases[] = {
      {{4}, {4}},          {{3, 4}, {4}},       {{4}, {4, 5}},
      {{3, 4}, {4, 5}},    {{2, 3, 4}, {4, 5}}, {{2, 3, 4}, {4}},
      {{4}, {2, 4, 5}},    {{3, 4}, {2, 4, 5}}, {{2, 1, 3, 4}, {5, 4, 2}},
      {{1, 3, 4}, {4, 2}}, {{2, 3, 0}, {0, 5}}, {{0, 3, 4}, {4, 2}},
  };
  for (const Case &C : Cases) {
    Tensor A = patterned(C.A, 1), B = patterned(C.B, 2);
    SCOPED_TRACE(A.toString() + " @ " + B.toString());
    std::vector<int64_t> Shape;
    Doubles Expected = refMatmulND(A, B, Shape);
    Tensor R = sk::matmul(A, B);
    EXPECT_EQ(vec(R.sizes()), Shape);
    expectValuesNear(R, Expected);
    Tensor M = sk::matmul(toMeta(A), toMeta(B));
    EXPECT_EQ(vec(M.sizes()), Shape);
    EXPECT_EQ(M.scalar_type(), kFloat);
  }
}

TEST(LinearAlgebraTest, Matmul_TransposedBatch_MatchesReference) {
  // A batch of transposed matrices is not folded (shouldFold).
  Tensor A = patterned({2, 4, 3}, 1).transpose(1, 2);
  Tensor B = patterned({4, 5}, 2);
  std::vector<int64_t> Shape;
  Doubles Expected = refMatmulND(A, B, Shape);
  expectValuesNear(sk::matmul(A, B), Expected);
}

TEST(LinearAlgebraTest, Matmul_BadInputs_Rejected) {
  SK_EXPECT_ERROR(sk::matmul(makeScalar(1), patterned({3}, 1)),
                  "both arguments to matmul need to be at least 1D, but they "
                  "are 0D and 1D");
  SK_EXPECT_ERROR(sk::matmul(patterned({3}, 1), patterned({4}, 1)),
                  "inconsistent tensor size, expected tensor [3] and src [4]");
  SK_EXPECT_ERROR(sk::matmul(patterned({3}, 1), patterned({3}, 1, kDouble)),
                  "dot : expected both vectors to have same dtype");
  SK_EXPECT_ERROR(sk::matmul(patterned({2, 3}, 1), patterned({4}, 1)),
                  "size mismatch, got input (2), mat (2x3), vec (4)");
  SK_EXPECT_ERROR(sk::matmul(patterned({2, 2, 3}, 1), patterned({4, 5}, 1)),
                  "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)");
  SK_EXPECT_ERROR(
      sk::matmul(patterned({2, 2, 3}, 1), patterned({3, 3, 5}, 1)),
      "The size of tensor a (2) must match the size of tensor b (3)");
  SK_EXPECT_ERROR(
      sk::matmul(toMeta(patterned({3}, 1)), toMeta(patterned({4}, 1))),
      "inconsistent tensor size");
}

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

TEST(LinearAlgebraTest, Linear_WithAndWithoutBias_MatchesReference) {
  Tensor W = patterned({5, 4}, 1), Bias = patterned({5}, 2);
  for (std::vector<int64_t> InShape :
       {std::vector<int64_t>{4}, {3, 4}, {2, 3, 4}, {2, 1, 3, 4}}) {
    Tensor X = patterned(InShape, 3);
    SCOPED_TRACE(X.toString());
    std::vector<int64_t> Shape;
    Doubles NoBias = refMatmulND(X, W.t(), Shape);
    Tensor R = sk::linear(X, W);
    EXPECT_EQ(vec(R.sizes()), Shape);
    expectValuesNear(R, NoBias);
    Doubles WithBias = NoBias, BV = values(Bias);
    for (size_t I = 0; I != WithBias.size(); ++I)
      WithBias[I] += BV[I % 5];
    Tensor RB = sk::linear(X, W, Bias);
    EXPECT_EQ(vec(RB.sizes()), Shape);
    expectValuesNear(RB, WithBias);
    Tensor M = sk::linear(toMeta(X), toMeta(W), toMeta(Bias));
    EXPECT_EQ(vec(M.sizes()), Shape);
    EXPECT_TRUE(M.is_meta());
  }
  // A non-contiguous 3-D input.
  Tensor X = patterned({4, 3, 2}, 4).permute({2, 1, 0});
  std::vector<int64_t> Shape;
  Doubles Expected = refMatmulND(X, W.t(), Shape);
  Doubles BV = values(Bias);
  for (size_t I = 0; I != Expected.size(); ++I)
    Expected[I] += BV[I % 5];
  expectValuesNear(sk::linear(X, W, Bias), Expected);
}

TEST(LinearAlgebraTest, Linear_BadInputs_Rejected) {
  Tensor W = patterned({5, 4}, 1);
  SK_EXPECT_ERROR(sk::linear(patterned({3, 3}, 1), W, patterned({5}, 2)),
                  "mat1 and mat2 shapes cannot be multiplied (3x3 and 4x5)");
  SK_EXPECT_ERROR(sk::linear(patterned({4}, 1), W, patterned({2, 5}, 2)),
                  "doesn't match the broadcast shape");
}

//===----------------------------------------------------------------------===//
// cdist
//===----------------------------------------------------------------------===//

/// The p-norm distances between the rows of \p X1 (B x R1 x C) and \p X2
/// (B x R2 x C), both already broadcast.
Doubles refCdist(const Tensor &X1, const Tensor &X2, double P) {
  int64_t Batch = X1.size(0), R1 = X1.size(1), R2 = X2.size(1), C = X1.size(2);
  Doubles A = values(X1), B = values(X2), Out;
  for (int64_t Bt = 0; Bt < Batch; ++Bt)
    for (int64_t I = 0; I < R1; ++I)
      for (int64_t J = 0; J < R2; ++J) {
        double Acc = 0;
        for (int64_t K = 0; K < C; ++K) {
          double D =
              std::abs(A[(Bt * R1 + I) * C + K] - B[(Bt * R2 + J) * C + K]);
          if (P == 0)
            Acc += D != 0;
          else if (std::isinf(P))
            Acc = std::max(Acc, D);
          else
            Acc += std::pow(D, P);
        }
        Out.push_back(P == 0 || std::isinf(P) ? Acc : std::pow(Acc, 1 / P));
      }
  return Out;
}

TEST(LinearAlgebraTest, Cdist_EveryNorm_MatchesReference) {
  double Inf = std::numeric_limits<double>::infinity();
  Tensor X1 = patterned({2, 4, 3}, 1), X2 = patterned({2, 5, 3}, 2);
  for (double P : {0.0, 1.0, 2.0, 3.0, 0.5, Inf}) {
    SCOPED_TRACE(P);
    Tensor R = sk::cdist(X1, X2, P);
    EXPECT_EQ(vec(R.sizes()), (std::vector<int64_t>{2, 4, 5}));
    expectValuesNear(R, refCdist(X1, X2, P));
    expectValuesNear(sk::cdist(X1.to(kDouble), X2.to(kDouble), P),
                     refCdist(X1, X2, P), 1e-10);
  }
}

TEST(LinearAlgebraTest, Cdist_MatmulPath_MatchesReference) {
  // More than 25 rows (or compute_mode 1) takes |a|^2 + |b|^2 - 2ab.
  Tensor X1 = patterned({30, 4}, 1), X2 = patterned({7, 4}, 2);
  Doubles Expected = refCdist(X1.unsqueeze(0), X2.unsqueeze(0), 2);
  // Equal rows give sqrt(1e-30), as in PyTorch, not 0: compare loosely.
  expectValuesNear(sk::cdist(X1, X2), Expected, 1e-3);
  expectValuesNear(sk::cdist(X1, X2, 2, 1), Expected, 1e-3);
  expectValuesNear(sk::cdist(X1, X2, 2, 2), Expected);
  expectValuesNear(sk::cdist(X1.to(kDouble), X2.to(kDouble), 2, 1), Expected,
                   1e-6);
}

TEST(LinearAlgebraTest, Cdist_BroadcastBatchAndEdgeShapes) {
  Tensor X1 = patterned({3, 1, 4, 2}, 1), X2 = patterned({2, 5, 2}, 2);
  Tensor R = sk::cdist(X1, X2, 1);
  EXPECT_EQ(vec(R.sizes()), (std::vector<int64_t>{3, 2, 4, 5}));
  Tensor X1E = X1.expand({3, 2, 4, 2}).reshape({6, 4, 2});
  Tensor X2E = X2.expand({3, 2, 5, 2}).reshape({6, 5, 2});
  expectValuesNear(R, refCdist(X1E, X2E, 1));
  EXPECT_EQ(values(sk::cdist(empty({3, 0}), empty({2, 0}))), Doubles(6, 0.0));
  EXPECT_EQ(sk::cdist(empty({0, 3}), empty({2, 3})).numel(), 0);
  // Meta and out=.
  expectSameLayout(sk::cdist(toMeta(X1), toMeta(X2), 1), R);
  Tensor Out = empty({2, 3, 4, 5}).transpose(0, 1);
  sk::_cdist_forward_out(Out, X1, X2, 1, std::nullopt);
  // The kernel writes a row-major proxy, copied back into this layout.
  EXPECT_EQ(vec(Out.strides()), (std::vector<int64_t>{20, 60, 5, 1}));
  expectValuesNear(Out, values(R));
}

TEST(LinearAlgebraTest, Cdist_BadInputs_Rejected) {
  Tensor X = patterned({3, 2}, 1);
  SK_EXPECT_ERROR(sk::cdist(patterned({2}, 1), X),
                  "cdist only supports at least 2D tensors, X1 got: 1D");
  SK_EXPECT_ERROR(
      sk::cdist(X, patterned({3, 3}, 1)),
      "X1 and X2 must have the same number of columns. X1: 2 X2: 3");
  SK_EXPECT_ERROR(sk::cdist(X.to(kLong), X.to(kLong)), "X1 got: int64");
  SK_EXPECT_ERROR(sk::cdist(X, X, -1), "non-negative p values");
  SK_EXPECT_ERROR(sk::cdist(X, X, 2, 3), "possible modes: 0, 1, 2, but was: 3");
  SK_EXPECT_ERROR(sk::cdist(toMeta(X), toMeta(X), -1), "non-negative p values");
}

} // namespace
