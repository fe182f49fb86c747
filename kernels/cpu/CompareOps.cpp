//===--- CompareOps.cpp - eq, ne, lt, le, gt, ge, clamp and where ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The comparison-based pointwise operators of issue 6 as structured
/// TensorIterator kernels (ATen/native/BinaryOps.cpp, TensorCompare.cpp and
/// their cpu/ kernels):
///
///  - eq, ne, lt, le, gt, ge (Tensor and Scalar): compare in the promoted
///    dtype of the inputs and write bool, or the given output's dtype
///    (build_comparison_op);
///  - clamp with Scalar bounds (the result type counts the bounds, as
///    PyTorch's does) and with Tensor bounds (a ternary iterator);
///  - where(condition, self, other): the result type of self and other.
///
/// Every dtype but bool for clamp; all of them for comparisons and where.
/// float16 and bfloat16 compute in float32.
///
//===----------------------------------------------------------------------===//

// Streams through memory: AVX2 at most (Note [AVX-512 and bandwidth-bound
// kernels] in sk/iter/Loops.h).
#undef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (SKC_HWY_DISABLED_TARGETS | HWY_AVX3 | HWY_AVX3_DL)

#include "NativeFunctions.h"

#include "sk/iter/TypePromotion.h"

#include "shared/Comparison.h"
#include "shared/ScalarArguments.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

// The kernels are compiled for every Highway target and called for the
// best one the CPU has (Note [Highway dynamic dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/CompareOps.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "PointwiseLoops.h"

// What every target shares, defined once.
#ifndef SKC_KERNELS_CPU_COMPAREOPS_SHARED
#define SKC_KERNELS_CPU_COMPAREOPS_SHARED
namespace sk {

using kernels::clampResultType;
using kernels::CompareKind;
using kernels::scalarAs;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

template <typename T> static inline bool isNan(T X) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(X);
  else
    return false;
}

//===----------------------------------------------------------------------===//
// eq, ne, lt, le, gt, ge
//===----------------------------------------------------------------------===//

// Note [Comparisons with a Scalar]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch compares `self == 2.5` against a wrapped-number operand, so the
// comparison happens in result_type(self, 2.5) (float32 for an integral
// self). Here the Scalar stays out of the iterator (as in BinaryOps.cpp,
// Note [Scalar operands kept out of the iterator]): the iterator has the
// output and self only, the output is bool unless given, and impl()
// compares each element, converted to that result type, with the value.

/// Configures \p Config for a comparison of \p Self with a Scalar; see
/// Note [Comparisons with a Scalar].
static TensorIteratorConfig &
scalarComparisonConfig(TensorIteratorConfig &Config, const Tensor &Out,
                       const Tensor &Self) {
  Config.set_check_mem_overlap(true).check_all_same_dtype(false);
  if (!Out.defined())
    Config.declare_static_dtype(kBool);
  else
    Config.cast_common_dtype_to_outputs(true);
  return Config.add_output(Out).add_input(Self);
}

//===----------------------------------------------------------------------===//
// clamp
//===----------------------------------------------------------------------===//

/// clamp of one element: NaN stays NaN, a NaN bound gives NaN, and
/// min > max gives max (PyTorch's clamp, vectorized path).
template <typename M> static inline M clampValue(M X, M Lo, M Hi) {
  if (isNan(X))
    return X;
  if (isNan(Lo))
    return Lo;
  if (isNan(Hi))
    return Hi;
  M R = X < Lo ? Lo : X;
  return Hi < R ? Hi : R;
}
template <typename M> static inline M clampMin(M X, M Lo) {
  if (isNan(X) || isNan(Lo))
    return isNan(X) ? X : Lo;
  return X < Lo ? Lo : X;
}
template <typename M> static inline M clampMax(M X, M Hi) {
  if (isNan(X) || isNan(Hi))
    return isNan(X) ? X : Hi;
  return Hi < X ? Hi : X;
}

/// C ? A : B, as a select of the bits rather than a branch.
template <typename T> static inline T selectBits(bool C, T A, T B) {
  static_assert(sizeof(T) <= 8 && (sizeof(T) & (sizeof(T) - 1)) == 0);
  using U = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<
          sizeof(T) == 2, uint16_t,
          std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  U BitsA, BitsB;
  std::memcpy(&BitsA, &A, sizeof(T));
  std::memcpy(&BitsB, &B, sizeof(T));
  U Mask = static_cast<U>(U(0) - static_cast<U>(C));
  U Bits = static_cast<U>((BitsA & Mask) | (BitsB & static_cast<U>(~Mask)));
  T R;
  std::memcpy(&R, &Bits, sizeof(T));
  return R;
}
} // namespace sk
#endif // SKC_KERNELS_CPU_COMPAREOPS_SHARED

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {

/// Runs the comparison \p Kind over a two-input iterator, in its common
/// dtype.
static void compare_outImpl(TensorIteratorBase &Iter, CompareKind Kind,
                            const char *Name) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      Iter.common_dtype(), Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        kernels::visitCompareKind(Kind, [&](auto KindTag) {
          constexpr CompareKind K = decltype(KindTag)::value;
          cpu_kernel(Iter, [](T A, T B) -> bool {
            return kernels::compare<K>(static_cast<M>(A), static_cast<M>(B));
          });
        });
      });
}

