//===--- StructuredHelpersTest.cpp - Structured kernels end to end --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Four structured ops written as an author writes them (meta + impl) with
// the wrappers skc generates for them written by hand (the variants of
// sk/iter/StructuredVariants.h and the wrapper functions below), on CPU
// and Meta:
//
//   test_add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//       a TensorIterator op (structured_inherits: TensorIteratorBase),
//   test_scale(Tensor self, float factor) -> Tensor
//       needs a contiguous output (set_output_contiguous): proxies,
//   test_sum.dim_IntList(Tensor self, int[1] dim, bool keepdim=False, *,
//                        ScalarType? dtype=None) -> Tensor
//       a reduction,
//   test_modf(Tensor self) -> (Tensor trunc, Tensor frac)
//       two outputs.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/StructuredHelpers.h"

#include "sk/iter/Reduce.h"
#include "sk/iter/ReduceUtils.h"
#include "sk/iter/TypePromotion.h"

#include "IterTestUtils.h"
#include "sk/iter/StructuredVariants.h"

#include <cmath>
#include <tuple>

using namespace sk;
using namespace sk::test;
using sk::impl::FunctionalVariant;
using sk::impl::InplaceVariant;
using sk::impl::OutVariant;


//===--- What the generator emits into the meta and native headers ------===//

namespace sk {
namespace meta {
struct structured_test_add_Tensor : public TensorIteratorBase {
  void meta(const Tensor &self, const Tensor &other, const Scalar &alpha);
};
struct structured_test_scale : public impl::MetaBase {
  void meta(const Tensor &self, double factor);
};
struct structured_test_sum_dim_IntList : public impl::MetaBase {
  void meta(const Tensor &self, IntArrayRef dim, bool keepdim,
            std::optional<ScalarType> dtype);
};
struct structured_test_modf : public TensorIteratorBase {
  void meta(const Tensor &self);
};
} // namespace meta

namespace native {
struct structured_test_add_out : public meta::structured_test_add_Tensor {
  void impl(const Tensor &self, const Tensor &other, const Scalar &alpha,
            const Tensor &out);
};
struct structured_test_scale_out : public meta::structured_test_scale {
  void impl(const Tensor &self, double factor, const Tensor &out);
};
struct structured_test_sum_out : public meta::structured_test_sum_dim_IntList {
  void impl(const Tensor &self, IntArrayRef dim, bool keepdim,
            std::optional<ScalarType> dtype, const Tensor &out);
};
struct structured_test_modf_out : public meta::structured_test_modf {
  void impl(const Tensor &self, const Tensor &trunc, const Tensor &frac);
};
} // namespace native
} // namespace sk

//===--- What the author writes -----------------------------------------===//

SK_META_FUNC(test_add, Tensor)
(const Tensor &self, const Tensor &other, const Scalar &alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
  // PyTorch's alpha_check.
  SK_CHECK(!alpha.isBoolean() || dtype() == kBool,
           "Boolean alpha only supported for Boolean results.");
  SK_CHECK(isFloatingType(dtype()) || alpha.isIntegral(/*IncludeBool=*/true),
           "For integral input tensors, argument alpha must not be a "
           "floating point number.");
}

SK_IMPL_FUNC(test_add_out)
(const Tensor &, const Tensor &, const Scalar &alpha, const Tensor &) {
  visitScalarType(common_dtype(), [&](auto Tag) {
    using T = decltype(Tag);
    using Acc = opmath_type<T>;
    if constexpr (std::is_same_v<T, bool>) {
      bool A = alpha.to<bool>();
      cpu_kernel(*this, [A](bool X, bool Y) { return X || (A && Y); });
    } else {
      Acc A = alpha.toUnchecked<Acc>();
      auto ScalarOp = [A](T X, T Y) { return T(Acc(X) + A * Acc(Y)); };
      if constexpr (std::is_floating_point_v<T>) {
        auto AV = hn::Set(hn::ScalableTag<T>(), A);
        cpu_kernel_vec(*this, ScalarOp,
                       [AV](auto X, auto Y) { return hn::MulAdd(Y, AV, X); });
      } else if constexpr (detail::kHasVec<T>) {
        if (A == 1)
          cpu_kernel_vec(*this, ScalarOp,
                         [](auto X, auto Y) { return hn::Add(X, Y); });
        else
          cpu_kernel(*this, ScalarOp);
      } else {
        cpu_kernel(*this, ScalarOp);
      }
    }
  });
}

