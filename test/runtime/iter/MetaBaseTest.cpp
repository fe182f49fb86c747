//===--- MetaBaseTest.cpp - The base of structured kernels ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/MetaBase.h"

#include "IterTestUtils.h"
#include "sk/iter/StructuredVariants.h"

#include <type_traits>

using namespace sk;
using namespace sk::test;
using sk::impl::FunctionalVariant;


//===--- A structured op with precomputed fields ------------------------===//
//
// test_pool1d(Tensor self, int kernel_size) -> Tensor, a max pool over the
// last dimension with stride 1, declared with
//
//   precomputed:
//   - kernel_size -> int kW, int outW
//
// The structs below are what skc generates for it (Note [Precomputed
// fields]); the meta and impl bodies are what its author writes.

namespace sk {
namespace meta {
struct structured_test_pool1d : public impl::MetaBase {
  struct precompute_fields {
    int64_t kW;
    int64_t outW;
  };
  template <uint64_t SetMask = 0>
  struct precompute_out
      : impl::PrecomputeOut<precompute_out, precompute_fields, SetMask> {
    SK_PRECOMPUTE_FIELD(0, int64_t, kW)
    SK_PRECOMPUTE_FIELD(1, int64_t, outW)
  };
  using meta_return_ty = precompute_out<impl::precomputeAllSet(2)>;
  meta_return_ty meta(const Tensor &self, int64_t kernel_size);
};
} // namespace meta

namespace native {
struct structured_test_pool1d_out : public meta::structured_test_pool1d {
  void impl(const Tensor &self, int64_t kW, int64_t outW, const Tensor &out);
};
} // namespace native
} // namespace sk

SK_PRECOMPUTE_META_FUNC(test_pool1d)(const Tensor &self, int64_t kernel_size) {
  SK_CHECK(self.dim() >= 1, "test_pool1d: expected a tensor with at least "
                            "one dimension, but got a 0-dim tensor");
  int64_t W = self.size(-1);
  SK_CHECK(kernel_size >= 1 && kernel_size <= W,
           "test_pool1d: kernel_size must be in [1, ", W, "], but got ",
           kernel_size);
  std::vector<int64_t> Shape = self.sizes().vec();
  Shape.back() = W - kernel_size + 1;
  set_output_contiguous(0, Shape, self.options());
  return SK_PRECOMPUTE_STRUCT(test_pool1d)()
      .set_kW(kernel_size)
      .set_outW(Shape.back());
}

SK_IMPL_FUNC(test_pool1d_out)
(const Tensor &self, int64_t kW, int64_t outW, const Tensor &out) {
  std::vector<double> In = toVector<double>(self);
  int64_t W = self.size(-1), Rows = self.numel() / W;
  std::vector<double> Res;
  for (int64_t R = 0; R < Rows; ++R)
    for (int64_t I = 0; I < outW; ++I) {
      double M = In[R * W + I];
      for (int64_t K = 1; K < kW; ++K)
        M = std::max(M, In[R * W + I + K]);
      Res.push_back(M);
    }
  fill(out, Res);
}

