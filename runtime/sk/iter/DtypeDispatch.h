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
/// Note [Dtype masks]
/// A group is a mask with bit `1 << int(ScalarType::X)` set for each dtype
/// X in it, so a dispatchDtypes call names its dtypes in its template
/// argument. skc reads that argument from the kernel sources for its
/// coverage report (`skc --coverage-report`), as it reads visitScalarType
/// and dispatchElementSize calls, which serve every dtype; kernels switch
/// on dtypes through these three only, so that the report is complete.
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_DTYPEDISPATCH_H
#define SK_ITER_DTYPEDISPATCH_H

#include "sk/core/Half.h"
#include "sk/core/ScalarType.h"
#include "sk/iter/TypePromotion.h"
#include "sk/util/Analysis.h"
#include "sk/util/Exception.h"

#include <cstdint>
#include <type_traits>

namespace sk {

/// The groups of dtypes a kernel dispatches over (Note [Dtype masks]).
namespace dtypes {
/// The mask of one dtype.
constexpr unsigned of(ScalarType T) { return 1u << static_cast<int>(T); }
/// float, double, float16, bfloat16.
inline constexpr unsigned Floating =
    of(kFloat) | of(kDouble) | of(kHalf) | of(kBFloat16);
/// uint8, int8, int16, int32, int64.
inline constexpr unsigned Integral =
    of(kByte) | of(kChar) | of(kShort) | of(kInt) | of(kLong);
inline constexpr unsigned Bool = of(kBool);
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
SK_DISPATCHES_DTYPES("listed")
void dispatchDtypes(ScalarType Dtype, const char *Name, Fn &&F) {
  switch (Dtype) {
#define SK_DISPATCH_CASE(CppType, Name, PyName)                                \
  case ScalarType::Name:                                                       \
    if constexpr ((Groups & dtypes::of(ScalarType::Name)) != 0)                \
      return F(CppType{});                                                     \
    break;
    SK_FORALL_SCALAR_TYPES(SK_DISPATCH_CASE)
#undef SK_DISPATCH_CASE
  case ScalarType::Undefined:
    break;
  }
  throwDtypeNotImplemented(Name, Dtype);
}

/// Calls \p F with a value of the unsigned integer type as wide as
/// \p Dtype, for kernels that move elements without computing on them
/// (gather, upsample_nearest): one instantiation per element size serves
/// every dtype.
template <typename Fn>
SK_DISPATCHES_DTYPES("all")
decltype(auto) dispatchElementSize(ScalarType Dtype, Fn &&F) {
  switch (elementSize(Dtype)) {
  case 1:
    return F(uint8_t{});
  case 2:
    return F(uint16_t{});
  case 4:
    return F(uint32_t{});
  default:
    SK_INTERNAL_ASSERT(elementSize(Dtype) == 8, "no dtype is ",
                       elementSize(Dtype), " bytes wide");
    return F(uint64_t{});
  }
}

} // namespace sk

#endif // SK_ITER_DTYPEDISPATCH_H