SK_META_FUNC(test_scale)(const Tensor &self, double) {
  SK_CHECK(self.scalar_type() == kFloat,
           "test_scale: expected a Float tensor, but got ",
           detail::typeName(self.scalar_type()));
  set_output_contiguous(0, self.sizes(), self.options());
}

SK_IMPL_FUNC(test_scale_out)
(const Tensor &self, double factor, const Tensor &out) {
  // The reason for set_output_contiguous: this loop writes out linearly.
  SK_INTERNAL_ASSERT(out.is_contiguous(), "test_scale needs a contiguous out");
  float *O = out.data_ptr<float>();
  const float *S = self.data_ptr<float>();
  int64_t I = 0;
  forEachOffset(self.sizes(), self.strides(), [&](int64_t Offset) {
    O[I++] = static_cast<float>(S[Offset] * factor);
  });
}

SK_META_FUNC(test_sum, dim_IntList)
(const Tensor &self, IntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype) {
  // An out= call without a dtype sums into the out tensor's dtype.
  const Tensor &Out = maybe_get_output();
  ScalarType OutDtype = dtype ? *dtype
                        : Out.defined()
                            ? Out.scalar_type()
                            : get_dtype_from_self(self, std::nullopt, true);
  resize_reduction(*this, self, dim, keepdim, OutDtype);
}

SK_IMPL_FUNC(test_sum_out)
(const Tensor &self, IntArrayRef dim, bool keepdim, std::optional<ScalarType>,
 const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, dim, keepdim);
  visitScalarType(out.scalar_type(), [&](auto Tag) {
    using T = decltype(Tag);
    using Acc =
        std::conditional_t<std::is_integral_v<T>, int64_t, opmath_type<T>>;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      cpu_reduce_vec(
          Iter, T(0), [](T A, T B) { return A + B; },
          [](auto A, auto B) { return hn::Add(A, B); });
    else
      cpu_reduce(
          Iter, Acc(0), [](Acc A, Acc X) { return A + X; },
          [](Acc A, Acc B) { return A + B; }, [](Acc A) { return T(A); });
  });
}

SK_META_FUNC(test_modf)(const Tensor &self) {
  build(TensorIteratorConfig()
            .set_check_mem_overlap(true)
            .add_output(maybe_get_output(0))
            .add_output(maybe_get_output(1))
            .add_input(self));
  SK_CHECK(isFloatingType(common_dtype()),
           "test_modf: expected a floating-point tensor, but got ",
           detail::typeName(common_dtype()));
}

SK_IMPL_FUNC(test_modf_out)(const Tensor &, const Tensor &, const Tensor &) {
  visitScalarType(common_dtype(), [&](auto Tag) {
    using T = decltype(Tag);
    if constexpr (isFloatingType(scalarTypeOf<T>())) {
      cpu_kernel_multiple_outputs(*this, [](T X) {
        opmath_type<T> Int = std::trunc(opmath_type<T>(X));
        return std::make_tuple(T(Int), T(opmath_type<T>(X) - Int));
      });
    }
  });
}

//===--- What the generator emits into Register{CPU,Meta}.cpp -----------===//

namespace {

template <DispatchKey Key>
using AddParent = std::conditional_t<Key == DispatchKey::Meta,
                                     meta::structured_test_add_Tensor,
                                     native::structured_test_add_out>;

template <DispatchKey Key>
Tensor wrapper_test_add_Tensor(const Tensor &self, const Tensor &other,
                               const Scalar &alpha) {
  FunctionalVariant<AddParent<Key>, Key, true, 1> op;
  op.meta(self, other, alpha);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, other, alpha, op.outputs_[0]);
  return std::move(op.outputs_[0]);
}