namespace {

/// The generated functional CPU wrapper of test_pool1d.
Tensor wrapper_CPU_test_pool1d(const Tensor &self, int64_t kernel_size) {
  FunctionalVariant<native::structured_test_pool1d_out, DispatchKey::CPU, false,
                    1>
      op;
  auto precompute = op.meta(self, kernel_size);
  (void)precompute;
  op.impl(self, precompute.kW, precompute.outW, op.outputs_[0]);
  return std::move(op.outputs_[0]);
}

/// Records what set_output_strided receives.
struct RecordingMeta : impl::MetaBase {
  using impl::MetaBase::maybe_get_output;
  void set_output_strided(int64_t Idx, IntArrayRef Sizes, IntArrayRef Strides,
                          TensorOptions Options) override {
    LastIdx = Idx;
    LastSizes = Sizes.vec();
    LastStrides = Strides.vec();
    LastDtype = Options.dtype();
    Output = detail::empty_strided_meta(Sizes, Strides, Options.dtype());
  }
  const Tensor &maybe_get_output(int64_t Idx) override {
    LastGetIdx = Idx;
    return Output;
  }
  int64_t LastIdx = -1, LastGetIdx = -1;
  std::vector<int64_t> LastSizes, LastStrides;
  ScalarType LastDtype = ScalarType::Undefined;
  Tensor Output;
};

/// Overrides nothing but maybe_get_output.
struct BareMeta : impl::MetaBase {
  const Tensor &maybe_get_output(int64_t) override { return Output; }
  Tensor Output;
};

TEST(MetaBaseTest, BaseSetOutput_IsInternalError) {
  BareMeta M;
  expectError([&] { M.set_output_strided(0, {2}, {1}, kFloat); },
              "set_output_strided not implemented");
  expectError([&] { M.set_output_raw_strided(0, {2}, {}, kFloat); },
              "set_output_raw_strided not implemented");
  try {
    M.set_output_contiguous(0, {2}, kFloat);
    ADD_FAILURE() << "expected an internal error";
  } catch (const InternalAssertError &E) {
    EXPECT_NE(std::string(E.what()).find("this is a bug"), std::string::npos);
  }
}

TEST(MetaBaseTest, SetOutputContiguous_PassesRowMajorStrides) {
  RecordingMeta M;
  EXPECT_FALSE(M.maybe_get_output().defined());
  EXPECT_EQ(M.LastGetIdx, 0);
  M.set_output_contiguous(0, {2, 3, 4}, TensorOptions(kHalf));
  EXPECT_EQ(M.LastIdx, 0);
  EXPECT_EQ(M.LastSizes, std::vector<int64_t>({2, 3, 4}));
  EXPECT_EQ(M.LastStrides, std::vector<int64_t>({12, 4, 1}));
  EXPECT_EQ(M.LastDtype, kHalf);
  EXPECT_TRUE(M.maybe_get_output().defined());
  M.set_output_contiguous(1, {0, 1, 5}, kFloat);
  EXPECT_EQ(M.LastIdx, 1);
  EXPECT_EQ(M.LastStrides, std::vector<int64_t>({5, 5, 1}));
}

TEST(MetaBaseTest, Precompute_SettersRecordFieldsInTheType) {
  using Struct = meta::structured_test_pool1d;
  auto Empty = Struct::precompute_out<>();
  static_assert(!decltype(Empty)::isSet<0>() && !decltype(Empty)::isSet<1>());
  auto One = Empty.set_outW(7);
  static_assert(!decltype(One)::isSet<0>() && decltype(One)::isSet<1>());
  auto Both = One.set_kW(3);
  static_assert(std::is_same_v<decltype(Both), Struct::meta_return_ty>);
  EXPECT_EQ(Both.kW, 3);
  EXPECT_EQ(Both.outW, 7);
  // A partly set struct is not what meta() returns: forgetting a setter
  // does not compile.
  static_assert(!std::is_convertible_v<decltype(One), Struct::meta_return_ty>);
  static_assert(
      !std::is_convertible_v<decltype(Empty), Struct::meta_return_ty>);
  static_assert(impl::precomputeAllSet(0) == 0);
  static_assert(impl::precomputeAllSet(3) == 7);
  static_assert(impl::precomputeAllSet(64) == ~uint64_t(0));
}

TEST(MetaBaseTest, Precompute_FieldsReachImpl) {
  Tensor Self = fromVector<double>({1, 5, 2, 4, 3, 0, 9, 9}, {2, 4});
  Tensor Out = wrapper_CPU_test_pool1d(Self, 2);
  EXPECT_EQ(Out.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(toVector<double>(Out), std::vector<double>({5, 5, 4, 3, 9, 9}));
  expectError([&] { wrapper_CPU_test_pool1d(Self, 5); },
              "test_pool1d: kernel_size must be in [1, 4], but got 5");
}

} // namespace