/// Runs the comparison \p Kind of every element with \p Other over a
/// one-input iterator, in result_type(Self, Other).
static void compare_Scalar_outImpl(TensorIteratorBase &Iter,
                                   const Tensor &Self, const Scalar &Other,
                                   CompareKind Kind, const char *Name) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      result_type(Self, Other), Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        M Value = static_cast<M>(scalarAs<T>(Other));
        kernels::visitCompareKind(Kind, [&](auto KindTag) {
          constexpr CompareKind K = decltype(KindTag)::value;
          cpu_kernel(Iter, [Value](T A) -> bool {
            return kernels::compare<K>(static_cast<M>(A), Value);
          });
        });
      });
}

// clamp's vector bodies compute what clampValue, clampMin and clampMax do:
// a NaN element fails both comparisons and stays; a NaN bound, known only
// per lane for Tensor bounds, makes the lane NaN.

/// max(X, Lo) and then min(that, Hi), as clampValue without NaN bounds.
template <typename V> static inline V clampVec(V X, V Lo, V Hi) {
  V R = hn::IfThenElse(hn::Lt(X, Lo), Lo, X);
  return hn::IfThenElse(hn::Lt(Hi, R), Hi, R);
}
template <typename V> static inline V clampMinVec(V X, V Lo) {
  return hn::IfThenElse(hn::Lt(X, Lo), Lo, X);
}
template <typename V> static inline V clampMaxVec(V X, V Hi) {
  return hn::IfThenElse(hn::Lt(Hi, X), Hi, X);
}
/// \p R where neither bound is NaN, else NaN.
template <typename V> static inline V nanWhereBoundIs(V R, V Bound) {
  return hn::IfThenElse(hn::IsNaN(Bound), Bound, R);
}

static void clamp_outImpl(TensorIteratorBase &Iter, ScalarType Dtype,
                          OptionalScalarRef Min, OptionalScalarRef Max) {
  dispatchDtypes<dtypes::All>(Dtype, "clamp_scalar_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    const M Lo = Min ? static_cast<M>(Min->to<T>()) : M(0);
    const M Hi = Max ? static_cast<M>(Max->to<T>()) : M(0);
    // The vector bodies assume bounds that are not NaN.
    if (isNan(Lo) || isNan(Hi) || kIsInteger<T>) {
      if (Min && Max)
        unaryScalarKernel<T>(Iter, [Lo, Hi](M X) {
          return clampValue(X, Lo, Hi);
        });
      else if (Min)
        unaryScalarKernel<T>(Iter, [Lo](M X) { return clampMin(X, Lo); });
      else
        unaryScalarKernel<T>(Iter, [Hi](M X) { return clampMax(X, Hi); });
      return;
    }
    if (Min && Max)
      unaryKernel<T>(
          Iter, [Lo, Hi](M X) { return clampValue(X, Lo, Hi); },
          [Lo, Hi](auto X) {
            using V = decltype(X);
            return clampVec(X, splat<V>(Lo), splat<V>(Hi));
          });
    else if (Min)
      unaryKernel<T>(
          Iter, [Lo](M X) { return clampMin(X, Lo); },
          [Lo](auto X) { return clampMinVec(X, splat<decltype(X)>(Lo)); });
    else
      unaryKernel<T>(
          Iter, [Hi](M X) { return clampMax(X, Hi); },
          [Hi](auto X) { return clampMaxVec(X, splat<decltype(X)>(Hi)); });
  });
}

static void clamp_Tensor_outImpl(TensorIteratorBase &Iter, bool HasMin,
                                 bool HasMax) {
  dispatchDtypes<dtypes::All>(Iter.common_dtype(), "clamp_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if (HasMin && HasMax) {
      auto Elem = [](T X, T Lo, T Hi) -> T {
        return static_cast<T>(clampValue(static_cast<M>(X), static_cast<M>(Lo),
                                         static_cast<M>(Hi)));
      };
      // Three inputs: float and double on vectors, the rest element-wise.
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        cpu_kernel_vec(Iter, Elem, [](auto X, auto Lo, auto Hi) {
          return nanWhereBoundIs(nanWhereBoundIs(clampVec(X, Lo, Hi), Lo), Hi);
        });
      else
        cpu_kernel(Iter, Elem);
    } else if (HasMin) {
      binaryKernel<T>(
          Iter, [](M X, M Lo) { return clampMin(X, Lo); },
          [](auto X, auto Lo) {
            return nanWhereBoundIs(clampMinVec(X, Lo), Lo);
          });
    } else {
      binaryKernel<T>(
          Iter, [](M X, M Hi) { return clampMax(X, Hi); },
          [](auto X, auto Hi) {
            return nanWhereBoundIs(clampMaxVec(X, Hi), Hi);
          });
    }
  });
}