template <DispatchKey Key>
Tensor &wrapper_test_add__Tensor(Tensor &self, const Tensor &other,
                                 const Scalar &alpha) {
  InplaceVariant<AddParent<Key>, Key, true, 1> op(self);
  op.meta(self, other, alpha);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, other, alpha, op.maybe_get_output(0));
  op.copy_back_proxies();
  return self;
}

template <DispatchKey Key>
Tensor &wrapper_test_add_out_out(const Tensor &self, const Tensor &other,
                                 const Scalar &alpha, Tensor &out) {
  OutVariant<AddParent<Key>, Key, true, 1> op(out);
  op.meta(self, other, alpha);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, other, alpha, op.maybe_get_output(0));
  op.copy_back_proxies();
  return out;
}

template <DispatchKey Key>
using ScaleParent =
    std::conditional_t<Key == DispatchKey::Meta, meta::structured_test_scale,
                       native::structured_test_scale_out>;

template <DispatchKey Key>
Tensor wrapper_test_scale(const Tensor &self, double factor) {
  FunctionalVariant<ScaleParent<Key>, Key, false, 1> op;
  op.meta(self, factor);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, factor, op.outputs_[0]);
  return std::move(op.outputs_[0]);
}

/// Also reports whether a proxy was used.
template <DispatchKey Key>
Tensor &wrapper_test_scale_(Tensor &self, double factor,
                            bool *UsedProxy = nullptr) {
  InplaceVariant<ScaleParent<Key>, Key, false, 1> op(self);
  op.meta(self, factor);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, factor, op.maybe_get_output(0));
  if (UsedProxy)
    *UsedProxy = op.proxy_outputs_[0].has_value();
  op.copy_back_proxies();
  return self;
}

template <DispatchKey Key>
Tensor &wrapper_test_scale_out_out(const Tensor &self, double factor,
                                   Tensor &out, bool *UsedProxy = nullptr) {
  OutVariant<ScaleParent<Key>, Key, false, 1> op(out);
  op.meta(self, factor);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, factor, op.maybe_get_output(0));
  if (UsedProxy)
    *UsedProxy = op.proxy_outputs_[0].has_value();
  op.copy_back_proxies();
  return out;
}

template <DispatchKey Key>
using SumParent = std::conditional_t<Key == DispatchKey::Meta,
                                     meta::structured_test_sum_dim_IntList,
                                     native::structured_test_sum_out>;

template <DispatchKey Key>
Tensor wrapper_test_sum_dim_IntList(const Tensor &self, IntArrayRef dim,
                                    bool keepdim,
                                    std::optional<ScalarType> dtype) {
  FunctionalVariant<SumParent<Key>, Key, false, 1> op;
  op.meta(self, dim, keepdim, dtype);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, dim, keepdim, dtype, op.outputs_[0]);
  return std::move(op.outputs_[0]);
}

template <DispatchKey Key>
Tensor &wrapper_test_sum_out_IntList_out(const Tensor &self, IntArrayRef dim,
                                         bool keepdim,
                                         std::optional<ScalarType> dtype,
                                         Tensor &out) {
  OutVariant<SumParent<Key>, Key, false, 1> op(out);
  op.meta(self, dim, keepdim, dtype);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, dim, keepdim, dtype, op.maybe_get_output(0));
  op.copy_back_proxies();
  return out;
}

template <DispatchKey Key>
using ModfParent =
    std::conditional_t<Key == DispatchKey::Meta, meta::structured_test_modf,
                       native::structured_test_modf_out>;

