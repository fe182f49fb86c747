//===--- BinaryOps.cpp - add, sub, mul and div ----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The binary arithmetic operators of issue 6 as structured TensorIterator
/// kernels (ATen/native/BinaryOps.cpp and its cpu/ kernels): add, sub,
/// mul, div (with rounding_mode None, 'trunc' and 'floor'), Tensor and
/// Scalar overloads, with `alpha` for add and sub. pow is in Pow.cpp.
///
/// Meta functions follow PyTorch's: the Tensor overloads build the
/// iterator as build_borrowing_binary_op (float op for true division), so
/// broadcasting, type promotion, memory-format-preserving output strides
/// and the out= casting rules are the iterator's. Dtypes: every integral
/// type, bool where PyTorch has it (add, mul, div), float16 and bfloat16
/// computed in float32, float32 and float64; float32 and float64 run
/// Highway vectors through cpu_kernel_vec.
///
/// Note [Scalar operands kept out of the iterator]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// PyTorch turns the Scalar of `add(Tensor, Scalar)` into a 0-dim "wrapped
/// number" tensor and runs the Tensor overload. skc's iterator makes no
/// temporaries (Note [Type promotion without temporaries]), so that
/// wrapped float64 operand would push every element of a float32 loop
/// through the converting loop, and it would cost an allocation per call.
/// The Scalar overloads here build a one-input iterator instead: the
/// output gets result_type(self, other) (what the wrapped number would
/// have promoted to), a given output must be castable from it (PyTorch's
/// "result type ... can't be cast" error), and impl() captures the value,
/// converted to the compute type, in a one-input loop.
///
//===----------------------------------------------------------------------===//

// Streams through memory: AVX2 at most (Note [AVX-512 and bandwidth-bound
// kernels] in sk/iter/Loops.h). pow, bound by arithmetic, is in Pow.cpp.
#undef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (SKC_HWY_DISABLED_TARGETS | HWY_AVX3 | HWY_AVX3_DL)

#include "NativeFunctions.h"

#include "sk/iter/TypePromotion.h"

#include "shared/IntegerMath.h"
#include "shared/ScalarArguments.h"

#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>

// The kernels are compiled for every Highway target and called for the
// best one the CPU has (Note [Highway dynamic dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/BinaryOps.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "PointwiseLoops.h"
#include "VectorMath.h"

