//===--- BinaryOps.cu - add, sub, mul, div and pow on CUDA ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the groups of cpu/BinaryOps.cpp, whose meta functions
/// they share: the same dtypes, the same rounding and wrapping rules, run
/// by gpuKernel (Loops.cuh). float16 and bfloat16 compute in float32. The
/// Scalar overloads keep the Scalar out of the iterator, as on the CPU
/// (Note [Scalar operands kept out of the iterator] in cpu/BinaryOps.cpp).
/// Integer division by zero is not reported on CUDA (a kernel cannot
/// throw); its result is unspecified, as in PyTorch's CUDA kernels.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "Loops.cuh"

#include "sk/iter/TypePromotion.h"

#include "shared/IntegerMath.h"
#include "shared/ScalarArguments.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace sk {
namespace {

using kernels::powInteger;
using kernels::scalarAs;
using kernels::scalarOpDtype;
using kernels::wrapAdd;
using kernels::wrapMul;

//===----------------------------------------------------------------------===//
// Element functions
//===----------------------------------------------------------------------===//

/// out = A + Alpha * B in opmath_type<T> (bool: A || (Alpha && B)).
template <typename T> struct AddFn {
  using M = opmath_type<T>;
  M Alpha;
  __device__ T operator()(T A, T B) const {
    if constexpr (std::is_same_v<T, bool>)
      return A || (Alpha && B);
    else
      return static_cast<T>(
          wrapAdd(static_cast<M>(A), wrapMul(Alpha, static_cast<M>(B))));
  }
};

/// out = A + C, C a constant (the Scalar overloads of add and sub).
template <typename T> struct AddConstantFn {
  using M = opmath_type<T>;
  M C;
  __device__ T operator()(T A) const {
    if constexpr (std::is_same_v<T, bool>)
      return A || C;
    else
      return static_cast<T>(wrapAdd(static_cast<M>(A), C));
  }
};

template <typename T> struct MulFn {
  using M = opmath_type<T>;
  __device__ T operator()(T A, T B) const {
    if constexpr (std::is_same_v<T, bool>)
      return A && B;
    else
      return static_cast<T>(wrapMul(static_cast<M>(A), static_cast<M>(B)));
  }
};

template <typename T> struct MulConstantFn {
  using M = opmath_type<T>;
  M C;
  __device__ T operator()(T A) const {
    if constexpr (std::is_same_v<T, bool>)
      return A && C;
    else
      return static_cast<T>(wrapMul(static_cast<M>(A), C));
  }
};

/// div's rounding_mode.
enum class RoundingKind { None, Trunc, Floor };

/// Truncating integer division; INT_MIN / -1 wraps instead of trapping.
template <typename T> __device__ inline T divTruncInteger(T A, T B) {
  if (B == 0)
    return T(0);
  if constexpr (std::is_signed_v<T>)
    if (B == -1)
      return static_cast<T>(uint64_t(0) - static_cast<uint64_t>(A));
  return static_cast<T>(A / B);
}

/// Python's floor division of integers (c10's div_floor_integer).
template <typename T> __device__ inline T divFloorInteger(T A, T B) {
  T Quot = divTruncInteger(A, B);
  if constexpr (std::is_signed_v<T>)
    if (B != 0 && B != -1 && (A < 0) != (B < 0) && Quot * B != A)
      return static_cast<T>(Quot - 1);
  return Quot;
}

/// Python's floor division of floats (c10's div_floor_floating).
template <typename M> __device__ inline M divFloorFloating(M A, M B) {
  if (B == 0)
    return A / B;
  M Mod = fmod(A, B);
  M Div = (A - Mod) / B;
  if (Mod != 0 && (B < 0) != (Mod < 0))
    Div -= M(1);
  if (Div == 0)
    return copysign(M(0), A / B);
  M Floor = floor(Div);
  if (Div - Floor > M(0.5))
    Floor += M(1);
  return Floor;
}

template <typename T, RoundingKind Kind> struct DivFn {
  using M = opmath_type<T>;
  __device__ T operator()(T A, T B) const {
    if constexpr (kIsInteger<T>) {
      if constexpr (Kind == RoundingKind::Floor)
        return divFloorInteger(A, B);
      else
        return divTruncInteger(A, B);
    } else {
      M X = static_cast<M>(A), Y = static_cast<M>(B);
      if constexpr (Kind == RoundingKind::None)
        return static_cast<T>(X / Y);
      else if constexpr (Kind == RoundingKind::Trunc)
        return static_cast<T>(trunc(X / Y));
      else
        return static_cast<T>(divFloorFloating(X, Y));
    }
  }
};

template <typename T> struct DivConstantFn {
  using M = opmath_type<T>;
  M C;
  __device__ T operator()(T A) const { return static_cast<T>(A / C); }
};

template <typename T> struct PowFn {
  using M = opmath_type<T>;
  __device__ T operator()(T B, T E) const {
    if constexpr (kIsInteger<T>)
      return powInteger(B, E);
    else
      return static_cast<T>(pow(static_cast<M>(B), static_cast<M>(E)));
  }
};

/// PyTorch's special cases of pow(Tensor, Scalar), then pow().
template <typename T> struct PowConstantFn {
  using M = opmath_type<T>;
  M E;
  __device__ T operator()(T B) const {
    if constexpr (kIsInteger<T>) {
      return powInteger(B, static_cast<T>(E));
    } else {
      M X = static_cast<M>(B);
      if (E == M(0))
        return T(M(1));
      if (E == M(1))
        return B;
      if (E == M(2))
        return static_cast<T>(X * X);
      if (E == M(3))
        return static_cast<T>(X * X * X);
      if (E == M(0.5))
        return static_cast<T>(sqrt(X));
      if (E == M(-0.5))
        return static_cast<T>(M(1) / sqrt(X));
      if (E == M(-1))
        return static_cast<T>(M(1) / X);
      if (E == M(-2))
        return static_cast<T>(M(1) / (X * X));
      return static_cast<T>(pow(X, E));
    }
  }
};

//===----------------------------------------------------------------------===//
// Host helpers (as in cpu/BinaryOps.cpp)
//===----------------------------------------------------------------------===//

RoundingKind parseRoundingMode(std::optional<std::string_view> Mode) {
  if (!Mode)
    return RoundingKind::None;
  if (*Mode == "trunc")
    return RoundingKind::Trunc;
  SK_CHECK(*Mode == "floor",
           "div expected rounding_mode to be one of None, 'trunc', or 'floor' "
           "but found '",
           *Mode, "'");
  return RoundingKind::Floor;
}

/// out = A + Sign * Alpha * B over a two-input iterator.
template <int Sign>
void addSubKernel(TensorIteratorBase &Iter, const Scalar &Alpha,
                  const char *Name) {
  dispatchDtypes<(Sign > 0 ? dtypes::All | dtypes::Bool : dtypes::All)>(
      Iter.common_dtype(), Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        if constexpr (std::is_same_v<T, bool>) {
          cuda::gpuKernel(Iter, AddFn<T>{Alpha.to<bool>()});
        } else if constexpr (kIsInteger<T>) {
          T A = Alpha.to<T>();
          cuda::gpuKernel(Iter, AddFn<T>{Sign > 0 ? A : T(0 - uint64_t(A))});
        } else {
          M A = static_cast<M>(Alpha.toDouble());
          cuda::gpuKernel(Iter, AddFn<T>{Sign > 0 ? A : -A});
        }
      });
}