template <DispatchKey Key>
std::tuple<Tensor, Tensor> wrapper_test_modf(const Tensor &self) {
  FunctionalVariant<ModfParent<Key>, Key, true, 2> op;
  op.meta(self);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, op.outputs_[0], op.outputs_[1]);
  return std::make_tuple(std::move(op.outputs_[0]), std::move(op.outputs_[1]));
}

template <DispatchKey Key>
std::tuple<Tensor &, Tensor &>
wrapper_test_modf_out(const Tensor &self, Tensor &trunc, Tensor &frac) {
  OutVariant<ModfParent<Key>, Key, true, 2> op(trunc, frac);
  op.meta(self);
  if constexpr (Key != DispatchKey::Meta)
    op.impl(self, op.maybe_get_output(0), op.maybe_get_output(1));
  op.copy_back_proxies();
  return std::forward_as_tuple(trunc, frac);
}

constexpr DispatchKey CPU = DispatchKey::CPU;
constexpr DispatchKey Meta = DispatchKey::Meta;

Tensor meta(IntArrayRef Sizes, ScalarType Dtype = kFloat) {
  return detail::empty_meta(Sizes, Dtype);
}

/// The same tensor's metadata on the meta device.
Tensor toMeta(const Tensor &T) {
  return detail::empty_strided_meta(T.sizes(), T.strides(), T.dtype());
}

void expectSameMetadata(const Tensor &A, const Tensor &B) {
  EXPECT_EQ(A.sizes(), B.sizes());
  EXPECT_EQ(A.strides(), B.strides());
  EXPECT_EQ(A.dtype(), B.dtype());
}

struct WarningRecorder {
  std::vector<std::string> Warnings;
  WarningHandler Previous;
  WarningRecorder() {
    Previous = setWarningHandler(
        [this](const std::string &W) { Warnings.push_back(W); });
  }
  ~WarningRecorder() { setWarningHandler(Previous); }
};

//===--- test_add ---------------------------------------------------------===//

TEST(StructuredMetaTest, Add_VariantsAgreeOnCpu) {
  Tensor A = arange({3, 4}, kFloat, 0.5), B = arange({4}, kFloat, 1, 10);
  std::vector<double> Expected;
  for (int R = 0; R < 3; ++R)
    for (int C = 0; C < 4; ++C)
      Expected.push_back((R * 4 + C) * 0.5 + 2 * (C + 10));

  Tensor F = wrapper_test_add_Tensor<CPU>(A, B, 2);
  EXPECT_EQ(toVector<double>(F), Expected);

  Tensor Self = arange({3, 4}, kFloat, 0.5);
  Tensor &R = wrapper_test_add__Tensor<CPU>(Self, B, 2);
  EXPECT_TRUE(R.is_same(Self));
  EXPECT_EQ(toVector<double>(Self), Expected);

  Tensor Out = detail::empty_cpu({3, 4}, kFloat);
  wrapper_test_add_out_out<CPU>(A, B, 2, Out);
  EXPECT_EQ(toVector<double>(Out), Expected);
  expectSameMetadata(F, Out);
}

TEST(StructuredMetaTest, Add_VariantsAgreeOnMeta) {
  Tensor A = meta({3, 1, 5}, kHalf), B = meta({4, 1}, kFloat);
  Tensor F = wrapper_test_add_Tensor<Meta>(A, B, 1);
  EXPECT_TRUE(F.is_meta());
  EXPECT_EQ(F.sizes(), IntArrayRef({3, 4, 5}));
  EXPECT_EQ(F.dtype(), kFloat);
  Tensor Cpu =
      wrapper_test_add_Tensor<CPU>(detail::empty_cpu({3, 1, 5}, kHalf),
                                   detail::empty_cpu({4, 1}, kFloat), 1);
  expectSameMetadata(F, Cpu);

  Tensor Out = meta({0});
  wrapper_test_add_out_out<Meta>(A, B, 1, Out);
  expectSameMetadata(F, Out);
  EXPECT_TRUE(Out.is_meta());

  Tensor Self = meta({3, 4, 5});
  wrapper_test_add__Tensor<Meta>(Self, B, 1);
  EXPECT_EQ(Self.sizes(), IntArrayRef({3, 4, 5}));
  Tensor Small = meta({4, 5});
  expectError([&] { wrapper_test_add__Tensor<Meta>(Small, A, 1); },
              "output with shape [4, 5] doesn't match the broadcast shape "
              "[3, 4, 5]");
}