// What every target shares, defined once.
#ifndef SKC_KERNELS_CPU_BINARYOPS_SHARED
#define SKC_KERNELS_CPU_BINARYOPS_SHARED
namespace sk {
using kernels::scalarAs;
using kernels::scalarOpConfig;
using kernels::scalarOpDtype;
using kernels::wrapAdd;
using kernels::wrapMul;
using kernels::wrapSub;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// PyTorch's alpha_check, on the dtype of the output.
static void checkAlpha(ScalarType Dtype, const Scalar &Alpha) {
  SK_CHECK(!Alpha.isBoolean() || Dtype == kBool,
           "Boolean alpha only supported for Boolean results.");
  SK_CHECK(isFloatingType(Dtype) || Alpha.isIntegral(/*IncludeBool=*/true),
           "For integral input tensors, argument alpha must not be a floating "
           "point number.");
}

/// PyTorch's sub_check: no subtraction of bools.
static void checkSub(bool SelfIsBool, bool OtherIsBool) {
  SK_CHECK(!SelfIsBool || !OtherIsBool,
           "Subtraction, the `-` operator, with two bool tensors is not "
           "supported. Use the `^` or `logical_xor()` operator instead.");
  SK_CHECK(!SelfIsBool && !OtherIsBool,
           "Subtraction, the `-` operator, with a bool tensor is not "
           "supported. If you are trying to invert a mask, use the `~` or "
           "`logical_not()` operator instead.");
}

//===----------------------------------------------------------------------===//
// div
//===----------------------------------------------------------------------===//

namespace {
/// div's rounding_mode.
enum class RoundingKind { None, Trunc, Floor };
} // namespace

/// Parses div's rounding_mode, with PyTorch's message for anything else.
static RoundingKind parseRoundingMode(std::optional<std::string_view> Mode) {
  if (!Mode)
    return RoundingKind::None;
  if (*Mode == "trunc")
    return RoundingKind::Trunc;
  if (*Mode == "floor")
    return RoundingKind::Floor;
  SK_CHECK(false,
           "div expected rounding_mode to be one of None, 'trunc', or 'floor' "
           "but found '",
           *Mode, "'");
  __builtin_unreachable();
}

/// Integer division by zero, which PyTorch reports as Python does.
[[noreturn]] static void divisionByZero() {
  SK_CHECK(false, "ZeroDivisionError");
  __builtin_unreachable();
}

/// Truncating integer division; INT_MIN / -1 wraps instead of trapping.
template <typename T> static inline T divTruncInteger(T A, T B) {
  if (B == 0)
    divisionByZero();
  if constexpr (std::is_signed_v<T>)
    if (B == -1)
      return wrapSub(T(0), A);
  return static_cast<T>(A / B);
}

/// Python's floor division of integers (c10's div_floor_integer).
template <typename T> static inline T divFloorInteger(T A, T B) {
  T Quot = divTruncInteger(A, B);
  if constexpr (std::is_signed_v<T>) {
    // Truncation rounded up when the signs differ and there is a
    // remainder.
    if (B != -1 && (A < 0) != (B < 0) && Quot * B != A)
      return static_cast<T>(Quot - 1);
  }
  return Quot;
}

/// Python's floor division of floats (c10's div_floor_floating): the
/// quotient of the exact remainder, so that a == b * q + r holds.
template <typename M> static inline M divFloorFloating(M A, M B) {
  if (B == 0)
    return A / B; // The IEEE result: inf, -inf or nan.
  M Mod = std::fmod(A, B);
  M Div = (A - Mod) / B;
  if (Mod != 0 && (B < 0) != (Mod < 0))
    Div -= M(1);
  if (Div == 0)
    return std::copysign(M(0), A / B);
  M Floor = std::floor(Div);
  if (Div - Floor > M(0.5))
    Floor += M(1);
  return Floor;
}
} // namespace sk
#endif // SKC_KERNELS_CPU_BINARYOPS_SHARED

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {

/// out = A + Alpha * B (Sign = 1) or A - Alpha * B (Sign = -1), in the
/// common dtype.
template <int Sign>
static void addSubKernel(TensorIteratorBase &Iter, const Scalar &Alpha,
                         const char *Name) {
  dispatchDtypes<(Sign > 0 ? dtypes::All | dtypes::Bool : dtypes::All)>(
      Iter.common_dtype(), Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        if constexpr (std::is_same_v<T, bool>) {
          // PyTorch: a + alpha * b on bools, i.e. a || (alpha && b).
          bool A = Alpha.to<bool>();
          cpu_kernel(Iter,
                     [A](bool X, bool Y) -> bool { return X || (A && Y); });
        } else if constexpr (kIsInteger<T>) {
          T A = Alpha.to<T>();
          binaryScalarKernel<T>(Iter, [A](T X, T Y) {
            return Sign > 0 ? wrapAdd(X, wrapMul(A, Y))
                            : wrapSub(X, wrapMul(A, Y));
          });
        } else {
          M A = static_cast<M>(Alpha.toDouble());
          if (A == M(1)) {
            binaryKernel<T>(
                Iter, [](M X, M Y) { return Sign > 0 ? X + Y : X - Y; },
                [](auto X, auto Y) {
                  return Sign > 0 ? hn::Add(X, Y) : hn::Sub(X, Y);
                });
            return;
          }
          binaryKernel<T>(
              Iter, [A](M X, M Y) { return Sign > 0 ? X + A * Y : X - A * Y; },
              [A](auto X, auto Y) {
                using V = decltype(X);
                return Sign > 0 ? hn::MulAdd(splat<V>(A), Y, X)
                                : hn::NegMulAdd(splat<V>(A), Y, X);
              });
        }
      });
}

