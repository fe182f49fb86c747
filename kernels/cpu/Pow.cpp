//===--- Pow.cpp - pow ----------------------------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// pow, Tensor_Tensor and Tensor_Scalar, as structured TensorIterator
/// kernels (ATen/native/Pow.cpp and cpu/PowKernel.cpp), built as the
/// binary ops of BinaryOps.cpp are. Apart from them because pow is bound
/// by arithmetic, not bandwidth: it keeps the AVX-512 targets (Note
/// [AVX-512 and bandwidth-bound kernels] in sk/iter/Loops.h).
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "shared/IntegerMath.h"
#include "shared/ScalarArguments.h"

#include <cmath>
#include <type_traits>

// The kernels are compiled for every Highway target and called for the
// best one the CPU has (Note [Highway dynamic dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/Pow.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "PointwiseLoops.h"
#include "VectorMath.h"

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {
using kernels::powInteger;
using kernels::scalarAs;
using kernels::scalarOpDtype;

static void pow_Tensor_Tensor_outImpl(TensorIteratorBase &Iter) {
  dispatchDtypes<dtypes::All>(Iter.common_dtype(), "pow", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (kIsInteger<T>)
      binaryScalarKernel<T>(Iter, [](T B, T E) { return powInteger(B, E); });
    else
      binaryKernel<T>(
          Iter, [](M B, M E) { return std::pow(B, E); },
          [](auto B, auto E) { return math::powVector(B, E); });
  });
}

static void pow_Tensor_Scalar_outImpl(TensorIteratorBase &Iter,
                                      const Tensor &self,
                                      const Scalar &exponent) {
  ScalarType Dtype = scalarOpDtype(self, exponent, /*IntegerToFloat=*/false);
  dispatchDtypes<dtypes::All>(Dtype, "pow", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (kIsInteger<T>) {
      // An exponent that does not fit the dtype is an error, as in PyTorch.
      T E = exponent.to<T>();
      unaryScalarKernel<T>(Iter, [E](T B) { return powInteger(B, E); });
    } else {
      // PyTorch's special cases (pow_tensor_scalar_optimized_kernel), with
      // vectors where they are exact.
      M E = scalarAs<M>(exponent);
      if (E == M(0)) {
        unaryScalarKernel<T>(Iter, [](M) { return M(1); });
      } else if (E == M(1)) {
        unaryScalarKernel<T>(Iter, [](M B) { return B; });
      } else if (E == M(2)) {
        unaryKernel<T>(
            Iter, [](M B) { return B * B; },
            [](auto B) { return hn::Mul(B, B); });
      } else if (E == M(3)) {
        unaryKernel<T>(
            Iter, [](M B) { return B * B * B; },
            [](auto B) { return hn::Mul(hn::Mul(B, B), B); });
      } else if (E == M(0.5)) {
        unaryKernel<T>(
            Iter, [](M B) { return std::sqrt(B); },
            [](auto B) { return hn::Sqrt(B); });
      } else if (E == M(-0.5)) {
        unaryKernel<T>(
            Iter, [](M B) { return M(1) / std::sqrt(B); },
            [](auto B) { return hn::Div(splat<decltype(B)>(1), hn::Sqrt(B)); });
      } else if (E == M(-1)) {
        unaryKernel<T>(
            Iter, [](M B) { return M(1) / B; },
            [](auto B) { return hn::Div(splat<decltype(B)>(1), B); });
      } else if (E == M(-2)) {
        unaryKernel<T>(
            Iter, [](M B) { return M(1) / (B * B); },
            [](auto B) {
              return hn::Div(splat<decltype(B)>(1), hn::Mul(B, B));
            });
      } else {
        unaryScalarKernel<T>(Iter, [E](M B) { return std::pow(B, E); });
      }
    }
  });
}
} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {
using kernels::scalarOpConfig;
using kernels::scalarOpDtype;

HWY_EXPORT(pow_Tensor_Tensor_outImpl);
HWY_EXPORT(pow_Tensor_Scalar_outImpl);

SK_META_FUNC(pow, Tensor_Tensor)(const Tensor &self, const Tensor &exponent) {
  build_borrowing_binary_op(maybe_get_output(), self, exponent);
}

SK_IMPL_FUNC(pow_Tensor_Tensor_out)
(const Tensor &self, const Tensor &exponent, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(pow_Tensor_Tensor_outImpl)(*this);
}

SK_META_FUNC(pow, Tensor_Scalar)(const Tensor &self, const Scalar &exponent) {
  // NumPy's rule.
  SK_CHECK(!(isIntegralType(self.dtype(), /*IncludeBool=*/true) &&
             exponent.isIntegral(/*IncludeBool=*/true) &&
             exponent.toLong() < 0),
           "Integers to negative integer powers are not allowed.");
  TensorIteratorConfig Config;
  build(
      scalarOpConfig(Config, maybe_get_output(), self,
                     scalarOpDtype(self, exponent, /*IntegerToFloat=*/false)));
}

SK_IMPL_FUNC(pow_Tensor_Scalar_out)
(const Tensor &self, const Scalar &exponent, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(pow_Tensor_Scalar_outImpl)(*this, self, exponent);
}
} // namespace sk
#endif // HWY_ONCE
