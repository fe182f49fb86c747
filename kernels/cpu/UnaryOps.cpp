//===--- UnaryOps.cpp - neg, abs, exp, sqrt, relu, gelu, ... --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The unary pointwise operators of issue 6 as structured TensorIterator
/// kernels (ATen/native/UnaryOps.cpp, Activation.cpp and their cpu/
/// kernels):
///
///  - neg, abs, relu, gelu keep the input's dtype (build_unary_op);
///  - exp, log, sqrt, rsqrt, sin, cos, tanh, sigmoid compute in floating
///    point (build_unary_float_op): integral and bool inputs give float32.
///
/// float16 and bfloat16 compute in float32. Everything runs Highway vectors
/// on float32 and float64; the transcendental functions are Highway's math
/// (VectorMath.h, Note [Vector math]), with the C library's answer where
/// Highway's is undefined (infinities, NaN, huge arguments).
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/iter/TypePromotion.h"

#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>

// The kernels are compiled for every Highway target and called for the
// best one the CPU has (Note [Highway dynamic dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/UnaryOps.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "PointwiseLoops.h"
#include "VectorMath.h"

// What every target shares, defined once.
#ifndef SKC_KERNELS_CPU_UNARYOPS_SHARED
#define SKC_KERNELS_CPU_UNARYOPS_SHARED
namespace sk {

/// Wrapping negation: -INT_MIN is INT_MIN, as in two's complement.
template <typename T> static inline T negate(T X) {
  if constexpr (kIsInteger<T>)
    return static_cast<T>(uint64_t(0) - static_cast<uint64_t>(X));
  else
    return -X;
}

namespace {
/// gelu's `approximate` argument.
enum class GeluKind { None, Tanh };
} // namespace

/// Parses gelu's `approximate`, with PyTorch's message for anything else.
static GeluKind parseGeluApproximate(std::string_view Approximate) {
  if (Approximate == "none")
    return GeluKind::None;
  SK_CHECK(Approximate == "tanh",
           "approximate argument must be either none or tanh.");
  return GeluKind::Tanh;
}

} // namespace sk
#endif // SKC_KERNELS_CPU_UNARYOPS_SHARED

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {

/// Runs math::\p Op (Note [Vector math]) over \p Iter, a float op's.
template <class Op>
static void mathKernel(TensorIteratorBase &Iter, const char *Name) {
  dispatchDtypes<dtypes::Floating>(Iter.common_dtype(), Name, [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    unaryKernel<T>(
        Iter, [](M X) { return math::applyScalar<Op>(X); },
        [](auto X) { return math::applyVector<Op>(X); });
  });
}

/// The kernel of the float op `Name`, math::Op.
#define SK_UNARY_FLOAT_KERNEL(Name, Op)                                        \
  static void Name##Kernel(TensorIteratorBase &Iter) {                         \
    mathKernel<math::Op>(Iter, #Name "_cpu");                                  \
  }

/// float16 and bfloat16 negate and take the magnitude exactly in their own
/// bits (as PyTorch's Vectorized<BFloat16> does), with no trip through
/// float32.
template <typename T> static constexpr bool kIsReducedFloat =
    std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <typename T> static void signBitKernel(TensorIteratorBase &Iter,
                                                uint16_t Flip, uint16_t Keep) {
  auto Elem = [Flip, Keep](T X) {
    return T::fromBits(static_cast<uint16_t>((X.X ^ Flip) & Keep));
  };
  if (!runSmallContiguous<T, 1>(Iter, Elem))
    cpu_kernel(Iter, Elem);
}

static void negKernel(TensorIteratorBase &Iter) {
  dispatchDtypes<dtypes::All>(Iter.common_dtype(), "neg_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (kIsReducedFloat<T>)
      signBitKernel<T>(Iter, /*Flip=*/0x8000, /*Keep=*/0xffff);
    else
      unaryKernel<T>(
          Iter, [](M X) { return negate(X); },
          [](auto X) { return hn::Neg(X); });
  });
}

static void absKernel(TensorIteratorBase &Iter) {
  dispatchDtypes<dtypes::All>(Iter.common_dtype(), "abs_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (std::is_unsigned_v<T>)
      unaryScalarKernel<T>(Iter, [](M X) { return X; });
    else if constexpr (kIsReducedFloat<T>)
      signBitKernel<T>(Iter, /*Flip=*/0, /*Keep=*/0x7fff);
    else
      unaryKernel<T>(
          Iter,
          [](M X) {
            if constexpr (kIsInteger<M>)
              return X < 0 ? negate(X) : X;
            else
              return std::abs(X);
          },
          [](auto X) { return hn::Abs(X); });
  });
}

SK_UNARY_FLOAT_KERNEL(exp, Exp)
SK_UNARY_FLOAT_KERNEL(log, Log)
SK_UNARY_FLOAT_KERNEL(sin, Sin)
SK_UNARY_FLOAT_KERNEL(cos, Cos)
SK_UNARY_FLOAT_KERNEL(tanh, Tanh)
SK_UNARY_FLOAT_KERNEL(sigmoid, Sigmoid)
#undef SK_UNARY_FLOAT_KERNEL

static void sqrtKernel(TensorIteratorBase &Iter) {
  dispatchDtypes<dtypes::Floating>(Iter.common_dtype(), "sqrt_cpu",
                                   [&](auto Tag) {
                                     using T = decltype(Tag);
                                     using M = opmath_type<T>;
                                     unaryKernel<T>(
                                         Iter, [](M X) { return std::sqrt(X); },
                                         [](auto X) { return hn::Sqrt(X); });
                                   });
}