static void add_outImpl(TensorIteratorBase &Iter, const Scalar &alpha) {
  addSubKernel<1>(Iter, alpha, "add_cpu");
}

static void sub_outImpl(TensorIteratorBase &Iter, const Scalar &alpha) {
  addSubKernel<-1>(Iter, alpha, "sub_cpu");
}

/// out = Self + Alpha * Other (Sign = 1) or Self - Alpha * Other, Other a
/// Scalar: a one-input loop adding the constant Alpha * Other.
template <int Sign>
static void addSubScalarKernel(TensorIteratorBase &Iter, ScalarType Dtype,
                               const Scalar &Other, const Scalar &Alpha,
                               const char *Name) {
  dispatchDtypes<(Sign > 0 ? dtypes::All | dtypes::Bool : dtypes::All)>(
      Dtype, Name, [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        if constexpr (std::is_same_v<T, bool>) {
          bool C = Alpha.to<bool>() && Other.to<bool>();
          cpu_kernel(Iter, [C](bool X) -> bool { return X || C; });
        } else if constexpr (kIsInteger<T>) {
          T C = wrapMul(Alpha.to<T>(), scalarAs<T>(Other));
          unaryScalarKernel<T>(Iter, [C](T X) {
            return Sign > 0 ? wrapAdd(X, C) : wrapSub(X, C);
          });
        } else {
          M C = static_cast<M>(Alpha.toDouble()) * scalarAs<M>(Other);
          unaryKernel<T>(
              Iter, [C](M X) { return Sign > 0 ? X + C : X - C; },
              [C](auto X) {
                using V = decltype(X);
                return Sign > 0 ? hn::Add(X, splat<V>(C))
                                : hn::Sub(X, splat<V>(C));
              });
        }
      });
}

static void add_Scalar_outImpl(TensorIteratorBase &Iter, const Tensor &self,
                               const Scalar &other, const Scalar &alpha) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  addSubScalarKernel<1>(Iter, Dtype, other, alpha, "add_cpu");
}

static void sub_Scalar_outImpl(TensorIteratorBase &Iter, const Tensor &self,
                               const Scalar &other, const Scalar &alpha) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  addSubScalarKernel<-1>(Iter, Dtype, other, alpha, "sub_cpu");
}

static void mul_outImpl(TensorIteratorBase &Iter) {
  dispatchDtypes<dtypes::All | dtypes::Bool>(
      Iter.common_dtype(), "mul_cpu", [&](auto Tag) {
        using T = decltype(Tag);
        using M = opmath_type<T>;
        if constexpr (std::is_same_v<T, bool>)
          cpu_kernel(Iter, [](bool X, bool Y) -> bool { return X && Y; });
        else if constexpr (kIsInteger<T>)
          binaryScalarKernel<T>(Iter, [](T X, T Y) { return wrapMul(X, Y); });
        else
          binaryKernel<T>(
              Iter, [](M X, M Y) { return X * Y; },
              [](auto X, auto Y) { return hn::Mul(X, Y); });
      });
}

static void mul_Scalar_outImpl(TensorIteratorBase &Iter, const Tensor &self,
                               const Scalar &other) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  dispatchDtypes<dtypes::All | dtypes::Bool>(Dtype, "mul_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (std::is_same_v<T, bool>) {
      bool C = other.to<bool>();
      cpu_kernel(Iter, [C](bool X) -> bool { return X && C; });
    } else if constexpr (kIsInteger<T>) {
      T C = scalarAs<T>(other);
      unaryScalarKernel<T>(Iter, [C](T X) { return wrapMul(X, C); });
    } else {
      M C = scalarAs<M>(other);
      unaryKernel<T>(
          Iter, [C](M X) { return X * C; },
          [C](auto X) { return hn::Mul(X, splat<decltype(X)>(C)); });
    }
  });
}

