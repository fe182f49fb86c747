//===--- TensorListsTest.cpp - cat and stack ------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// cat and stack against loops written here: every dim, legacy 1-D empty
/// inputs, type promotion, memory formats, odd layouts, every variant, meta
/// tensors and the errors.
///
//===----------------------------------------------------------------------===//

#include "CPUFunctions.h"
#include "Functions.h"

#include "sk/ops/Factories.h"
#include "sk/ops/Views.h"

#include "ops/OpsTestUtils.h"

using namespace sk;
using namespace sk::test;

namespace {

using Doubles = std::vector<double>;
using Sizes = std::vector<int64_t>;

/// Start, Start + 1, ... as \p Dtype in a tensor of \p Shape.
Tensor iota(Sizes Shape, double Start = 0, ScalarType Dtype = kFloat) {
  int64_t N = 1;
  for (int64_t S : Shape)
    N *= S;
  Doubles V(static_cast<size_t>(N));
  for (int64_t I = 0; I < N; ++I)
    V[I] = Start + static_cast<double>(I);
  return makeTensor(V, Shape, Dtype);
}

Tensor toMeta(const Tensor &T) {
  return empty_strided(T.sizes(), T.strides(), T.options().device(kMeta));
}

std::vector<Tensor> toMeta(const std::vector<Tensor> &Ts) {
  std::vector<Tensor> R;
  for (const Tensor &T : Ts)
    R.push_back(toMeta(T));
  return R;
}

void expectSameLayout(const Tensor &Meta, const Tensor &Cpu) {
  EXPECT_TRUE(Meta.is_meta());
  EXPECT_EQ(vec(Meta.sizes()), vec(Cpu.sizes()));
  EXPECT_EQ(vec(Meta.strides()), vec(Cpu.strides()));
  EXPECT_EQ(Meta.scalar_type(), Cpu.scalar_type());
}

/// cat with loops: the inputs' elements in the output's row-major order,
/// for inputs of one rank along \p Dim.
Doubles refCat(const std::vector<Tensor> &Ts, int64_t Dim) {
  Sizes S = vec(Ts[0].sizes());
  int64_t Outer = 1, Inner = 1;
  for (int64_t D = 0; D < Dim; ++D)
    Outer *= S[D];
  for (int64_t D = Dim + 1; D < static_cast<int64_t>(S.size()); ++D)
    Inner *= S[D];
  std::vector<Doubles> Vs;
  for (const Tensor &T : Ts)
    Vs.push_back(values(T));
  Doubles Out;
  for (int64_t O = 0; O < Outer; ++O)
    for (size_t I = 0; I != Ts.size(); ++I) {
      int64_t Chunk = Ts[I].size(Dim) * Inner;
      Out.insert(Out.end(), Vs[I].begin() + O * Chunk,
                 Vs[I].begin() + (O + 1) * Chunk);
    }
  return Out;
}

//===----------------------------------------------------------------------===//
// cat
//===----------------------------------------------------------------------===//

TEST(TensorListsTest, Cat_EveryDim_MatchesReference) {
  for (int64_t Dim : {0, 1, 2, -1, -3}) {
    SCOPED_TRACE(Dim);
    int64_t D = Dim < 0 ? Dim + 3 : Dim;
    Sizes S1 = {2, 3, 4}, S2 = S1;
    S2[D] = 1;
    std::vector<Tensor> Ts = {iota(S1, 0), iota(S2, 100), iota(S1, 200)};
    Tensor R = sk::cat(Ts, Dim);
    Sizes Expected = S1;
    Expected[D] = 2 * S1[D] + 1;
    EXPECT_EQ(vec(R.sizes()), Expected);
    EXPECT_TRUE(R.is_contiguous());
    EXPECT_EQ(values(R), refCat(Ts, D));
    expectSameLayout(sk::cat(toMeta(Ts), Dim), R);
    // Non-contiguous inputs take the copying path.
    std::vector<Tensor> Strided = {
        Ts[0].transpose(0, 2).contiguous().transpose(0, 2), Ts[1],
        iota({S1[0], S1[1], 2 * S1[2]}, 200).slice(2, 0, 2 * S1[2], 2)};
    EXPECT_EQ(values(sk::cat(Strided, Dim)), refCat(Strided, D));
  }
}

TEST(TensorListsTest, Cat_LargeContiguous_MatchesReference) {
  // Enough rows for the row-major fast path to run in parallel chunks.
  std::vector<Tensor> Ts = {iota({20000, 3}), iota({20000, 2}, 1e6),
                            empty({20000, 0})};
  Tensor R = sk::cat(Ts, 1);
  EXPECT_EQ(vec(R.sizes()), (Sizes{20000, 5}));
  EXPECT_EQ(values(R), refCat(Ts, 1));
  std::vector<Tensor> Longs = {iota({3000, 7}, 0, kLong),
                               iota({1000, 7}, 5, kLong)};
  EXPECT_EQ(values(sk::cat(Longs)), refCat(Longs, 0));
}

TEST(TensorListsTest, Cat_Variants) {
  std::vector<Tensor> Ts = {iota({2, 2}), iota({1, 2}, 10)};
  Doubles Expected = {0, 1, 2, 3, 10, 11};
  EXPECT_EQ(values(sk::cpu::cat(Ts)), Expected);
  Tensor Out = empty({0});
  Tensor &R = sk::cat_out(Out, Ts);
  EXPECT_TRUE(R.is_same(Out));
  EXPECT_EQ(values(Out), Expected);
  // A transposed out of the right size keeps its strides.
  Tensor OutT = empty({2, 3}).t();
  sk::cat_outf(Ts, 0, OutT);
  EXPECT_EQ(vec(OutT.strides()), (Sizes{1, 3}));
  EXPECT_EQ(values(OutT), Expected);
  // out= may have a wider dtype than the inputs' result type.
  Tensor OutD = empty({3, 2}, kDouble);
  sk::cat_out(OutD, Ts);
  EXPECT_EQ(values(OutD), Expected);
  Tensor OutI = empty({3, 2}, kLong);
  SK_EXPECT_ERROR(sk::cat_out(OutI, Ts),
                  "torch.cat(): input types can't be cast to the desired "
                  "output type int64");
}

TEST(TensorListsTest, Cat_TypePromotion_MatchesReference) {
  std::vector<Tensor> Ts = {iota({2}, 0, kInt), iota({1}, 5, kDouble),
                            iota({2}, 7, kBool)};
  Tensor R = sk::cat(Ts);
  EXPECT_EQ(R.scalar_type(), kDouble);
  EXPECT_EQ(values(R), (Doubles{0, 1, 5, 1, 1}));
  EXPECT_EQ(sk::cat({iota({1}, 0, kByte), iota({1}, 0, kChar)}).scalar_type(),
            kShort);
  expectSameLayout(sk::cat(toMeta(Ts)), R);
}

TEST(TensorListsTest, Cat_LegacyEmptyInputs_Skipped) {
  Tensor A = iota({2, 3}), B = iota({1, 3}, 10);
  Tensor R = sk::cat({empty({0}), A, empty({0}), B}, 0);
  EXPECT_EQ(vec(R.sizes()), (Sizes{3, 3}));
  EXPECT_EQ(values(R), (Doubles{0, 1, 2, 3, 4, 5, 10, 11, 12}));
  // dim wraps against the first tensor that is not skipped.
  EXPECT_EQ(vec(sk::cat({empty({0}), A, A}, -1).sizes()), (Sizes{2, 6}));
  // All skipped: a [0] result.
  EXPECT_EQ(vec(sk::cat({empty({0}), empty({0})}).sizes()), Sizes{0});
  // Other empty shapes are not skipped and must match.
  EXPECT_EQ(vec(sk::cat({empty({0, 3}), A}).sizes()), (Sizes{2, 3}));
  SK_EXPECT_ERROR(sk::cat({empty({2, 0}), A}),
                  "Sizes of tensors must match except in dimension 0. "
                  "Expected size 0 but got size 3 for tensor number 1 in the "
                  "list.");
  expectSameLayout(sk::cat(toMeta(std::vector<Tensor>{empty({0}), A}), 1),
                   sk::cat({empty({0}), A}, 1));
}

TEST(TensorListsTest, Cat_ChannelsLastInputs_KeepTheirFormat) {
  // NHWC data viewed as NCHW: channels-last strides. B has one channel,
  // so it is row-major as well.
  Tensor A = iota({2, 2, 2, 3}).permute({0, 3, 1, 2});
  Tensor B = iota({2, 2, 2, 1}, 50).permute({0, 3, 1, 2});
  Tensor R = sk::cat({A, B}, 1);
  EXPECT_TRUE(R.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_FALSE(R.is_contiguous());
  EXPECT_EQ(values(R), refCat({A.contiguous(), B.contiguous()}, 1));
  expectSameLayout(sk::cat(toMeta(std::vector<Tensor>{A, B}), 1), R);
  // One row-major input makes the output row-major.
  Tensor C = iota({2, 2, 2, 2}, 70);
  Tensor Mixed = sk::cat({A, C}, 1);
  EXPECT_TRUE(Mixed.is_contiguous());
  EXPECT_EQ(values(Mixed), refCat({A.contiguous(), C}, 1));
  // A one-channel channels-last tensor is also row-major; PyTorch decides
  // by its stride order, which says channels-last (B above did).
  ASSERT_TRUE(B.is_contiguous());
  EXPECT_TRUE(sk::cat({B, B}, 1).is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_FALSE(sk::cat({B, B}, 1).is_contiguous());
}

TEST(TensorListsTest, Cat_BadInputs_Rejected) {
  Tensor A = iota({2, 3});
  // With no tensor the dispatcher has no key to dispatch on; the kernel
  // itself says what is wrong.
  SK_EXPECT_ERROR(sk::cat(std::vector<Tensor>{}),
                  "There were no tensor arguments to 'aten::cat'");
  SK_EXPECT_ERROR(sk::cpu::cat(std::vector<Tensor>{}),
                  "torch.cat(): expected a non-empty list of Tensors");
  SK_EXPECT_ERROR(sk::cat({A, makeScalar(1)}),
                  "zero-dimensional tensor (at position 1) cannot be "
                  "concatenated");
  SK_EXPECT_ERROR(sk::cat({A, iota({6})}),
                  "Tensors must have same number of dimensions: got 2 and 1");
  SK_EXPECT_ERROR(sk::cat({A, iota({3, 2})}, 1),
                  "Sizes of tensors must match except in dimension 1. "
                  "Expected size 2 but got size 3 for tensor number 1 in the "
                  "list.");
  SK_EXPECT_ERROR_TYPE(sk::cat({A, A}, 2), IndexError,
                       "Dimension out of range");
  SK_EXPECT_ERROR(sk::cat(toMeta(std::vector<Tensor>{A, iota({3, 2})}), 1),
                  "Sizes of tensors must match except in dimension 1");
  SK_EXPECT_ERROR(sk::cat({A, toMeta(A)}),
                  "Expected all tensors to be on the same device");
  Tensor Out = empty({4, 3});
  SK_EXPECT_ERROR(sk::cat_out(Out, {A, Out.narrow(0, 0, 2)}),
                  "unsupported operation");
}

//===----------------------------------------------------------------------===//
// stack
//===----------------------------------------------------------------------===//

/// stack with loops: Out[..., I, ...] = Ts[I][...] with I at \p Dim.
Doubles refStack(const std::vector<Tensor> &Ts, int64_t Dim) {
  std::vector<Tensor> Unsqueezed;
  for (const Tensor &T : Ts)
    Unsqueezed.push_back(T.contiguous().unsqueeze(Dim));
  return refCat(Unsqueezed, Dim);
}

TEST(TensorListsTest, Stack_EveryDim_MatchesReference) {
  std::vector<Tensor> Ts = {iota({2, 3}), iota({2, 3}, 10),
                            iota({3, 2}, 20).t()};
  for (int64_t Dim : {0, 1, 2, -1, -3}) {
    SCOPED_TRACE(Dim);
    int64_t D = Dim < 0 ? Dim + 3 : Dim;
    Tensor R = sk::stack(Ts, Dim);
    Sizes Expected = {2, 3};
    Expected.insert(Expected.begin() + D, 3);
    EXPECT_EQ(vec(R.sizes()), Expected);
    EXPECT_TRUE(R.is_contiguous());
    EXPECT_EQ(values(R), refStack(Ts, D));
    expectSameLayout(sk::stack(toMeta(Ts), Dim), R);
    Tensor Out = empty({0});
    sk::stack_out(Out, Ts, Dim);
    EXPECT_EQ(values(Out), values(R));
    EXPECT_EQ(values(sk::cpu::stack(Ts, Dim)), values(R));
  }
}

TEST(TensorListsTest, Stack_ScalarsPromotionAndEmpties) {
  Tensor R = sk::stack({makeScalar(1, kInt), makeScalar(2.5, kDouble)});
  EXPECT_EQ(vec(R.sizes()), Sizes{2});
  EXPECT_EQ(R.scalar_type(), kDouble);
  EXPECT_EQ(values(R), (Doubles{1, 2.5}));
  // 1-D empty inputs are stacked, not skipped.
  EXPECT_EQ(vec(sk::stack({empty({0}), empty({0})}).sizes()), (Sizes{2, 0}));
  EXPECT_EQ(vec(sk::stack({empty({0}), empty({0})}, 1).sizes()), (Sizes{0, 2}));
  expectSameLayout(
      sk::stack(toMeta(std::vector<Tensor>{empty({0}), empty({0})})),
      sk::stack({empty({0}), empty({0})}));
}

TEST(TensorListsTest, Stack_ChannelsLastInputs_PyTorchStrides) {
  Tensor A = iota({2, 3, 2, 2}).contiguous(MemoryFormat::ChannelsLast);
  Tensor B = iota({2, 3, 2, 2}, 50).contiguous(MemoryFormat::ChannelsLast);
  // Along dim 1, PyTorch stacks by cat of the channels-last inputs and a
  // view that splits dim 1: strides {24, 12, 1, 6, 3}... of cat's output.
  Tensor R = sk::stack({A, B}, 1);
  EXPECT_EQ(vec(R.sizes()), (Sizes{2, 2, 3, 2, 2}));
  EXPECT_EQ(vec(R.strides()), (Sizes{24, 3, 1, 12, 6}));
  EXPECT_EQ(values(R), refStack({A, B}, 1));
  expectSameLayout(sk::stack(toMeta(std::vector<Tensor>{A, B}), 1), R);
  // Along the new last dim the unsqueezed inputs are 5-D: row-major.
  Tensor Last = sk::stack({A, B}, 4);
  EXPECT_TRUE(Last.is_contiguous());
  EXPECT_EQ(values(Last), refStack({A, B}, 4));
}

TEST(TensorListsTest, Stack_BadInputs_Rejected) {
  SK_EXPECT_ERROR(sk::cpu::stack(std::vector<Tensor>{}),
                  "stack expects a non-empty TensorList");
  SK_EXPECT_ERROR(sk::stack({iota({2, 3}), iota({2, 4})}),
                  "stack expects each tensor to be equal size, but got [2, 3] "
                  "at entry 0 and [2, 4] at entry 1");
  SK_EXPECT_ERROR_TYPE(sk::stack({iota({2})}, 2), IndexError,
                       "Dimension out of range");
  SK_EXPECT_ERROR(sk::stack(toMeta(std::vector<Tensor>{iota({2}), iota({3})})),
                  "stack expects each tensor to be equal size");
  Tensor Out = empty({3}, kInt);
  SK_EXPECT_ERROR(sk::stack_out(Out, {iota({1})}), "can't be cast");
}

} // namespace