TEST(StructuredMetaTest, Add_TypePromotionWithWrappedNumber) {
  Tensor A = arange({3}, kInt);
  Tensor F = wrapper_test_add_Tensor<CPU>(A, wrapped_scalar_tensor(0.5), 1);
  EXPECT_EQ(F.dtype(), kFloat);
  EXPECT_EQ(toVector<double>(F), std::vector<double>({0.5, 1.5, 2.5}));
  Tensor G = wrapper_test_add_Tensor<CPU>(A, wrapped_scalar_tensor(100), 3);
  EXPECT_EQ(G.dtype(), kInt);
  EXPECT_EQ(toVector<double>(G), std::vector<double>({300, 301, 302}));
  expectError([&] { wrapper_test_add_Tensor<CPU>(A, A, 0.5); },
              "For integral input tensors, argument alpha must not be a "
              "floating point number.");
}

TEST(StructuredMetaTest, Add_HalfComputesInFloat) {
  // -60000 + 2 * 60000 overflows in float16 arithmetic (2 * 60000), not
  // in float.
  Tensor A = fromVector<double>({-60000}, {1}, kHalf);
  Tensor B = fromVector<double>({60000}, {1}, kHalf);
  EXPECT_EQ(toVector<double>(wrapper_test_add_Tensor<CPU>(A, B, 2)),
            std::vector<double>({60000}));
  Tensor BA = fromVector<double>({1, 2}, {2}, kBFloat16);
  EXPECT_EQ(toVector<double>(wrapper_test_add_Tensor<CPU>(BA, BA, 0.5)),
            std::vector<double>({1.5, 3}));
}

TEST(StructuredMetaTest, Add_InplaceUnsafeCast_Fails) {
  Tensor Self = arange({3}, kLong);
  expectError(
      [&] { wrapper_test_add__Tensor<CPU>(Self, arange({3}), 1); },
      "result type Float can't be cast to the desired output type Long");
  Tensor MetaSelf = meta({3}, kLong);
  expectError(
      [&] { wrapper_test_add__Tensor<Meta>(MetaSelf, meta({3}), 1); },
      "result type Float can't be cast to the desired output type Long");
}

