//===--- Convert.h - Element conversions between dtypes ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How one element of one dtype becomes an element of another (copy_, to,
/// arange) and how a Scalar becomes an element (fill_, full).
///
/// Note [Defined element conversions]
/// C++ leaves a floating-point value that does not fit the target integer
/// type undefined. PyTorch inherits whatever the CPU does; x86 truncates
/// through a 32- or 64-bit integer. Here every conversion is defined:
///  - to bool: nonzero (NaN included) is true;
///  - float to integer: truncate toward zero into int64, then wrap modulo
///    2^N into the narrower type (so -1.0 -> uint8 is 255, as on PyTorch);
///    NaN and values outside int64 become INT64_MIN before wrapping (x86's
///    "integer indefinite");
///  - integer to integer: wrap modulo 2^N;
///  - to float16/bfloat16: through float, rounding to nearest even (so a
///    double rounds twice, as c10::Half(double) does);
///  - from float16/bfloat16: exactly, through float.
///
//===----------------------------------------------------------------------===//

#ifndef SK_OPS_CONVERT_H
#define SK_OPS_CONVERT_H

#include "sk/core/Scalar.h"
#include "sk/util/HostDevice.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace sk {
namespace detail {

template <typename T>
constexpr bool IsReducedFloat =
    std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

/// Truncates toward zero; NaN and out-of-range values give INT64_MIN.
template <typename F> SK_HOST_DEVICE inline int64_t floatToInt64(F V) {
  // 2^63 is exact in float and double; -2^63 too.
  constexpr F Limit = static_cast<F>(9223372036854775808.0);
  if (V >= -Limit && V < Limit)
    return static_cast<int64_t>(V);
  return INT64_MIN;
}

/// Converts one element as Note [Defined element conversions] says, on the
/// host and, for the CUDA kernels, on the device.
template <typename To, typename From>
SK_HOST_DEVICE inline To convertElement(From V) {
  if constexpr (std::is_same_v<To, From>) {
    return V;
  } else if constexpr (IsReducedFloat<From>) {
    return convertElement<To>(static_cast<float>(V));
  } else if constexpr (std::is_same_v<To, bool>) {
    return V != From(0);
  } else if constexpr (IsReducedFloat<To>) {
    return To(static_cast<float>(V));
  } else if constexpr (std::is_integral_v<To> &&
                       std::is_floating_point_v<From>) {
    return static_cast<To>(floatToInt64(V));
  } else {
    return static_cast<To>(V);
  }
}

[[noreturn]] void scalarDoesNotFit(const char *Op, const Scalar &S,
                                   ScalarType To);

/// The value of \p S as an element of type \p T, or an error naming \p Op
/// when it overflows T (c10::checked_convert): fractions truncate into
/// integers, but 1000 does not fit int8 and 1e6 does not fit float16.
/// Infinities and NaN fit floating types; anything fits bool.
template <typename T> T scalarToElement(const Scalar &S, const char *Op) {
  if constexpr (std::is_same_v<T, bool>) {
    return S.toBool();
  } else if constexpr (std::is_integral_v<T>) {
    if (S.isFloatingPoint()) {
      double D = S.toDouble();
      // The upper bound is exclusive for int64, whose max rounds up to 2^63
      // as a double.
      bool Fits =
          D >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
          (std::is_same_v<T, int64_t>
               ? D < 9223372036854775808.0
               : D <= static_cast<double>(std::numeric_limits<T>::max()));
      if (!Fits)
        scalarDoesNotFit(Op, S, scalarTypeOf<T>());
      return static_cast<T>(D);
    }
    int64_t I = S.toUnchecked<int64_t>();
    if constexpr (!std::is_same_v<T, int64_t>) {
      if (I < static_cast<int64_t>(std::numeric_limits<T>::lowest()) ||
          I > static_cast<int64_t>(std::numeric_limits<T>::max()))
        scalarDoesNotFit(Op, S, scalarTypeOf<T>());
    }
    return static_cast<T>(I);
  } else {
    double D = S.toDouble();
    double Max;
    if constexpr (std::is_same_v<T, Half>)
      Max = 65504.0;
    else if constexpr (std::is_same_v<T, BFloat16>)
      Max = 3.38953138925153547590470800371487866880e38;
    else
      Max = static_cast<double>(std::numeric_limits<T>::max());
    if (std::isfinite(D) && std::fabs(D) > Max)
      scalarDoesNotFit(Op, S, scalarTypeOf<T>());
    if constexpr (IsReducedFloat<T>)
      return T(static_cast<float>(D));
    else
      return static_cast<T>(D);
  }
}

} // namespace detail
} // namespace sk

#endif // SK_OPS_CONVERT_H