static void where_outImpl(TensorIteratorBase &Iter) {
  // The loops convert self and other to the output's dtype on load, and a
  // uint8 condition to bool ("nonzero").
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      Iter.dtype(0), "where_cpu", [&](auto Tag) {
        using T = decltype(Tag);
        // A select of the bits, not a branch: over a random condition a
        // branch mispredicts on half the elements (5 ns each, ATen's
        // where_kernel included).
        cpu_kernel(Iter, [](bool C, T A, T B) { return selectBits(C, A, B); });
      });
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {

HWY_EXPORT(compare_outImpl);
HWY_EXPORT(compare_Scalar_outImpl);
HWY_EXPORT(clamp_outImpl);
HWY_EXPORT(clamp_Tensor_outImpl);
HWY_EXPORT(where_outImpl);

//===----------------------------------------------------------------------===//
// eq, ne, lt, le, gt, ge
//===----------------------------------------------------------------------===//

#define SK_COMPARISON_OP(Name, Kind)                                           \
  SK_META_FUNC(Name, Tensor)(const Tensor &self, const Tensor &other) {        \
    build_borrowing_comparison_op(maybe_get_output(), self, other);            \
  }                                                                            \
  SK_IMPL_FUNC(Name##_Tensor_out)                                              \
  (const Tensor &self, const Tensor &other, const Tensor &out) {               \
    HWY_DYNAMIC_DISPATCH(compare_outImpl)                                      \
    (*this, CompareKind::Kind, #Name "_cpu");                                   \
  }                                                                            \
  SK_META_FUNC(Name, Scalar)(const Tensor &self, const Scalar &other) {        \
    TensorIteratorConfig Config;                                               \
    build(scalarComparisonConfig(Config, maybe_get_output(), self));           \
  }                                                                            \
  SK_IMPL_FUNC(Name##_Scalar_out)                                              \
  (const Tensor &self, const Scalar &other, const Tensor &out) {               \
    HWY_DYNAMIC_DISPATCH(compare_Scalar_outImpl)                               \
    (*this, self, other, CompareKind::Kind, #Name "_cpu");                      \
  }

SK_FOR_EACH_COMPARISON(SK_COMPARISON_OP)

#undef SK_COMPARISON_OP

//===----------------------------------------------------------------------===//
// clamp
//===----------------------------------------------------------------------===//


SK_META_FUNC(clamp)
(const Tensor &self, OptionalScalarRef min, OptionalScalarRef max) {
  SK_CHECK(min || max,
           "torch.clamp: At least one of 'min' or 'max' must not be None");
  ScalarType Dtype = clampResultType(self, min, max);
  const Tensor &Out = maybe_get_output();
  // No promotion in place; else PyTorch builds a unary op over
  // self.to(Dtype), whose output must have Dtype.
  if (Out.defined() && Out.is_same(self))
    SK_CHECK(Dtype == self.dtype(), "result type ", detail::typeName(Dtype),
             " can't be cast to the desired output type ",
             detail::typeName(self.dtype()));
  if (Out.defined())
    SK_CHECK(Out.dtype() == Dtype, "Found dtype ",
             detail::typeName(Out.dtype()), " but expected ",
             detail::typeName(Dtype));
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .declare_static_dtype(Dtype)
      .add_output(Out)
      .add_input(self);
  build(Config);
}

SK_IMPL_FUNC(clamp_out)
(const Tensor &self, OptionalScalarRef min, OptionalScalarRef max,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(clamp_outImpl)
  (*this, clampResultType(self, min, max), min, max);
}

SK_META_FUNC(clamp, Tensor)
(const Tensor &self, OptionalTensorRef min, OptionalTensorRef max) {
  SK_CHECK(min || max,
           "torch.clamp: At least one of 'min' or 'max' must not be None");
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(true)
      .add_output(maybe_get_output())
      .add_input(self)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  if (min)
    Config.add_input(*min);
  if (max)
    Config.add_input(*max);
  build(Config);
}

SK_IMPL_FUNC(clamp_Tensor_out)
(const Tensor &self, OptionalTensorRef min, OptionalTensorRef max,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(clamp_Tensor_outImpl)(*this, min.has_value(),
                                             max.has_value());
}

//===----------------------------------------------------------------------===//
// where
//===----------------------------------------------------------------------===//

SK_META_FUNC(where, self)
(const Tensor &condition, const Tensor &self, const Tensor &other) {
  // uint8 conditions are deprecated in PyTorch but still accepted.
  SK_CHECK(condition.dtype() == kBool || condition.dtype() == kByte,
           "where expected condition to be a boolean tensor, but got a "
           "tensor with dtype ",
           detail::typeName(condition.dtype()));
  ScalarType Dtype = result_type(self, other);
  const Tensor &Out = maybe_get_output();
  if (Out.defined())
    SK_CHECK(Out.dtype() == Dtype, "Expected out type to be ",
             detail::typeName(Dtype), " but got ",
             detail::typeName(Out.dtype()));
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .declare_static_dtype(Dtype)
      .add_output(Out)
      .add_input(condition)
      .add_input(self)
      .add_input(other);
  build(Config);
}

SK_IMPL_FUNC(where_self_out)
(const Tensor &condition, const Tensor &self, const Tensor &other,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(where_outImpl)(*this);
}

} // namespace sk
#endif // HWY_ONCE