/// out = A / B with \p Kind's rounding, over an iterator whose common
/// dtype is the compute dtype.
static void divKernel(TensorIteratorBase &Iter, RoundingKind Kind) {
  ScalarType Dtype = Iter.common_dtype();
  if (Kind == RoundingKind::None) {
    // Integral inputs were promoted to float32 by the float op.
    dispatchDtypes<dtypes::All>(Dtype, "div_true_cpu", [&](auto Tag) {
      using T = decltype(Tag);
      using M = opmath_type<T>;
      if constexpr (!kIsInteger<T>)
        binaryKernel<T>(
            Iter, [](M X, M Y) { return X / Y; },
            [](auto X, auto Y) { return hn::Div(X, Y); });
    });
    return;
  }
  if (Kind == RoundingKind::Trunc) {
    dispatchDtypes<dtypes::All>(Dtype, "div_trunc_cpu", [&](auto Tag) {
      using T = decltype(Tag);
      using M = opmath_type<T>;
      if constexpr (kIsInteger<T>)
        binaryScalarKernel<T>(Iter,
                              [](T X, T Y) { return divTruncInteger(X, Y); });
      else
        binaryKernel<T>(
            Iter, [](M X, M Y) { return std::trunc(X / Y); },
            [](auto X, auto Y) { return hn::Trunc(hn::Div(X, Y)); });
    });
    return;
  }
  dispatchDtypes<dtypes::All>(Dtype, "div_floor_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (kIsInteger<T>)
      binaryScalarKernel<T>(Iter,
                            [](T X, T Y) { return divFloorInteger(X, Y); });
    else
      binaryScalarKernel<T>(Iter,
                            [](M X, M Y) { return divFloorFloating(X, Y); });
  });
}

static void div_outImpl(TensorIteratorBase &Iter) {
  divKernel(Iter, RoundingKind::None);
}

static void div_out_modeImpl(TensorIteratorBase &Iter,
                             std::optional<std::string_view> rounding_mode) {
  divKernel(Iter, parseRoundingMode(rounding_mode));
}