static void rsqrtKernel(TensorIteratorBase &Iter) {
  // 1 / sqrt(x), correctly rounded twice as PyTorch's; not the hardware's
  // approximate reciprocal square root.
  dispatchDtypes<dtypes::Floating>(
      Iter.common_dtype(), "rsqrt_cpu", [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        unaryKernel<T>(
            Iter, [](M X) { return M(1) / std::sqrt(X); },
            [](auto X) { return hn::Div(splat<decltype(X)>(1), hn::Sqrt(X)); });
      });
}

static void reluKernel(TensorIteratorBase &Iter) {
  dispatchDtypes<dtypes::All>(Iter.common_dtype(), "relu_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    // NaN stays NaN (clamp_min propagates it): compare and
    // select rather than max, whose NaN rule is the ISA's.
    unaryKernel<T>(
        Iter, [](M X) { return X < M(0) ? M(0) : X; },
        [](auto X) {
          const auto Zero = hn::Zero(hn::DFromV<decltype(X)>());
          return hn::IfThenElse(hn::Lt(X, Zero), Zero, X);
        });
  });
}

static void geluKernel(TensorIteratorBase &Iter, GeluKind Kind) {
  if (Kind == GeluKind::Tanh) {
    mathKernel<math::GeluTanh>(Iter, "GeluKernelImpl");
    return;
  }
  dispatchDtypes<dtypes::Floating>(
      Iter.common_dtype(), "GeluKernelImpl", [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        // PyTorch's erf polynomial is a float32 one; double keeps the C
        // library's erf, as PyTorch's (SLEEF's) is exact to 1 ulp.
        if constexpr (std::is_same_v<M, float>)
          unaryKernel<T>(
              Iter, [](M X) { return math::applyScalar<math::GeluErf>(X); },
              [](auto X) { return math::applyVector<math::GeluErf>(X); });
        else
          unaryScalarKernel<T>(Iter,
                               [](M X) { return math::GeluErf::scalar(X); });
      });
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {

HWY_EXPORT(negKernel);
HWY_EXPORT(absKernel);
HWY_EXPORT(expKernel);
HWY_EXPORT(logKernel);
HWY_EXPORT(sinKernel);
HWY_EXPORT(cosKernel);
HWY_EXPORT(tanhKernel);
HWY_EXPORT(sigmoidKernel);
HWY_EXPORT(sqrtKernel);
HWY_EXPORT(rsqrtKernel);
HWY_EXPORT(reluKernel);
HWY_EXPORT(geluKernel);

//===----------------------------------------------------------------------===//
// neg, abs
//===----------------------------------------------------------------------===//

SK_META_FUNC(neg)(const Tensor &self) {
  SK_CHECK(self.dtype() != kBool,
           "Negation, the `-` operator, on a bool tensor is not supported. If "
           "you are trying to invert a mask, use the `~` or `logical_not()` "
           "operator instead.");
  build_borrowing_unary_op(maybe_get_output(), self);
}

SK_IMPL_FUNC(neg_out)(const Tensor &self, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(negKernel)(*this);
}

SK_META_FUNC(abs)(const Tensor &self) {
  build_borrowing_unary_op(maybe_get_output(), self);
}

SK_IMPL_FUNC(abs_out)(const Tensor &self, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(absKernel)(*this);
}

//===----------------------------------------------------------------------===//
// exp, log, sqrt, rsqrt, sin, cos, tanh, sigmoid
//===----------------------------------------------------------------------===//

/// The meta function and impl of a float op whose kernel is Name##Kernel.
#define SK_UNARY_FLOAT_OP(Name)                                                \
  SK_META_FUNC(Name)(const Tensor &self) {                                     \
    build_borrowing_unary_float_op(maybe_get_output(), self);                  \
  }                                                                            \
  SK_IMPL_FUNC(Name##_out)(const Tensor &self, const Tensor &out) {            \
    HWY_DYNAMIC_DISPATCH(Name##Kernel)(*this);                                 \
  }

SK_UNARY_FLOAT_OP(exp)
SK_UNARY_FLOAT_OP(log)
SK_UNARY_FLOAT_OP(sin)
SK_UNARY_FLOAT_OP(cos)
SK_UNARY_FLOAT_OP(tanh)
SK_UNARY_FLOAT_OP(sigmoid)
SK_UNARY_FLOAT_OP(sqrt)
SK_UNARY_FLOAT_OP(rsqrt)
#undef SK_UNARY_FLOAT_OP

//===----------------------------------------------------------------------===//
// relu, gelu
//===----------------------------------------------------------------------===//

SK_META_FUNC(relu)(const Tensor &self) {
  // PyTorch's relu is clamp_min(self, 0) behind this check.
  SK_CHECK(self.dtype() != kBool, "Boolean inputs not supported for relu");
  build_borrowing_unary_op(maybe_get_output(), self);
}

SK_IMPL_FUNC(relu_out)(const Tensor &self, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(reluKernel)(*this);
}

SK_META_FUNC(gelu)(const Tensor &self, std::string_view approximate) {
  parseGeluApproximate(approximate);
  build_borrowing_unary_op(maybe_get_output(), self);
}

SK_IMPL_FUNC(gelu_out)
(const Tensor &self, std::string_view approximate, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(geluKernel)(*this, parseGeluApproximate(approximate));
}

} // namespace sk
#endif // HWY_ONCE
