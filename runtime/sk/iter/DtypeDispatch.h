//===--- DtypeDispatch.h - Kernel bodies by dtype ---------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// dispatchDtypes<Groups>(Dtype, Name, F) calls F with a value of the C++
/// type of \p Dtype when the dtype is in \p Groups, the way PyTorch's
/// AT_DISPATCH_* macros do, and otherwise raises their error:
///
///   dispatchDtypes<dtypes::All | dtypes::Bool>(
///       common_dtype(), "add_cpu", [&](auto Tag) {
///         using T = decltype(Tag);
///         ...
///       });
///
/// `"add_cpu" not implemented for 'Bool'`. Unlike visitScalarType, which
/// visits every dtype, the groups say which dtypes a kernel supports.
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_DTYPEDISPATCH_H
#define SK_ITER_DTYPEDISPATCH_H

#include "sk/core/Half.h"
#include "sk/core/ScalarType.h"
#include "sk/iter/TypePromotion.h"
#include "sk/util/Exception.h"

#include <cstdint>
#include <type_traits>

namespace sk {

/// The groups of dtypes a kernel dispatches over.
namespace dtypes {
/// float, double, float16, bfloat16.
inline constexpr unsigned Floating = 1;
/// uint8, int8, int16, int32, int64.
inline constexpr unsigned Integral = 2;
inline constexpr unsigned Bool = 4;
inline constexpr unsigned All = Floating | Integral;
} // namespace dtypes

/// Integral and not bool.
template <typename T>
constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// PyTorch's AT_DISPATCH error: `"add_cpu" not implemented for 'Bool'`.
[[noreturn]] inline void throwDtypeNotImplemented(const char *Name,
                                                  ScalarType Dtype) {
  SK_CHECK_NOT_IMPLEMENTED(false, "\"", Name, "\" not implemented for '",
                           detail::typeName(Dtype), "'");
  __builtin_unreachable();
}

/// Calls \p F with a value of the C++ type of \p Dtype when it is in
/// \p Groups (dtypes::...); else throwDtypeNotImplemented(\p Name).
template <unsigned Groups, typename Fn>
void dispatchDtypes(ScalarType Dtype, const char *Name, Fn &&F) {
  constexpr bool WithFloating = Groups & dtypes::Floating;
  constexpr bool WithIntegral = Groups & dtypes::Integral;
  constexpr bool WithBool = Groups & dtypes::Bool;
  switch (Dtype) {
  case kBool:
    if constexpr (WithBool)
      return F(bool{});
    break;
  case kByte:
    if constexpr (WithIntegral)
      return F(uint8_t{});
    break;
  case kChar:
    if constexpr (WithIntegral)
      return F(int8_t{});
    break;
  case kShort:
    if constexpr (WithIntegral)
      return F(int16_t{});
    break;
  case kInt:
    if constexpr (WithIntegral)
      return F(int32_t{});
    break;
  case kLong:
    if constexpr (WithIntegral)
      return F(int64_t{});
    break;
  case kHalf:
    if constexpr (WithFloating)
      return F(Half{});
    break;
  case kBFloat16:
    if constexpr (WithFloating)
      return F(BFloat16{});
    break;
  case kFloat:
    if constexpr (WithFloating)
      return F(float{});
    break;
  case kDouble:
    if constexpr (WithFloating)
      return F(double{});
    break;
  default:
    break;
  }
  throwDtypeNotImplemented(Name, Dtype);
}

} // namespace sk

#endif // SK_ITER_DTYPEDISPATCH_H
