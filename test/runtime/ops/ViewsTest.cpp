//===--- ViewsTest.cpp - view, reshape, expand and friends ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/ops/Views.h"
#include "sk/ops/Factories.h"

#include "OpsTestUtils.h"

using namespace sk;
using namespace sk::test;

namespace {

using Ints = std::vector<int64_t>;

/// A CPU float tensor 0, 1, 2, ... of \p Sizes.
Tensor iota(IntArrayRef Sizes) {
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  std::vector<double> V(N);
  for (int64_t I = 0; I != N; ++I)
    V[I] = static_cast<double>(I);
  return makeTensor(V, Sizes);
}

void expectShares(const Tensor &View, const Tensor &Base) {
  EXPECT_TRUE(View.is_alias_of(Base));
  View.unsafeGetTensorImpl()->checkInvariants();
}

//===----------------------------------------------------------------------===//
// inferSize and computeStride
//===----------------------------------------------------------------------===//

TEST(InferSizeTest, ReplacesTheMinusOne) {
  EXPECT_EQ(inferSize({2, -1}, 6), Ints({2, 3}));
  EXPECT_EQ(inferSize({-1}, 0), Ints({0}));
  EXPECT_EQ(inferSize({}, 1), Ints({}));
}

TEST(InferSizeTest, BadShapes_Fail) {
  expectError(
      [] {
        inferSize({2, 5}, 6);
      },
      "view(): shape '[2, 5]' is invalid for input of size 6");
  expectError(
      [] {
        inferSize({-1, -1}, 6);
      },
      "only one dimension can be inferred");
  expectError(
      [] {
        inferSize({2, -2}, 6, "reshape");
      },
      "reshape(): invalid shape dimension -2");
  expectError(
      [] {
        inferSize({0, -1}, 0);
      },
      "cannot reshape tensor of 0 elements into shape [0, -1]");
  expectError(
      [] {
        inferSize({int64_t(1) << 62, 8}, 6);
      },
      "is invalid for input of size 6");
}

TEST(ComputeStrideTest, FollowsPyTorchChunks) {
  // Contiguous: any split or merge works.
  EXPECT_EQ(*computeStride({2, 3, 4}, {12, 4, 1}, {6, 4}), Ints({4, 1}));
  EXPECT_EQ(*computeStride({2, 3, 4}, {12, 4, 1}, {2, 12}), Ints({12, 1}));
  // A transposed matrix can split its dimensions but not merge them.
  EXPECT_EQ(*computeStride({3, 4}, {1, 3}, {3, 2, 2}), Ints({1, 6, 3}));
  EXPECT_FALSE(computeStride({3, 4}, {1, 3}, {12}).has_value());
  // Size-1 dimensions fit anywhere, whatever their stride.
  EXPECT_EQ(*computeStride({2, 1, 3}, {3, 100, 1}, {6}), Ints({1}));
  EXPECT_EQ(*computeStride({6}, {2}, {1, 2, 1, 3}), Ints({12, 6, 6, 2}));
  // No elements: the old strides if the shape stays, else contiguous.
  EXPECT_EQ(*computeStride({0, 3}, {7, 2}, {0, 3}), Ints({7, 2}));
  EXPECT_EQ(*computeStride({0, 3}, {7, 2}, {3, 0}), Ints({1, 1}));
  // A 0-dim tensor views as anything of one element.
  EXPECT_EQ(*computeStride({}, {}, {1, 1}), Ints({1, 1}));
}

//===----------------------------------------------------------------------===//
// view and reshape
//===----------------------------------------------------------------------===//

TEST(ViewTest, View_Contiguous_SharesStorage) {
  Tensor A = iota({2, 3, 4});
  Tensor V = A.view({4, -1});
  EXPECT_EQ(vec(V.sizes()), Ints({4, 6}));
  EXPECT_EQ(vec(V.strides()), Ints({6, 1}));
  expectShares(V, A);
  EXPECT_EQ(V.data_ptr(), A.data_ptr());
  EXPECT_EQ(values(V), values(A));
}

TEST(ViewTest, View_IncompatibleStrides_Fails) {
  Tensor A = iota({3, 4}).t();
  expectError([&] { A.view({12}); },
              "view size is not compatible with input tensor's size and "
              "stride (at least one dimension spans across two contiguous "
              "subspaces). Use .reshape(...) instead.");
  expectError([&] { A.view({12}); }, "input sizes [4, 3], strides [1, 4]");
}

TEST(ViewTest, View_WrongNumel_Fails) {
  expectError(
      [] {
        iota({2, 3}).view({2, 5});
      },
      "shape '[2, 5]' is invalid for input of size 6");
}

TEST(ViewTest, View_KeepsStorageOffset) {
  Tensor A = iota({4, 3});
  Tensor Row = A.select(0, 2).view({3, 1});
  EXPECT_EQ(Row.storage_offset(), 6);
  EXPECT_EQ(values(Row), std::vector<double>({6, 7, 8}));
}

TEST(ViewTest, View_ZeroAndOneElement) {
  Tensor Empty = iota({0, 4});
  EXPECT_EQ(vec(Empty.view({4, 0, 2}).sizes()), Ints({4, 0, 2}));
  EXPECT_EQ(vec(Empty.view({-1}).sizes()), Ints({0}));
  Tensor One = makeTensor({5}, {1, 1});
  Tensor Scalar0 = One.view({});
  EXPECT_EQ(Scalar0.dim(), 0);
  EXPECT_EQ(Scalar0.item<float>(), 5.f);
  EXPECT_EQ(vec(Scalar0.view({-1}).sizes()), Ints({1}));
}

TEST(ViewTest, View_ChannelsLast_OnlyCompatibleSplits) {
  Tensor A = empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  // N and the (H, W) pair are separate chunks: C is innermost.
  expectError([&] { A.view({2, -1}); }, "view size is not compatible");
  Tensor V = A.view({2, 3, 20});
  EXPECT_EQ(vec(V.strides()), Ints({60, 1, 3}));
}

TEST(ReshapeTest, Reshape_ViewWhenPossible) {
  Tensor A = iota({2, 6});
  Tensor R = A.reshape({3, -1});
  expectShares(R, A);
  EXPECT_EQ(vec(R.sizes()), Ints({3, 4}));
}

TEST(ReshapeTest, Reshape_CopiesWhenNotViewable) {
  Tensor A = iota({3, 4});
  Tensor R = A.t().reshape({12});
  EXPECT_FALSE(R.is_alias_of(A));
  EXPECT_TRUE(R.is_contiguous());
  EXPECT_EQ(values(R),
            std::vector<double>({0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  expectError(
      [&] {
        A.reshape({5, -1});
      },
      "reshape(): shape '[5, -1]' is invalid for input of size 12");
}

TEST(ReshapeTest, Reshape_Meta_CopiesWithoutData) {
  Tensor A = empty({3, 4}, kMeta).t();
  Tensor R = A.reshape({12});
  EXPECT_TRUE(R.is_meta());
  EXPECT_FALSE(R.unsafeGetTensorImpl()->has_storage());
  EXPECT_EQ(vec(R.sizes()), Ints({12}));
}

//===----------------------------------------------------------------------===//
// as_strided
//===----------------------------------------------------------------------===//

TEST(AsStridedTest, AsStrided_SharesStorage) {
  Tensor A = iota({6});
  Tensor S = A.as_strided({2, 2}, {1, 2}, 1);
  expectShares(S, A);
  EXPECT_EQ(values(S), std::vector<double>({1, 3, 2, 4}));
  // The offset defaults to the input's.
  Tensor Tail = A.slice(0, 2);
  EXPECT_EQ(values(Tail.as_strided({2}, {2})), std::vector<double>({2, 4}));
}

TEST(AsStridedTest, AsStrided_OutOfBounds_Fails) {
  Tensor A = iota({4});
  expectError(
      [&] {
        A.as_strided({2, 3}, {3, 1});
      },
      "as_strided(): setStorage: sizes [2, 3], strides [3, 1], "
      "storage offset 0, and itemsize 4 requiring a storage size of "
      "24 are out of bounds for storage of size 16");
  expectError([&] { A.as_strided({2}, {1}, 3); }, "out of bounds");
  expectError([&] { A.as_strided({2}, {-1}); },
              "Negative strides are not supported");
  expectError([&] { A.as_strided({2}, {1}, -1); }, "invalid storage offset");
  expectError(
      [&] {
        A.as_strided({2, 2}, {1});
      },
      "as_strided(): mismatch in length of sizes (2) and strides (1)");
  expectError([&] { A.as_strided({-2}, {1}); }, "negative dimension -2");
  // Nothing to address: any offset within reason is fine.
  EXPECT_EQ(A.as_strided({0}, {1}, 100).numel(), 0);
}

TEST(AsStridedTest, AsStrided_Meta_HasNoStorageToCheck) {
  Tensor M = empty({4}, kMeta);
  Tensor S = M.as_strided({100, 100}, {100, 1}, 7);
  EXPECT_TRUE(S.is_meta());
  EXPECT_EQ(S.storage_offset(), 7);
  EXPECT_EQ(vec(S.strides()), Ints({100, 1}));
}

//===----------------------------------------------------------------------===//
// transpose, permute, t
//===----------------------------------------------------------------------===//

TEST(TransposeTest, Transpose_SwapsSizesAndStrides) {
  Tensor A = iota({2, 3, 4});
  Tensor T = transpose(A, 0, -1);
  EXPECT_EQ(vec(T.sizes()), Ints({4, 3, 2}));
  EXPECT_EQ(vec(T.strides()), Ints({1, 4, 12}));
  expectShares(T, A);
  EXPECT_FALSE(T.is_contiguous());
  EXPECT_TRUE(T.is_non_overlapping_and_dense());
  expectError([&] { A.transpose(0, 3); },
              "transpose(): Dimension out of range (expected to be in range "
              "of [-3, 2], but got 3)");
}

TEST(TransposeTest, Transpose_ScalarAndSameDim_AreAliases) {
  Tensor S = makeScalar(1);
  Tensor T = S.transpose(0, -1);
  EXPECT_EQ(T.dim(), 0);
  EXPECT_FALSE(T.is_same(S));
  expectShares(T, S);
}

TEST(PermuteTest, Permute_ReordersDims) {
  Tensor A = iota({2, 3, 4});
  Tensor P = permute(A, {2, 0, 1});
  EXPECT_EQ(vec(P.sizes()), Ints({4, 2, 3}));
  EXPECT_EQ(vec(P.strides()), Ints({1, 12, 4}));
  // NCHW -> NHWC of a channels-last tensor is contiguous.
  Tensor CL = empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  EXPECT_TRUE(CL.permute({0, 2, 3, 1}).is_contiguous());
}

TEST(PermuteTest, Permute_BadDims_Fail) {
  Tensor A = iota({2, 3});
  expectError([&] { A.permute({0}); },
              "permute(): number of dimensions in the tensor input does not "
              "match the length of the desired ordering of dimensions i.e. "
              "input.dim() = 2 is not equal to len(dims) = 1");
  expectError(
      [&] {
        A.permute({1, -1});
      },
      "permute(): duplicate dims are not allowed, but got [1, -1]");
  expectError([&] { A.permute({0, 2}); }, "permute(): Dimension out of range");
}

TEST(TTest, T_TransposesMatricesOnly) {
  EXPECT_EQ(vec(iota({2, 3}).t().sizes()), Ints({3, 2}));
  EXPECT_EQ(vec(iota({3}).t().sizes()), Ints({3}));
  EXPECT_EQ(t(makeScalar(1)).dim(), 0);
  expectError(
      [] {
        iota({1, 2, 3}).t();
      },
      "t() expects a tensor with <= 2 dimensions, but self is 3D");
}

//===----------------------------------------------------------------------===//
// narrow, slice, select
//===----------------------------------------------------------------------===//

TEST(NarrowTest, Narrow_TakesARange) {
  Tensor A = iota({4, 3});
  Tensor N = narrow(A, 0, 1, 2);
  EXPECT_EQ(vec(N.sizes()), Ints({2, 3}));
  EXPECT_EQ(N.storage_offset(), 3);
  EXPECT_EQ(values(N), std::vector<double>({3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(values(A.narrow(1, -1, 1)), std::vector<double>({2, 5, 8, 11}));
  EXPECT_EQ(A.narrow(0, 4, 0).numel(), 0);
}

TEST(NarrowTest, Narrow_OutOfRange_Fails) {
  Tensor A = iota({4, 3});
  expectError([&] { A.narrow(1, 2, 2); },
              "narrow(): start (2) + length (2) exceeds dimension size (3).");
  expectError([&] { A.narrow(1, 0, -1); },
              "narrow(): length must be non-negative");
  expectError([&] { A.narrow(1, 5, 0); }, "narrow(): start 5 out of range");
  expectError([&] { A.narrow(2, 0, 1); }, "narrow(): Dimension out of range");
  expectError([] { makeScalar(1).narrow(0, 0, 1); },
              "narrow() cannot be applied to a 0-dim tensor.");
}

TEST(SliceTest, Slice_PythonBounds) {
  Tensor A = iota({10});
  EXPECT_EQ(values(A.slice(0, 2, 8, 3)), std::vector<double>({2, 5}));
  EXPECT_EQ(values(A.slice(0, -3)), std::vector<double>({7, 8, 9}));
  EXPECT_EQ(values(A.slice(0, std::nullopt, -8)), std::vector<double>({0, 1}));
  EXPECT_EQ(values(A.slice(0, -100, 100, 4)), std::vector<double>({0, 4, 8}));
  EXPECT_EQ(A.slice(0, 7, 3).numel(), 0);
  EXPECT_EQ(A.slice(0, 20).numel(), 0);
  Tensor S = A.slice(0, 1, std::nullopt, 2);
  EXPECT_EQ(vec(S.strides()), Ints({2}));
  EXPECT_EQ(S.storage_offset(), 1);
  expectShares(S, A);
  EXPECT_EQ(A.slice(0, 0, 10, std::numeric_limits<int64_t>::max()).numel(), 1);
}

TEST(SliceTest, Slice_BadStep_Fails) {
  expectError([] { iota({3}).slice(0, 0, 3, 0); },
              "slice(): slice step must be positive, but got 0");
  expectError([] { makeScalar(1).slice(); },
              "slice() cannot be applied to a 0-dim tensor.");
}

TEST(SelectTest, Select_DropsTheDim) {
  Tensor A = iota({3, 4});
  Tensor Col = select(A, 1, -1);
  EXPECT_EQ(vec(Col.sizes()), Ints({3}));
  EXPECT_EQ(vec(Col.strides()), Ints({4}));
  EXPECT_EQ(values(Col), std::vector<double>({3, 7, 11}));
  EXPECT_EQ(A.select(0, 1).select(0, 2).item<float>(), 6.f);
}

TEST(SelectTest, Select_OutOfRange_FailsWithIndexError) {
  Tensor A = iota({3, 4});
  EXPECT_THROW(A.select(0, 3), IndexError);
  expectError([&] { A.select(0, -4); },
              "select(): index -4 out of range for tensor of size [3, 4] at "
              "dimension 0");
  expectError([] { makeScalar(1).select(0, 0); },
              "select() cannot be applied to a 0-dim tensor.");
}

//===----------------------------------------------------------------------===//
// expand, squeeze, unsqueeze, flatten
//===----------------------------------------------------------------------===//

TEST(ExpandTest, Expand_BroadcastsWithStrideZero) {
  Tensor A = iota({3, 1});
  Tensor E = A.expand({2, 3, 4});
  EXPECT_EQ(vec(E.sizes()), Ints({2, 3, 4}));
  EXPECT_EQ(vec(E.strides()), Ints({0, 1, 0}));
  expectShares(E, A);
  EXPECT_EQ(values(E.select(0, 1).select(0, 2)),
            std::vector<double>({2, 2, 2, 2}));
  // -1 keeps a size; a new leading dimension of size 1 is allowed.
  EXPECT_EQ(vec(A.expand({1, -1, 5}).sizes()), Ints({1, 3, 5}));
  EXPECT_EQ(vec(A.expand({1, -1, 5}).strides()), Ints({3, 1, 0}));
  EXPECT_EQ(vec(A.expand_as(iota({3, 7})).sizes()), Ints({3, 7}));
  // A one-element tensor expands to zero elements, and 0-dim to anything.
  EXPECT_EQ(iota({1}).expand({0}).numel(), 0);
  EXPECT_EQ(vec(makeScalar(1).expand({2, 2}).strides()), Ints({0, 0}));
}

TEST(ExpandTest, Expand_NonSingleton_Fails) {
  expectError(
      [] {
        iota({2, 2}).expand({2, 3});
      },
      "The expanded size of the tensor (3) must match the existing "
      "size (2) at non-singleton dimension 1.  Target sizes: [2, 3].  "
      "Tensor sizes: [2, 2]");
  expectError(
      [] {
        iota({2, 2}).expand({3});
      },
      "expand(tensor of size [2, 2], size=[3]): the number of sizes "
      "provided (1) must be greater or equal to the number of "
      "dimensions in the tensor (2)");
  expectError(
      [] {
        iota({2}).expand({-1, 2});
      },
      "The expanded size of the tensor (-1) isn't allowed in a "
      "leading, non-existing dimension 0");
  expectError([] { iota({1}).expand({-2}); }, "negative dimension -2");
}

TEST(SqueezeTest, Squeeze_AllAndOne) {
  Tensor A = iota({1, 3, 1, 2});
  EXPECT_EQ(vec(squeeze(A).sizes()), Ints({3, 2}));
  EXPECT_EQ(vec(A.squeeze(2).sizes()), Ints({1, 3, 2}));
  EXPECT_EQ(vec(A.squeeze(1).sizes()), Ints({1, 3, 1, 2}));
  EXPECT_EQ(vec(A.squeeze(-4).strides()), Ints({2, 2, 1}));
  EXPECT_EQ(makeTensor({1}, {1, 1}).squeeze().dim(), 0);
  EXPECT_EQ(makeScalar(1).squeeze(0).dim(), 0);
  expectError([&] { A.squeeze(4); }, "squeeze(): Dimension out of range");
}

TEST(UnsqueezeTest, Unsqueeze_InsertsASizeOneDim) {
  Tensor A = iota({2, 3});
  Tensor U = unsqueeze(A, 1);
  EXPECT_EQ(vec(U.sizes()), Ints({2, 1, 3}));
  EXPECT_EQ(vec(U.strides()), Ints({3, 3, 1}));
  EXPECT_EQ(vec(A.unsqueeze(-1).sizes()), Ints({2, 3, 1}));
  EXPECT_EQ(vec(A.unsqueeze(-1).strides()), Ints({3, 1, 1}));
  EXPECT_EQ(vec(makeScalar(1).unsqueeze(0).sizes()), Ints({1}));
  expectError([&] { A.unsqueeze(3); },
              "unsqueeze(): Dimension out of range (expected to be in range "
              "of [-3, 2], but got 3)");
}

TEST(FlattenTest, Flatten_MergesARange) {
  Tensor A = iota({2, 3, 4, 5});
  EXPECT_EQ(vec(flatten(A).sizes()), Ints({120}));
  Tensor F = A.flatten(1, 2);
  EXPECT_EQ(vec(F.sizes()), Ints({2, 12, 5}));
  expectShares(F, A);
  EXPECT_TRUE(A.flatten(1, 1).is_same(A));
  EXPECT_EQ(vec(makeScalar(1).flatten().sizes()), Ints({1}));
  // Not viewable: copies.
  Tensor T = A.transpose(1, 2).flatten(1, 2);
  EXPECT_FALSE(T.is_alias_of(A));
  expectError([&] { A.flatten(2, 1); },
              "flatten() has invalid args: start_dim (2) cannot come after "
              "end_dim (1)");
}

//===----------------------------------------------------------------------===//
// contiguous
//===----------------------------------------------------------------------===//

TEST(ContiguousTest, Contiguous_ReturnsSelfOrACopy) {
  Tensor A = iota({2, 3});
  EXPECT_TRUE(A.contiguous().is_same(A));
  Tensor C = A.t().contiguous();
  EXPECT_TRUE(C.is_contiguous());
  EXPECT_FALSE(C.is_alias_of(A));
  EXPECT_EQ(values(C), std::vector<double>({0, 3, 1, 4, 2, 5}));
}

TEST(ContiguousTest, Contiguous_ChannelsLastRoundTrip) {
  Tensor A = iota({2, 3, 2, 2});
  Tensor CL = A.contiguous(MemoryFormat::ChannelsLast);
  EXPECT_TRUE(CL.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(vec(CL.strides()), Ints({12, 1, 6, 3}));
  EXPECT_EQ(values(CL), values(A));
  Tensor Back = CL.contiguous();
  EXPECT_TRUE(Back.is_contiguous());
  EXPECT_EQ(values(Back), values(A));
  expectError([&] { A.contiguous(MemoryFormat::Preserve); },
              "preserve memory format is unsupported");
  expectError(
      [] {
        iota({2, 3}).contiguous(MemoryFormat::ChannelsLast);
      },
      "contiguous(): required rank 4 tensor to use channels_last");
}

//===----------------------------------------------------------------------===//
// Meta tensors
//===----------------------------------------------------------------------===//

TEST(MetaViewTest, EveryView_WorksWithoutStorage) {
  Tensor M = empty({4, 1, 6}, TensorOptions(kMeta).dtype(kHalf));
  auto Check = [](const Tensor &V, Ints Sizes) {
    EXPECT_TRUE(V.is_meta());
    EXPECT_EQ(V.dtype(), kHalf);
    EXPECT_FALSE(V.unsafeGetTensorImpl()->has_storage());
    EXPECT_EQ(vec(V.sizes()), Sizes);
    V.unsafeGetTensorImpl()->checkInvariants();
  };
  Check(M.view({24}), {24});
  Check(M.reshape({6, 4}), {6, 4});
  Check(M.transpose(0, 2), {6, 1, 4});
  Check(M.permute({1, 2, 0}), {1, 6, 4});
  Check(M.narrow(2, 1, 3), {4, 1, 3});
  Check(M.slice(0, 1, std::nullopt, 2), {2, 1, 6});
  Check(M.select(2, 5), {4, 1});
  Check(M.expand({2, 4, 3, 6}), {2, 4, 3, 6});
  Check(M.squeeze(), {4, 6});
  Check(M.unsqueeze(0), {1, 4, 1, 6});
  Check(M.flatten(), {24});
  Check(M.transpose(0, 2).contiguous(), {6, 1, 4});
  Check(M.select(1, 0).t(), {6, 4});
  EXPECT_EQ(M.narrow(2, 1, 3).storage_offset(), 1);
  expectError([&] { M.transpose(0, 2).view({24}); },
              "view size is not compatible");
  expectError(
      [&] {
        M.expand({4, 2, 5});
      },
      "The expanded size of the tensor (5) must match the existing "
      "size (6) at non-singleton dimension 2.");
}

TEST(MetaViewTest, HugeMetaTensors_ViewWithoutAllocating) {
  Tensor M = empty({70000, 8192, 8192}, kMeta);
  Tensor V = M.view({-1, 8192}).t();
  EXPECT_EQ(V.size(0), 8192);
  EXPECT_EQ(V.size(1), 70000LL * 8192);
}

} // namespace