static void div_Scalar_outImpl(TensorIteratorBase &Iter, const Tensor &self,
                               const Scalar &other) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/true);
  dispatchDtypes<dtypes::All>(Dtype, "div_true_cpu", [&](auto Tag) {
    using T = decltype(Tag);
    using M = opmath_type<T>;
    if constexpr (!kIsInteger<T>) {
      M C = scalarAs<M>(other);
      unaryKernel<T>(
          Iter, [C](M X) { return X / C; },
          [C](auto X) { return hn::Div(X, splat<decltype(X)>(C)); });
    }
  });
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {

HWY_EXPORT(add_outImpl);
HWY_EXPORT(sub_outImpl);
HWY_EXPORT(add_Scalar_outImpl);
HWY_EXPORT(sub_Scalar_outImpl);
HWY_EXPORT(mul_outImpl);
HWY_EXPORT(mul_Scalar_outImpl);
HWY_EXPORT(div_outImpl);
HWY_EXPORT(div_out_modeImpl);
HWY_EXPORT(div_Scalar_outImpl);

//===----------------------------------------------------------------------===//
// add, sub
//===----------------------------------------------------------------------===//

SK_META_FUNC(add, Tensor)
(const Tensor &self, const Tensor &other, const Scalar &alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
  checkAlpha(dtype(), alpha);
}

SK_IMPL_FUNC(add_out)
(const Tensor &self, const Tensor &other, const Scalar &alpha,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(add_outImpl)(*this, alpha);
}

SK_META_FUNC(sub, Tensor)
(const Tensor &self, const Tensor &other, const Scalar &alpha) {
  checkSub(self.dtype() == kBool, other.dtype() == kBool);
  build_borrowing_binary_op(maybe_get_output(), self, other);
  checkAlpha(dtype(), alpha);
}

SK_IMPL_FUNC(sub_out)
(const Tensor &self, const Tensor &other, const Scalar &alpha,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(sub_outImpl)(*this, alpha);
}

SK_META_FUNC(add, Scalar)
(const Tensor &self, const Scalar &other, const Scalar &alpha) {
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  TensorIteratorConfig Config;
  build(scalarOpConfig(Config, maybe_get_output(), self, Dtype));
  checkAlpha(dtype(), alpha);
}

SK_IMPL_FUNC(add_Scalar_out)
(const Tensor &self, const Scalar &other, const Scalar &alpha,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(add_Scalar_outImpl)(*this, self, other, alpha);
}

SK_META_FUNC(sub, Scalar)
(const Tensor &self, const Scalar &other, const Scalar &alpha) {
  checkSub(self.dtype() == kBool, other.isBoolean());
  ScalarType Dtype = scalarOpDtype(self, other, /*IntegerToFloat=*/false);
  TensorIteratorConfig Config;
  build(scalarOpConfig(Config, maybe_get_output(), self, Dtype));
  checkAlpha(dtype(), alpha);
}

SK_IMPL_FUNC(sub_Scalar_out)
(const Tensor &self, const Scalar &other, const Scalar &alpha,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(sub_Scalar_outImpl)(*this, self, other, alpha);
}

//===----------------------------------------------------------------------===//
// mul
//===----------------------------------------------------------------------===//

SK_META_FUNC(mul, Tensor)(const Tensor &self, const Tensor &other) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

SK_IMPL_FUNC(mul_out)
(const Tensor &self, const Tensor &other, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(mul_outImpl)(*this);
}

SK_META_FUNC(mul, Scalar)(const Tensor &self, const Scalar &other) {
  TensorIteratorConfig Config;
  build(scalarOpConfig(Config, maybe_get_output(), self,
                       scalarOpDtype(self, other, /*IntegerToFloat=*/false)));
}

SK_IMPL_FUNC(mul_Scalar_out)
(const Tensor &self, const Scalar &other, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(mul_Scalar_outImpl)(*this, self, other);
}

//===----------------------------------------------------------------------===//
// div
//===----------------------------------------------------------------------===//

SK_META_FUNC(div, Tensor)(const Tensor &self, const Tensor &other) {
  build_borrowing_binary_float_op(maybe_get_output(), self, other);
}

SK_IMPL_FUNC(div_out)
(const Tensor &self, const Tensor &other, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(div_outImpl)(*this);
}

SK_META_FUNC(div, Tensor_mode)
(const Tensor &self, const Tensor &other,
 std::optional<std::string_view> rounding_mode) {
  // build_borrowing_binary_float_op for true division, else
  // build_borrowing_binary_op, in one configuration.
  bool TrueDivision = parseRoundingMode(rounding_mode) == RoundingKind::None;
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(true)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .promote_integer_inputs_to_float(TrueDivision)
      .add_output(maybe_get_output())
      .add_input(self)
      .add_input(other);
  build(Config);
}

SK_IMPL_FUNC(div_out_mode)
(const Tensor &self, const Tensor &other,
 std::optional<std::string_view> rounding_mode, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(div_out_modeImpl)(*this, rounding_mode);
}

SK_META_FUNC(div, Scalar)(const Tensor &self, const Scalar &other) {
  TensorIteratorConfig Config;
  build(scalarOpConfig(Config, maybe_get_output(), self,
                       scalarOpDtype(self, other, /*IntegerToFloat=*/true)));
}

SK_IMPL_FUNC(div_Scalar_out)
(const Tensor &self, const Scalar &other, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(div_Scalar_outImpl)(*this, self, other);
}

} // namespace sk
#endif // HWY_ONCE
