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

#include "NativeFunctions.h"

#include "sk/iter/Loops.h"
#include "sk/iter/TypePromotion.h"

#include "shared/ScalarArguments.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace sk {

using kernels::clampResultType;
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

/// Runs the comparison \p Cmp (two opmath values to bool) over a
/// two-input iterator, in its common dtype.
template <typename CmpFn>
static void compareKernel(TensorIteratorBase &Iter, const char *Name,
                          CmpFn Cmp) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      Iter.common_dtype(), Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        cpu_kernel(Iter, [Cmp](T A, T B) -> bool {
          return Cmp(static_cast<M>(A), static_cast<M>(B));
        });
      });
}

/// Runs the comparison \p Cmp of every element with \p Other over a
/// one-input iterator, in result_type(Self, Other).
template <typename CmpFn>
static void compareScalarKernel(TensorIteratorBase &Iter, const Tensor &Self,
                                const Scalar &Other, const char *Name,
                                CmpFn Cmp) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      result_type(Self, Other), Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        M C = static_cast<M>(scalarAs<T>(Other));
        cpu_kernel(Iter,
                   [Cmp, C](T A) -> bool { return Cmp(static_cast<M>(A), C); });
      });
}

#define SK_COMPARISON_OP(Name, Op)                                             \
  SK_META_FUNC(Name, Tensor)(const Tensor &self, const Tensor &other) {        \
    build_borrowing_comparison_op(maybe_get_output(), self, other);            \
  }                                                                            \
  SK_IMPL_FUNC(Name##_Tensor_out)                                              \
  (const Tensor &self, const Tensor &other, const Tensor &out) {               \
    compareKernel(*this, #Name "_cpu", [](auto A, auto B) { return A Op B; }); \
  }                                                                            \
  SK_META_FUNC(Name, Scalar)(const Tensor &self, const Scalar &other) {        \
    TensorIteratorConfig Config;                                               \
    build(scalarComparisonConfig(Config, maybe_get_output(), self));           \
  }                                                                            \
  SK_IMPL_FUNC(Name##_Scalar_out)                                              \
  (const Tensor &self, const Scalar &other, const Tensor &out) {               \
    compareScalarKernel(*this, self, other, #Name "_cpu",                      \
                        [](auto A, auto B) { return A Op B; });                \
  }

SK_COMPARISON_OP(eq, ==)
SK_COMPARISON_OP(ne, !=)
SK_COMPARISON_OP(lt, <)
SK_COMPARISON_OP(le, <=)
SK_COMPARISON_OP(gt, >)
SK_COMPARISON_OP(ge, >=)

#undef SK_COMPARISON_OP

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
  ScalarType Dtype = clampResultType(self, min, max);
  dispatchDtypes<dtypes::All>(Dtype, "clamp_scalar_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if (min && max) {
      M Lo = static_cast<M>(min->to<T>());
      M Hi = static_cast<M>(max->to<T>());
      cpu_kernel(*this, [Lo, Hi](T X) -> T {
        return static_cast<T>(clampValue(static_cast<M>(X), Lo, Hi));
      });
    } else if (min) {
      M Lo = static_cast<M>(min->to<T>());
      cpu_kernel(*this, [Lo](T X) -> T {
        return static_cast<T>(clampMin(static_cast<M>(X), Lo));
      });
    } else {
      M Hi = static_cast<M>(max->to<T>());
      cpu_kernel(*this, [Hi](T X) -> T {
        return static_cast<T>(clampMax(static_cast<M>(X), Hi));
      });
    }
  });
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
  dispatchDtypes<dtypes::All>(common_dtype(), "clamp_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if (min && max) {
      cpu_kernel(*this, [](T X, T Lo, T Hi) -> T {
        return static_cast<T>(clampValue(static_cast<M>(X), static_cast<M>(Lo),
                                         static_cast<M>(Hi)));
      });
    } else if (min) {
      cpu_kernel(*this, [](T X, T Lo) -> T {
        return static_cast<T>(clampMin(static_cast<M>(X), static_cast<M>(Lo)));
      });
    } else {
      cpu_kernel(*this, [](T X, T Hi) -> T {
        return static_cast<T>(clampMax(static_cast<M>(X), static_cast<M>(Hi)));
      });
    }
  });
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
  // The loops convert self and other to the output's dtype on load, and a
  // uint8 condition to bool ("nonzero").
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      dtype(0), "where_cpu", [&](auto Tag) {
        using T = decltype(Tag);
        cpu_kernel(*this, [](bool C, T A, T B) -> T { return C ? A : B; });
      });
}

} // namespace sk
