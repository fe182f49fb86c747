//===--- IndexingTest.cpp - index_select, take, gather, masked_select -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The indexing kernels against loops written here, every variant, odd
/// layouts, meta tensors, and the data-dependent policy of masked_select
/// and nonzero (Note [Data-dependent output shapes] in
/// kernels/cpu/Indexing.cpp): CPU sizes the output from the data, meta
/// tensors get an error that names the op and says why.
///
//===----------------------------------------------------------------------===//

#include "CPUFunctions.h"
#include "Functions.h"

#include "sk/iter/Parallel.h"
#include "sk/ops/Factories.h"
#include "sk/ops/Views.h"

#include "ops/OpsTestUtils.h"

#include <cmath>
#include <limits>

using namespace sk;
using namespace sk::test;

namespace {

using Doubles = std::vector<double>;
using Sizes = std::vector<int64_t>;

/// 0, 1, 2, ... as \p Dtype in a tensor of \p Shape.
Tensor iota(Sizes Shape, ScalarType Dtype = kFloat) {
  int64_t N = 1;
  for (int64_t S : Shape)
    N *= S;
  Doubles V(static_cast<size_t>(N));
  for (int64_t I = 0; I < N; ++I)
    V[I] = static_cast<double>(I);
  return makeTensor(V, Shape, Dtype);
}

Tensor longs(const Doubles &V, Sizes Shape) {
  return makeTensor(V, Shape, kLong);
}
Tensor longs(const Doubles &V) { return makeTensor(V, kLong); }

Tensor toMeta(const Tensor &T) {
  return empty_strided(T.sizes(), T.strides(), T.options().device(kMeta));
}

void expectSameLayout(const Tensor &Meta, const Tensor &Cpu) {
  EXPECT_TRUE(Meta.is_meta());
  EXPECT_EQ(vec(Meta.sizes()), vec(Cpu.sizes()));
  EXPECT_EQ(vec(Meta.strides()), vec(Cpu.strides()));
  EXPECT_EQ(Meta.scalar_type(), Cpu.scalar_type());
}

/// The element of \p T (any strides) at \p Index, read independently.
double at(const Tensor &T, const Sizes &Index) {
  int64_t Linear = 0, Stride = 1;
  for (int64_t D = T.dim() - 1; D >= 0; --D) {
    Linear += Index[D] * Stride;
    Stride *= T.size(D);
  }
  return values(T)[static_cast<size_t>(Linear)];
}

//===----------------------------------------------------------------------===//
// index_select
//===----------------------------------------------------------------------===//

/// index_select with loops: \p Self is 3-D.
Doubles refIndexSelect3d(const Tensor &Self, int64_t Dim,
                         const Doubles &Index) {
  Sizes S = vec(Self.sizes());
  Sizes O = S;
  O[Dim] = static_cast<int64_t>(Index.size());
  Doubles Out;
  for (int64_t I = 0; I < O[0]; ++I)
    for (int64_t J = 0; J < O[1]; ++J)
      for (int64_t K = 0; K < O[2]; ++K) {
        Sizes Src = {I, J, K};
        Src[Dim] = static_cast<int64_t>(Index[Src[Dim]]);
        Out.push_back(at(Self, Src));
      }
  return Out;
}

TEST(IndexingTest, IndexSelect_EveryDim_MatchesReference) {
  Tensor Self = iota({3, 4, 5});
  Doubles Idx = {2, 0, 2, 1};
  for (int64_t Dim : {0, 1, 2, -1}) {
    SCOPED_TRACE(Dim);
    int64_t D = Dim < 0 ? Dim + 3 : Dim;
    Doubles I = Idx;
    for (double &V : I)
      V = std::min<double>(V, static_cast<double>(Self.size(D) - 1));
    Doubles Expected = refIndexSelect3d(Self, D, I);
    Tensor R = sk::index_select(Self, Dim, longs(I));
    Sizes Shape = vec(Self.sizes());
    Shape[D] = 4;
    EXPECT_EQ(vec(R.sizes()), Shape);
    EXPECT_TRUE(R.is_contiguous());
    EXPECT_EQ(values(R), Expected);
    // int32 indices, a transposed self, a strided index.
    EXPECT_EQ(values(sk::index_select(Self, Dim, makeTensor(I, kInt))),
              Expected);
    Tensor SelfT = Self.transpose(0, 2).contiguous().transpose(0, 2);
    EXPECT_EQ(values(sk::index_select(SelfT, Dim, longs(I))), Expected);
    Doubles Spread;
    for (double V : I)
      Spread.insert(Spread.end(), {V, -1});
    Tensor StridedIdx = longs(Spread).slice(0, 0, 8, 2);
    EXPECT_EQ(values(sk::index_select(Self, Dim, StridedIdx)), Expected);
  }
}

TEST(IndexingTest, IndexSelect_DtypesAndVariants) {
  for (ScalarType Dtype : {kFloat, kDouble, kLong, kByte, kBool, kHalf}) {
    SCOPED_TRACE(toString(Dtype));
    Tensor Self = iota({4, 3}, Dtype);
    Doubles Rows = values(Self), Expected;
    Expected.insert(Expected.end(), Rows.begin() + 9, Rows.begin() + 12);
    Expected.insert(Expected.end(), Rows.begin() + 3, Rows.begin() + 6);
    Tensor R = sk::index_select(Self, 0, longs({3, 1}));
    EXPECT_EQ(R.scalar_type(), Dtype);
    EXPECT_EQ(values(R), Expected);
    EXPECT_EQ(values(sk::cpu::index_select(Self, 0, longs({3, 1}))), Expected);
    Tensor Out = empty({0}, Dtype);
    Tensor &O = sk::index_select_out(Out, Self, 0, longs({3, 1}));
    EXPECT_TRUE(O.is_same(Out));
    EXPECT_EQ(values(Out), Expected);
    // A transposed out of the right size keeps its strides.
    Tensor OutT = empty({3, 2}, Dtype).t();
    sk::index_select_outf(Self, 0, longs({3, 1}), OutT);
    EXPECT_EQ(vec(OutT.strides()), (Sizes{1, 2}));
    EXPECT_EQ(values(OutT), Expected);
  }
}

TEST(IndexingTest, IndexSelect_ScalarEmptyAndMeta) {
  Tensor Scalar0 = makeScalar(7);
  Tensor R = sk::index_select(Scalar0, 0, longs({0}));
  EXPECT_EQ(R.dim(), 0);
  EXPECT_EQ(values(R), Doubles{7});
  Tensor E = sk::index_select(iota({3, 4}), 1, longs({}));
  EXPECT_EQ(vec(E.sizes()), (Sizes{3, 0}));
  EXPECT_EQ(vec(sk::index_select(empty({0, 4}), 1, longs({1, 2})).sizes()),
            (Sizes{0, 2}));
  Tensor Self = iota({3, 4, 5});
  expectSameLayout(sk::index_select(toMeta(Self), 1, toMeta(longs({1, 2}))),
                   sk::index_select(Self, 1, longs({1, 2})));
  expectSameLayout(sk::index_select(toMeta(Scalar0), 0, toMeta(longs({0}))), R);
}

TEST(IndexingTest, IndexSelect_BadInputs_Rejected) {
  Tensor Self = iota({3, 4});
  SK_EXPECT_ERROR(sk::index_select(Self, 0, longs({0, 1, 2, 3}, {2, 2})),
                  "index_select(): Index is supposed to be a vector");
  SK_EXPECT_ERROR(sk::index_select(Self, 0, iota({2})),
                  "Expected dtype int32 or int64 for index");
  SK_EXPECT_ERROR(sk::index_select(makeScalar(1), 0, longs({0, 0})),
                  "Index to scalar can have only 1 value, got 2 value(s)");
  SK_EXPECT_ERROR_TYPE(sk::index_select(Self, 2, longs({0})), IndexError,
                       "Dimension out of range");
  SK_EXPECT_ERROR_TYPE(sk::index_select(Self, 0, longs({1, 3})), IndexError,
                       "index_select(): index 3 is out of bounds for "
                       "dimension 0 with size 3");
  SK_EXPECT_ERROR_TYPE(sk::index_select(Self.t(), 1, longs({-1})), IndexError,
                       "index -1 is out of bounds for dimension 1");
  SK_EXPECT_ERROR(sk::index_select(toMeta(Self), 0, toMeta(iota({2}))),
                  "Expected dtype int32 or int64 for index");
  Tensor Out = empty({2, 4});
  SK_EXPECT_ERROR(sk::index_select_out(Out, Out, 0, longs({0, 1})),
                  "unsupported operation");
}

TEST(IndexingTest, IndexSelectAndGather_ChannelsLastAndLarge_MatchReference) {
  // NHWC data viewed as NCHW; the outputs are row-major, as PyTorch's.
  Tensor Self = iota({2, 3, 4, 5}).permute({0, 3, 1, 2}); // 2 x 5 x 3 x 4
  Tensor R = sk::index_select(Self, 1, longs({4, 0}));
  EXPECT_TRUE(R.is_contiguous());
  Doubles Expected;
  for (int64_t N = 0; N < 2; ++N)
    for (int64_t C : {4, 0})
      for (int64_t H = 0; H < 3; ++H)
        for (int64_t W = 0; W < 4; ++W)
          Expected.push_back(at(Self, {N, C, H, W}));
  EXPECT_EQ(values(R), Expected);
  Tensor Index = makeTensor(Doubles(2 * 2 * 3 * 4, 3), {2, 2, 3, 4}, kLong);
  Tensor G = sk::gather(Self, 1, Index);
  EXPECT_TRUE(G.is_contiguous());
  Doubles ExpectedG;
  for (int64_t N = 0; N < 2; ++N)
    for (int64_t C = 0; C < 2; ++C)
      for (int64_t H = 0; H < 3; ++H)
        for (int64_t W = 0; W < 4; ++W)
          ExpectedG.push_back(at(Self, {N, 3, H, W}));
  EXPECT_EQ(values(G), ExpectedG);

  // Large enough for the parallel loops to split the work.
  Tensor Big = iota({300, 257});
  Doubles Idx;
  for (int64_t I = 0; I < 600; ++I)
    Idx.push_back(static_cast<double>((I * 37) % 300));
  Tensor Rows = sk::index_select(Big, 0, longs(Idx));
  Tensor Cols = sk::index_select(Big.t(), 1, longs(Idx));
  Doubles BigV = values(Big), ExpectedRows, ExpectedCols;
  for (double I : Idx)
    for (int64_t J = 0; J < 257; ++J)
      ExpectedRows.push_back(BigV[static_cast<size_t>(I) * 257 + J]);
  for (int64_t J = 0; J < 257; ++J)
    for (double I : Idx)
      ExpectedCols.push_back(BigV[static_cast<size_t>(I) * 257 + J]);
  EXPECT_EQ(values(Rows), ExpectedRows);
  EXPECT_EQ(values(Cols), ExpectedCols);
  Tensor GIndex = longs(Doubles(300 * 257, 0), {300, 257});
  EXPECT_EQ(values(sk::gather(Big, 1, GIndex)),
            values(Big.slice(1, 0, 1).expand({300, 257})));
}

//===----------------------------------------------------------------------===//
// take
//===----------------------------------------------------------------------===//

TEST(IndexingTest, Take_FlatIndicesWithNegatives_MatchReference) {
  Tensor Self = iota({3, 4});
  Tensor Index = longs({0, 11, -1, 5, -12, 6}, {2, 3});
  Tensor R = sk::take(Self, Index);
  EXPECT_EQ(vec(R.sizes()), (Sizes{2, 3}));
  EXPECT_EQ(values(R), (Doubles{0, 11, 11, 5, 0, 6}));
  // Self in any layout is indexed in its logical row-major order.
  Tensor SelfT = iota({4, 3}).t(); // logical [[0,3,6,9],[1,4,7,10],...]
  EXPECT_EQ(values(sk::take(SelfT, longs({1, 4}))), (Doubles{3, 1}));
  // The output is contiguous whatever the index's layout, as PyTorch 2.x
  // resizes it before its iterator sees it.
  Tensor IndexT = longs({0, 1, 2, 3, 4, 5}, {3, 2}).t();
  Tensor RT = sk::take(Self, IndexT);
  EXPECT_TRUE(RT.is_contiguous());
  EXPECT_EQ(values(RT), (Doubles{0, 2, 4, 1, 3, 5}));
  expectSameLayout(sk::take(toMeta(Self), toMeta(IndexT)), RT);
  Tensor Out = empty({2, 3});
  sk::take_out(Out, Self, Index);
  EXPECT_EQ(values(Out), values(R));
  EXPECT_EQ(values(sk::take(makeScalar(4, kInt), longs({0, -1}))),
            (Doubles{4, 4}));
  EXPECT_EQ(sk::take(empty({0}), longs({})).numel(), 0);
}

TEST(IndexingTest, Take_BadInputs_Rejected) {
  Tensor Self = iota({2, 3});
  SK_EXPECT_ERROR(sk::take(Self, makeTensor({0}, kInt)),
                  "take(): Expected a long tensor for index, but got int32");
  SK_EXPECT_ERROR_TYPE(sk::take(Self, longs({6})), IndexError,
                       "out of range: tried to access index 6 on a tensor of "
                       "6 elements.");
  SK_EXPECT_ERROR_TYPE(sk::take(Self, longs({-7})), IndexError,
                       "tried to access index -7");
  SK_EXPECT_ERROR_TYPE(sk::take(empty({0}), longs({0})), IndexError,
                       "take(): tried to take from an empty tensor");
  SK_EXPECT_ERROR(sk::take(toMeta(Self), toMeta(makeTensor({0}, kInt))),
                  "Expected a long tensor");
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

TEST(IndexingTest, Gather_EveryDim_MatchesReference) {
  Tensor Self = iota({3, 4, 5});
  Tensor Index = longs({0, 2, 1, 1, 0, 2, 2, 2, 0, 1, 0, 1}, {2, 3, 2});
  for (int64_t Dim : {0, 1, 2}) {
    SCOPED_TRACE(Dim);
    Doubles Expected;
    for (int64_t I = 0; I < 2; ++I)
      for (int64_t J = 0; J < 3; ++J)
        for (int64_t K = 0; K < 2; ++K) {
          Sizes Src = {I, J, K};
          Src[Dim] = static_cast<int64_t>(at(Index, {I, J, K}));
          Expected.push_back(at(Self, Src));
        }
    Tensor R = sk::gather(Self, Dim, Index);
    EXPECT_EQ(vec(R.sizes()), (Sizes{2, 3, 2}));
    EXPECT_EQ(values(R), Expected);
    Tensor SelfP = Self.permute({2, 0, 1}).contiguous().permute({1, 2, 0});
    EXPECT_EQ(values(sk::gather(SelfP, Dim, Index)), Expected);
    Tensor IndexT = Index.transpose(0, 2).contiguous().transpose(0, 2);
    EXPECT_EQ(values(sk::gather(Self, Dim, IndexT)), Expected);
    Tensor Out = empty({2, 3, 2});
    sk::gather_out(Out, Self, Dim, Index);
    EXPECT_EQ(values(Out), Expected);
    expectSameLayout(sk::gather(toMeta(Self), Dim, toMeta(Index)), R);
  }
  EXPECT_EQ(values(sk::gather(makeScalar(5), 0, longs({0}))), Doubles{5});
  EXPECT_EQ(sk::gather(iota({2, 2}), 1, longs({}, {0})).numel(), 0);
  EXPECT_EQ(
      values(sk::cpu::gather(iota({2, 3}, kDouble), -1, longs({2, 0}, {2, 1}))),
      (Doubles{2, 3}));
}

TEST(IndexingTest, Gather_BadInputs_Rejected) {
  Tensor Self = iota({3, 4});
  SK_EXPECT_ERROR(sk::gather(Self, 0, makeTensor({0}, {1, 1}, kInt)),
                  "gather(): Expected dtype int64 for index");
  SK_EXPECT_ERROR(sk::gather(Self, 0, longs({0})),
                  "Index tensor must have the same number of dimensions");
  SK_EXPECT_ERROR(sk::gather(Self, 0, longs(Doubles(10, 0), {2, 5})),
                  "Size does not match at dimension 1 expected index [2, 5] "
                  "to be smaller than self [3, 4] apart from dimension 0");
  SK_EXPECT_ERROR(sk::gather(toMeta(Self), 0, toMeta(longs({0}))),
                  "Index tensor must have the same number of dimensions");
  SK_EXPECT_ERROR_TYPE(sk::gather(Self, 1, longs({4}, {1, 1})), IndexError,
                       "gather(): index 4 is out of bounds for dimension 1 "
                       "with size 4");
}

//===----------------------------------------------------------------------===//
// masked_select and nonzero: data-dependent shapes
//===----------------------------------------------------------------------===//

TEST(IndexingTest, MaskedSelect_BroadcastMask_MatchesReference) {
  Tensor Self = iota({2, 3});
  Tensor Mask = makeTensor({1, 0, 1}, {3}, kBool);
  Tensor R = sk::masked_select(Self, Mask);
  EXPECT_EQ(vec(R.sizes()), Sizes{4});
  EXPECT_EQ(values(R), (Doubles{0, 2, 3, 5}));
  // self broadcast against the mask too, and a transposed self.
  Tensor Col = makeTensor({7, 8}, {2, 1});
  Tensor Mask2 = makeTensor({1, 0, 0, 1, 1, 0}, {2, 3}, kBool);
  EXPECT_EQ(values(sk::masked_select(Col, Mask2)), (Doubles{7, 8, 8}));
  Tensor SelfT = iota({3, 2}).t(); // [[0,2,4],[1,3,5]]
  EXPECT_EQ(values(sk::masked_select(SelfT, Mask2)), (Doubles{0, 1, 3}));
  for (ScalarType Dtype : {kDouble, kLong, kBool, kHalf})
    EXPECT_EQ(sk::masked_select(Self.to(Dtype), Mask).scalar_type(), Dtype);
  Tensor Out = empty({0});
  sk::masked_select_out(Out, Self, Mask);
  EXPECT_EQ(values(Out), (Doubles{0, 2, 3, 5}));
  EXPECT_EQ(values(sk::cpu::masked_select(Self, Mask)), values(R));
  EXPECT_EQ(sk::masked_select(Self, zeros({3}, kBool)).numel(), 0);
  EXPECT_EQ(values(sk::masked_select(makeScalar(3), makeScalar(1, kBool))),
            Doubles{3});
}

TEST(IndexingTest, MaskedSelect_Meta_RefusedWithReason) {
  Tensor Self = iota({2, 3});
  Tensor Mask = makeTensor({1, 0, 1}, {3}, kBool);
  SK_EXPECT_ERROR_TYPE(sk::masked_select(toMeta(Self), toMeta(Mask)),
                       NotImplementedError,
                       "masked_select(): the output's size depends on the "
                       "values of 'mask', which a meta tensor does not have");
  // Checks that need no data still come first on meta tensors.
  SK_EXPECT_ERROR(sk::masked_select(toMeta(Self), toMeta(iota({4}, kBool))),
                  "The size of tensor a (3) must match the size of tensor b "
                  "(4)");
  SK_EXPECT_ERROR(sk::masked_select(toMeta(Self), toMeta(iota({3}))),
                  "masked_select: expected BoolTensor for mask");
  SK_EXPECT_ERROR(sk::masked_select(Self, iota({3}, kByte)),
                  "expected BoolTensor for mask");
}

/// nonzero with loops: the row-major multi-indices of the non-zero
/// elements of \p T (at most 3-D), flattened.
Doubles refNonzero(const Tensor &T) {
  Doubles V = values(T), Out;
  Sizes S = vec(T.sizes());
  for (size_t L = 0; L != V.size(); ++L) {
    if (V[L] == 0)
      continue;
    Sizes Index(S.size());
    size_t Rest = L;
    for (size_t D = S.size(); D-- > 0;) {
      Index[D] = static_cast<int64_t>(Rest % S[D]);
      Rest /= S[D];
    }
    for (int64_t I : Index)
      Out.push_back(static_cast<double>(I));
  }
  return Out;
}

TEST(IndexingTest, Nonzero_EveryDtypeAndLayout_MatchesReference) {
  Doubles Data = {0, 1, 0, 2, 3, 0, 0, 0, 4, 5, 0, 6};
  double NaN = std::numeric_limits<double>::quiet_NaN();
  for (ScalarType Dtype : {kFloat, kDouble, kLong, kByte, kBool, kHalf}) {
    SCOPED_TRACE(toString(Dtype));
    Tensor Self = makeTensor(Data, {2, 3, 2}, Dtype);
    Tensor R = sk::nonzero(Self);
    int64_t Count = 0;
    for (double V : values(Self))
      Count += V != 0;
    EXPECT_EQ(vec(R.sizes()), (Sizes{Count, 3}));
    EXPECT_EQ(R.scalar_type(), kLong);
    // PyTorch's layout: the transpose of a contiguous [3, Count].
    EXPECT_EQ(vec(R.strides()), (Sizes{1, Count}));
    EXPECT_EQ(values(R), refNonzero(Self));
    Tensor SelfT = Self.transpose(0, 2);
    EXPECT_EQ(values(sk::nonzero(SelfT)), refNonzero(SelfT));
  }
  Tensor WithNaN = makeTensor({0, NaN, -0.0, 1});
  EXPECT_EQ(values(sk::nonzero(WithNaN)), (Doubles{1, 3}));
  // A 0-dim tensor has rows of no columns.
  EXPECT_EQ(vec(sk::nonzero(makeScalar(3)).sizes()), (Sizes{1, 0}));
  EXPECT_EQ(vec(sk::nonzero(makeScalar(0)).sizes()), (Sizes{0, 0}));
  EXPECT_EQ(vec(sk::nonzero(empty({0, 3})).sizes()), (Sizes{0, 2}));
  // out=: one of the right size keeps its strides; one resized takes
  // PyTorch's layout.
  Tensor Self = makeTensor(Data, {3, 4});
  Tensor OutC = empty({6, 2}, kLong);
  sk::nonzero_out(OutC, Self);
  EXPECT_EQ(vec(OutC.strides()), (Sizes{2, 1}));
  EXPECT_EQ(values(OutC), refNonzero(Self));
  Tensor OutR = empty({0}, kLong);
  sk::nonzero_out(OutR, Self);
  EXPECT_EQ(vec(OutR.strides()), (Sizes{1, 6}));
  EXPECT_EQ(values(OutR), refNonzero(Self));
  EXPECT_EQ(values(sk::cpu::nonzero(Self)), refNonzero(Self));
  Tensor WrongDtype = empty({0});
  SK_EXPECT_ERROR(sk::nonzero_out(WrongDtype, Self), "dtype");
}

// Large contiguous inputs are counted and written in chunks, in parallel
// (Note [Nonzero in chunks]).
TEST(IndexingTest, Nonzero_LargeInputInChunks_MatchesReference) {
  int Saved = get_num_threads();
  Tensor Self = sk::gt(sk::rand({300, 401}), 0.7).to(kFloat);
  for (int Threads : {1, 2}) {
    set_num_threads(Threads);
    Tensor R = sk::nonzero(Self);
    EXPECT_EQ(values(R), refNonzero(Self));
    EXPECT_EQ(vec(R.strides()), (Sizes{1, R.size(0)}));
  }
  set_num_threads(Saved);
}

TEST(IndexingTest, Nonzero_Meta_RefusedWithReason) {
  SK_EXPECT_ERROR_TYPE(sk::nonzero(toMeta(iota({2, 3}))), NotImplementedError,
                       "nonzero(): the output's size depends on the values "
                       "of 'self', which a meta tensor does not have");
  Tensor Out = toMeta(empty({0, 2}, kLong));
  SK_EXPECT_ERROR_TYPE(sk::nonzero_out(Out, toMeta(iota({2, 3}))),
                       NotImplementedError, "nonzero()");
}

} // namespace
