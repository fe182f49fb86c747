//===--- CompareOps.cu - eq, ne, lt, le, gt, ge, clamp, where on CUDA -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the groups of cpu/CompareOps.cpp, whose meta functions
/// they share: comparisons in the promoted dtype of the inputs (a Scalar
/// kept out of the iterator, Note [Comparisons with a Scalar]), clamp with
/// Scalar and Tensor bounds (NaN propagates, min > max gives max) and
/// where. float16 and bfloat16 compute in float32.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "Loops.cuh"

#include "sk/iter/TypePromotion.h"

#include "shared/Comparison.h"
#include "shared/ScalarArguments.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace sk {

using kernels::clampResultType;
using kernels::compare;
using kernels::CompareKind;
using kernels::scalarAs;
namespace {

template <typename T> __device__ inline bool isNan(T X) {
  if constexpr (std::is_floating_point_v<T>)
    return isnan(X);
  else
    return false;
}

template <typename T, CompareKind Kind> struct CompareFn {
  using M = opmath_type<T>;
  __device__ bool operator()(T A, T B) const {
    return compare<Kind>(static_cast<M>(A), static_cast<M>(B));
  }
};

template <typename T, CompareKind Kind> struct CompareConstantFn {
  using M = opmath_type<T>;
  M C;
  __device__ bool operator()(T A) const {
    return compare<Kind>(static_cast<M>(A), C);
  }
};

template <CompareKind Kind>
void compareKernel(TensorIteratorBase &Iter, const char *Name) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      Iter.common_dtype(), Name, [&](auto Tag) {
        cuda::gpuKernel(Iter, CompareFn<decltype(Tag), Kind>{});
      });
}

template <CompareKind Kind>
void compareScalarKernel(TensorIteratorBase &Iter, const Tensor &Self,
                         const Scalar &Other, const char *Name) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      result_type(Self, Other), Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        cuda::gpuKernel(Iter, CompareConstantFn<T, Kind>{
                                  static_cast<M>(scalarAs<T>(Other))});
      });
}

/// clamp of one element (cpu/CompareOps.cpp's clampValue, clampMin and
/// clampMax): NaN stays NaN, a NaN bound gives NaN, min > max gives max.
template <bool HasLo, bool HasHi, typename M>
__device__ inline M clampValue(M X, M Lo, M Hi) {
  if (isNan(X))
    return X;
  if (HasLo && isNan(Lo))
    return Lo;
  if (HasHi && isNan(Hi))
    return Hi;
  M R = X;
  if (HasLo)
    R = R < Lo ? Lo : R;
  if (HasHi)
    R = Hi < R ? Hi : R;
  return R;
}

template <typename T, bool HasLo, bool HasHi> struct ClampConstantFn {
  using M = opmath_type<T>;
  M Lo, Hi;
  __device__ T operator()(T X) const {
    return static_cast<T>(clampValue<HasLo, HasHi>(static_cast<M>(X), Lo, Hi));
  }
};

template <typename T> struct ClampFn {
  using M = opmath_type<T>;
  __device__ T operator()(T X, T Lo, T Hi) const {
    return static_cast<T>(clampValue<true, true>(
        static_cast<M>(X), static_cast<M>(Lo), static_cast<M>(Hi)));
  }
};

template <typename T, bool IsLo> struct ClampOneFn {
  using M = opmath_type<T>;
  __device__ T operator()(T X, T Bound) const {
    M B = static_cast<M>(Bound);
    return static_cast<T>(clampValue<IsLo, !IsLo>(static_cast<M>(X), B, B));
  }
};

template <typename T> struct WhereFn {
  __device__ T operator()(bool C, T A, T B) const { return C ? A : B; }
};

} // namespace

#define SK_COMPARISON_OP(Name, Kind)                                           \
  SK_IMPL_FUNC(Name##_Tensor_out_cuda)                                         \
  (const Tensor &self, const Tensor &other, const Tensor &out) {               \
    compareKernel<CompareKind::Kind>(*this, #Name "_cuda");                    \
  }                                                                            \
  SK_IMPL_FUNC(Name##_Scalar_out_cuda)                                         \
  (const Tensor &self, const Scalar &other, const Tensor &out) {               \
    compareScalarKernel<CompareKind::Kind>(*this, self, other, #Name "_cuda"); \
  }

SK_FOR_EACH_COMPARISON(SK_COMPARISON_OP)

#undef SK_COMPARISON_OP

SK_IMPL_FUNC(clamp_out_cuda)
(const Tensor &self, OptionalScalarRef min, OptionalScalarRef max,
 const Tensor &out) {
  ScalarType Dtype = clampResultType(self, min, max);
  dispatchDtypes<dtypes::All>(Dtype, "clamp_scalar_cuda", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    M Lo = min ? static_cast<M>(min->to<T>()) : M(0);
    M Hi = max ? static_cast<M>(max->to<T>()) : M(0);
    if (min && max)
      cuda::gpuKernel(*this, ClampConstantFn<T, true, true>{Lo, Hi});
    else if (min)
      cuda::gpuKernel(*this, ClampConstantFn<T, true, false>{Lo, Hi});
    else
      cuda::gpuKernel(*this, ClampConstantFn<T, false, true>{Lo, Hi});
  });
}

SK_IMPL_FUNC(clamp_Tensor_out_cuda)
(const Tensor &self, OptionalTensorRef min, OptionalTensorRef max,
 const Tensor &out) {
  dispatchDtypes<dtypes::All>(common_dtype(), "clamp_cuda", [&](auto Tag) {
    using T = decltype(Tag);
    if (min && max)
      cuda::gpuKernel(*this, ClampFn<T>{});
    else if (min)
      cuda::gpuKernel(*this, ClampOneFn<T, /*IsLo=*/true>{});
    else
      cuda::gpuKernel(*this, ClampOneFn<T, /*IsLo=*/false>{});
  });
}

SK_IMPL_FUNC(where_self_out_cuda)
(const Tensor &condition, const Tensor &self, const Tensor &other,
 const Tensor &out) {
  // The launcher converts self and other to the output's dtype on load,
  // and a uint8 condition to bool ("nonzero").
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      dtype(0), "where_cuda",
      [&](auto Tag) { cuda::gpuKernel(*this, WhereFn<decltype(Tag)>{}); });
}

} // namespace sk