TEST(StructuredMetaTest, Add_OutResize_Warns) {
  WarningRecorder Rec;
  Tensor Out = detail::empty_cpu({5}, kFloat);
  wrapper_test_add_out_out<CPU>(arange({2, 3}), arange({3}), 1, Out);
  EXPECT_EQ(Out.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(toVector<double>(Out), std::vector<double>({0, 2, 4, 3, 5, 7}));
  ASSERT_EQ(Rec.Warnings.size(), 1u);
  EXPECT_NE(Rec.Warnings[0].find(
                "An output with one or more elements was resized since it had "
                "shape [5], which does not match the required output shape "
                "[2, 3]. This behavior is deprecated, and in a future release "
                "outputs will not be resized unless they have zero elements."),
            std::string::npos)
      << Rec.Warnings[0];
  // Zero elements: silent; the right size: untouched and silent.
  Tensor Empty = meta({0});
  wrapper_test_add_out_out<Meta>(meta({2, 3}), meta({3}), 1, Empty);
  EXPECT_EQ(Empty.sizes(), IntArrayRef({2, 3}));
  wrapper_test_add_out_out<CPU>(arange({2, 3}), arange({3}), 1, Out);
  EXPECT_EQ(Rec.Warnings.size(), 1u);
}

TEST(StructuredMetaTest, Add_OutKeepsStridesUnlessResized) {
  // A correctly sized transposed out keeps its layout (raw strided: the
  // iterator writes any strides, no proxy).
  Tensor Base = detail::empty_cpu({3, 2}, kFloat);
  Tensor Out = transposed(Base, 0, 1); // {2, 3}, strides {1, 2}
  wrapper_test_add_out_out<CPU>(arange({2, 3}), arange({3}), 1, Out);
  EXPECT_EQ(Out.strides(), IntArrayRef({1, 2}));
  EXPECT_EQ(toVector<double>(Out), std::vector<double>({0, 2, 4, 3, 5, 7}));
  // A resized out takes the layout the iterator computed: channels-last
  // inputs give a channels-last out.
  Tensor CL =
      detail::empty_meta({2, 3, 4, 5}, kFloat, MemoryFormat::ChannelsLast);
  Tensor MetaOut = meta({0});
  wrapper_test_add_out_out<Meta>(CL, CL, 1, MetaOut);
  EXPECT_TRUE(MetaOut.is_contiguous(MemoryFormat::ChannelsLast));
  Tensor Functional = wrapper_test_add_Tensor<Meta>(CL, meta({1, 3, 1, 1}), 1);
  EXPECT_TRUE(Functional.is_contiguous(MemoryFormat::ChannelsLast));
}

TEST(StructuredMetaTest, Add_OutDeviceMismatch_Fails) {
  Tensor Out = detail::empty_cpu({3}, kFloat);
  expectError(
      [&] { wrapper_test_add_out_out<Meta>(meta({3}), meta({3}), 1, Out); },
      "Expected all tensors to be on the same device, but found at "
      "least two devices, meta and cpu!");
}

//===--- test_scale: set_output_contiguous and proxies --------------------===//

TEST(StructuredMetaTest, Scale_VariantsAgreeOnCpu) {
  Tensor A = arange({2, 3});
  std::vector<double> Expected = iota(6, 3);
  EXPECT_EQ(toVector<double>(wrapper_test_scale<CPU>(A, 3)), Expected);
  Tensor Self = arange({2, 3});
  bool UsedProxy = true;
  wrapper_test_scale_<CPU>(Self, 3, &UsedProxy);
  EXPECT_FALSE(UsedProxy);
  EXPECT_EQ(toVector<double>(Self), Expected);
  Tensor Out = detail::empty_cpu({2, 3}, kFloat);
  wrapper_test_scale_out_out<CPU>(A, 3, Out, &UsedProxy);
  EXPECT_FALSE(UsedProxy);
  EXPECT_EQ(toVector<double>(Out), Expected);
}

TEST(StructuredMetaTest, Scale_InplaceOnTransposed_UsesProxy) {
  Tensor Self = transposed(arange({3, 2}), 0, 1); // {2, 3}, strides {1, 2}
  std::vector<double> Before = toVector<double>(Self);
  bool UsedProxy = false;
  wrapper_test_scale_<CPU>(Self, -2, &UsedProxy);
  EXPECT_TRUE(UsedProxy);
  EXPECT_EQ(Self.strides(), IntArrayRef({1, 2}));
  std::vector<double> After = toVector<double>(Self);
  for (size_t I = 0; I != Before.size(); ++I)
    EXPECT_EQ(After[I], -2 * Before[I]);

  Tensor MetaSelf = toMeta(transposed(arange({3, 2}), 0, 1));
  UsedProxy = false;
  wrapper_test_scale_<Meta>(MetaSelf, -2, &UsedProxy);
  EXPECT_TRUE(UsedProxy);
  EXPECT_EQ(MetaSelf.strides(), IntArrayRef({1, 2}));
}

TEST(StructuredMetaTest, Scale_OutWithOtherStrides_UsesProxy) {
  Tensor A = arange({2, 3});
  Tensor Out = transposed(detail::empty_cpu({3, 2}, kFloat), 0, 1);
  bool UsedProxy = false;
  wrapper_test_scale_out_out<CPU>(A, 0.5, Out, &UsedProxy);
  EXPECT_TRUE(UsedProxy);
  EXPECT_EQ(Out.strides(), IntArrayRef({1, 2}));
  EXPECT_EQ(toVector<double>(Out), iota(6, 0.5));

  // A resized out gets the required strides: no proxy.
  Tensor Small = transposed(detail::empty_cpu({1, 2}, kFloat), 0, 1);
  WarningRecorder Rec;
  wrapper_test_scale_out_out<CPU>(A, 0.5, Small, &UsedProxy);
  EXPECT_FALSE(UsedProxy);
  EXPECT_EQ(Small.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(toVector<double>(Small), iota(6, 0.5));
  EXPECT_EQ(Rec.Warnings.size(), 1u);
}

TEST(StructuredMetaTest, Scale_OutDtypeMismatch_Fails) {
  Tensor Out = detail::empty_cpu({2, 3}, kDouble);
  expectError(
      [&] {
        wrapper_test_scale_out_out<CPU>(arange({2, 3}), 2, Out);
      },
      "Expected out tensor to have dtype Float, but got Double "
      "instead");
  Tensor MetaOut = meta({2, 3}, kHalf);
  expectError(
      [&] {
        wrapper_test_scale_out_out<Meta>(meta({2, 3}), 2, MetaOut);
      },
      "Expected out tensor to have dtype Float, but got Half instead");
  Tensor CpuOut = detail::empty_cpu({2, 3}, kFloat);
  expectError(
      [&] {
        wrapper_test_scale_out_out<Meta>(meta({2, 3}), 2, CpuOut);
      },
      "Expected out tensor to have device meta, but got cpu instead");
  Tensor IntSelf = arange({2}, kInt);
  expectError([&] { wrapper_test_scale<CPU>(IntSelf, 2); },
              "test_scale: expected a Float tensor, but got Int");
}

TEST(StructuredMetaTest, Scale_InplaceChecks) {
  // check_inplace's messages, through a meta call whose options differ.
  Tensor Self = meta({2, 3});
  expectError(
      [&] {
        impl::check_inplace(Self, {2, 3}, kDouble);
      },
      "Bad in-place call: input tensor dtype Float and output tensor "
      "dtype Double should match");
  expectError(
      [&] {
        impl::check_inplace(Self, {2, 3}, TensorOptions(kFloat));
      },
      "Bad in-place call: input tensor device meta and output tensor device "
      "cpu should match");
  expectError(
      [&] {
        impl::check_inplace(Self, {3, 2}, TensorOptions(kFloat).device(kMeta));
      },
      "Bad in-place call: input tensor size [2, 3] and output tensor size "
      "[3, 2] should match");
}

//===--- test_sum: a reduction --------------------------------------------===//

TEST(StructuredMetaTest, Sum_VariantsAgreeOnCpu) {
  Tensor A = arange({4, 5, 6}, kFloat);
  for (bool Keepdim : {false, true}) {
    Tensor F =
        wrapper_test_sum_dim_IntList<CPU>(A, {0, 2}, Keepdim, std::nullopt);
    EXPECT_EQ(F.sizes(), Keepdim ? IntArrayRef({1, 5, 1}) : IntArrayRef({5}));
    std::vector<double> Expected(5, 0);
    for (int I = 0; I < 4; ++I)
      for (int J = 0; J < 5; ++J)
        for (int K = 0; K < 6; ++K)
          Expected[J] += (I * 5 + J) * 6 + K;
    EXPECT_EQ(toVector<double>(F), Expected);
    Tensor Out = detail::empty_cpu({0}, kFloat);
    wrapper_test_sum_out_IntList_out<CPU>(A, {0, 2}, Keepdim, std::nullopt,
                                          Out);
    EXPECT_EQ(toVector<double>(Out), Expected);
    expectSameMetadata(F, Out);
  }
}

TEST(StructuredMetaTest, Sum_DtypesFollowPyTorch) {
  Tensor I = arange({3, 2}, kInt);
  Tensor F = wrapper_test_sum_dim_IntList<CPU>(I, {1}, false, std::nullopt);
  EXPECT_EQ(F.dtype(), kLong);
  EXPECT_EQ(toVector<int64_t>(F), std::vector<int64_t>({1, 5, 9}));
  Tensor D = wrapper_test_sum_dim_IntList<CPU>(I, {1}, false, kDouble);
  EXPECT_EQ(D.dtype(), kDouble);
  // out= without dtype sums into the out tensor's dtype.
  Tensor Out = detail::empty_cpu({3}, kFloat);
  wrapper_test_sum_out_IntList_out<CPU>(I, {1}, false, std::nullopt, Out);
  EXPECT_EQ(toVector<double>(Out), std::vector<double>({1, 5, 9}));
  // With a dtype it must match exactly.
  expectError(
      [&] { wrapper_test_sum_out_IntList_out<CPU>(I, {1}, false, kLong, Out); },
      "Expected out tensor to have dtype Long, but got Float instead");
  Tensor H = fromVector(std::vector<double>(4096, 1), {2, 2048}, kHalf);
  EXPECT_EQ(toVector<double>(
                wrapper_test_sum_dim_IntList<CPU>(H, {}, false, std::nullopt)),
            std::vector<double>({4096}));
}

TEST(StructuredMetaTest, Sum_VariantsAgreeOnMeta) {
  Tensor A = meta({4, 5, 6}, kBFloat16);
  Tensor F = wrapper_test_sum_dim_IntList<Meta>(A, {-1}, true, std::nullopt);
  EXPECT_TRUE(F.is_meta());
  EXPECT_EQ(F.sizes(), IntArrayRef({4, 5, 1}));
  EXPECT_EQ(F.dtype(), kBFloat16);
  Tensor Cpu = wrapper_test_sum_dim_IntList<CPU>(
      detail::empty_cpu({4, 5, 6}, kBFloat16), {-1}, true, std::nullopt);
  expectSameMetadata(F, Cpu);
  Tensor Out = meta({7}, kBFloat16);
  WarningRecorder Rec;
  wrapper_test_sum_out_IntList_out<Meta>(A, {-1}, true, std::nullopt, Out);
  expectSameMetadata(F, Out);
  EXPECT_EQ(Rec.Warnings.size(), 1u);
  expectError(
      [&] {
        wrapper_test_sum_dim_IntList<Meta>(A, {0, -3}, false, std::nullopt);
      },
      "dim 0 appears multiple times in the list of dims");
}

//===--- test_modf: two outputs -------------------------------------------===//

TEST(StructuredMetaTest, Modf_VariantsAgree) {
  Tensor A = fromVector<double>({2.5, -1.25, 7, -0.5}, {2, 2}, kDouble);
  auto [Trunc, Frac] = wrapper_test_modf<CPU>(A);
  EXPECT_EQ(toVector<double>(Trunc), std::vector<double>({2, -1, 7, -0}));
  EXPECT_EQ(toVector<double>(Frac), std::vector<double>({0.5, -0.25, 0, -0.5}));

  Tensor T2 = detail::empty_cpu({0}, kDouble);
  Tensor F2 = transposed(detail::empty_cpu({2, 2}, kDouble), 0, 1);
  wrapper_test_modf_out<CPU>(A, T2, F2);
  EXPECT_EQ(toVector<double>(T2), toVector<double>(Trunc));
  EXPECT_EQ(toVector<double>(F2), toVector<double>(Frac));
  EXPECT_EQ(F2.strides(), IntArrayRef({1, 2}));

  auto [MT, MF] = wrapper_test_modf<Meta>(toMeta(A));
  expectSameMetadata(MT, Trunc);
  expectSameMetadata(MF, Frac);
  expectError([] { wrapper_test_modf<CPU>(arange({2}, kInt)); },
              "test_modf: expected a floating-point tensor, but got Int");
}

} // namespace