/// out = Self + Sign * Alpha * Other, Other a Scalar.
template <int Sign>
void addSubScalarKernel(TensorIteratorBase &Iter, ScalarType Dtype,
                        const Scalar &Other, const Scalar &Alpha,
                        const char *Name) {
  dispatchDtypes<(Sign > 0 ? dtypes::All | dtypes::Bool : dtypes::All)>(
      Dtype, Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        if constexpr (std::is_same_v<T, bool>) {
          cuda::gpuKernel(
              Iter, AddConstantFn<T>{Alpha.to<bool>() && Other.to<bool>()});
        } else if constexpr (kIsInteger<T>) {
          uint64_t C = static_cast<uint64_t>(Alpha.to<T>()) *
                       static_cast<uint64_t>(scalarAs<T>(Other));
          cuda::gpuKernel(
              Iter, AddConstantFn<T>{static_cast<T>(Sign > 0 ? C : 0 - C)});
        } else {
          M C = static_cast<M>(Alpha.toDouble()) * scalarAs<M>(Other);
          cuda::gpuKernel(Iter, AddConstantFn<T>{Sign > 0 ? C : -C});
        }
      });
}

template <RoundingKind Kind>
void divKernelAs(TensorIteratorBase &Iter, const char *Name) {
  dispatchDtypes<dtypes::All>(Iter.common_dtype(), Name, [&](auto Tag) {
    using T = decltype(Tag);
    // True division promoted integral inputs to float32.
    if constexpr (Kind != RoundingKind::None || !kIsInteger<T>)
      cuda::gpuKernel(Iter, DivFn<T, Kind>{});
  });
}

void divKernel(TensorIteratorBase &Iter, RoundingKind Kind) {
  if (Kind == RoundingKind::None)
    return divKernelAs<RoundingKind::None>(Iter, "div_true_cuda");
  if (Kind == RoundingKind::Trunc)
    return divKernelAs<RoundingKind::Trunc>(Iter, "div_trunc_cuda");
  divKernelAs<RoundingKind::Floor>(Iter, "div_floor_cuda");
}

} // namespace

//===----------------------------------------------------------------------===//
// Impls
//===----------------------------------------------------------------------===//

SK_IMPL_FUNC(add_out_cuda)
(const Tensor &self, const Tensor &other, const Scalar &alpha,
 const Tensor &out) {
  addSubKernel<1>(*this, alpha, "add_cuda");
}

SK_IMPL_FUNC(sub_out_cuda)
(const Tensor &self, const Tensor &other, const Scalar &alpha,
 const Tensor &out) {
  addSubKernel<-1>(*this, alpha, "sub_cuda");
}

SK_IMPL_FUNC(add_Scalar_out_cuda)
(const Tensor &self, const Scalar &other, const Scalar &alpha,
 const Tensor &out) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  addSubScalarKernel<1>(*this, Dtype, other, alpha, "add_cuda");
}

SK_IMPL_FUNC(sub_Scalar_out_cuda)
(const Tensor &self, const Scalar &other, const Scalar &alpha,
 const Tensor &out) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  addSubScalarKernel<-1>(*this, Dtype, other, alpha, "sub_cuda");
}

SK_IMPL_FUNC(mul_out_cuda)
(const Tensor &self, const Tensor &other, const Tensor &out) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      common_dtype(), "mul_cuda",
      [&](auto Tag) { cuda::gpuKernel(*this, MulFn<decltype(Tag)>{}); });
}

SK_IMPL_FUNC(mul_Scalar_out_cuda)
(const Tensor &self, const Scalar &other, const Tensor &out) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  dispatchDtypes<dtypes::All | dtypes::Bool>(Dtype, "mul_cuda", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (std::is_same_v<T, bool>)
      cuda::gpuKernel(*this, MulConstantFn<T>{other.to<bool>()});
    else
      cuda::gpuKernel(*this, MulConstantFn<T>{scalarAs<M>(other)});
  });
}

SK_IMPL_FUNC(div_out_cuda)
(const Tensor &self, const Tensor &other, const Tensor &out) {
  divKernel(*this, RoundingKind::None);
}

SK_IMPL_FUNC(div_out_mode_cuda)
(const Tensor &self, const Tensor &other,
 std::optional<std::string_view> rounding_mode, const Tensor &out) {
  divKernel(*this, parseRoundingMode(rounding_mode));
}

SK_IMPL_FUNC(div_Scalar_out_cuda)
(const Tensor &self, const Scalar &other, const Tensor &out) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/true);
  dispatchDtypes<dtypes::All>(Dtype, "div_true_cuda", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (!kIsInteger<T>)
      cuda::gpuKernel(*this, DivConstantFn<T>{scalarAs<M>(other)});
  });
}

SK_IMPL_FUNC(pow_Tensor_Tensor_out_cuda)
(const Tensor &self, const Tensor &exponent, const Tensor &out) {
  dispatchDtypes<dtypes::All>(common_dtype(), "pow_cuda", [&](auto Tag) {
    cuda::gpuKernel(*this, PowFn<decltype(Tag)>{});
  });
}

SK_IMPL_FUNC(pow_Tensor_Scalar_out_cuda)
(const Tensor &self, const Scalar &exponent, const Tensor &out) {
  ScalarType Dtype = scalarOpDtype(self, exponent, /*IntegerToFloat=*/false);
  dispatchDtypes<dtypes::All>(Dtype, "pow_cuda", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (kIsInteger<T>)
      cuda::gpuKernel(*this,
                      PowConstantFn<T>{static_cast<M>(exponent.to<T>())});
    else
      cuda::gpuKernel(*this, PowConstantFn<T>{scalarAs<M>(exponent)});
  });
}

} // namespace sk
